"""The arena's statistics and a tiny duplicate pairing."""

from __future__ import annotations

from tools.arena import play_pairing, report, wilson


def test_wilson_interval() -> None:
    low, high = wilson(20, 20)
    assert 0.8 < low < 0.85 and high == 1.0
    low, high = wilson(10, 20)
    assert low < 0.5 < high and abs((low + high) / 2 - 0.5) < 1e-9


def test_duplicate_pairing_swaps_teams() -> None:
    a, b = play_pairing("normal", "easy", 2, max_deals=1, progress=False)
    assert a.games_won + b.games_won == 2
    assert len(a.deal_points) == len(b.deal_points) == 2
    assert a.decision_ms and b.decision_ms
    text = report((a, b), 2, 0.1)
    assert "normal won" in text and "p99" in text


def test_six_player_pairing() -> None:
    a, b = play_pairing("normal", "easy", 2, max_deals=1, progress=False, players=6)
    assert a.games_won + b.games_won == 2
    assert len(a.deal_points) == len(b.deal_points) == 2
    text = report((a, b), 2, 0.1, players=6)
    assert "6 players" in text and "triple victories" in text

"""Pictures draw names as written (issue 51): a hostile name (markdown, mentions, links,
zero-width and bidirectional control characters, a 32-character nickname, emoji only)
is drawn without crashing, and the characters that show nothing take no room: a name
measures and is cut exactly as its visible characters."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import render
from bot.render import examples as ex
from bot.render.draw import drawn, fit, fit_size, text_width
from bot.render.ratings import BoardLine, render_leaderboard
from bot.render.trick import render_score_grid, render_trick_table

HOSTILE = (
    "@everyone [Free Nitro](https://evil.example)",
    "# Hedda **Brave** `Tick`",
    "> Quinn <@&123456789012345678>",
    "\u202eRolf\u200b @here \u2066Zoë\u2069",
    "~~Strike~~||Spoil||__Under__ 32c",
    "🃏🔥",
    "דוד המלך",
    "\u2068\u2067\u200f\u200e\u061c\ufeff",
)
"""Names as the hostile-name test of the bot has them, and one of nothing but controls."""
CONTROLS = "\u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200b\u200c\u200d\u200e" \
           "\u200f\u061c\u2060\ufeff\u00ad"


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_takes_the_room_of_what_it_shows(name: str) -> None:
    visible = "".join(c for c in name if c not in CONTROLS)
    assert drawn(name) == visible
    assert text_width(name, 30, "bold") == text_width(visible, 30, "bold")
    assert fit(name, 120, 30) == fit(visible, 120, 30)
    assert fit_size(name, 120, 30, "bold", 18) == fit_size(visible, 120, 30, "bold", 18)
    assert not set(CONTROLS) & set(fit(name, 60, 30))


def names(count: int, start: int = 0) -> list[str]:
    return [HOSTILE[(start + i) % len(HOSTILE)] for i in range(count)]


@pytest.mark.parametrize("start", range(0, len(HOSTILE), 4))
def test_every_picture_draws_hostile_names(start: int) -> None:
    four, six = names(4, start), names(6, start)
    assert render.render_table(ex.table_view(), four)
    assert render.render_table(ex.six_table_view(), six)
    left, partner, right = ex.EXCHANGE_CHOICE
    assert render.render_exchange(ex.exchange_view(), left, partner, right, four)
    assert render.render_deal_summary(ex.deal_over_view(), four)
    assert render.render_game_over(ex.game_over_view(), four)
    assert render.render_game_over(ex.six_game_over_view(), six)
    seats = [replace(seat, name=name) for seat, name in zip(ex.trick_seats(), four,
                                                            strict=False)]
    assert render_trick_table(seats, [], leader=0, header=four[0], footer=four[1])
    assert render_score_grid(["#", *four], [["1", "1", "2", "3", "4"]], title=four[2])
    lines = [BoardLine(i + 1, name, 20.0 - i, 3, 0.5) for i, name in enumerate(six)]
    assert render_leaderboard(["#", "Name", "Rating", "Games", "Win"], lines, None)

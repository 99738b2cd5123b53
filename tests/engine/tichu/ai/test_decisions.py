"""Key decisions of the heuristics on fixed positions."""

from __future__ import annotations

import random

import pytest

from engine.cards import parse_card
from engine.tichu.actions import (
    CallTichu,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.ai import make_player
from engine.tichu.ai.knowledge import knowledge_of
from engine.tichu.ai.normal import NormalPlayer
from engine.tichu.ai.searcher import SearchPlayer
from engine.tichu.ai.tactics import choose_wish
from engine.tichu.cards import DOG, DRAGON, RANK
from engine.tichu.game import TichuGame
from engine.tichu.legal import legal_plays
from engine.tichu.view import Phase
from tests.engine.tichu.ai.tables import cards, exchange_game, view_of

RNG = random.Random(0)


def players() -> list[NormalPlayer]:
    """The heuristics, and the search on them with a small fixed sample count (no clock)."""
    return [NormalPlayer(), SearchPlayer(budget_ms=None, max_samples=6)]


def act(player: NormalPlayer, view_args: dict[str, object], hand: str) -> object:
    return player.act(view_of(hand, **view_args), random.Random(1))  # type: ignore[arg-type]


# ------------------------------------------------------------------ partner
@pytest.mark.parametrize("player", players(), ids=["normal", "search"])
def test_does_not_bomb_partners_ace_when_partner_called(player: NormalPlayer) -> None:
    hand = "7c 7d 7h 7s 3c 4d 9h"
    on_turn = dict(trick=[(2, "Ah")], turn=0, calls={2: "tichu"}, counts=(7, 10, 9, 10),
                   passed=(False, False, False, True))
    assert act(player, on_turn, hand) == Pass(0)
    out_of_turn = dict(on_turn, turn=3, passed=(False, False, False, False))
    assert act(player, out_of_turn, hand) is None


def test_does_not_overtake_partner_with_a_plain_card() -> None:
    view = dict(trick=[(2, "9c")], turn=0, counts=(6, 10, 9, 10), passed=(False,) * 3 + (True,))
    assert act(NormalPlayer(), view, "Jc 3d 5h 8s Kd Qc") == Pass(0)


def test_leads_the_dog_to_a_partner_who_called() -> None:
    view = dict(calls={2: "tichu"}, counts=(5, 10, 9, 10))
    for player in players():
        assert act(player, view, "DOG 3c 5d 9h Kc") == Play(0, (cards("DOG")[0],))


def test_leads_a_low_single_to_a_partner_with_one_card() -> None:
    action = act(NormalPlayer(), dict(counts=(6, 8, 1, 9)), "3c 8d 8h Jc Qd Ks")
    assert action == Play(0, cards("3c"))


# -------------------------------------------------------------- opponents
@pytest.mark.parametrize("player", players(), ids=["normal", "search"])
def test_bombs_an_opponent_about_to_go_out(player: NormalPlayer) -> None:
    hand = "5c 5d 5h 5s 3c 9d Jh Qs"
    out_of_turn = dict(trick=[(1, "Kc Kd")], turn=2, counts=(8, 1, 9, 10))
    action = act(player, out_of_turn, hand)
    assert action == Play(0, cards("5c 5d 5h 5s"))


def test_keeps_the_bomb_when_nobody_is_close_to_out() -> None:
    hand = "5c 5d 5h 5s 3c 9d Jh Qs"
    view = dict(trick=[(1, "Kc Kd")], turn=2, counts=(8, 10, 9, 10))
    assert act(NormalPlayer(), view, hand) is None


def test_does_not_lead_a_single_into_an_opponent_with_one_card() -> None:
    action = act(NormalPlayer(), dict(counts=(5, 1, 9, 10)), "3c 4d 4h 8c 9s")
    assert isinstance(action, Play) and len(action.cards) >= 2


def test_leads_the_winner_first_when_one_loser_is_left() -> None:
    action = act(NormalPlayer(), dict(counts=(2, 6, 9, 10)), "DRAGON 3c")
    assert action == Play(0, (cards("DRAGON")[0],))


# -------------------------------------------------------------- the wish
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_plays_the_wished_rank_when_bound(level: str) -> None:
    view = view_of("7c 9d Kh As 3c", trick=[(3, "MAHJONG")], wish=9, counts=(5, 10, 9, 13))
    action = make_player(level).act(view, random.Random(2))
    assert isinstance(action, Play)
    assert any(RANK[c] == 9 for c in action.cards) or len(action.cards) >= 4


def test_wishes_for_the_card_given_to_the_next_opponent() -> None:
    view = view_of("MAHJONG 3c 9d Kh", given={1: "7h", 2: "Ac", 3: "2s"}, counts=(4, 10, 9, 10))
    know = knowledge_of(view)
    assert choose_wish(view, know) == 7


# -------------------------------------------------------------- the Dragon
def test_gives_the_dragon_trick_to_the_opponent_with_more_cards() -> None:
    view = view_of("3c 4d", phase=Phase.GIFT, counts=(2, 3, 8, 9))
    assert NormalPlayer().act(view, RNG) == Gift(0, 3)


def test_gives_the_dragon_trick_away_from_a_caller_close_in_cards() -> None:
    view = view_of("3c 4d", phase=Phase.GIFT, counts=(2, 5, 8, 6), calls={3: "tichu"})
    assert NormalPlayer().act(view, RNG) == Gift(0, 1)


# ------------------------------------------------------------------ calls
STRONG = "DRAGON Ac Ad Ah Kc Kd Ks Qc Jd Th 9s 8c 7d 6h"
WEAK = "2c 3d 4h 6s 7c 8d 9h Jc Qd Ks 5d DOG Tc 2h"


def test_calls_tichu_with_a_very_strong_hand() -> None:
    view = view_of(STRONG, has_played=(False,) * 4)
    for player in players():
        assert player.act(view, RNG) == CallTichu(0)


def test_does_not_call_tichu_with_a_weak_hand() -> None:
    view = view_of(WEAK, has_played=(False,) * 4)
    assert isinstance(NormalPlayer().act(view, RNG), Play)


def test_does_not_call_when_the_partner_did() -> None:
    view = view_of(STRONG, has_played=(False,) * 4, calls={2: "tichu"})
    assert isinstance(NormalPlayer().act(view, RNG), Play)


def test_grand_tichu_on_top_cards_only() -> None:
    game = TichuGame(hands=[list(cards(h)) for h in (
        "DRAGON PHOENIX Ac Ad Ah Kc 2c 3d 4h 5s 6c 7d 8h 9s",
        "2d 3h 4s 5c 6d 7h 8s 9c Tc Td Th Ts Jc Jd",
        "2h 3s 4c 5d 6h 7s 8c 9d Jh Js Qc Qd Qh Qs",
        "2s 3c 4d 5h 6s 7c 8d 9h Kd Kh Ks As MAHJONG DOG",
    )])
    player = NormalPlayer()
    assert player.act(game.view(0), RNG) == GrandTichu(0)
    assert player.act(game.view(1), RNG) == DeclineGrand(1)


# --------------------------------------------------------------- exchange
def _exchange(hand: str) -> tuple[Exchange, dict[int, int]]:
    game = exchange_game([hand])
    action = NormalPlayer().act(game.view(0), RNG)
    assert isinstance(action, Exchange)
    assert game.can(action)
    return action, {t: int(c) for t, c in action.give}


def test_passes_low_singles_to_opponents_and_a_good_card_to_partner() -> None:
    hand = "2c 4d 6h 6s 8c 8d 9h Th Jh Qc Kd Ac PHOENIX 5h"
    _, give = _exchange(hand)
    assert {RANK[give[1]], RANK[give[3]]} <= {2, 4, 5}
    assert give[2] == parse_card("PHOENIX") or RANK[give[2]] >= 13
    # Odd low left: the odd rank (5) to the next seat when the other is even.
    if {RANK[give[1]], RANK[give[3]]} == {2, 5} or {RANK[give[1]], RANK[give[3]]} == {4, 5}:
        assert RANK[give[1]] == 5


def test_keeps_bombs_whole_in_the_exchange() -> None:
    hand = "3c 3d 3h 3s 4h 5h 6h 7h 8h 2c 9d Jc Kd Ah"
    _, give = _exchange(hand)
    kept = set(cards("3c 3d 3h 3s 4h 5h 6h 7h 8h"))
    assert not kept & set(give.values())


def test_gives_the_dog_to_an_opponent_who_called_grand() -> None:
    hand = "2c 4d 6h 6s 8c 8d 9h Th Jh Qc Kd Ac PHOENIX DOG"
    game = exchange_game([hand], grand=(3,))
    action = NormalPlayer().act(game.view(0), RNG)
    assert isinstance(action, Exchange)
    assert dict(action.give)[3] == DOG


def test_calls_before_the_exchange_only_with_a_great_hand() -> None:
    great = "DRAGON PHOENIX Ac Ad Ah As Kc Kd Ks Qc Jd Th 9s 8c"
    game = exchange_game([great])
    player = NormalPlayer()
    assert player.act(game.view(0), RNG) == CallTichu(0)
    game.apply(CallTichu(0))
    assert isinstance(player.act(game.view(0), RNG), Exchange)
    assert DRAGON not in {int(c) for c in game.view(0).given.values()}


def test_legal_plays_are_what_the_fixtures_say() -> None:
    # The view builder reads tricks the way the engine does.
    view = view_of("7c 9d", trick=[(3, "MAHJONG")], wish=9, counts=(2, 10, 9, 13))
    assert [c.cards for c in legal_plays(view)] == [cards("9d")]

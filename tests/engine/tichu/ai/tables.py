"""Build views and games for the computer players' tests.

Players read only a :class:`TichuView`, so most positions are views made
directly: any hand sizes, calls and open trick, with nothing else to set up.
"""

from __future__ import annotations

from engine.cards import Card, parse_card, parse_cards
from engine.tichu.actions import DeclineGrand, GrandTichu
from engine.tichu.combos import best_reading
from engine.tichu.game import TichuGame
from engine.tichu.view import Call, Phase, TichuView, TrickPlay
from tests.engine.tichu.helpers import fill_hands

CALLS = {"tichu": Call.TICHU, "grand": Call.GRAND_TICHU}


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split())) if text.strip() else ()


def view_of(hand: str, *, seat: int = 0, counts: tuple[int, ...] | None = None,
            trick: list[tuple[int, str]] | None = None, turn: int | None = None,
            calls: dict[int, str] | None = None, has_played: tuple[bool, ...] | None = None,
            given: dict[int, str] | None = None, wish: int | None = None,
            passed: tuple[bool, ...] = (False,) * 4, out: tuple[int, ...] = (),
            phase: Phase = Phase.PLAY) -> TichuView:
    """A play-phase view for ``seat`` holding ``hand``; others hold ``counts``."""
    own = cards(hand)
    n = list(counts) if counts is not None else [14, 14, 14, 14]
    n[seat] = len(own)
    plays: list[TrickPlay] = []
    for s, text in trick or []:
        combo = best_reading(cards(text), plays[-1].combo if plays else None)
        assert combo is not None, text
        plays.append(TrickPlay(s, combo))
    call_list: list[Call | None] = [None] * 4
    for s, c in (calls or {}).items():
        call_list[s] = CALLS[c]
    return TichuView(
        seat=seat, n_seats=4, phase=phase, deal_number=0,
        turn=seat if turn is None else turn, hand=own, hand_counts=tuple(n),
        grand_decided=(True,) * 4, calls=tuple(call_list),
        has_played=has_played if has_played is not None else tuple(x < 14 for x in n),
        exchanged=(True,) * 4,
        given={t: parse_card(c) for t, c in (given or {}).items()},
        received={}, trick=tuple(plays), passed=passed, wish=wish, out=out,
        trick_points=(0, 0, 0, 0), scores=(0, 0), target=1000, history=(), winner=None,
        bombs_played=(0, 0, 0, 0),
    )


def exchange_game(hands: list[str], grand: tuple[int, ...] = ()) -> TichuGame:
    """A game in phase exchange, seat s dealt ``hands[s]`` completed to 14 cards
    from the rest of the deck (fixed shuffle)."""
    dealt = fill_hands(hands + [""] * (4 - len(hands)))
    game = TichuGame(hands=dealt)
    for s in range(4):
        game.apply(GrandTichu(s) if s in grand else DeclineGrand(s))
    return game

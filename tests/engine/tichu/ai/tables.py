"""Build views and games for the computer players' tests.

Players read only a :class:`TichuView`, so most positions are views made
directly: any hand sizes, calls and open trick, with nothing else to set up.
"""

from __future__ import annotations

from engine.cards import Card, parse_card, parse_cards
from engine.tichu.actions import DeclineGrand, GrandTichu
from engine.tichu.combos import best_reading
from engine.tichu.game import TichuGame, hand_sizes
from engine.tichu.view import Call, Phase, TichuView, TrickPlay
from tests.engine.tichu.helpers import fill_hands

CALLS = {"tichu": Call.TICHU, "grand": Call.GRAND_TICHU}


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split())) if text.strip() else ()


def view_of(hand: str, *, seat: int = 0, counts: tuple[int, ...] | None = None,
            trick: list[tuple[int, str]] | None = None, turn: int | None = None,
            calls: dict[int, str] | None = None, has_played: tuple[bool, ...] | None = None,
            given: dict[int, str] | None = None, wish: int | None = None,
            passed: tuple[bool, ...] | None = None, out: tuple[int, ...] = (),
            phase: Phase = Phase.PLAY, played: dict[int, str] | None = None,
            wish_voids: dict[int, set[int]] | None = None) -> TichuView:
    """A play-phase view for ``seat`` holding ``hand``; others hold ``counts``.

    The cards played in the deal are the trick's, and ``played`` (seat -> cards) before it.
    ``wish_voids``: seat -> the wished ranks it showed it lacks.

    Six ``counts`` make a six-player view (seat 5 dealt, so seats 0 and 1 had 10).
    """
    own = cards(hand)
    seats = len(counts) if counts is not None else 4
    dealer = 5 if seats == 6 else None
    full = hand_sizes(seats, dealer)
    n = list(counts) if counts is not None else list(full)
    n[seat] = len(own)
    plays: list[TrickPlay] = []
    for s, text in trick or []:
        combo = best_reading(cards(text), plays[-1].combo if plays else None)
        assert combo is not None, text
        plays.append(TrickPlay(s, combo))
    by_seat: list[list[Card]] = [list(cards(t)) for t in
                                 (((played or {}).get(s, "")) for s in range(seats))]
    for p in plays:
        by_seat[p.seat].extend(p.combo.cards)
    call_list: list[Call | None] = [None] * seats
    for s, c in (calls or {}).items():
        call_list[s] = CALLS[c]
    return TichuView(
        seat=seat, n_seats=seats, phase=phase, deal_number=0,
        turn=seat if turn is None else turn, hand=own, hand_counts=tuple(n),
        grand_decided=(True,) * seats, calls=tuple(call_list),
        has_played=has_played if has_played is not None else tuple(
            x < f for x, f in zip(n, full, strict=True)),
        exchanged=(True,) * seats,
        given={t: parse_card(c) for t, c in (given or {}).items()},
        received={}, trick=tuple(plays), passed=passed or (False,) * seats, wish=wish, out=out,
        trick_points=(0,) * seats, scores=(0, 0), target=1000, history=(), winner=None,
        bombs_played=(0,) * seats, dealer=dealer, grand_packet=8 if seats == 4 else 6,
        played=tuple(map(tuple, by_seat)),
        wish_voids=tuple(frozenset((wish_voids or {}).get(s, ())) for s in range(seats)),
    )


def exchange_game(hands: list[str], grand: tuple[int, ...] = (), players: int = 4) -> TichuGame:
    """A game in phase exchange, seat s dealt ``hands[s]`` completed to a full hand
    from the rest of the deck (fixed shuffle); six players with seat 5 dealing."""
    dealer = 5 if players == 6 else None
    dealt = fill_hands(hands + [""] * (players - len(hands)), hand_sizes(players, dealer))
    game = TichuGame(hands=dealt, players=players, dealer=dealer)
    for s in range(players):
        game.apply(GrandTichu(s) if s in grand else DeclineGrand(s))
    return game

"""Tichu's images in words: the description (alt text) sent with each picture, which a
screen reader reads to a person who cannot see it.

Each says what its picture shows, in the reader's language, the most important first
(:func:`bot.games.shared.alt_text` keeps it within Discord's 1,024 characters):

- :func:`table_alt`: the public table, from the public view only (never a hand);
- :func:`hand_alt`, :func:`exchange_alt`: a seat's own hand, and its exchange picks;
- :func:`deal_summary_alt`, :func:`game_over_alt`: a finished deal, a finished game.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.games.shared import (
    ALT_LIMIT,
    Part,
    alt_text,
    cards_said,
    count_cards,
    listing,
    place_said,
    plus,
    signed,
)
from bot.i18n import t
from bot.i18n.names import combo_name, rank_name
from bot.render import find_bombs, sorted_hand
from engine.cards import Card
from engine.tichu.cards import POINTS
from engine.tichu.combos import Combo, readings
from engine.tichu.view import Call, DealResult, Phase, TichuView, TrickPlay

TEAM_KEYS = ("team.0", "team.1")
CALL_KEYS = {Call.TICHU: "alt.tichu.tichu", Call.GRAND_TICHU: "alt.tichu.grand_tichu"}
CALL_VALUES = {Call.TICHU: 100, Call.GRAND_TICHU: 200}
SIDE_KEYS = {
    "left": "alt.tichu.side.left", "partner": "alt.tichu.side.partner",
    "right": "alt.tichu.side.right", "left_partner": "alt.tichu.side.left_partner",
    "right_partner": "alt.tichu.side.right_partner",
}
"""The seats a card goes to in the exchange, by slot (see ``hand.EXCHANGE_SLOTS``)."""
SLOTS = {3: ("left", "partner", "right"), 2: ("left_partner", "right_partner")}


# ------------------------------------------------------------------ pieces
def name_of(names: Sequence[str], seat: int) -> str:
    """A seat's name as the pictures write it (a blank one as ``#3``)."""
    if 0 <= seat < len(names) and names[seat].strip():
        return names[seat].strip()
    return f"#{seat + 1}"


def team_said(locale: str, view: TichuView, names: Sequence[str], team: int) -> str:
    """``Team A (Alice and Chloé)``."""
    members = [name_of(names, s) for s in range(view.n_seats) if s % 2 == team]
    return t(locale, "alt.tichu.team", team=t(locale, TEAM_KEYS[team]),
             names=listing(locale, members))


def teams_scores(locale: str, scores: Sequence[int], *, sign: bool = False) -> str:
    """``Team A 120, Team B −20`` (``sign``: ``+120``, for a deal's score)."""
    return ", ".join(
        f"{t(locale, TEAM_KEYS[team])} {plus(points) if sign else signed(points)}"
        for team, points in enumerate(scores[:2]))


def play_said(locale: str, play: TrickPlay, names: Sequence[str], *, cards: bool) -> str:
    """``Chloé played Pair of Kings (K♥, Phoenix)``; ``cards`` False: without the cards."""
    combo = play.combo
    key = "alt.tichu.played_cards" if cards and len(combo.cards) > 1 else "alt.tichu.played"
    text = t(locale, key, name=name_of(names, play.seat), combo=combo_name(locale, combo),
             cards=cards_said(locale, combo.cards))
    if combo.phoenix is not None and len(combo.cards) > 1:
        text += " " + t(locale, "alt.tichu.phoenix_as", rank=rank_name(locale, combo.phoenix))
    if play.out_of_turn:
        text += " " + t(locale, "alt.tichu.out_of_turn")
    return text


def trick_points(plays: Sequence[TrickPlay]) -> int:
    return sum(POINTS[c] for play in plays for c in play.combo.cards)


def status_said(view: TichuView, names: Sequence[str], locale: str) -> str:
    """What the table waits for: whose turn it is, or who must still decide."""
    n = view.n_seats
    phase = view.phase
    if phase is Phase.GRAND:
        waiting = [name_of(names, s) for s in range(n) if not view.grand_decided[s]]
        return t(locale, "alt.tichu.grand", done=n - len(waiting), total=n,
                 names=listing(locale, waiting))
    if phase is Phase.EXCHANGE:
        waiting = [name_of(names, s) for s in range(n) if not view.exchanged[s]]
        return t(locale, "alt.tichu.exchange", done=n - len(waiting), total=n,
                 names=listing(locale, waiting))
    if phase is Phase.GIFT and view.turn is not None:
        return t(locale, "alt.tichu.gift", name=name_of(names, view.turn))
    if phase is Phase.PLAY and view.turn is not None:
        key = "alt.tichu.turn" if view.trick else "alt.tichu.lead"
        return t(locale, key, name=name_of(names, view.turn))
    if phase is Phase.GAME_OVER:
        if view.winner is None:
            return t(locale, "alt.tichu.game_over")
        return t(locale, "alt.tichu.game_won", team=team_said(locale, view, names, view.winner))
    return t(locale, "alt.tichu.deal_over", number=view.deal_number + 1)


def seat_said(view: TichuView, seat: int, names: Sequence[str], locale: str) -> Part:
    """One seat: its name and team, its cards or its place out, its call; then (given
    up first) passed, its decision of the phase, the points of the tricks it took."""
    held: list[str] = []
    if seat in view.out:
        held.append(t(locale, "alt.tichu.out", place=place_said(locale, view.out.index(seat) + 1)))
    else:
        held.append(count_cards(locale, view.hand_counts[seat]))
    call = view.calls[seat] if seat < len(view.calls) else None
    if call is not None:
        held.append(t(locale, "alt.tichu.called", call=t(locale, CALL_KEYS[call])))
    more: list[str] = []
    phase = view.phase
    if phase is Phase.GRAND:
        more.append(t(locale, "alt.tichu.decided" if view.grand_decided[seat]
                      else "alt.tichu.deciding"))
    elif phase is Phase.EXCHANGE:
        more.append(t(locale, "alt.tichu.gave" if view.exchanged[seat]
                      else "alt.tichu.choosing"))
    elif phase is Phase.PLAY and seat not in view.out and view.passed[seat]:
        more.append(t(locale, "alt.tichu.passed"))
    points = view.trick_points[seat] if seat < len(view.trick_points) else 0
    if points and phase in (Phase.PLAY, Phase.GIFT):
        more.append(t(locale, "alt.tichu.points_taken", points=signed(points)))

    def said(state: list[str]) -> str:
        return t(locale, "alt.tichu.seat", name=name_of(names, seat),
                 team=t(locale, TEAM_KEYS[seat % 2]), state=", ".join(state))

    return Part(said(held + more), 0, said(held) if more else None)


# ------------------------------------------------------------------ the table
def table_alt(view: TichuView, names: Sequence[str], locale: str, *,
              boards: int | None = None, limit: int = ALT_LIMIT) -> str:
    """The public table in words: what it waits for, the play on top, the wish, every
    seat, the scores; then the deal, the last deal's scores, the rest of the trick and
    the last trick taken. Reads only public fields: a seat's view is refused, and its
    ``hand``, ``given`` and ``received`` are never touched."""
    if view.seat is not None:
        raise ValueError("the table's description is public: pass the public view (seat None)")
    parts: list[Part | str] = [status_said(view, names, locale)]
    trick = view.trick
    if trick:
        top = trick[-1]
        parts.append(Part(t(locale, "alt.tichu.top", play=play_said(locale, top, names,
                                                                     cards=True)),
                          0, t(locale, "alt.tichu.top", play=play_said(locale, top, names,
                                                                        cards=False))))
    if view.wish is not None:
        parts.append(t(locale, "alt.tichu.wish", rank=rank_name(locale, view.wish)))
    parts += [seat_said(view, seat, names, locale) for seat in range(view.n_seats)]
    parts.append(t(locale, "alt.tichu.score", scores=teams_scores(locale, view.scores)))
    if boards is not None:
        parts.append(Part(t(locale, "alt.tichu.board", number=view.deal_number + 1,
                            boards=boards), 2))
    else:
        parts.append(Part(t(locale, "alt.tichu.deal", number=view.deal_number + 1,
                            target=view.target), 2))
    last = view.last_deal
    if last is not None:
        parts.append(Part(t(locale, "alt.tichu.last_deal", number=last.number + 1,
                            scores=teams_scores(locale, last.scores, sign=True)), 3))
    if len(trick) > 1:
        earlier = "; ".join(play_said(locale, p, names, cards=False) for p in trick[:-1])
        parts.append(Part(t(locale, "alt.tichu.earlier", plays=earlier), 4))
    if trick and trick_points(trick):
        parts.append(Part(t(locale, "alt.tichu.trick_points",
                            points=signed(trick_points(trick))), 4))
    if view.last_trick:
        taker = view.last_trick_taker if view.last_trick_taker is not None \
            else view.last_trick[-1].seat
        parts.append(Part(t(locale, "alt.tichu.last_trick", name=name_of(names, taker),
                            combo=combo_name(locale, view.last_trick[-1].combo),
                            points=signed(trick_points(view.last_trick))), 5))
    return alt_text(parts, limit)


# ------------------------------------------------------------------ the hand
def bomb_name(locale: str, cards: Collection[Card]) -> str:
    found: list[Combo] = [r for r in readings(tuple(cards)) if r.is_bomb]
    return combo_name(locale, found[0]) if found else cards_said(locale, sorted_hand(list(cards)))


def hand_alt(view: TichuView, names: Sequence[str], locale: str, *,
             selected: Collection[Card] = (), limit: int = ALT_LIMIT) -> str:
    """A seat's hand in words, for its owner only: its cards in the picture's order (only
    the first ones before its Grand Tichu decision), its call, the cards it received in
    the exchange and from whom, the cards picked to give, its bombs."""
    seat = view.seat
    if seat is None:
        raise ValueError("a hand's description needs a seat's view")
    cards = sorted_hand(view.hand)
    if not cards:
        parts: list[Part | str] = [t(locale, "alt.tichu.hand_empty")]
    elif view.phase is Phase.GRAND and not view.grand_decided[seat]:
        parts = [t(locale, "alt.tichu.hand_first", count=count_cards(locale, len(cards)),
                   cards=cards_said(locale, cards))]
    else:
        parts = [t(locale, "alt.tichu.hand", count=count_cards(locale, len(cards)),
                   cards=cards_said(locale, cards))]
    call = view.calls[seat] if seat < len(view.calls) else None
    if call is not None:
        parts.append(Part(t(locale, "alt.tichu.you_called",
                            call=t(locale, CALL_KEYS[call])), 1))
    chosen = [c for c in cards if c in set(selected)]
    if chosen:
        parts.append(Part(t(locale, "alt.tichu.picked", cards=cards_said(locale, chosen)), 1))
    if view.received:
        got = [t(locale, "alt.tichu.from", card=cards_said(locale, [card]),
                 name=name_of(names, giver))
               for giver, card in sorted(view.received.items(),
                                         key=lambda item: (item[0] - seat) % view.n_seats)]
        parts.append(Part(t(locale, "alt.tichu.received", cards=", ".join(got)), 1))
    bombs = find_bombs(cards)
    if bombs:
        parts.append(Part(t(locale, "alt.tichu.bombs",
                            bombs="; ".join(bomb_name(locale, b.cards) for b in bombs)), 2))
    return alt_text(parts, limit)


HAND_SHARE = 440
"""The characters a position's description (:func:`position_alt`) keeps for the hand."""


def position_alt(public: TichuView, own: TichuView, names: Sequence[str], locale: str, *,
                 selected: Collection[Card] = (), boards: int | None = None) -> str:
    """The picture of a position (the table with the seat's hand under it) in words: the
    hand first, then the table, within Discord's limit together."""
    hand = hand_alt(own, names, locale, selected=selected, limit=HAND_SHARE)
    room = ALT_LIMIT - len(hand) - 1
    return f"{hand} {table_alt(public, names, locale, boards=boards, limit=room)}"


def exchange_alt(view: TichuView, picks: Sequence[Card | None], names: Sequence[str],
                 locale: str) -> str:
    """The exchange picture in words: the card chosen for each seat (three with four
    players: left opponent, partner, right opponent; two with six: the partners on the
    left and on the right), or that none is chosen yet."""
    seat = view.seat
    if seat is None:
        raise ValueError("the exchange's description needs a seat's view")
    targets = view.exchange_targets(seat)
    slots = []
    for key, target, card in zip(SLOTS[len(targets)], targets, picks, strict=True):
        side = t(locale, SIDE_KEYS[key])
        name = name_of(names, target)
        if card is None:
            slots.append(t(locale, "alt.tichu.slot_empty", name=name, side=side))
        else:
            slots.append(t(locale, "alt.tichu.slot", card=cards_said(locale, [card]),
                           name=name, side=side))
    done = sum(card is not None for card in picks)
    return alt_text([t(locale, "alt.tichu.exchange_picks", done=done, total=len(targets),
                       slots="; ".join(slots))])


# ------------------------------------------------------------- deal and game
def call_said(locale: str, deal: DealResult, seat: int, names: Sequence[str]) -> str:
    call = deal.calls[seat]
    assert call is not None
    made = bool(deal.out) and deal.out[0] == seat
    value = CALL_VALUES[call]
    return t(locale, "alt.tichu.call_made" if made else "alt.tichu.call_failed",
             name=name_of(names, seat), call=t(locale, CALL_KEYS[call]),
             points=plus(value if made else -value))


def out_order_said(locale: str, deal: DealResult, names: Sequence[str], n_seats: int) -> str:
    """``Alice first, Chloé second, …``; after a double or triple victory the others
    never went out."""
    order = list(deal.out) + [s for s in range(n_seats) if s not in deal.out]
    said = []
    for place, seat in enumerate(order, start=1):
        if seat in deal.out or deal.sweep is None:
            said.append(t(locale, "alt.tichu.placed", name=name_of(names, seat),
                          place=place_said(locale, place)))
    rest = [name_of(names, s) for s in order if s not in deal.out]
    text = ", ".join(said)
    if deal.sweep is not None and rest:
        text += "; " + t(locale, "alt.tichu.never_out", names=listing(locale, rest))
    return text


def deal_summary_alt(view: TichuView, names: Sequence[str], locale: str) -> str:
    """A finished deal (``view.last_deal``) in words: its number, a double (or triple)
    victory, each team's card points, calls, deal score and total, the calls one by
    one, the out order and the target."""
    deal = view.last_deal
    if deal is None:
        raise ValueError("no finished deal in this view")
    parts: list[Part | str] = [t(locale, "alt.tichu.deal_over", number=deal.number + 1)]
    if deal.sweep is not None:
        key = "alt.tichu.triple_victory" if view.n_seats == 6 else "alt.tichu.double_victory"
        parts.append(t(locale, key, team=team_said(locale, view, names, deal.sweep)))
    for team in (0, 1):
        total = view.scores[team] if team < len(view.scores) else 0
        parts.append(t(locale, "alt.tichu.team_deal", team=team_said(locale, view, names, team),
                       cards=signed(deal.card_points[team]), calls=plus(deal.call_points[team]),
                       score=plus(deal.scores[team]), total=signed(total)))
    calls = [call_said(locale, deal, s, names) for s in range(view.n_seats)
             if s < len(deal.calls) and deal.calls[s] is not None]
    parts.append(Part(t(locale, "alt.tichu.calls", calls="; ".join(calls)) if calls
                      else t(locale, "alt.tichu.no_calls"), 1))
    parts.append(Part(t(locale, "alt.tichu.out_order",
                        order=out_order_said(locale, deal, names, view.n_seats)), 1))
    parts.append(Part(t(locale, "alt.tichu.target", target=view.target), 2))
    return alt_text(parts)


def game_over_alt(view: TichuView, names: Sequence[str], locale: str) -> str:
    """The final sheet in words: the winners, the totals and the target, then deal by
    deal each team's score, running totals and the calls (the latest deals kept
    longest)."""
    parts: list[Part | str] = [status_said(view, names, locale)]
    parts.append(t(locale, "alt.tichu.final", scores=teams_scores(locale, view.scores),
                   target=view.target))
    totals = [0, 0]
    rows = []
    for deal in view.history:
        for team in (0, 1):
            totals[team] += deal.scores[team]
        notes = [call_said(locale, deal, s, names) for s in range(len(deal.calls))
                 if deal.calls[s] is not None]
        if deal.sweep is not None:
            key = "alt.tichu.triple_note" if view.n_seats == 6 else "alt.tichu.double_note"
            notes.insert(0, t(locale, key, team=t(locale, TEAM_KEYS[deal.sweep])))
        rows.append(t(locale, "alt.tichu.sheet_row", number=deal.number + 1,
                      scores=teams_scores(locale, deal.scores, sign=True),
                      totals=teams_scores(locale, totals),
                      notes=("; " + "; ".join(notes)) if notes else ""))
    parts += [Part(row, 2) for row in reversed(rows)]
    return alt_text(parts)

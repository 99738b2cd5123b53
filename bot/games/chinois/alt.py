"""Chinois's images in words: the description (alt text) sent with each picture, which a
screen reader reads to a person who cannot see it.

- :func:`table_alt`: the public table (from the public view and the last trick of the
  table log, which everyone saw): whose turn, the trump, the trick, every seat's bid,
  tricks and score, the round;
- :func:`hand_alt`: a seat's own hand, the cards it may play now;
- :func:`sheet_alt`: the score sheet after a round, and the final one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.games.shared import (
    Part,
    alt_text,
    cards_said,
    count_cards,
    french_hand_alt,
    listing,
    plus,
    signed,
    suit_said,
    tricks_said,
)
from bot.i18n import t
from engine.cards import Card
from engine.chinois.rules import ROUNDS, cards_in_round, rating
from engine.chinois.view import ChinoisView, Phase, RoundResult

RATING_KEYS = {
    "high_score": "chinois.rating.high_score", "remarkable": "chinois.rating.remarkable",
    "good": "chinois.rating.good", "average": "chinois.rating.average",
    "weak": "chinois.rating.weak", "bad_score": "chinois.rating.bad_score",
}


def stage_key(round_: int) -> str:
    """Where a round sits on the 1…13…1 staircase: going up, the 13s, going down."""
    if round_ <= 12:
        return "chinois.stage.up"
    if round_ <= 16:
        return "chinois.stage.top"
    return "chinois.stage.down"


def trump_said(locale: str, card: Card | None) -> str:
    if card is None:
        return t(locale, "alt.chinois.no_trump")
    return t(locale, "alt.chinois.trump", card=cards_said(locale, [card]),
             suit=suit_said(locale, card & 3))


def plays_said(locale: str, plays: Sequence[tuple[int, Card]], names: Sequence[str]) -> str:
    """``Bob led 7♣, Chloé 9♣, Dmitri K♣``."""
    said = []
    for i, (seat, card) in enumerate(plays):
        key = "alt.led" if i == 0 else "alt.followed"
        said.append(t(locale, key, name=names[seat], card=cards_said(locale, [card])))
    return ", ".join(said)


def table_alt(view: ChinoisView, names: Sequence[str], locale: str, *,
              trick: Sequence[tuple[int, Card]], winner: int | None) -> str:
    """The public table in words: whose turn, the trump, the trick on the table (or the
    last one and who won it: ``winner``), each seat's bid, tricks and score, then the
    round and the sum of the bids. Reads no hand: a seat's view is refused."""
    if view.seat is not None:
        raise ValueError("the table's description is public: pass the public view (seat None)")
    parts: list[Part | str] = []
    turn = view.turn
    if view.phase is Phase.BID and turn is not None:
        parts.append(t(locale, "alt.chinois.to_bid", name=names[turn]))
    elif view.phase is Phase.PLAY and turn is not None:
        key = "alt.to_play" if view.trick.plays else "alt.to_lead"
        parts.append(t(locale, key, name=names[turn]))
    elif view.phase is Phase.GAME_OVER:
        parts.append(t(locale, "alt.chinois.game_over"))
    else:
        parts.append(t(locale, "alt.chinois.round_over", round=view.round))
    parts.append(trump_said(locale, view.trump_card))
    if trick and winner is not None:
        parts.append(t(locale, "alt.chinois.last_trick", name=names[winner],
                       plays=plays_said(locale, trick, names)))
    elif trick:
        parts.append(t(locale, "alt.chinois.trick", plays=plays_said(locale, trick, names)))
    for seat in range(view.n_seats):
        bid = view.bids[seat]
        state = [t(locale, "alt.chinois.no_bid") if bid is None
                 else t(locale, "alt.chinois.bid", bid=bid),
                 tricks_said(locale, view.tricks_won[seat]),
                 t(locale, "alt.points", points=signed(view.scores[seat]))]
        if view.dealer == seat:
            state.insert(0, t(locale, "alt.dealer"))
        parts.append(t(locale, "alt.seat", name=names[seat], state=", ".join(state)))
    parts.append(Part(t(locale, "alt.chinois.round", round=view.round, rounds=ROUNDS,
                        cards=count_cards(locale, view.cards_per_seat),
                        stage=t(locale, stage_key(view.round))), 1))
    parts.append(Part(t(locale, "alt.chinois.bids", bids=sum(b for b in view.bids
                                                               if b is not None),
                        tricks=view.cards_per_seat), 1))
    return alt_text(parts)


def hand_alt(view: ChinoisView, cards: Sequence[Card], locale: str, *,
             playable: Collection[Card] | None) -> str:
    """A seat's hand in words, for its owner only: its cards in the picture's order
    (``cards``), the trump (the picture's title), the cards it may play now."""
    return french_hand_alt(locale, cards, playable, trump_said(locale, view.trump_card))


def row_said(locale: str, result: RoundResult, trump: str, names: Sequence[str]) -> str:
    seats = "; ".join(t(locale, "alt.chinois.row_seat", name=names[s], bid=result.bids[s],
                        tricks=result.tricks[s], points=plus(result.scores[s]))
                      for s in range(len(result.scores)))
    return t(locale, "alt.chinois.row", round=result.round,
             cards=count_cards(locale, cards_in_round(result.round)), trump=trump, seats=seats)


def sheet_alt(history: Sequence[RoundResult], trumps: Sequence[str], names: Sequence[str],
              locale: str, *, final: bool, shown: int | None = None) -> str:
    """A score sheet in words: after a round (the last ``shown`` rounds, as the picture
    shows them) or the final one; the totals first, then each round, the latest first
    (and kept longest). ``trumps``: each round's trump in words."""
    totals = [sum(r.scores[s] for r in history) for s in range(len(names))]
    parts: list[Part | str] = []
    if final:
        best = max(totals) if totals else 0
        winners = [names[s] for s in range(len(names)) if totals[s] == best]
        parts.append(t(locale, "alt.chinois.final", names=listing(locale, winners),
                       points=best))
        parts.append(t(locale, "alt.totals", totals="; ".join(
            t(locale, "alt.chinois.rated", name=names[s], points=totals[s],
              rating=t(locale, RATING_KEYS[rating(totals[s]).value]))
            for s in sorted(range(len(names)), key=lambda s: -totals[s]))))
    else:
        number = history[-1].round if history else 0
        parts.append(t(locale, "alt.chinois.sheet", round=number, rounds=ROUNDS))
        parts.append(t(locale, "alt.totals", totals=", ".join(
            f"{names[s]} {signed(totals[s])}" for s in range(len(names)))))
    first = max(0, len(history) - shown) if shown else 0
    rows = [row_said(locale, result, trump, names)
            for result, trump in zip(history[first:], trumps[first:], strict=True)]
    parts += [Part(row, 2) for row in reversed(rows)]
    if final:
        parts.append(Part(t(locale, "chinois.rating.scale"), 3))
    return alt_text(parts)

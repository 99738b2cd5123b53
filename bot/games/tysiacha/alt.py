"""Tysiacha's images in words: the description (alt text) sent with each picture, which a
screen reader reads to a person who cannot see it.

- :func:`table_alt`: the public table, from the public view only: whose turn, the
  bidding or the contract, the trump, the trick, every seat (score, tricks, bid, the
  barrel, marriages);
- :func:`hand_alt`: a seat's own hand and the cards it may play now;
- :func:`prikup_alt`: the prikup shown to all once the bidding is over;
- :func:`sheet_alt`: the score sheet after a deal, and the final one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.games.shared import (
    Part,
    alt_text,
    cards_said,
    french_hand_alt,
    plus,
    signed,
    suit_said,
    tricks_said,
)
from bot.i18n import t
from engine.cards import Card
from engine.tysiacha.cards import MARRIAGE_VALUES
from engine.tysiacha.scoring import BARREL, TARGET
from engine.tysiacha.view import DealKind, DealResult, Phase, TysiachaView

MARK_KEYS = {"barrel": "alt.tysiacha.mark.barrel", "fell": "alt.tysiacha.mark.fell",
             "missed": "alt.tysiacha.mark.missed", "penalty": "alt.tysiacha.mark.penalty"}
"""The marks of a score sheet's cell, in words (the picture draws ■ ↓ ○ !)."""


def marks_of(result: DealResult, seat: int, total: int) -> list[str]:
    """The marks of ``seat``'s cell on the score sheet after ``result``: ``barrel`` (on
    it), ``fell`` (fell off it), ``missed`` (no trick), ``penalty``."""
    if result.kind is DealKind.REDEAL:
        return []
    marks = []
    if total == BARREL:
        marks.append("barrel")
    if seat in result.fell:
        marks.append("fell")
    if seat in result.missed:
        marks.append("missed")
    penalty = (seat in result.missed and result.earned[seat] < 0 and seat != result.soloist) \
        or (result.kind is DealKind.CONCEDED and seat == result.soloist
            and result.earned[seat] < 0)
    if penalty:
        marks.append("penalty")
    return marks


def status_said(view: TysiachaView, names: Sequence[str], locale: str) -> str:
    turn = view.turn
    if view.phase is Phase.BIDDING and turn is not None:
        if view.high_bid is None:
            return t(locale, "alt.tysiacha.to_open", name=names[turn])
        holder = next((s for s in view.active if view.bids[s] == view.high_bid), None)
        return t(locale, "alt.tysiacha.to_bid", name=names[turn], bid=view.high_bid,
                 holder=names[holder] if holder is not None else "—")
    if view.phase is Phase.PRIKUP and turn is not None:
        return t(locale, "alt.tysiacha.prikup_turn", name=names[turn])
    if view.phase is Phase.PLAY and turn is not None:
        key = "alt.to_play" if view.trick.plays else "alt.to_lead"
        return t(locale, key, name=names[turn])
    if view.phase is Phase.GAME_OVER:
        if view.winner is None:
            return t(locale, "alt.tysiacha.game_over")
        return t(locale, "alt.tysiacha.game_won", name=names[view.winner])
    return t(locale, "alt.tysiacha.deal_over", number=view.deal_number + 1)


ROLE_KEYS = {"sits_out": "alt.tysiacha.sits_out", "passed": "alt.tysiacha.passed",
             "bid": "alt.tysiacha.bid", "solo": "alt.tysiacha.solo"}
"""The words of a seat's part in the deal (:func:`seat_part`)."""


def seat_part(view: TysiachaView, seat: int) -> tuple[str, dict[str, int]] | None:
    """The seat's part in the deal, as the table's picture and its words both say it:
    ``sits_out``, ``passed``, ``bid`` (its bid) or ``solo`` (its contract); None for none."""
    if seat not in view.active:
        return "sits_out", {}
    if view.phase is Phase.BIDDING:
        if view.passed[seat]:
            return "passed", {}
        bid = view.bids[seat]
        return ("bid", {"bid": bid}) if bid is not None else None
    if view.soloist == seat and view.contract is not None:
        return "solo", {"contract": view.contract}
    return None


def seat_said(view: TysiachaView, seat: int, names: Sequence[str], locale: str) -> Part:
    """A seat: its score and tricks, dealer, its part in the deal (sits out, passed,
    its bid, its contract), the barrel, its marriages."""
    kept = [t(locale, "alt.points", points=signed(view.scores[seat])),
            tricks_said(locale, view.tricks_taken[seat])]
    more = []
    if view.dealer == seat:
        kept.insert(0, t(locale, "alt.dealer"))
    part = seat_part(view, seat)
    if part is not None:
        kept.append(t(locale, ROLE_KEYS[part[0]], **part[1]))
    if view.barrel[seat] is not None:
        more.append(t(locale, "alt.tysiacha.barrel", left=view.barrel[seat]))
    for who, suit in view.marriages:
        if who == seat:
            more.append(t(locale, "alt.tysiacha.marriage", suit=suit_said(locale, suit),
                          points=MARRIAGE_VALUES[suit]))

    def said(state: list[str]) -> str:
        return t(locale, "alt.seat", name=names[seat], state=", ".join(state))

    return Part(said(kept + more), 0, said(kept) if more else None)


def table_alt(view: TysiachaView, names: Sequence[str], locale: str) -> str:
    """The public table in words. Reads no hand: a seat's view is refused."""
    if view.seat is not None:
        raise ValueError("the table's description is public: pass the public view (seat None)")
    parts: list[Part | str] = [status_said(view, names, locale)]
    if view.soloist is not None and view.contract is not None \
            and view.phase in (Phase.PRIKUP, Phase.PLAY):
        parts.append(t(locale, "alt.tysiacha.contract", name=names[view.soloist],
                       contract=view.contract))
    if view.trump is not None:
        parts.append(t(locale, "alt.tysiacha.trump", suit=suit_said(locale, view.trump)))
    plays = view.trick.plays
    if plays:
        said = [t(locale, "alt.led" if i == 0 else "alt.followed",
                  name=names[p.seat], card=cards_said(locale, [p.card]))
                for i, p in enumerate(plays)]
        parts.append(t(locale, "alt.tysiacha.trick", plays=", ".join(said)))
    parts += [seat_said(view, seat, names, locale) for seat in range(view.n_seats)]
    parts.append(Part(t(locale, "alt.tysiacha.deal", number=view.deal_number + 1,
                        target=TARGET), 2))
    return alt_text(parts)


def hand_alt(cards: Sequence[Card], locale: str, *, playable: Collection[Card] | None,
             contract: int | None) -> str:
    """A seat's hand in words, for its owner only: its cards in the picture's order, the
    contract it plays solo (the picture's title), the cards it may play now."""
    more = [t(locale, "alt.tysiacha.your_contract", contract=contract)] \
        if contract is not None else []
    return french_hand_alt(locale, cards, playable, *more)


def prikup_alt(locale: str, number: int, name: str, bid: int | None,
               cards: Sequence[int]) -> str:
    """The prikup picture: whose it is, at what bid, its three cards."""
    return alt_text([t(locale, "alt.tysiacha.prikup", number=number + 1, name=name,
                       bid=bid if bid is not None else "—", cards=cards_said(locale, cards))])


def contract_said(locale: str, result: DealResult, names: Sequence[str]) -> str:
    if result.kind is DealKind.REDEAL:
        return t(locale, "alt.tysiacha.redeal")
    who = names[result.soloist] if result.soloist is not None else "—"
    if result.kind is DealKind.CONCEDED:
        return t(locale, "alt.tysiacha.conceded", name=who, contract=result.contract)
    return t(locale, "alt.tysiacha.made" if result.made else "alt.tysiacha.lost",
             name=who, contract=result.contract)


def sheet_alt(history: Sequence[DealResult], names: Sequence[str], n: int, locale: str, *,
              winner: int | None = None, final: bool = False,
              shown: int | None = None) -> str:
    """A score sheet in words: after a deal (its last ``shown`` deals, as the picture
    shows them) or the final one (``winner``); the totals first, then each deal, the
    latest first (and kept longest): the contract, each seat's total, change and marks."""
    totals = [0] * n
    rows = []
    for result in history:
        cells = []
        for s in range(n):
            totals[s] += result.scores[s]
            marks = ", ".join(t(locale, MARK_KEYS[m]) for m in marks_of(result, s, totals[s]))
            change = result.scores[s]
            cells.append(t(locale, "alt.tysiacha.cell", name=names[s], total=signed(totals[s]),
                           change=plus(change),
                           marks=f", {marks}" if marks else ""))
        rows.append(t(locale, "alt.tysiacha.row", number=result.number + 1,
                      contract=contract_said(locale, result, names), cells="; ".join(cells)))
    if shown is not None:
        rows = rows[-shown:]
    if final:
        head = t(locale, "alt.tysiacha.final", name=names[winner] if winner is not None
                 else "—")
    else:
        head = t(locale, "alt.tysiacha.sheet",
                 number=history[-1].number + 1 if history else 0)
    parts: list[Part | str] = [head, t(locale, "alt.totals", totals=", ".join(
        f"{names[s]} {signed(totals[s])}" for s in range(n)))]
    parts += [Part(row, 2) for row in reversed(rows)]
    return alt_text(parts)

"""The private hand message: the hand image and the controls of the current phase.

Built only from the seat's own view and the engine's legal functions; sent only
as an ephemeral message to the seat's owner. Every control carries the seat's
move count (``seq``), so a click on an old menu is refused as stale. The soloist's two gifts are chosen one select at a time,
the choice so far kept in the custom IDs (``gv:<slot>.<a>-<b>``, ``x`` for none).
"""

from __future__ import annotations

import discord

from bot.games.base import HandMessage
from bot.games.shared import names_of
from bot.games.tysiacha.alt import hand_alt
from bot.games.tysiacha.images import hand_key
from bot.games.ui import Control, GameButton, GameSelect, view_of
from bot.i18n import t
from bot.i18n.names import SUIT_SYMBOLS, card_label
from bot.render.french import ordered, render_french_hand
from bot.tables import Table, ids
from bot.workers import offload
from engine.cards import ALL, Card
from engine.tysiacha.cards import MARRIAGE_VALUES, TOTAL_POINTS, marriages_in
from engine.tysiacha.legal import (
    can_concede,
    can_pass,
    can_redeal,
    legal_bids,
    legal_cards,
    legal_raises,
    marriage_leads,
)
from engine.tysiacha.scoring import BID_STEP, MIN_BID
from engine.tysiacha.view import Phase, TysiachaView

MAX_OPTIONS = 25
Gifts = tuple[Card | None, Card | None]


def spread(values: tuple[int, ...] | list[int], size: int = MAX_OPTIONS) -> list[int]:
    """At most ``size`` of ``values``: the first ones step by step, then evenly spaced
    ones up to the highest, so that every height stays within reach of a select."""
    values = list(values)
    if len(values) <= size:
        return values
    head = size * 3 // 5
    rest = values[head:]
    picks = size - head
    tail = [rest[round(i * (len(rest) - 1) / (picks - 1))] for i in range(picks)]
    return values[:head] + sorted(set(tail))


def index_of(view: TysiachaView) -> dict[Card, int]:
    """Card → the 1-based number printed under it in the hand image."""
    return {c: i + 1 for i, c in enumerate(ordered(view.hand, hand_key))}


def card_option(locale: str, c: Card, index: dict[Card, int], *, value: str | None = None,
                label: str | None = None, default: bool = False) -> discord.SelectOption:
    text = label or f"#{index[c]} {card_label(locale, c)}"
    return discord.SelectOption(label=text[:100], value=value or str(int(c)), default=default)


def gift_targets(view: TysiachaView) -> tuple[int, int]:
    first, second = sorted(view.opponents)
    return first, second


async def hand_message(table: Table, seat: int, locale: str, *,
                       gifts: Gifts | None = None) -> HandMessage:
    """The seat's private message for the current moment of the deal."""
    game = table.game
    assert game is not None
    view = game.view(seat)
    names = names_of(table, locale)
    items: list[Control] = []
    lines: list[str] = []
    playable: tuple[Card, ...] | None = None
    phase = view.phase
    on_turn = view.turn == seat
    if seat not in view.active and phase in (Phase.BIDDING, Phase.PRIKUP, Phase.PLAY):
        lines.append(t(locale, "tysiacha.hand.sitting_out"))
    elif phase is Phase.BIDDING and on_turn:
        lines.append(_bidding_line(view, locale, names))
        items += _bidding_items(table, view, locale)
    elif phase is Phase.PRIKUP and on_turn:
        lines.append(t(locale, "tysiacha.hand.prikup_prompt", contract=view.contract))
        items += _prikup_items(table, view, locale, names, gifts or (None, None))
    elif phase is Phase.PLAY:
        if can_redeal(view):
            lines.append(t(locale, "tysiacha.hand.four_nines"))
            items.append(GameButton(ids.button(table.id, "redeal", seq=_seq(table, view)),
                                    label=t(locale, "tysiacha.button.redeal"),
                                    style=discord.ButtonStyle.danger, row=1))
        if on_turn:
            playable = legal_cards(view)
            lines.append(t(locale, "tysiacha.hand.your_lead" if not view.trick.plays
                           else "tysiacha.hand.your_turn"))
            items += _play_items(table, view, locale, playable)
        elif view.turn is not None:
            lines.append(t(locale, "hand.their_turn", name=names[view.turn]))
    elif view.turn is not None:
        lines.append(t(locale, "hand.their_turn", name=names[view.turn]))
    else:
        lines.append(t(locale, "hand.no_decision"))
    if view.received is not None:
        lines.append(t(locale, "tysiacha.hand.received", card=card_label(locale, view.received)))
    marriages = marriages_in(view.hand)
    if marriages and phase in (Phase.BIDDING, Phase.PRIKUP, Phase.PLAY):
        lines.append(t(locale, "tysiacha.hand.marriages_held",
                       suits=", ".join(f"{SUIT_SYMBOLS[s]} {MARRIAGE_VALUES[s]}"
                                       for s in marriages)))
    items.append(GameButton(ids.button(table.id, "refresh"), label=t(locale, "button.refresh"),
                            emoji="🔄", style=discord.ButtonStyle.secondary, row=4))
    image = None
    alt = ""
    if view.hand:
        alt = hand_alt(ordered(view.hand, hand_key), locale, playable=playable,
                       contract=view.contract if view.soloist == seat else None)
        image = await offload(render_french_hand, view.hand, key=hand_key, playable=playable,
                              title=_image_title(view, locale), locale=locale)
    return HandMessage("\n".join(lines), image, view_of(*items), alt=alt)


def _seq(table: Table, view: TysiachaView) -> int:
    """The move count of the seat ``view`` belongs to (a seat's own view: its seat is set)."""
    assert view.seat is not None, "a panel is built from a seat's view"
    return table.moves[view.seat]


def _image_title(view: TysiachaView, locale: str) -> str:
    if view.contract is not None and view.soloist == view.seat:
        return t(locale, "tysiacha.hand.title_soloist", contract=view.contract)
    return ""


def _bidding_line(view: TysiachaView, locale: str, names: list[str]) -> str:
    if view.high_bid is None:
        return t(locale, "tysiacha.hand.open_prompt", bid=MIN_BID)
    holder = next((s for s in view.active if view.bids[s] == view.high_bid), None)
    return t(locale, "tysiacha.hand.bid_prompt", bid=view.high_bid,
             name=names[holder] if holder is not None else "—")


def _bidding_items(table: Table, view: TysiachaView,
                   locale: str) -> list[Control]:
    """+5 and +10 buttons, a select for more (legal bids only: above 120 only with a
    marriage in hand), and Pass when allowed."""
    bids = legal_bids(view)
    tid, seq = table.id, _seq(table, view)
    items: list[Control] = []
    base = view.high_bid
    quick = []
    for step in (BID_STEP, 2 * BID_STEP):
        amount = (base + step) if base is not None else MIN_BID + step - BID_STEP
        if amount in bids:
            quick.append(amount)
    for amount in quick:
        label = (t(locale, "tysiacha.button.raise_by", step=amount - base, bid=amount)
                 if base is not None else t(locale, "tysiacha.button.bid", bid=amount))
        items.append(GameButton(ids.button(tid, "bid", str(amount), seq=seq), label=label[:80],
                                style=discord.ButtonStyle.primary, row=1))
    if can_pass(view):
        items.append(GameButton(ids.button(tid, "pass", seq=seq),
                                label=t(locale, "tysiacha.button.pass"),
                                style=discord.ButtonStyle.secondary, row=1))
    more = [b for b in bids if b not in quick]
    if more:
        options = [discord.SelectOption(
            label=t(locale, "tysiacha.option.bid" if b <= TOTAL_POINTS
                    else "tysiacha.option.bid_marriage", bid=b)[:100], value=str(b))
            for b in spread(more)]
        items.append(GameSelect(ids.select(tid, "bids", seq=seq), options=options,
                                placeholder=t(locale, "tysiacha.select.more_bids")[:150], row=0))
    return items


def _prikup_items(table: Table, view: TysiachaView, locale: str, names: list[str],
                  chosen: Gifts) -> list[Control]:
    """One select per opponent for the card to give, Confirm, Concede, and the raises."""
    tid, seq = table.id, _seq(table, view)
    state = "-".join("x" if c is None else str(int(c)) for c in chosen)
    index = index_of(view)
    cards = ordered(view.hand, hand_key)
    items: list[Control] = []
    for slot, target in enumerate(gift_targets(view)):
        other = chosen[1 - slot]
        options = [card_option(locale, c, index, default=chosen[slot] == c)
                   for c in cards if c != other]
        items.append(GameSelect(ids.select(tid, "gv", f"{slot}.{state}", seq=seq),
                                options=options[:MAX_OPTIONS],
                                placeholder=t(locale, "tysiacha.select.give",
                                              name=names[target])[:150], row=slot))
    ready = all(c is not None for c in chosen)
    items.append(GameButton(ids.button(tid, "give", state, seq=seq),
                            label=t(locale, "tysiacha.button.give"),
                            style=discord.ButtonStyle.success, disabled=not ready, row=2))
    if can_concede(view):
        items.append(GameButton(ids.button(tid, "concede", seq=seq),
                                label=t(locale, "tysiacha.button.concede"),
                                style=discord.ButtonStyle.danger, row=2))
    raises = legal_raises(view)
    if raises:
        options = [discord.SelectOption(label=t(locale, "tysiacha.option.raise", bid=b)[:100],
                                        value=str(b)) for b in spread(raises)]
        items.append(GameSelect(ids.select(tid, "raise", seq=seq), options=options,
                                placeholder=t(locale, "tysiacha.select.raise",
                                              contract=view.contract)[:150], row=3))
    return items


def _play_items(table: Table, view: TysiachaView, locale: str,
                playable: tuple[Card, ...]) -> list[Control]:
    """A select of the legal cards only; a King or Queen that may be led declaring its
    marriage gets a second option, "… and declare the marriage"."""
    if not playable:
        return []
    index = index_of(view)
    leads = set(marriage_leads(view))
    options = []
    for c in sorted(playable, key=lambda c: index[c]):
        options.append(card_option(locale, c, index))
        if c in leads:
            suit = c & 3
            options.append(card_option(
                locale, c, index, value=f"m{int(c)}",
                label=t(locale, "tysiacha.option.marriage", card=f"#{index[c]} "
                        f"{card_label(locale, c)}", suit=SUIT_SYMBOLS[suit],
                        points=MARRIAGE_VALUES[suit])))
    return [GameSelect(ids.select(table.id, "play", seq=_seq(table, view)), options=options[:MAX_OPTIONS],
                       placeholder=t(locale, "tysiacha.select.play")[:150], row=0)]


def parse_gift_state(text: str | None) -> Gifts | None:
    """``45-x`` → the two chosen cards (None where nothing is chosen yet)."""
    if text is None:
        return None
    parts = text.split("-")
    if len(parts) != 2:
        return None
    out: list[Card | None] = []
    for part in parts:
        if part == "x":
            out.append(None)
        elif part.isdigit() and int(part) < 52:
            out.append(ALL[int(part)])
        else:
            return None
    return out[0], out[1]

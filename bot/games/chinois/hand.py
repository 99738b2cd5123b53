"""The private hand message of Chinois: the hand image, the bid or card menu.

Built only from the seat's own view; every menu offers exactly the engine's
legal choices (:func:`legal_bids`, :func:`legal_cards`) and carries the
seat's move count (``seq``), so a click on an old menu is refused as stale.
"""

from __future__ import annotations

import discord

from bot.games.base import HandMessage
from bot.games.chinois.alt import hand_alt
from bot.games.shared import names_of
from bot.games.ui import Control, GameButton, GameSelect, view_of
from bot.i18n import t
from bot.i18n.names import card_label
from bot.i18n.text import CONTENT, cut
from bot.render.french import render_french_hand
from bot.tables import Table, ids
from bot.workers import offload
from engine.cards import Card
from engine.chinois.legal import legal_bids, legal_cards
from engine.chinois.view import ChinoisView, Phase
from engine.trick import by_suit

MAX_OPTIONS = 25


def sorted_cards(hand: tuple[Card, ...] | list[Card]) -> list[Card]:
    """The hand in the image's order (by suit, then from the Ace down)."""
    return sorted(hand, key=by_suit)


def trump_text(view: ChinoisView, locale: str) -> str:
    """``Q♥`` or "no trump", in words for the messages."""
    if view.trump_card is None:
        return t(locale, "chinois.no_trump")
    return card_label(locale, view.trump_card)


def round_text(view: ChinoisView, locale: str) -> str:
    """``Round 14/28 · 13 cards`` (the 1…13…1 staircase)."""
    return t(locale, "chinois.round", round=view.round, rounds=28, cards=view.cards_per_seat)


def bids_text(view: ChinoisView, names: list[str], locale: str) -> str:
    """Everyone's bid so far, in bidding order (the dealer last)."""
    parts = []
    for step in range(1, view.n_seats + 1):
        s = (view.dealer + step) % view.n_seats
        bid = view.bids[s]
        parts.append(f"{names[s]} {'–' if bid is None else bid}")
    return t(locale, "chinois.hand.bids", bids=" · ".join(parts))


def bid_option(locale: str, bid: int) -> discord.SelectOption:
    return discord.SelectOption(label=t(locale, "chinois.select.bid_option", n=bid)[:100],
                                value=str(bid))


def card_option(locale: str, card: Card, number: int) -> discord.SelectOption:
    return discord.SelectOption(label=f"#{number} {card_label(locale, card)}"[:100],
                                value=str(int(card)))


async def hand_message(table: Table, seat: int, locale: str) -> HandMessage:
    """The seat's private message for the current moment of the game."""
    game = table.game
    assert game is not None
    view = game.view(seat)
    seq, tid = table.moves[seat], table.id
    names = names_of(table, locale)
    items: list[Control] = []
    lines = [t(locale, "chinois.hand.header", round=round_text(view, locale),
               trump=trump_text(view, locale), dealer=names[view.dealer])]
    playable: tuple[Card, ...] | None = None
    phase = view.phase
    if phase is Phase.BID:
        lines.append(bids_text(view, names, locale))
        bids = legal_bids(view)
        if bids:
            lines.append(t(locale, "chinois.hand.bid_prompt", cards=view.cards_per_seat))
            forbidden = view.forbidden_bid if seat == view.dealer else None
            if forbidden is not None:
                lines.append(t(locale, "chinois.hand.forbidden", n=forbidden))
            items.append(GameSelect(ids.select(tid, "bid", seq=seq),
                                    options=[bid_option(locale, b) for b in bids[:MAX_OPTIONS]],
                                    placeholder=t(locale, "chinois.select.bid")[:150], row=0))
        elif view.turn is not None:
            lines.append(t(locale, "chinois.hand.their_bid", name=names[view.turn]))
    elif phase is Phase.PLAY:
        mine = view.bids[seat]
        lines.append(t(locale, "chinois.hand.contract", bid=mine if mine is not None else 0,
                       tricks=view.tricks_won[seat]))
        cards = legal_cards(view)
        if cards:
            playable = cards
            order = {c: i + 1 for i, c in enumerate(sorted_cards(view.hand))}
            lines.append(t(locale, "chinois.hand.your_lead" if not view.trick.plays
                           else "chinois.hand.your_turn"))
            options = [card_option(locale, c, order[c])
                       for c in sorted(cards, key=lambda c: order[c])][:MAX_OPTIONS]
            items.append(GameSelect(ids.select(tid, "play", seq=seq), options=options,
                                    placeholder=t(locale, "chinois.select.play")[:150], row=0))
        elif view.turn is not None:
            lines.append(t(locale, "chinois.hand.their_turn", name=names[view.turn]))
    else:
        lines.append(t(locale, "chinois.hand.over"))
    items.append(GameButton(ids.button(tid, "refresh"), label=t(locale, "button.refresh"),
                            emoji="🔄", style=discord.ButtonStyle.secondary, row=1))
    image = None
    alt = ""
    if view.hand:
        alt = hand_alt(view, sorted_cards(view.hand), locale, playable=playable)
        image = await offload(render_french_hand, view.hand, key=by_suit, playable=playable,
                              title=t(locale, "chinois.hand.image_title",
                                                             trump=trump_text(view, locale)),
                              locale=locale)
    return HandMessage(cut("\n".join(lines), CONTENT), image, view_of(*items), alt=alt)

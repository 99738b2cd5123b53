"""The private hand message: the hand image and the controls of the current phase.

Built only from the seat's own view; sent only as an ephemeral message to the
seat's owner. Every control carries the table's action count (``seq``).
"""

from __future__ import annotations

import discord

from bot.games.base import HandMessage
from bot.i18n import t
from bot.i18n.names import card_label, card_name, combo_name
from bot.render import render_exchange, render_hand, sorted_hand
from bot.tables import Table, ids
from bot.views.components import GameButton, GameSelect, view_of
from bot.views.table import names_of
from bot.workers import offload
from engine.cards import Card
from engine.tichu.cards import MAHJONG, PHOENIX
from engine.tichu.combos import Combo, beats, readings
from engine.tichu.legal import can_call_tichu, can_pass, gift_targets, legal_plays
from engine.tichu.view import Phase, TichuView

MAX_OPTIONS = 25
EXCHANGE_SLOTS = ("left", "partner", "right")


def exchange_targets(view: TichuView) -> tuple[int, int, int]:
    """Seats of the left opponent, the partner and the right opponent.

    Play passes to the right (the rules' order), so seat+1 sits on the right and
    seat+3 on the left, as the table image draws them.
    """
    seat = view.seat
    assert seat is not None
    n = view.n_seats
    return ((seat + 3) % n, (seat + 2) % n, (seat + 1) % n)


def index_of(view: TichuView) -> dict[Card, int]:
    """Card → the 1-based index printed under it in the hand image."""
    return {c: i + 1 for i, c in enumerate(sorted_hand(view.hand))}


def order_plays(plays: list[Combo]) -> list[Combo]:
    """Best first: long combinations before short ones, low before high, bombs last."""
    return sorted(plays, key=lambda p: (p.is_bomb, -p.length, p.rank))


def play_option(locale: str, combo: Combo, index: dict[Card, int]) -> discord.SelectOption:
    cards = sorted(combo.cards, key=lambda c: index.get(c, 99))
    marks = " ".join(f"#{index[c]}" for c in cards if c in index)
    labels = " ".join(card_label(c) for c in cards)
    return discord.SelectOption(label=combo_name(locale, combo)[:100],
                                value=ids.encode_cards(combo.cards),
                                description=f"{marks} · {labels}"[:100])


async def hand_message(table: Table, seat: int, locale: str, *,
                       exchange: tuple[Card | None, Card | None, Card | None] | None = None,
                       bombs_only: bool = False) -> HandMessage:
    """The seat's private message for the current moment of the game."""
    game = table.game
    assert game is not None
    view = game.view(seat)
    seq = table.seq
    tid = table.id
    names = names_of(table, locale)
    items: list[discord.ui.Item[discord.ui.View]] = []
    lines: list[str] = []
    image: bytes | None = None
    phase = view.phase
    if phase is Phase.GRAND and not view.grand_decided[seat]:
        lines.append(t(locale, "hand.grand_prompt"))
        items += [
            GameButton(ids.button(tid, "grand", seq=seq), label=t(locale, "button.grand"),
                       style=discord.ButtonStyle.danger, row=0),
            GameButton(ids.button(tid, "nogrand", seq=seq), label=t(locale, "button.take_six"),
                       style=discord.ButtonStyle.primary, row=0),
        ]
    elif phase is Phase.GRAND:
        lines.append(t(locale, "hand.waiting_grand"))
    elif phase is Phase.EXCHANGE and not view.exchanged[seat]:
        chosen = exchange or (None, None, None)
        lines.append(t(locale, "hand.exchange_prompt"))
        items += _exchange_items(table, view, chosen, locale, names)
        if any(chosen):
            image = await offload(render_exchange, view, chosen[0], chosen[1], chosen[2], names,
                                                locale=locale)
    elif phase is Phase.EXCHANGE:
        lines.append(t(locale, "hand.waiting_exchange"))
    elif phase is Phase.GIFT and view.turn == seat:
        lines.append(t(locale, "hand.gift_prompt"))
        for target in gift_targets(view):
            items.append(GameButton(ids.button(tid, "gift", str(target), seq=seq),
                                    label=t(locale, "button.gift", name=names[target])[:80],
                                    style=discord.ButtonStyle.primary, row=0))
    elif phase is Phase.PLAY and not view.hand:
        lines.append(t(locale, "hand.out"))
    elif phase is Phase.PLAY:
        items += _play_items(table, view, locale, bombs_only=bombs_only)
        lines.append(_play_line(view, locale, names, bombs_only=bombs_only, offered=bool(items)))
    else:
        lines.append(t(locale, "hand.no_decision"))
    if view.wish is not None and phase is Phase.PLAY:
        from bot.i18n.names import rank_name

        lines.append(t(locale, "hand.wish_open", rank=rank_name(locale, view.wish)))
    buttons_row = 4
    if can_call_tichu(view):
        items.append(GameButton(ids.button(tid, "tichu", seq=seq), label=t(locale, "button.tichu"),
                                style=discord.ButtonStyle.danger, row=buttons_row))
    if phase is Phase.PLAY and view.turn == seat and can_pass(view) and not bombs_only:
        items.append(GameButton(ids.button(tid, "pass", seq=seq), label=t(locale, "button.pass"),
                                style=discord.ButtonStyle.secondary, row=buttons_row))
    items.append(GameButton(ids.button(tid, "refresh"), label=t(locale, "button.refresh"),
                            emoji="🔄", style=discord.ButtonStyle.secondary, row=buttons_row))
    if image is None:
        image = await offload(render_hand, view, locale=locale,
                                        selected=[c for c in (exchange or ()) if c is not None])
    return HandMessage("\n".join(lines), image, view_of(*items))


def _play_line(view: TichuView, locale: str, names: list[str], *, bombs_only: bool,
               offered: bool) -> str:
    seat = view.seat
    if view.turn == seat and not bombs_only:
        if view.top is None:
            return t(locale, "hand.your_lead")
        return t(locale, "hand.your_turn", combo=combo_name(locale, view.top))
    turn = names[view.turn] if view.turn is not None else "—"
    if bombs_only and not offered:
        return t(locale, "hand.no_bomb", name=turn)
    return t(locale, "hand.their_turn", name=turn)


def _play_items(table: Table, view: TichuView, locale: str, *,
                bombs_only: bool) -> list[discord.ui.Item[discord.ui.View]]:
    plays = order_plays(legal_plays(view))
    on_turn = view.turn == view.seat
    if bombs_only or not on_turn:
        plays = [p for p in plays if p.is_bomb]
    if not plays:
        return []
    index = index_of(view)
    seq = table.seq
    items: list[discord.ui.Item[discord.ui.View]] = []
    placeholder = t(locale, "select.bomb" if not on_turn or bombs_only else "select.play")
    items.append(GameSelect(ids.select(table.id, "play", seq=seq),
                            options=[play_option(locale, p, index) for p in plays[:MAX_OPTIONS]],
                            placeholder=placeholder[:150], row=0))
    if len(plays) > MAX_OPTIONS and on_turn:
        cards = sorted_hand(view.hand)
        options = [
            discord.SelectOption(label=f"#{i + 1} {card_name(locale, c)}"[:100],
                                 value=str(int(c)))
            for i, c in enumerate(cards)
        ]
        items.append(GameSelect(ids.select(table.id, "cards", seq=seq), options=options,
                                placeholder=t(locale, "select.build")[:150], min_values=1,
                                max_values=len(options), row=1))
    return items


def _exchange_items(table: Table, view: TichuView,
                    chosen: tuple[Card | None, Card | None, Card | None], locale: str,
                    names: list[str]) -> list[discord.ui.Item[discord.ui.View]]:
    state = "-".join("x" if c is None else str(int(c)) for c in chosen)
    index = index_of(view)
    cards = sorted_hand(view.hand)
    targets = exchange_targets(view)
    items: list[discord.ui.Item[discord.ui.View]] = []
    for slot, (key, target) in enumerate(zip(EXCHANGE_SLOTS, targets, strict=True)):
        taken = {c for i, c in enumerate(chosen) if c is not None and i != slot}
        options = [
            discord.SelectOption(label=f"#{index[c]} {card_name(locale, c)}"[:100],
                                 value=str(int(c)), default=chosen[slot] == c)
            for c in cards if c not in taken
        ]
        placeholder = t(locale, f"select.give_{key}", name=names[target])
        items.append(GameSelect(ids.select(table.id, "ex", f"{slot}.{state}", seq=table.seq),
                                options=options[:MAX_OPTIONS], placeholder=placeholder[:150],
                                row=slot))
    ready = all(c is not None for c in chosen)
    items.append(GameButton(ids.button(table.id, "exok", state, seq=table.seq),
                            label=t(locale, "button.confirm_exchange"),
                            style=discord.ButtonStyle.success, disabled=not ready, row=3))
    return items


def parse_exchange_state(text: str | None) -> tuple[Card | None, Card | None, Card | None] | None:
    """``12-x-54`` → the three chosen cards (None where nothing is chosen yet)."""
    if text is None:
        return None
    parts = text.split("-")
    if len(parts) != 3:
        return None
    out: list[Card | None] = []
    for part in parts:
        if part == "x":
            out.append(None)
            continue
        cards = ids.decode_cards(part)
        if cards is None or len(cards) != 1:
            return None
        out.append(cards[0])
    return out[0], out[1], out[2]


def choice_step(view: TichuView, cards: tuple[Card, ...]) -> str | None:
    """What must still be asked before playing ``cards``: ``wish``, ``phoenix`` or None."""
    if MAHJONG in cards:
        return "wish"
    if PHOENIX in cards and len(cards) > 1:
        top = view.top
        legal = {r.phoenix for r in readings(cards, top) if beats(r, top)}
        if len(legal) > 1:
            return "phoenix"
    return None


def wish_items(table: Table, cards: tuple[Card, ...], locale: str) -> list[discord.ui.Item[discord.ui.View]]:
    from bot.i18n.names import rank_name

    options = [discord.SelectOption(label=t(locale, "wish.none"), value="none")]
    options += [discord.SelectOption(label=rank_name(locale, r), value=str(r)) for r in range(2, 15)]
    return [GameSelect(ids.select(table.id, "wish", ids.encode_cards(cards), seq=table.seq),
                       options=options, placeholder=t(locale, "select.wish")[:150], row=0),
            GameButton(ids.button(table.id, "refresh"), label=t(locale, "button.cancel"),
                       style=discord.ButtonStyle.secondary, row=1)]


def phoenix_items(table: Table, view: TichuView, cards: tuple[Card, ...],
                  locale: str) -> list[discord.ui.Item[discord.ui.View]]:
    top = view.top
    options = [
        discord.SelectOption(label=combo_name(locale, r)[:100], value=str(r.phoenix))
        for r in readings(cards, top) if beats(r, top) and r.phoenix is not None
    ]
    return [GameSelect(ids.select(table.id, "phx", ids.encode_cards(cards), seq=table.seq),
                       options=options, placeholder=t(locale, "select.phoenix")[:150], row=0),
            GameButton(ids.button(table.id, "refresh"), label=t(locale, "button.cancel"),
                       style=discord.ButtonStyle.secondary, row=1)]

"""The private hand panel: the hand image and the controls of the current moment.

Built only from the seat's own view; sent only as an ephemeral message to the
seat's owner. Controls of a move (a play, a pass, the Dragon's gift) carry the
seat's move count, so a double click or a menu from an earlier turn never applies;
other decisions are made once and the engine refuses a repeat. Everything the
person has chosen but not yet played — exchange picks, the kind of play looked at,
a call waiting for its confirmation, a play waiting for its wish — is the seat's
draft, kept on the server, so nothing another seat does loses it.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any

import discord

from bot.games.base import HandMessage
from bot.games.shared import names_of, signed
from bot.games.tichu.alt import exchange_alt, hand_alt, position_alt
from bot.games.tichu.coach import has_decision, hints_allowed
from bot.games.ui import Control, GameButton, GameSelect, view_of
from bot.i18n import t
from bot.i18n.names import card_label, card_labels, combo_name, rank_name
from bot.render import render_exchange, render_hand, render_position, sorted_hand
from bot.tables import Table, ids
from bot.workers import offload
from engine.cards import Card
from engine.duplicate.play import BoardsGame
from engine.tichu.cards import DECK, DOG, MAHJONG, PHOENIX
from engine.tichu.combos import Combo, Kind, beats, readings
from engine.tichu.legal import can_call_tichu, can_pass, dog_targets, gift_targets, legal_plays
from engine.tichu.view import Phase, TichuView

MAX_OPTIONS = 25
EXCHANGE_SLOTS = {3: ("left", "partner", "right"), 2: ("left_partner", "right_partner")}
"""The exchange's slots by their number, in the order of ``view.exchange_targets``: three
with four players (left opponent, partner, right opponent), two with six (one to each partner)."""
KIND_ORDER = ("single", "pair", "triple", "full_house", "stairs", "straight", "bomb")
"""The groups of the play menu, in the order people look for them."""


def exchange_targets(view: TichuView) -> tuple[int, ...]:
    """Who gets the seat's exchange cards, slot by slot (the engine's order): with four
    players the left opponent, the partner and the right opponent; with six the partner
    on the left (seat+4) and the partner on the right (seat+2)."""
    seat = view.seat
    assert seat is not None
    return view.exchange_targets(seat)


def index_of(view: TichuView) -> dict[Card, int]:
    """Card → the 1-based index printed under it in the hand image."""
    return {c: i + 1 for i, c in enumerate(sorted_hand(view.hand))}


def group_of(combo: Combo) -> str:
    """The menu group of a play (the Dog goes with the singles, both bombs together)."""
    if combo.is_bomb:
        return "bomb"
    if combo.kind is Kind.DOG:
        return "single"
    return str(combo.kind.value)


def grouped_plays(plays: list[Combo]) -> dict[str, list[Combo]]:
    """Plays by menu group, each low to high (longer first for straights and stairs)."""
    groups: dict[str, list[Combo]] = {}
    for play in sorted(plays, key=lambda p: (p.length, p.rank)):
        groups.setdefault(group_of(play), []).append(play)
    return {kind: groups[kind] for kind in KIND_ORDER if kind in groups}


def menu_pages(plays: list[Combo], kind: str | None) -> tuple[list[str], str | None,
                                                             list[list[Combo]]]:
    """The play menu: its groups (only when the plays do not fit one select), the group
    shown, and that group's pages of at most 25. Every legal play is on some page of
    some group, so every play is at most two choices away (plus paging)."""
    if len(plays) <= MAX_OPTIONS:
        ordered = [p for group in grouped_plays(plays).values() for p in group]
        return [], None, [ordered] if ordered else []
    groups = grouped_plays(plays)
    shown = kind if kind in groups else next(iter(groups))
    chosen = groups[shown]
    pages = [chosen[i:i + MAX_OPTIONS] for i in range(0, len(chosen), MAX_OPTIONS)]
    return list(groups), shown, pages


def play_option(locale: str, combo: Combo, index: dict[Card, int]) -> discord.SelectOption:
    cards = sorted(combo.cards, key=lambda c: index.get(c, 99))
    marks = " ".join(f"#{index[c]}" for c in cards if c in index)
    labels = card_labels(locale, cards)
    return discord.SelectOption(label=combo_name(locale, combo)[:100],
                                value=ids.encode_cards(combo.cards),
                                description=f"{marks} · {labels}"[:100])


# ------------------------------------------------------------------ drafts
def draft_of(table: Table, seat: int) -> dict[str, Any]:
    """The seat's choice in progress, if it still belongs to this moment of the game
    (the same deal and the same move); else an empty draft."""
    game = table.game
    draft = table.drafts.get(seat, {})
    if draft.get("deal") != game.deal_number or draft.get("move") != table.moves[seat]:
        return {}
    return draft


def new_draft(table: Table, seat: int, draft: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``draft`` with ``changes``, stamped with this moment of the game."""
    base = draft if draft.get("deal") == table.game.deal_number \
        and draft.get("move") == table.moves[seat] else {}
    return {**base, **changes, "deal": table.game.deal_number, "move": table.moves[seat]}


def exchange_picks(view: TichuView, draft: dict[str, Any]) -> tuple[Card | None, ...]:
    """The exchange picks of a draft, one per target (three with four players, two with
    six); a card no longer in the hand is dropped."""
    picks: list[Card | None] = []
    raw = draft.get("ex")
    slots = len(exchange_targets(view))
    for i in range(slots):
        value = raw[i] if isinstance(raw, list) and len(raw) == slots else None
        card = DECK[value] if isinstance(value, int) and 0 <= value < len(DECK) else None
        picks.append(card if card in view.hand else None)
    return tuple(picks)


def pending_play(view: TichuView, draft: dict[str, Any]) -> tuple[tuple[Card, ...], str] | None:
    """A play waiting for its wish or its Phoenix reading, if it is still possible."""
    raw = draft.get("pending")
    if not isinstance(raw, str):
        return None
    cards = ids.decode_cards(raw)
    if cards is None or any(c not in view.hand for c in cards):
        return None
    step = choice_step(view, cards)
    return (cards, step) if step is not None else None


def panel_key(table: Table, seat: int) -> Hashable:
    """What the seat's panel offers now; the bot redraws an open panel when it changes.
    Other seats' turns do not count, unless they change what this seat may do."""
    game = table.game
    view = game.view(seat)
    on_turn = view.turn == seat
    bombs: tuple[tuple[int, ...], ...] = ()
    if view.phase is Phase.PLAY and not on_turn and view.hand:
        bombs = tuple(sorted(tuple(int(c) for c in p.cards)
                             for p in legal_plays(view) if p.is_bomb))
    draft = draft_of(table, seat)
    return (view.phase, view.deal_number, view.hand, view.grand_decided[seat],
            view.exchanged[seat], on_turn, view.top if on_turn else None,
            view.wish if on_turn else None, bombs, can_call_tichu(view), table.moves[seat],
            table.seats[seat].away, tuple(sorted((k, str(v)) for k, v in draft.items())))


# ------------------------------------------------------------------ panel
async def hand_message(table: Table, seat: int, locale: str, *,
                       bombs_only: bool = False) -> HandMessage:
    """The seat's private panel for the current moment of the game."""
    game = table.game
    assert game is not None
    view = game.view(seat)
    move = table.moves[seat]
    tid = table.id
    names = names_of(table, locale)
    draft = draft_of(table, seat)
    items: list[Control] = []
    lines: list[str] = []
    image: bytes | None = None
    alt = ""
    phase = view.phase
    confirm = draft.get("confirm")
    asking = False
    """A confirmation or a play's wish is asked: nothing else is offered meanwhile."""
    whole = table.private or table.direct
    """Played alone, or in a direct message: the panel is the whole table, one picture
    of the table with the hand under it (two images in one message would be cropped into
    a mosaic), its picks raised in the hand; nothing else is drawn."""
    if table.seats[seat].away and phase is Phase.GAME_OVER:
        pass  # the result says it all: nobody is away from a finished game
    elif table.seats[seat].away and table.finish_at is not None \
            and time.time() >= table.finish_at:
        # A board whose time is over: the computers finish it, and no seat comes back.
        lines.append(t(locale, "hand.time_over"))
    elif table.seats[seat].away and not table.direct:
        # At a table in DMs the panel keeps its controls, any of which takes the seat
        # back (its DM panel says so above them, for every game).
        lines.append(t(locale, "hand.away"))
        items.append(GameButton(ids.button(tid, "back"), label=t(locale, "button.back"),
                                style=discord.ButtonStyle.success, row=0))
    elif (confirm == "tichu" and can_call_tichu(view)) or (
            confirm == "grand" and phase is Phase.GRAND and not view.grand_decided[seat]):
        asking = True
        lines.append(t(locale, f"hand.confirm_{confirm}"))
        items += [
            GameButton(ids.button(tid, confirm), label=t(locale, f"button.confirm_{confirm}"),
                       style=discord.ButtonStyle.danger, row=0),
            GameButton(ids.button(tid, "cancel"), label=t(locale, "button.cancel"),
                       style=discord.ButtonStyle.secondary, row=0),
        ]
    elif phase is Phase.GRAND and not view.grand_decided[seat]:
        rest = len(game.dealt[seat]) - view.grand_packet
        lines.append(t(locale, "hand.grand_prompt", shown=view.grand_packet, rest=rest))
        items += [
            GameButton(ids.button(tid, "nogrand"), label=t(locale, "button.take_six", rest=rest),
                       style=discord.ButtonStyle.primary, row=0),
            GameButton(ids.button(tid, "ask", "grand"), label=t(locale, "button.grand"),
                       style=discord.ButtonStyle.danger, row=4),
        ]
    elif phase is Phase.GRAND:
        lines.append(t(locale, "hand.waiting_grand"))
    elif phase is Phase.EXCHANGE and not view.exchanged[seat]:
        chosen = exchange_picks(view, draft)
        lines.append(t(locale, "hand.exchange_prompt" if len(chosen) == 3
                       else "hand.exchange_prompt_six"))
        items += _exchange_items(table, view, chosen, locale, names)
        if any(chosen) and not whole:
            left, partner, right = (chosen[0], None, chosen[1]) if len(chosen) == 2 else chosen
            image = await offload(render_exchange, view, left, partner, right, names,
                                  locale=locale)
            alt = exchange_alt(view, chosen, names, locale)
    elif phase is Phase.EXCHANGE:
        lines.append(t(locale, "hand.waiting_exchange"))
    elif phase is Phase.GIFT and view.turn == seat:
        lines.append(t(locale, "hand.gift_prompt"))
        for target in gift_targets(view):
            items.append(GameButton(ids.button(tid, "gift", str(target), seq=move),
                                    label=t(locale, "button.gift", name=names[target])[:80],
                                    style=discord.ButtonStyle.primary, row=0))
    elif phase is Phase.PLAY and not view.hand:
        lines.append(t(locale, "hand.out"))
    elif phase is Phase.PLAY and (pending := pending_play(view, draft)) is not None:
        cards, step = pending
        asking = True
        lines.append(t(locale, f"hand.choose_{step}"))
        if step == "wish":
            items += wish_items(table, seat, cards, locale)
        elif step == "dog":
            items += dog_items(table, seat, view, names, locale)
        else:
            items += phoenix_items(table, seat, view, cards, locale)
    elif phase is Phase.PLAY:
        items += _play_items(table, view, locale, draft, bombs_only=bombs_only)
        lines.append(_play_line(view, locale, bombs_only=bombs_only, offered=bool(items)))
    else:
        lines.append(t(locale, "hand.no_decision"))
    if view.wish is not None and phase is Phase.PLAY and view.turn == seat:
        lines.append(t(locale, "hand.wish_open", rank=rank_name(locale, view.wish)))
    if (table.direct or not table.seats[seat].away) and not asking:
        if phase is Phase.PLAY and view.turn == seat and can_pass(view) and not bombs_only:
            items.append(GameButton(ids.button(tid, "pass", seq=move),
                                    label=t(locale, "button.pass"),
                                    style=discord.ButtonStyle.secondary, row=3))
        if can_call_tichu(view) and not (phase is Phase.GRAND
                                         and not view.grand_decided[seat]):
            items.append(GameButton(ids.button(tid, "ask", "tichu"),
                                    label=t(locale, "button.tichu"),
                                    style=discord.ButtonStyle.danger, row=4))
    if table.private and phase is Phase.GAME_OVER:
        # A daily board played to its end: its result, and the way back to the day.
        items = [GameButton(ids.button(tid, "dresult"), label=t(locale, "daily.result_button"),
                            style=discord.ButtonStyle.primary, row=0)]
        event = str(table.record.options.get("event", ""))
        if event.startswith("daily:"):
            items.append(GameButton(ids.button(0, "dhome", event.removeprefix("daily:")),
                                    label=t(locale, "daily.home_button"),
                                    style=discord.ButtonStyle.secondary, row=0))
    if not asking and hints_allowed(table) and has_decision(table, seat):
        items.append(GameButton(ids.button(tid, "hint"), label=t(locale, "button.hint"),
                                emoji="💡", style=discord.ButtonStyle.secondary, row=4))
    if table.private and game.history:
        # Played alone, with no table message: the last board's review is here.
        items.append(GameButton(ids.button(tid, "review", str(len(game.history) - 1)),
                                label=t(locale, "button.review_board"),
                                style=discord.ButtonStyle.secondary, row=4))
    items.append(GameButton(ids.button(tid, "refresh"), label=t(locale, "button.refresh"),
                            emoji="🔄", style=discord.ButtonStyle.secondary, row=4))
    selected = [c for c in exchange_picks(view, draft) if c is not None] \
        if phase is Phase.EXCHANGE else []
    if whole:
        boards = len(game.boards) if isinstance(game, BoardsGame) else None
        public = game.view(None)
        image = await offload(render_position, public, view, names, locale=locale,
                              selected=selected, boards=boards)
        alt = position_alt(public, view, names, locale, selected=selected, boards=boards)
        if isinstance(game, BoardsGame) and game.history:
            diff = game.diffs(seat % 2)[-1]
            lines.insert(0, t(locale, "hand.board_over", number=len(game.history),
                              diff=f"+{diff}" if diff > 0 else signed(diff)))
    elif image is None:
        image = await offload(render_hand, view, locale=locale, selected=selected)
        alt = hand_alt(view, names, locale, selected=selected)
    return HandMessage("\n".join(lines), image, view_of(*items), alt=alt)


def _play_line(view: TichuView, locale: str, *, bombs_only: bool, offered: bool) -> str:
    if view.turn == view.seat and not bombs_only:
        if view.top is None:
            return t(locale, "hand.your_lead")
        return t(locale, "hand.your_turn", combo=combo_name(locale, view.top))
    if not offered:
        return t(locale, "hand.waiting")
    return t(locale, "hand.waiting_bomb")


def _play_items(table: Table, view: TichuView, locale: str, draft: dict[str, Any], *,
                bombs_only: bool) -> list[Control]:
    """The play menu: the plays (grouped by kind when they do not fit one select, paged
    past 25) and, for long lists, the card-by-card picker. Off turn: the bombs."""
    seat = view.seat
    assert seat is not None
    plays = legal_plays(view)
    on_turn = view.turn == seat and not bombs_only
    if not on_turn:
        plays = [p for p in plays if p.is_bomb]
    if not plays:
        return []
    move = table.moves[seat]
    index = index_of(view)
    kinds, shown, pages = menu_pages(plays, draft.get("kind") if on_turn else None)
    page = draft.get("page", 0) if isinstance(draft.get("page"), int) else 0
    page = min(max(page, 0), len(pages) - 1)
    items: list[Control] = []
    counts = grouped_plays(plays)
    if kinds:
        items.append(GameSelect(
            ids.select(table.id, "kind", seq=move),
            options=[discord.SelectOption(
                label=t(locale, f"kind.{k}", count=len(counts[k]))[:100], value=k,
                default=k == shown) for k in kinds],
            placeholder=t(locale, "select.kind")[:150], row=0))
    placeholder = t(locale, "select.play" if on_turn else "select.bomb")
    if len(pages) > 1:
        placeholder = t(locale, "select.play_page", page=page + 1, pages=len(pages))
    items.append(GameSelect(ids.select(table.id, "play", seq=move),
                            options=[play_option(locale, p, index) for p in pages[page]],
                            placeholder=placeholder[:150], row=1))
    if len(pages) > 1:
        items.append(GameButton(ids.button(table.id, "page", str(page - 1), seq=move),
                                label="◀", disabled=page == 0, row=3))
        items.append(GameButton(ids.button(table.id, "page", str(page + 1), seq=move),
                                label="▶", disabled=page == len(pages) - 1, row=3))
    if kinds and on_turn:
        cards = sorted_hand(view.hand)
        options = [
            discord.SelectOption(label=f"#{i + 1} {card_label(locale, c)}"[:100],
                                 value=str(int(c)))
            for i, c in enumerate(cards)
        ]
        items.append(GameSelect(ids.select(table.id, "cards", seq=move), options=options,
                                placeholder=t(locale, "select.build")[:150], min_values=1,
                                max_values=len(options), row=2))
    return items


def _exchange_items(table: Table, view: TichuView, chosen: tuple[Card | None, ...],
                    locale: str, names: list[str]) -> list[Control]:
    index = index_of(view)
    cards = sorted_hand(view.hand)
    targets = exchange_targets(view)
    items: list[Control] = []
    for slot, (key, target) in enumerate(zip(EXCHANGE_SLOTS[len(targets)], targets,
                                             strict=True)):
        taken = {c for i, c in enumerate(chosen) if c is not None and i != slot}
        options = [
            discord.SelectOption(label=f"#{index[c]} {card_label(locale, c)}"[:100],
                                 value=str(int(c)), default=chosen[slot] == c)
            for c in cards if c not in taken
        ]
        placeholder = t(locale, f"select.give_{key}", name=names[target])
        items.append(GameSelect(ids.select(table.id, "ex", str(slot)),
                                options=options[:MAX_OPTIONS], placeholder=placeholder[:150],
                                row=slot))
    ready = all(c is not None for c in chosen)
    items.append(GameButton(ids.button(table.id, "exok"),
                            label=t(locale, "button.confirm_exchange"),
                            style=discord.ButtonStyle.success, disabled=not ready, row=3))
    return items


def choice_step(view: TichuView, cards: tuple[Card, ...]) -> str | None:
    """What must still be asked before playing ``cards``: ``wish``, ``phoenix``, ``dog``
    (six players: which of two partners gets the Dog's lead) or None."""
    if MAHJONG in cards:
        return "wish"
    if cards == (DOG,) and len(dog_targets(view)) > 1:
        return "dog"
    if PHOENIX in cards and len(cards) > 1:
        top = view.top
        legal = {r.phoenix for r in readings(cards, top) if beats(r, top)}
        if len(legal) > 1:
            return "phoenix"
    return None


def wish_items(table: Table, seat: int, cards: tuple[Card, ...],
               locale: str) -> list[Control]:
    options = [discord.SelectOption(label=t(locale, "wish.none"), value="none")]
    options += [discord.SelectOption(label=rank_name(locale, r), value=str(r))
                for r in range(2, 15)]
    move = table.moves[seat]
    return [GameSelect(ids.select(table.id, "wish", ids.encode_cards(cards), seq=move),
                       options=options, placeholder=t(locale, "select.wish")[:150], row=0),
            GameButton(ids.button(table.id, "cancel"), label=t(locale, "button.cancel"),
                       style=discord.ButtonStyle.secondary, row=1)]


def dog_items(table: Table, seat: int, view: TichuView, names: list[str],
              locale: str) -> list[Control]:
    """Six players: the partner who gets the Dog's lead (both still hold cards)."""
    move = table.moves[seat]
    items: list[Control] = [
        GameButton(ids.button(table.id, "dog", str(target), seq=move),
                   label=t(locale, "button.dog", name=names[target])[:80],
                   style=discord.ButtonStyle.primary, row=0)
        for target in dog_targets(view)]
    items.append(GameButton(ids.button(table.id, "cancel"), label=t(locale, "button.cancel"),
                            style=discord.ButtonStyle.secondary, row=1))
    return items


def phoenix_items(table: Table, seat: int, view: TichuView, cards: tuple[Card, ...],
                  locale: str) -> list[Control]:
    top = view.top
    options = [
        discord.SelectOption(label=combo_name(locale, r)[:100], value=str(r.phoenix))
        for r in readings(cards, top) if beats(r, top) and r.phoenix is not None
    ]
    move = table.moves[seat]
    return [GameSelect(ids.select(table.id, "phx", ids.encode_cards(cards), seq=move),
                       options=options, placeholder=t(locale, "select.phoenix")[:150], row=0),
            GameButton(ids.button(table.id, "cancel"), label=t(locale, "button.cancel"),
                       style=discord.ButtonStyle.secondary, row=1)]

"""A seat's own images: its hand (with menu indices) and its three exchange gifts."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.cards import (
    CARD_W,
    SHADOW_PAD,
    back_sprite,
    card_height,
    card_sprite,
    shadow_sprite,
    shadowed_sprite,
)
from bot.render.draw import (
    GOLD,
    GREEN,
    INK,
    MUTED,
    PANEL_STRONG,
    RGB,
    TEXT,
    canvas,
    draw_text,
    fit_size,
    glow,
    paste,
    pill,
    team_color,
    text_width,
)
from bot.render.encoding import encode
from bot.render.fonts import font
from bot.render.labels import label
from bot.render.seats import Side, seat_at, seat_name, side_of
from engine.cards import Card
from engine.tichu.cards import PHOENIX, RANK, SUIT, sort_key
from engine.tichu.view import Call, TichuView

HAND_W = 1040
MARGIN = 28
CARD_TOP = 128
RAISE = 28
H_HAND = 470
ARROWS = {Side.LEFT: "◀", Side.PARTNER: "▲", Side.RIGHT: "▶"}
SIDE_COLORS: dict[Side, RGB] = {
    Side.LEFT: (186, 130, 255),
    Side.PARTNER: (110, 214, 120),
    Side.RIGHT: (255, 150, 60),
}
BOMB_COLORS: tuple[RGB, ...] = ((236, 70, 60), (226, 90, 220), (255, 150, 40), (240, 60, 130))


@dataclass(frozen=True, slots=True)
class Bomb:
    """A bomb found in a hand: a four of a kind or a straight flush of 5+ cards."""

    kind: str
    """``"four"`` or ``"straight_flush"``."""
    cards: frozenset[Card]


def sorted_hand(cards: Sequence[Card]) -> list[Card]:
    """The hand in display order (Dog, Mahjong, 2..A, Phoenix, Dragon; then by suit).

    Card ``i`` of this list carries the index ``i + 1`` under it in the hand image:
    select menus must label cards in this same order.
    """
    return sorted(cards, key=sort_key)


def find_bombs(cards: Collection[Card]) -> list[Bomb]:
    """Every four of a kind, and every maximal run of 5+ cards of one suit, in ``cards``."""
    naturals = [c for c in cards if c < 52]
    bombs: list[Bomb] = []
    by_rank: dict[int, list[Card]] = {}
    for c in naturals:
        by_rank.setdefault(RANK[c], []).append(c)
    for rank in sorted(by_rank):
        if len(by_rank[rank]) == 4:
            bombs.append(Bomb("four", frozenset(by_rank[rank])))
    for suit in range(4):
        ranks = {RANK[c]: c for c in naturals if SUIT[c] == suit}
        run: list[Card] = []
        for rank in range(2, 16):
            if rank in ranks:
                run.append(ranks[rank])
                continue
            if len(run) >= 5:
                bombs.append(Bomb("straight_flush", frozenset(run)))
            run = []
    return bombs


def _legend_chip_width(symbol: str, text: str) -> float:
    return text_width(text, 18, "bold") + text_width(symbol, 18, "bold") + 30


def legend_width(items: list[tuple[str, RGB, str]]) -> float:
    """The width of the legend chips of ``items``, with the gaps between them."""
    return sum(_legend_chip_width(symbol, text) + 8 for symbol, _, text in items)


def _legend(d: ImageDraw.ImageDraw, items: list[tuple[str, RGB, str]], right: float,
            y: float) -> None:
    """Legend chips (symbol, colour, text) right-aligned at ``right``."""
    x = right
    for symbol, color, text in reversed(items):
        w = _legend_chip_width(symbol, text)
        box = (x - w, y, x, y + 32)
        d.rounded_rectangle(box, radius=16, fill=(0, 0, 0, 110))
        d.text((box[0] + 12, y + 17), symbol, font=font(18, "bold"), fill=color, anchor="lm")
        d.text((box[2] - 12, y + 17), text, font=font(18, "bold"), fill=TEXT, anchor="rm")
        x -= w + 8


Mark = tuple[str, RGB, str]
"""(arrow, colour, legend text) of a card received in the exchange."""


def _received_marks(view: TichuView, locale: str) -> dict[int, Mark]:
    """The mark of each received card, by card: ◀ left, ▲ partner, ▶ right with four
    seats; ◀ left partner, ▶ right partner with six (gifts come from partners only)."""
    me = view.seat if view.seat is not None else 0
    marks: dict[int, Mark] = {}
    for giver, card in view.received.items():
        if view.n_seats == 6:
            offset = (giver - me) % 6
            if offset not in (2, 4):
                continue
            side = Side.LEFT if offset == 4 else Side.RIGHT
            marks[int(card)] = (ARROWS[side], SIDE_COLORS[side],
                                label(locale, f"from_{side.value}_partner"))
            continue
        side = side_of(me, giver, view.n_seats)
        if side in SIDE_COLORS:
            marks[int(card)] = (ARROWS[side], SIDE_COLORS[side],
                                label(locale, f"from_{side.value}"))
    return marks


def draw_hand(view: TichuView, locale: str = "en",
              selected: Collection[Card] = ()) -> Image.Image:
    """The hand image of a seat's view, before encoding."""
    if view.seat is None:
        raise ValueError("render_hand needs a seat's view, not the public view")
    me = view.seat
    cards = sorted_hand(view.hand)
    n = len(cards)
    img, d = canvas((HAND_W, H_HAND))
    chosen = {int(c) for c in selected}
    received = _received_marks(view, locale)
    bombs = find_bombs(cards)
    # header: title, count and call; legend on the right
    count = label(locale, "cards_n" if n != 1 else "card_n", n=n)
    title = f"{label(locale, 'your_hand')} · {count}"
    d.rounded_rectangle((12, 12, HAND_W - 12, 68), radius=14, fill=PANEL_STRONG)
    d.ellipse((28, 31, 46, 49), fill=team_color(me % 2))
    legend: list[tuple[str, RGB, str]] = []
    if bombs:
        legend.append(("▬", BOMB_COLORS[0], label(locale, "bomb")))
    for mark in sorted(set(received.values()), key=lambda m: "◀▲▶".index(m[0])):
        legend.append(mark)
    _legend(d, legend, HAND_W - 24, 24)
    # the title (and the call) keep to the room the legend leaves: smaller, then cut
    call = view.calls[me] if me < len(view.calls) else None
    call_text = label(locale, "grand_tichu" if call is Call.GRAND_TICHU else "tichu")
    call_w = text_width(call_text, 18, "bold") + 18 + 14 if call is not None else 0
    room = HAND_W - 24 - legend_width(legend) - 8 - 56 - call_w
    title, size = fit_size(title, room, 24, "bold", 20)
    draw_text(d, (56, 40), title, size, "bold", TEXT, "lm")
    x_call = 56 + text_width(title, size, "bold") + 14
    if call is not None:
        big = call is Call.GRAND_TICHU
        pill(d, x_call, 24, call_text, 18,
             (214, 40, 46, 235) if big else (*GOLD, 240), TEXT if big else INK, height=32)
    if n == 0:
        return img
    step = min(96.0, (HAND_W - 2 * MARGIN - CARD_W) / max(n - 1, 1))
    total = CARD_W + step * (n - 1)
    x0 = (HAND_W - total) / 2
    ch = card_height(CARD_W)
    for i, c in enumerate(cards):
        x = x0 + i * step
        top = CARD_TOP - (RAISE if int(c) in chosen else 0)
        if c == PHOENIX:
            paste(img, glow((CARD_W + 120, ch + 120), (255, 120, 30), 200), (x - 60, top - 60))
        paste(img, shadowed_sprite(c, CARD_W), (x - SHADOW_PAD, top - SHADOW_PAD))
        if int(c) in chosen:
            d.rounded_rectangle((x - 2, top - 2, x + CARD_W + 1, top + ch + 1), radius=12,
                                outline=GOLD, width=4)
        got = received.get(int(c))
        if got is not None:
            arrow, color, _ = got
            d.rounded_rectangle((x - 2, top - 2, x + CARD_W + 1, top + ch + 1), radius=12,
                                outline=color, width=4)
            tag_w = min(step - 6, 52)
            d.rounded_rectangle((x + 2, top - 36, x + 2 + tag_w, top - 6), radius=10,
                                fill=(*color, 255))
            d.text((x + 2 + tag_w / 2, top - 20), arrow, font=font(20, "bold"),
                   fill=INK, anchor="mm")
    # bomb bars and menu indices under each card's visible strip
    strip = min(step, CARD_W)
    bar_y = CARD_TOP + ch + 10
    for b_index, bomb in enumerate(bombs):
        color = BOMB_COLORS[b_index % len(BOMB_COLORS)]
        y = bar_y + 9 * (b_index % 2)
        for i, c in enumerate(cards):
            if c in bomb.cards:
                x = x0 + i * step
                d.rounded_rectangle((x + 3, y, x + strip - 3, y + 6), radius=3, fill=color)
    num_y = bar_y + 46
    for i, c in enumerate(cards):
        cx = x0 + i * step + strip / 2
        sel = int(c) in chosen
        d.ellipse((cx - 18, num_y - 18, cx + 18, num_y + 18),
                  fill=GOLD if sel else (250, 248, 240), outline=(0, 0, 0, 120), width=2)
        d.text((cx, num_y + 1), str(i + 1), font=font(20, "bold"), fill=INK, anchor="mm")
    return img


def render_hand(view: TichuView, *, locale: str = "en",
                selected: Collection[Card] = ()) -> bytes:
    """Image of the seat's hand, sorted with :func:`sorted_hand`, each card numbered
    1..n underneath (the select menu's labels), bombs underlined, the Phoenix
    glowing, the cards just received in the exchange outlined with an arrow
    towards their giver (◀ left, ▲ partner, ▶ right), and ``selected`` raised.

    Raises ValueError for the public view.
    """
    return encode(draw_hand(view, locale, selected))


EX_W, EX_H = 1000, 540
_EX_SLOTS = ((Side.LEFT, 200), (Side.PARTNER, 500), (Side.RIGHT, 800))


def _exchange_slots(me: int, n_seats: int) -> list[tuple[str, int, RGB, str, str, float]]:
    """(chosen key, target seat, colour, caption, "to ..." line key, centre x) per slot.

    Four seats: the left opponent, the partner and the right opponent. Six seats: the
    two partners, two places away on either side (the exchange goes to partners only).
    """
    if n_seats == 6:
        return [("left", (me - 2) % 6, SIDE_COLORS[Side.LEFT], "◀ left_partner",
                 "to_left_partner", 300),
                ("right", (me + 2) % 6, SIDE_COLORS[Side.RIGHT], "▶ right_partner",
                 "to_right_partner", 700)]
    return [(side.value, seat_at(me, side, n_seats), SIDE_COLORS[side],
             f"{ARROWS[side]} {side.value}", f"to_{side.value}", cx) for side, cx in _EX_SLOTS]


def _name_room(slots: Sequence[tuple[str, int, RGB, str, str, float]], cx: float) -> float:
    """The width a name centred at ``cx`` may take: up to halfway to the next slot's
    centre, and clear of the image's edges."""
    room = 2 * (min(cx, EX_W - cx) - 24)
    for other in slots:
        if other[5] != cx:
            room = min(room, abs(other[5] - cx) - 20)
    return room


def draw_exchange(view: TichuView, left: Card | None, partner: Card | None,
                  right: Card | None, names: Sequence[str],
                  locale: str = "en") -> Image.Image:
    """The exchange image, before encoding."""
    if view.seat is None:
        raise ValueError("render_exchange needs a seat's view, not the public view")
    six = view.n_seats == 6
    if six and partner is not None:
        raise ValueError("with six seats the exchange goes to the left and right partners")
    me = view.seat
    img, d = canvas((EX_W, EX_H))
    d.rounded_rectangle((12, 12, EX_W - 12, 68), radius=14, fill=PANEL_STRONG)
    title = label(locale, "exchange_title_six" if six else "exchange_title")
    draw_text(d, (EX_W / 2, 40), title, 26, "bold", TEXT, "mm")
    chosen = {"left": left, "partner": partner, "right": right}
    slots = _exchange_slots(me, view.n_seats)
    ch = card_height(CARD_W)
    top = 142
    for key, seat, color, caption_key, to_key, cx in slots:
        arrow, _, word = caption_key.partition(" ")
        caption = f"{arrow} {label(locale, word)}"
        name, name_size = fit_size(seat_name(names, seat), _name_room(slots, cx), 22, "bold",
                                   18)
        pill(d, cx, 86, caption, 20, (*color, 240), INK, height=34, align="center")
        card = chosen[key]
        x = cx - CARD_W / 2
        if card is None:
            d.rounded_rectangle((x, top, x + CARD_W, top + ch), radius=14, fill=(0, 0, 0, 70),
                                outline=(255, 255, 255, 110), width=3)
            back = back_sprite(CARD_W // 2)
            paste(img, back, (cx - back.width / 2, top + 40))
            draw_text(d, (cx, top + ch - 48), label(locale, "not_chosen"), 20, "bold", MUTED,
                      "mm")
        else:
            paste(img, shadow_sprite(CARD_W, 6, 120), (x - 12 + 3, top - 12 + 6))
            paste(img, card_sprite(card, CARD_W), (x, top))
            d.rounded_rectangle((x - 3, top - 3, x + CARD_W + 2, top + ch + 2), radius=13,
                                outline=color, width=4)
        draw_text(d, (cx, top + ch + 30), name, name_size, "bold", team_color(seat % 2), "mm")
        draw_text(d, (cx, top + ch + 60), label(locale, to_key), 18, "regular", MUTED, "mm")
    done = sum(chosen[slot[0]] is not None for slot in slots)
    total = len(slots)
    hint = label(locale, "exchange_hint") if done == total else f"{done}/{total}"
    draw_text(d, (EX_W / 2, EX_H - 36), hint, 20, "bold", GREEN if done == total else MUTED,
              "mm")
    return img


def render_exchange(view: TichuView, left: Card | None, partner: Card | None,
                    right: Card | None, names: Sequence[str], *, locale: str = "en") -> bytes:
    """The three cards chosen for the left opponent, the partner and the right
    opponent (labelled with their names), before the seat confirms; an empty slot
    shows a card back. With six seats, the two cards for the partner on the left
    (``left``, seat - 2) and on the right (``right``, seat + 2); ``partner`` must
    then be None. Raises ValueError for the public view.
    """
    if len(names) < view.n_seats:
        raise ValueError(f"need {view.n_seats} names, got {len(names)}")
    return encode(draw_exchange(view, left, partner, right, names, locale))

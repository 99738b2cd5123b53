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
    fit,
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


def _legend(d: ImageDraw.ImageDraw, items: list[tuple[str, RGB, str]], right: float,
            y: float) -> None:
    """Legend chips (symbol, colour, text) right-aligned at ``right``."""
    x = right
    for symbol, color, text in reversed(items):
        w = text_width(text, 18, "bold") + text_width(symbol, 18, "bold") + 30
        box = (x - w, y, x, y + 32)
        d.rounded_rectangle(box, radius=16, fill=(0, 0, 0, 110))
        d.text((box[0] + 12, y + 17), symbol, font=font(18, "bold"), fill=color, anchor="lm")
        d.text((box[2] - 12, y + 17), text, font=font(18, "bold"), fill=TEXT, anchor="rm")
        x -= w + 8


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
    received = {int(card): side_of(me, giver, view.n_seats) for giver, card in
                view.received.items()}
    bombs = find_bombs(cards)
    # header: title, count and call; legend on the right
    count = label(locale, "cards_n" if n != 1 else "card_n", n=n)
    title = f"{label(locale, 'your_hand')} · {count}"
    d.rounded_rectangle((12, 12, HAND_W - 12, 68), radius=14, fill=PANEL_STRONG)
    d.ellipse((28, 31, 46, 49), fill=team_color(me % 2))
    draw_text(d, (56, 40), title, 24, "bold", TEXT, "lm")
    x_call = 56 + text_width(title, 24, "bold") + 14
    call = view.calls[me] if me < len(view.calls) else None
    if call is not None:
        big = call is Call.GRAND_TICHU
        pill(d, x_call, 24, label(locale, "grand_tichu" if big else "tichu"), 18,
             (214, 40, 46, 235) if big else (*GOLD, 240), TEXT if big else INK, height=32)
    legend: list[tuple[str, RGB, str]] = []
    if bombs:
        legend.append(("▬", BOMB_COLORS[0], label(locale, "bomb")))
    for side in (Side.LEFT, Side.PARTNER, Side.RIGHT):
        if side in received.values():
            legend.append((ARROWS[side], SIDE_COLORS[side], label(locale, f"from_{side.value}")))
    _legend(d, legend, HAND_W - 24, 24)
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
        giver = received.get(int(c))
        if giver is not None and giver in SIDE_COLORS:
            color = SIDE_COLORS[giver]
            d.rounded_rectangle((x - 2, top - 2, x + CARD_W + 1, top + ch + 1), radius=12,
                                outline=color, width=4)
            tag_w = min(step - 6, 52)
            d.rounded_rectangle((x + 2, top - 36, x + 2 + tag_w, top - 6), radius=10,
                                fill=(*color, 255))
            d.text((x + 2 + tag_w / 2, top - 20), ARROWS[giver], font=font(20, "bold"),
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
    """PNG of the seat's hand, sorted with :func:`sorted_hand`, each card numbered
    1..n underneath (the select menu's labels), bombs underlined, the Phoenix
    glowing, the cards just received in the exchange outlined with an arrow
    towards their giver (◀ left, ▲ partner, ▶ right), and ``selected`` raised.

    Raises ValueError for the public view.
    """
    return encode(draw_hand(view, locale, selected))


EX_W, EX_H = 1000, 540
_EX_SLOTS = ((Side.LEFT, 200), (Side.PARTNER, 500), (Side.RIGHT, 800))


def draw_exchange(view: TichuView, left: Card | None, partner: Card | None,
                  right: Card | None, names: Sequence[str],
                  locale: str = "en") -> Image.Image:
    """The exchange image, before encoding."""
    if view.seat is None:
        raise ValueError("render_exchange needs a seat's view, not the public view")
    me = view.seat
    img, d = canvas((EX_W, EX_H))
    d.rounded_rectangle((12, 12, EX_W - 12, 68), radius=14, fill=PANEL_STRONG)
    draw_text(d, (EX_W / 2, 40), label(locale, "exchange_title"), 26, "bold", TEXT, "mm")
    chosen = {Side.LEFT: left, Side.PARTNER: partner, Side.RIGHT: right}
    ch = card_height(CARD_W)
    top = 142
    for side, cx in _EX_SLOTS:
        seat = seat_at(me, side, view.n_seats)
        color = SIDE_COLORS[side]
        caption = f"{ARROWS[side]} {label(locale, side.value)}"
        name = fit(seat_name(names, seat), 270, 22, "bold")
        pill(d, cx, 86, caption, 20, (*color, 240), INK, height=34, align="center")
        card = chosen[side]
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
        draw_text(d, (cx, top + ch + 30), name, 22, "bold", team_color(seat % 2), "mm")
        draw_text(d, (cx, top + ch + 60), label(locale, f"to_{side.value}"), 18, "regular",
                  MUTED, "mm")
    done = sum(c is not None for c in chosen.values())
    hint = label(locale, "exchange_hint") if done == 3 else f"{done}/3"
    draw_text(d, (EX_W / 2, EX_H - 36), hint, 20, "bold", GREEN if done == 3 else MUTED, "mm")
    return img


def render_exchange(view: TichuView, left: Card | None, partner: Card | None,
                    right: Card | None, names: Sequence[str], *, locale: str = "en") -> bytes:
    """PNG of the three cards chosen for the left opponent, the partner and the right
    opponent (labelled with their names), before the seat confirms; an empty slot
    shows a card back. Raises ValueError for the public view.
    """
    if len(names) < view.n_seats:
        raise ValueError(f"need {view.n_seats} names, got {len(names)}")
    return encode(draw_exchange(view, left, partner, right, names, locale))

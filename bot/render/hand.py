"""A seat's own images: its hand (with menu indices) and its three exchange gifts."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.cards import (
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
from bot.render.encoding import EncodingCache, encode, encode_panel
from bot.render.fonts import Weight, font
from bot.render.labels import fit_label, label, log, short_label
from bot.render.seats import Side, seat_at, seat_name, side_of
from engine.cards import Card
from engine.tichu.cards import PHOENIX, RANK, SUIT, sort_key
from engine.tichu.view import Call, TichuView

HAND_W = 1100
"""Twice the 550 px Discord shows a lone image in on desktop; on a phone it is shown about
320 px wide, so every text is at least :data:`SMALL` and a card :data:`HAND_CARD_W` wide:
their capitals and ranks show 8 px tall there."""
SMALL = 38
HAND_CARD_W = 258
"""A card's corner index is 0.108 of its width: 28 px, as :data:`SMALL` texts."""
MARGIN = 24
LEGEND_Y = 99
"""The middle of the legend's line, under the header."""
CARD_TOP = 180
RAISE = 30
H_HAND = 640
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


def _legend(d: ImageDraw.ImageDraw, items: list[tuple[str, RGB, str]], left: float,
            right: float, cy: float, locale: str) -> None:
    """Legend chips (symbol, colour, label key) from ``left`` up to ``right``: every label
    whole, or all in their short forms when the whole ones do not fit together."""
    weight: Weight = "condensed-bold"
    f = font(SMALL, weight)
    _, cap, _, _ = f.getbbox("H", anchor="ls")

    def chip_w(symbol: str, text: str) -> float:
        return text_width(text, SMALL, weight) + text_width(symbol, SMALL, weight) + 36

    texts = [label(locale, key) for _, _, key in items]
    if sum(chip_w(s, text) + 10 for (s, _, _), text in zip(items, texts, strict=True)) \
            > right - left + 10:
        texts = [short_label(locale, key) or text
                 for (_, _, key), text in zip(items, texts, strict=True)]
    x = left
    for (symbol, color, key), text in zip(items, texts, strict=True):
        w = chip_w(symbol, text)
        if x + w > right:
            log.warning("the %s legend has no room for %r", locale, key)
            break
        d.rounded_rectangle((x, cy - 22, x + w, cy + 22), radius=22, fill=(0, 0, 0, 120))
        d.text((x + 12, cy - cap / 2), symbol, font=f, fill=color, anchor="ls")
        d.text((x + w - 12, cy - cap / 2), text, font=f, fill=TEXT, anchor="rs")
        x += w + 10


Mark = tuple[str, RGB, str]
"""(arrow, colour, legend label key) of a card received in the exchange."""


def received_marks(view: TichuView) -> dict[int, Mark]:
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
            marks[int(card)] = (ARROWS[side], SIDE_COLORS[side], f"from_{side.value}_partner")
            continue
        side = side_of(me, giver, view.n_seats)
        if side in SIDE_COLORS:
            marks[int(card)] = (ARROWS[side], SIDE_COLORS[side], f"from_{side.value}")
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
    received = received_marks(view)
    bombs = find_bombs(cards)
    # header: title, count and call; the legend on the line under it
    count = label(locale, "cards_n" if n != 1 else "card_n", n=n)
    title = f"{label(locale, 'your_hand')} · {count}"
    d.rounded_rectangle((12, 10, HAND_W - 12, 72), radius=14, fill=PANEL_STRONG)
    d.ellipse((28, 30, 50, 52), fill=team_color(me % 2))
    call = view.calls[me] if me < len(view.calls) else None
    call_text = label(locale, "grand_tichu" if call is Call.GRAND_TICHU else "tichu")
    call_w = text_width(call_text, SMALL, "condensed-bold") + 24 if call is not None else 0
    title, size = fit_size(title, HAND_W - 90 - call_w - 30, 44, "bold", SMALL)
    draw_text(d, (62, 41), title, size, "bold", TEXT, "lm")
    if call is not None:
        big = call is Call.GRAND_TICHU
        x_call = 62 + text_width(title, size, "bold") + 18
        pill(d, x_call, 20, call_text, SMALL, (214, 40, 46, 235) if big else (*GOLD, 240),
             TEXT if big else INK, weight="condensed-bold", pad=12, height=44)
    legend: list[tuple[str, RGB, str]] = []
    if bombs:
        legend.append(("▬", BOMB_COLORS[0], "bomb"))
    for mark in sorted(set(received.values()), key=lambda m: "◀▲▶".index(m[0])):
        legend.append(mark)
    _legend(d, legend, 20, HAND_W - 20, LEGEND_Y, locale)
    if n == 0:
        return img
    cw = HAND_CARD_W
    step = min(110.0, (HAND_W - 2 * MARGIN - cw) / max(n - 1, 1))
    total = cw + step * (n - 1)
    x0 = (HAND_W - total) / 2
    ch = card_height(cw)
    tag_f = font(SMALL, "bold")
    for i, c in enumerate(cards):
        x = x0 + i * step
        top = CARD_TOP - (RAISE if int(c) in chosen else 0)
        if c == PHOENIX:
            paste(img, glow((cw + 120, ch + 120), (255, 120, 30), 200), (x - 60, top - 60))
        paste(img, shadowed_sprite(c, cw), (x - SHADOW_PAD, top - SHADOW_PAD))
        if int(c) in chosen:
            d.rounded_rectangle((x - 2, top - 2, x + cw + 1, top + ch + 1), radius=16,
                                outline=GOLD, width=5)
        got = received.get(int(c))
        if got is not None:
            arrow, color, _ = got
            d.rounded_rectangle((x - 2, top - 2, x + cw + 1, top + ch + 1), radius=16,
                                outline=color, width=5)
            tag_w = min(step - 6, 64)
            d.rounded_rectangle((x + 2, top - 50, x + 2 + tag_w, top - 6), radius=12,
                                fill=(*color, 255))
            d.text((x + 2 + tag_w / 2, top - 28), arrow, font=tag_f, fill=INK, anchor="mm")
    strip = min(step, cw)
    under_cards(d, cards, bombs, chosen, x0, step, strip, CARD_TOP + ch + 8, H_HAND - 40, 28.0)
    return img


def under_cards(d: ImageDraw.ImageDraw, cards: Sequence[Card], bombs: Sequence[Bomb],
                chosen: Collection[int], x0: float, step: float, strip: float, bar_y: float,
                num_y: float, radius: float) -> None:
    """Under each card's visible strip (``strip`` wide, every ``step`` from ``x0``): a bar
    under each bomb's cards from ``bar_y``, and the card's menu index in a disc centred
    on ``num_y`` (gold when the card is ``chosen``), as large as the strip allows."""
    for b_index, bomb in enumerate(bombs):
        color = BOMB_COLORS[b_index % len(BOMB_COLORS)]
        y = bar_y + 10 * (b_index % 2)
        for i, c in enumerate(cards):
            if c in bomb.cards:
                x = x0 + i * step
                d.rounded_rectangle((x + 3, y, x + strip - 3, y + 7), radius=3, fill=color)
    num_f = font(SMALL, "condensed-bold")
    _, cap, _, _ = num_f.getbbox("H", anchor="ls")
    radius = min(radius, strip / 2 - 1)
    for i, c in enumerate(cards):
        cx = x0 + i * step + strip / 2
        d.ellipse((cx - radius, num_y - radius, cx + radius, num_y + radius),
                  fill=GOLD if int(c) in chosen else (250, 248, 240), outline=(0, 0, 0, 120),
                  width=2)
        d.text((cx, num_y - cap / 2), str(i + 1), font=num_f, fill=INK, anchor="ms")


HANDS_KEPT = 8 * 1024 * 1024
"""The most bytes of hand pictures :func:`render_hand` keeps (per process)."""
_hands = EncodingCache(HANDS_KEPT)


def hand_key(view: TichuView, locale: str, selected: Collection[Card]) -> tuple[object, ...]:
    """Everything :func:`draw_hand` reads: equal keys draw equal pictures."""
    me = view.seat
    call = view.calls[me] if me is not None and me < len(view.calls) else None
    return (me, view.n_seats, tuple(view.hand), call, tuple(sorted(view.received.items())),
            locale, tuple(sorted(int(c) for c in selected)))


def render_hand(view: TichuView, *, locale: str = "en",
                selected: Collection[Card] = ()) -> bytes:
    """Image of the seat's hand, sorted with :func:`sorted_hand`, each card numbered
    1..n underneath (the select menu's labels), bombs underlined, the Phoenix
    glowing, the cards just received in the exchange outlined with an arrow
    towards their giver (◀ left, ▲ partner, ▶ right), and ``selected`` raised.

    A hand is drawn again, unchanged, after every move that leaves it as it was (a pass,
    the others' plays that the panel follows): the last pictures are kept by what they
    show (:func:`hand_key`), and neither drawn nor encoded again.

    Raises ValueError for the public view.
    """
    if view.seat is None:
        raise ValueError("render_hand needs a seat's view, not the public view")
    key = hand_key(view, locale, selected)
    image = _hands.get(key)
    if image is None:
        image = encode(draw_hand(view, locale, selected), kept=False)
        _hands.put(key, image)
    return image


EX_W, EX_H = 1100, 680
_EX_SLOTS = ((Side.LEFT, 190), (Side.PARTNER, 550), (Side.RIGHT, 910))


def _exchange_slots(me: int, n_seats: int) -> list[tuple[str, int, RGB, str, str, float]]:
    """(chosen key, target seat, colour, caption, "to ..." line key, centre x) per slot.

    Four seats: the left opponent, the partner and the right opponent. Six seats: the
    two partners, two places away on either side (the exchange goes to partners only).
    """
    if n_seats == 6:
        return [("left", (me - 2) % 6, SIDE_COLORS[Side.LEFT], "◀ left_partner",
                 "to_left_partner", 310),
                ("right", (me + 2) % 6, SIDE_COLORS[Side.RIGHT], "▶ right_partner",
                 "to_right_partner", 790)]
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
    d.rounded_rectangle((12, 10, EX_W - 12, 72), radius=14, fill=PANEL_STRONG)
    title, size, _ = fit_label(locale, "exchange_title_six" if six else "exchange_title",
                               EX_W - 48, 44, "bold", min_size=SMALL)
    draw_text(d, (EX_W / 2, 41), title, size, "bold", TEXT, "mm")
    chosen = {"left": left, "partner": partner, "right": right}
    slots = _exchange_slots(me, view.n_seats)
    cw = HAND_CARD_W
    ch = card_height(cw)
    top = 142
    for key, seat, color, caption_key, to_key, cx in slots:
        arrow, _, word = caption_key.partition(" ")
        room = _name_room(slots, cx)
        caption = f"{arrow} " + fit_label(
            locale, word, room - 24 - text_width(f"{arrow} ", SMALL, "condensed-bold"), SMALL,
            "condensed-bold").text
        name, name_size = fit_size(seat_name(names, seat), room, 44, "bold", SMALL)
        pill(d, cx, 82, caption, SMALL, (*color, 240), INK, weight="condensed-bold", pad=12,
             height=46, align="center")
        card = chosen[key]
        x = cx - cw / 2
        if card is None:
            d.rounded_rectangle((x, top, x + cw, top + ch), radius=18, fill=(0, 0, 0, 70),
                                outline=(255, 255, 255, 110), width=3)
            back = back_sprite(cw // 2)
            paste(img, back, (cx - back.width / 2, top + 40))
            draw_text(d, (cx, top + ch - 52), fit_label(locale, "not_chosen", cw - 16, SMALL,
                                                        "condensed-bold").text,
                      SMALL, "condensed-bold", MUTED, "mm")
        else:
            paste(img, shadow_sprite(cw, 6, 120), (x - 12 + 3, top - 12 + 6))
            paste(img, card_sprite(card, cw), (x, top))
            d.rounded_rectangle((x - 3, top - 3, x + cw + 2, top + ch + 2), radius=17,
                                outline=color, width=5)
        draw_text(d, (cx, top + ch + 36), name, name_size, "bold", team_color(seat % 2), "mm")
        draw_text(d, (cx, top + ch + 80), fit_label(locale, to_key, room, SMALL,
                                                    "condensed-bold").text,
                  SMALL, "condensed-bold", MUTED, "mm")
    done = sum(chosen[slot[0]] is not None for slot in slots)
    total = len(slots)
    hint = (fit_label(locale, "exchange_hint", EX_W - 48, SMALL, "bold").text
            if done == total else f"{done}/{total}")
    draw_text(d, (EX_W / 2, EX_H - 36), hint, SMALL, "bold", GREEN if done == total else MUTED,
              "mm")
    return img


def render_exchange(view: TichuView, left: Card | None, partner: Card | None,
                    right: Card | None, names: Sequence[str], *, locale: str = "en") -> bytes:
    """The three cards chosen for the left opponent, the partner and the right
    opponent (labelled with their names), before the seat confirms; an empty slot
    shows a card back. With six seats, the two cards for the partner on the left
    (``left``, seat - 2) and on the right (``right``, seat + 2); ``partner`` must
    then be None. Raises ValueError for the public view. A live panel's picture, drawn
    at each pick of an exchange (at a table's first deal, every seat of every table seated
    in one wave picks at once): encoded as a live panel's
    (:func:`~bot.render.encoding.encode_panel`).
    """
    if len(names) < view.n_seats:
        raise ValueError(f"need {view.n_seats} names, got {len(names)}")
    return encode_panel(draw_exchange(view, left, partner, right, names, locale))

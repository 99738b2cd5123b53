"""A position as one picture: the public table with the seat's own hand under it.

Discord shows several images of one message as a mosaic of cropped tiles, so a message
that needs the table and the hand together (the private panel of a table played alone,
such as a daily board, and each decision of a coach's review) sends this one picture.

The hand is a strip of card tiles (:mod:`bot.render.tiles`), numbered as the menus
number the cards, under the table (:mod:`bot.render.table`): 1100 × 878 in all, shown
about 0.40 of its size on desktop and 0.29 on a phone, where its smallest texts and
ranks are still 11 and 8 px tall.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from bot.render.draw import GOLD, INK, canvas, paste
from bot.render.encoding import encode
from bot.render.fonts import font
from bot.render.hand import BOMB_COLORS, _received_marks, find_bombs, sorted_hand
from bot.render.table import SIZE, SMALL, draw_table
from bot.render.tiles import card_tile, tile_height
from engine.cards import Card
from engine.tichu.view import TichuView

STRIP_TILE_W = 76
"""The hand's tiles: their ``10`` is 28 px tall, as the table's smallest texts."""
STRIP_H = 184
RAISE = 8


def draw_hand_strip(view: TichuView, selected: Collection[Card] = (),
                    width: int = SIZE[0]) -> Image.Image:
    """The seat's hand as a row of numbered tiles ``width`` pixels wide: the cards received
    in the exchange outlined in the giver's colour, bombs underlined, ``selected`` raised."""
    if view.seat is None:
        raise ValueError("the hand strip needs a seat's view, not the public view")
    img, d = canvas((width, STRIP_H))
    cards = sorted_hand(view.hand)
    n = len(cards)
    if n == 0:
        return img
    tw = STRIP_TILE_W
    th = tile_height(tw)
    step = min(tw + 6.0, (width - 28 - tw) / max(n - 1, 1))
    x0 = (width - tw - step * (n - 1)) / 2
    top = 12 + RAISE
    chosen = {int(c) for c in selected}
    received = _received_marks(view, "en")
    for i, c in enumerate(cards):
        x = x0 + i * step
        y = top - (RAISE if int(c) in chosen else 0)
        paste(img, card_tile(c, tw), (x, y))
        outline = GOLD if int(c) in chosen else None
        got = received.get(int(c))
        if got is not None:
            outline = got[1]
        if outline is not None:
            d.rounded_rectangle((x - 2, y - 2, x + tw + 1, y + th + 1), radius=11,
                                outline=outline, width=5)
    strip = min(step, tw)
    bar_y = top + th + 4
    for b_index, bomb in enumerate(find_bombs(cards)):
        color = BOMB_COLORS[b_index % len(BOMB_COLORS)]
        y = bar_y + 8 * (b_index % 2)
        for i, c in enumerate(cards):
            if c in bomb.cards:
                x = x0 + i * step
                d.rounded_rectangle((x + 3, y, x + strip - 3, y + 6), radius=3, fill=color)
    num_f = font(SMALL, "condensed-bold")
    _, cap, _, _ = num_f.getbbox("H", anchor="ls")
    num_y = STRIP_H - 32
    radius = min(25.0, strip / 2 - 1)
    for i, c in enumerate(cards):
        cx = x0 + i * step + strip / 2
        sel = int(c) in chosen
        d.ellipse((cx - radius, num_y - radius, cx + radius, num_y + radius),
                  fill=GOLD if sel else (250, 248, 240), outline=(0, 0, 0, 120), width=2)
        d.text((cx, num_y - cap / 2), str(i + 1), font=num_f, fill=INK, anchor="ms")
    return img


def draw_position(public: TichuView, seat_view: TichuView, names: Sequence[str],
                  locale: str = "en", *, selected: Collection[Card] = (),
                  boards: int | None = None) -> Image.Image:
    """The table of ``public`` with the hand of ``seat_view`` under it, before encoding."""
    if seat_view.seat is None:
        raise ValueError("the position's hand needs a seat's view")
    table = draw_table(public, names, locale, boards)
    img = Image.new("RGB", (table.width, table.height + STRIP_H))
    img.paste(table, (0, 0))
    img.paste(draw_hand_strip(seat_view, selected, table.width), (0, table.height))
    ImageDraw.Draw(img).line((16, table.height, table.width - 16, table.height),
                             fill=(0, 0, 0), width=2)
    return img


def render_position(public: TichuView, seat_view: TichuView, names: Sequence[str], *,
                    locale: str = "en", selected: Collection[Card] = (),
                    boards: int | None = None) -> bytes:
    """:func:`draw_position`, encoded (:data:`bot.render.encoding.IMAGE_FORMAT`). The table
    reads only the public view; the hand only ``seat_view``'s own cards."""
    return encode(draw_position(public, seat_view, names, locale, selected=selected,
                                boards=boards))

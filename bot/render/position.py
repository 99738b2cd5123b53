"""A position as one picture: the public table with the seat's own hand under it.

Discord shows several images of one message as a mosaic of cropped tiles, so a message
that needs the table and the hand together (the private panel of a table played alone,
such as a daily board, and each decision of a coach's review) sends this one picture.

The hand is a strip of card tiles (:mod:`bot.render.tiles`), numbered as the menus
number the cards, under the table (:mod:`bot.render.table`): 1100 × 878 in all, shown
about 0.40 of its size on desktop and 0.29 on a phone, where its smallest texts and
ranks are still 11 and 8 px tall.

At a table in DMs every seat's panel is such a picture, and a move redraws them all: the
table is drawn once for them (:data:`tables`, the latest tables drawn, by the view they
show), each seat's hand pasted under it, and the picture encoded as a live panel's
(:func:`~bot.render.encoding.encode_panel`: JPEG, five times quicker than WebP).
"""

from __future__ import annotations

import io
import pickle
import threading
from collections import OrderedDict
from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from bot.render.draw import GOLD, canvas, paste
from bot.render.encoding import encode_panel
from bot.render.hand import find_bombs, received_marks, sorted_hand, under_cards
from bot.render.table import SIZE, draw_table
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
    received = received_marks(view)  # only their colours are drawn, never their words
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
    under_cards(d, cards, find_bombs(cards), chosen, x0, step, strip, top + th + 4,
                STRIP_H - 32, 25.0)
    return img


TABLES_KEPT = 24
"""The table pictures :data:`tables` keeps (1100 × 700 RGB, 2.3 MB each)."""


class TableCache:
    """The latest table pictures drawn, by what they were drawn from (the public view, the
    names, the language, the boards; thread-safe): the seats of one table, each drawn its
    panel after a move, share one drawing of the table. Never changed once drawn: the
    callers paste it into pictures of their own."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[bytes, Image.Image] = OrderedDict()
        self._lock = threading.Lock()

    def table(self, public: TichuView, names: Sequence[str], locale: str,
              boards: int | None) -> Image.Image:
        """:func:`~bot.render.table.draw_table` of these, drawn only if not kept."""
        key = pickle.dumps((public, tuple(names), locale, boards))
        with self._lock:
            kept = self._entries.get(key)
            if kept is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return kept
            self.misses += 1
        drawn = draw_table(public, names, locale, boards)
        with self._lock:
            self._entries[key] = drawn
            while len(self._entries) > self.limit:
                self._entries.popitem(last=False)
        return drawn


tables = TableCache(TABLES_KEPT)
"""The process's table pictures of :func:`draw_position`."""


def draw_position(public: TichuView, seat_view: TichuView, names: Sequence[str],
                  locale: str = "en", *, selected: Collection[Card] = (),
                  boards: int | None = None) -> Image.Image:
    """The table of ``public`` with the hand of ``seat_view`` under it, before encoding."""
    if seat_view.seat is None:
        raise ValueError("the position's hand needs a seat's view")
    table = tables.table(public, names, locale, boards)
    img = Image.new("RGB", (table.width, table.height + STRIP_H))
    img.paste(table, (0, 0))
    img.paste(draw_hand_strip(seat_view, selected, table.width), (0, table.height))
    ImageDraw.Draw(img).line((16, table.height, table.width - 16, table.height),
                             fill=(0, 0, 0), width=2)
    return img


def render_position(public: TichuView, seat_view: TichuView, names: Sequence[str], *,
                    locale: str = "en", selected: Collection[Card] = (),
                    boards: int | None = None) -> bytes:
    """:func:`draw_position`, encoded as a live panel (:data:`bot.render.encoding.PANEL_FORMAT`). The table
    reads only the public view; the hand only ``seat_view``'s own cards."""
    return encode_panel(draw_position(public, seat_view, names, locale, selected=selected,
                                      boards=boards))


def render_stacked(top: bytes, bottom: bytes) -> bytes:
    """Two rendered pictures as one, ``top`` over ``bottom``, each centred on the felt:
    for a game whose hand panel shows the hand alone, the table's picture with the hand
    under it (a direct message's panel), as :func:`render_position` draws Tichu's."""
    upper = Image.open(io.BytesIO(top)).convert("RGB")
    lower = Image.open(io.BytesIO(bottom)).convert("RGB")
    width = max(upper.width, lower.width)
    img, _ = canvas((width, upper.height + lower.height))
    img.paste(upper, ((width - upper.width) // 2, 0))
    img.paste(lower, ((width - lower.width) // 2, upper.height))
    return encode_panel(img)

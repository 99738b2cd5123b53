"""Card tiles: a card drawn small but legible, for the public table's trick.

A full card (:mod:`bot.render.cards`) shows its rank in a corner index a tenth of its
width tall: to be read on a phone, where the table is shown at about 0.3 of its size,
it would have to fill half the table. A tile is the card's index alone, large: the rank
(or a special card's corner figure) over its suit symbol, on the card's face, in the
suit's colours. The rank is a text, drawn with the font the legibility measure reads.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.art.geometry import Pen, downsample
from bot.render.art.specials import SPECIAL_CORNERS
from bot.render.art.suits import Deck, style, suit_icon
from bot.render.fonts import Weight, font
from engine.cards import ALL

TILE_RATIO = 1.4
"""A tile's height over its width, as a card's."""
FACE = (252, 248, 236)
EDGE = (74, 50, 28)


def tile_height(width: int) -> int:
    return round(width * TILE_RATIO)


def rank_size(width: int, text: str) -> tuple[int, Weight]:
    """The font size and weight of a tile's rank: as large as the tile's width allows (a
    two-digit ``10`` condensed)."""
    if len(text) > 1:
        return round(width * 0.52), "condensed-bold"
    return round(width * 0.6), "bold"


def index_height(width: int) -> float:
    """The cap height of the smaller of a tile's ranks (``10``), ``width`` pixels wide."""
    size, weight = rank_size(width, "10")
    _, top, _, bottom = font(size, weight).getbbox("10", anchor="ls")
    return float(bottom - top)


def card_tile(card: int, width: int, deck: Deck = Deck.TICHU) -> Image.Image:
    """The RGBA tile of ``card``, ``width`` pixels wide (cached; do not modify it)."""
    return _tile(int(card), width, deck)


@lru_cache(maxsize=512)
def _tile(card: int, width: int, deck: Deck) -> Image.Image:
    c = ALL[card]
    h = tile_height(width)
    img = Image.new("RGBA", (width, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = max(6, width // 8)
    d.rounded_rectangle((0, 0, width - 1, h - 1), radius=radius, fill=FACE, outline=EDGE,
                        width=max(2, width // 30))
    token = str(c)
    if c.suit is None:  # a special card: its corner figure, large
        big = Image.new("RGBA", (width * 4, h * 4), (0, 0, 0, 0))
        size = width * 4 * 0.58  # the figure and the small one under it: 2 sizes tall
        SPECIAL_CORNERS[token](Pen(big), width * 2, h * 4 * 0.08 + size * 0.55, size)
        img.alpha_composite(downsample(big, 4))
        return img
    ink = style(deck, c.suit).ink
    text = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(c.rank, str(c.rank))
    size, weight = rank_size(width, text)
    d.text((width / 2, h * 0.36), text, font=font(size, weight), fill=ink, anchor="mm")
    icon = suit_icon(deck, c.suit, round(width * 0.42))
    img.alpha_composite(icon, (round((width - icon.width) / 2), round(h * 0.62)))
    return img

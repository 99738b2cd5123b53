"""Warm-up of a rendering process or thread: fonts, the card sprites the pictures draw, the
encoder.

The images no longer share a learnt palette (they are WebP, see
:mod:`bot.render.encoding`); the module keeps its name because
``bot.workers`` calls :func:`warm_up` in each worker process at start-up.

A card is scaled from its stored art and shadowed the first time a picture draws it at a
size, then kept (:mod:`bot.render.cards`, :mod:`bot.render.tiles`). At the hands' 258
pixels that takes about 6 ms a card: a worker that had not drawn them yet spent up to 80
ms more on a new deal's first hand, between a click and the panel that answers it. So
the warm-up makes every Tichu sprite the panels draw (the hand, the exchange) and the
tiles of the usual trick and of a private table's hand, before the first table: about
half a second of each worker's time at start-up, and some 60 MiB that a worker's caches
hold anyway once it has drawn a few deals. Chinois's and Tysiacha's cards, and the
narrower tiles of long plays, are made when first drawn.
"""

from __future__ import annotations

from bot.render.cards import back_sprite, shadow_sprite, shadowed_sprite
from bot.render.draw import canvas, draw_text
from bot.render.encoding import encode
from bot.render.hand import EX_H, EX_W, H_HAND, HAND_CARD_W, HAND_W
from bot.render.position import STRIP_H, STRIP_TILE_W
from bot.render.table import BACK_W, SIZE, TILE_W, layout
from bot.render.tiles import card_tile
from engine.tichu.cards import DECK


def warm_up() -> None:
    """Load the fonts and the encoder, and make the card sprites and tiles the Tichu
    panels and tables draw, at their sizes, once per process (optional, at start-up)."""
    img, d = canvas((64, 64))
    draw_text(d, (4, 4), "Tichu", 20, "regular")
    draw_text(d, (4, 4), "Tichu", 20, "bold")
    for size in ((HAND_W, H_HAND), (EX_W, EX_H), layout(4).size, layout(6).size,
                 (SIZE[0], STRIP_H)):
        canvas(size)  # its felt, kept
    for card in DECK:
        shadowed_sprite(card, HAND_CARD_W)  # the hand; unshadowed, the exchange's cards
        for width in (TILE_W, STRIP_TILE_W):  # the trick; a private table's hand
            card_tile(card, width)
    back_sprite(BACK_W)
    back_sprite(HAND_CARD_W // 2)
    shadow_sprite(HAND_CARD_W, 6, 120)
    encode(img)

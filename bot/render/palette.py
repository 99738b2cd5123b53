"""Warm-up of a rendering process or thread: fonts, card sprites and the encoder.

The images no longer share a learnt palette (they are WebP, see
:mod:`bot.render.encoding`); the module keeps its name because
``bot.workers`` calls :func:`warm_up` in each worker process at start-up.
"""

from __future__ import annotations

from bot.render.cards import CARD_W, back_sprite, card_sprite
from bot.render.draw import canvas, draw_text
from bot.render.encoding import encode
from engine.tichu.cards import DECK


def warm_up() -> None:
    """Load the fonts, every Tichu card sprite and the encoder once (optional, at start-up)."""
    img, d = canvas((64, 64))
    draw_text(d, (4, 4), "Tichu", 20, "regular")
    draw_text(d, (4, 4), "Tichu", 20, "bold")
    for card in DECK:
        card_sprite(card, CARD_W)
    back_sprite(46)
    encode(img)

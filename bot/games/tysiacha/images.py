"""Tysiacha's own images, drawn in worker processes: the prikup reveal.

Every function here is module-level and takes plain, picklable arguments, so
:func:`bot.workers.offload` can send it to a worker process.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.cards import Deck, card_height, card_sprite, shadow_sprite
from bot.render.draw import PANEL_STRONG, TEXT, canvas, draw_text, encode, fit, paste
from engine.cards import ALL, Card
from engine.trick import strength
from engine.tysiacha.cards import ORDER

PRIKUP_W, PRIKUP_H = 640, 330
PRIKUP_CARD_W = 150


def hand_key(c: Card) -> tuple[int, int]:
    """Display order of a Tysiacha hand: by suit (c d h s), then A 10 K Q J 9."""
    return (c & 3, -strength(c, ORDER))


def render_prikup(cards: Sequence[int], title: str) -> bytes:
    """PNG of the three prikup cards face up, under ``title``."""
    img, d = canvas((PRIKUP_W, PRIKUP_H))
    d.rounded_rectangle((12, 12, PRIKUP_W - 12, 64), radius=14, fill=PANEL_STRONG)
    draw_text(d, (28, 38), fit(title, PRIKUP_W - 56, 24, "bold"), 24, "bold", TEXT, "lm")
    n = len(cards)
    gap = 24
    total = n * PRIKUP_CARD_W + (n - 1) * gap
    x = (PRIKUP_W - total) / 2
    y = 84 + (PRIKUP_H - 84 - 16 - card_height(PRIKUP_CARD_W)) / 2
    for value in cards:
        shadow = shadow_sprite(PRIKUP_CARD_W, 5, 110)
        paste(img, shadow, (x - (shadow.width - PRIKUP_CARD_W) / 2 + 3,
                            y - (shadow.height - card_height(PRIKUP_CARD_W)) / 2 + 5))
        paste(img, card_sprite(ALL[int(value)], PRIKUP_CARD_W, Deck.FRENCH), (x, y))
        x += PRIKUP_CARD_W + gap
    return encode(img)

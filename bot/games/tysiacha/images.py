"""Tysiacha's own images, drawn in worker processes: the prikup reveal.

Every function here is module-level and takes plain, picklable arguments, so
:func:`bot.workers.offload` can send it to a worker process.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.cards import SHADOW_PAD, Deck, card_height, shadowed_sprite
from bot.render.draw import canvas, encode, paste
from bot.render.french import CARD_W, HAND_W, draw_header, header_height, header_lines
from engine.cards import ALL, Card
from engine.trick import strength
from engine.tysiacha.cards import ORDER

PRIKUP_GAP = 48
"""Between two cards of the prikup."""


def hand_key(c: Card) -> tuple[int, int]:
    """Display order of a Tysiacha hand: by suit (c d h s), then A 10 K Q J 9."""
    return (c & 3, -strength(c, ORDER))


def render_prikup(cards: Sequence[int], title: str) -> bytes:
    """The three prikup cards face up, under ``title``: drawn as the hand draws its cards
    (:mod:`bot.render.french`, the same width and header), 1100 px wide; a title too long
    for one line takes two."""
    lines, size = header_lines(title, HAND_W)
    top = header_height(len(lines)) + 28
    ch = card_height(CARD_W)
    img, d = canvas((HAND_W, top + ch + 36))
    draw_header(d, HAND_W, lines, size)
    n = len(cards)
    x = (HAND_W - n * CARD_W - (n - 1) * PRIKUP_GAP) / 2
    for value in cards:
        paste(img, shadowed_sprite(ALL[int(value)], CARD_W, Deck.FRENCH),
              (x - SHADOW_PAD, top - SHADOW_PAD))
        x += CARD_W + PRIKUP_GAP
    return encode(img)

"""A hand of French cards (Chinois, Tysiacha): the cards in order, numbered for the menus,
the ones that may be played now lifted and the others dimmed.

Drawn for the size Discord shows it at (:mod:`bot.render.display`): 1100 px wide, shown at
half size on desktop and about 0.29 on a phone, so every text is at least :data:`SMALL`
pixels and a card :data:`CARD_W` wide, whose corner index is as tall (the Tichu hand's
size). Up to 13 cards (a Chinois round of 13; Tysiacha holds 7 to 10) keep their
corner index in view.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render.cards import SHADOW_PAD, Deck, card_height, shadowed_sprite
from bot.render.draw import (
    GOLD,
    INK,
    PANEL_STRONG,
    TEXT,
    canvas,
    draw_text,
    encode,
    fit_size,
    paste,
    wrap,
)
from bot.render.fonts import font
from bot.render.labels import label
from engine.cards import Card

HAND_W = 1100
"""Twice the 550 px Discord shows a lone image in on desktop."""
SMALL = 38
"""The smallest text: its cap height (28 px) shows 8 px tall on a phone."""
TITLE_SIZE = 44
"""The header's title, shrunk down to :data:`SMALL` before it is cut."""
CARD_W = 258
"""A card's corner index is 0.108 of its width: 28 px, as :data:`SMALL` texts."""
MARGIN = 24
HEADER_BOTTOM = 72
LIFT = 30
CARD_TOP = HEADER_BOTTOM + 18 + LIFT
STEP = 110
"""The widest step between two cards (a short hand); a long one overlaps more."""
HEIGHT = CARD_TOP + 361 + 98
"""The cards, and the line of their numbers under them."""


def ordered(cards: Sequence[Card], key: Callable[[Card], Any]) -> list[Card]:
    """The hand in display order (the same order as the menu's numbers)."""
    return sorted(cards, key=key)


def header_lines(title: str, width: int) -> tuple[list[str], int]:
    """The header's lines and their size: one line, shrunk down to :data:`SMALL`; a title
    still too long at that size takes two lines (then it is cut)."""
    text, size = fit_size(title, width - 64, TITLE_SIZE, "bold", SMALL)
    if text == title:
        return [text], size
    return wrap(title, width - 64, SMALL, "bold", 2), SMALL


def header_height(lines: int) -> int:
    """The bottom of a header band of ``lines`` lines."""
    return HEADER_BOTTOM + 46 * (lines - 1)


def draw_header(d: ImageDraw.ImageDraw, width: int, lines: list[str], size: int) -> None:
    """The band at the top of an image with its title, in one or two lines, centred."""
    bottom = header_height(len(lines))
    d.rounded_rectangle((12, 10, width - 12, bottom), radius=14, fill=PANEL_STRONG)
    y = (10 + bottom) / 2 - 23 * (len(lines) - 1)
    for line in lines:
        draw_text(d, (width / 2, y), line, size, "bold", TEXT, "mm")
        y += 46


def draw_french_hand(cards: Sequence[Card], *, key: Callable[[Card], Any],
                     playable: Collection[Card] | None = None, title: str = "",
                     locale: str = "en") -> Image.Image:
    """The image before encoding; see :func:`render_french_hand`."""
    hand = ordered(cards, key)
    n = len(hand)
    img, d = canvas((HAND_W, HEIGHT))
    count = label(locale, "cards_n" if n != 1 else "card_n", n=n)
    heading = f"{label(locale, 'your_hand')} · {count}"
    if title:
        heading += f" · {title}"
    text, size = fit_size(heading, HAND_W - 64, TITLE_SIZE, "bold", SMALL)
    draw_header(d, HAND_W, [text], size)
    if not n:
        return img
    can = None if playable is None else {int(c) for c in playable}
    step = min(float(STEP), (HAND_W - 2 * MARGIN - CARD_W) / max(n - 1, 1))
    x0 = (HAND_W - CARD_W - step * (n - 1)) / 2
    ch = card_height(CARD_W)
    for i, c in enumerate(hand):
        x = x0 + i * step
        lifted = can is not None and int(c) in can
        top = CARD_TOP - (LIFT if lifted else 0)
        if can is not None and not lifted:
            paste(img, _dimmed(c), (x - SHADOW_PAD, top - SHADOW_PAD))
        else:
            paste(img, shadowed_sprite(c, CARD_W, Deck.FRENCH), (x - SHADOW_PAD, top - SHADOW_PAD))
        if lifted:
            d.rounded_rectangle((x - 2, top - 2, x + CARD_W + 1, top + ch + 1), radius=16,
                                outline=GOLD, width=5)
    strip = min(step, CARD_W)
    num_y = HEIGHT - 46
    num_f = font(SMALL, "condensed-bold")
    _, cap, _, _ = num_f.getbbox("H", anchor="ls")
    radius = min(28.0, strip / 2 - 1)
    for i, c in enumerate(hand):
        cx = x0 + i * step + strip / 2
        on = can is not None and int(c) in can
        d.ellipse((cx - radius, num_y - radius, cx + radius, num_y + radius),
                  fill=GOLD if on else (250, 248, 240), outline=(0, 0, 0, 120), width=2)
        d.text((cx, num_y - cap / 2), str(i + 1), font=num_f, fill=INK, anchor="ms")
    return img


@lru_cache(maxsize=64)
def _dimmed(card: Card) -> Image.Image:
    """A card that may not be played now, with its shadow: darker, still opaque (cached)."""
    r, g, b, a = shadowed_sprite(card, CARD_W, Deck.FRENCH).split()
    r, g, b = (channel.point(lambda v: v * 3 // 5) for channel in (r, g, b))
    return Image.merge("RGBA", (r, g, b, a))


def render_french_hand(cards: Sequence[Card], *, key: Callable[[Card], Any],
                       playable: Collection[Card] | None = None, title: str = "",
                       locale: str = "en") -> bytes:
    """Image of a French-card hand sorted by ``key`` and numbered 1..n underneath (the
    menu's labels), under a header with the count and ``title``. With ``playable``, those
    cards are lifted and outlined and the others dimmed. ``key`` must be a module-level
    function (it travels to workers). 1100 px wide: no text under :data:`SMALL`."""
    return encode(draw_french_hand(cards, key=key, playable=playable, title=title,
                                   locale=locale))


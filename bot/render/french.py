"""A hand of French cards (Chinois, Tysiacha): the cards in order, numbered for the menus,
the ones that may be played now lifted and the others dimmed."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from bot.render.cards import CARD_W, Deck, card_height, card_sprite
from bot.render.draw import GOLD, INK, PANEL_STRONG, TEXT, canvas, draw_text, encode, paste
from bot.render.fonts import font
from bot.render.labels import label
from engine.cards import Card

HAND_W = 1000
MARGIN = 28
CARD_TOP = 110
LIFT = 22
HEIGHT = 430


def ordered(cards: Sequence[Card], key: Callable[[Card], Any]) -> list[Card]:
    """The hand in display order (the same order as the menu's numbers)."""
    return sorted(cards, key=key)


def draw_french_hand(cards: Sequence[Card], *, key: Callable[[Card], Any],
                     playable: Collection[Card] | None = None, title: str = "",
                     locale: str = "en") -> Image.Image:
    """The image before encoding; see :func:`render_french_hand`."""
    hand = ordered(cards, key)
    n = len(hand)
    img, d = canvas((HAND_W, HEIGHT))
    d.rounded_rectangle((12, 12, HAND_W - 12, 68), radius=14, fill=PANEL_STRONG)
    count = label(locale, "cards_n" if n != 1 else "card_n", n=n)
    heading = f"{label(locale, 'your_hand')} · {count}"
    if title:
        heading += f" · {title}"
    draw_text(d, (32, 40), heading, 24, "bold", TEXT, "lm")
    if not n:
        return img
    can = None if playable is None else {int(c) for c in playable}
    step = min(90.0, (HAND_W - 2 * MARGIN - CARD_W) / max(n - 1, 1))
    x0 = (HAND_W - CARD_W - step * (n - 1)) / 2
    ch = card_height(CARD_W)
    for i, c in enumerate(hand):
        x = x0 + i * step
        lifted = can is not None and int(c) in can
        top = CARD_TOP - (LIFT if lifted else 0)
        sprite = card_sprite(c, CARD_W, Deck.FRENCH)
        if can is not None and not lifted:
            sprite = _dimmed(c)
        paste(img, sprite, (x, top))
        if lifted:
            d.rounded_rectangle((x - 2, top - 2, x + CARD_W + 1, top + ch + 1), radius=12,
                                outline=GOLD, width=4)
    strip = min(step, CARD_W)
    num_y = CARD_TOP + ch + 36
    for i, c in enumerate(hand):
        cx = x0 + i * step + strip / 2
        on = can is not None and int(c) in can
        d.ellipse((cx - 18, num_y - 18, cx + 18, num_y + 18),
                  fill=GOLD if on else (250, 248, 240), outline=(0, 0, 0, 120), width=2)
        d.text((cx, num_y + 1), str(i + 1), font=font(20, "bold"), fill=INK, anchor="mm")
    return img


@lru_cache(maxsize=64)
def _dimmed(card: Card) -> Image.Image:
    """A card that may not be played now: darker, still opaque (cached)."""
    r, g, b, a = card_sprite(card, CARD_W, Deck.FRENCH).split()
    r, g, b = (channel.point(lambda v: v * 3 // 5) for channel in (r, g, b))
    return Image.merge("RGBA", (r, g, b, a))


def render_french_hand(cards: Sequence[Card], *, key: Callable[[Card], Any],
                       playable: Collection[Card] | None = None, title: str = "",
                       locale: str = "en") -> bytes:
    """Image of a French-card hand sorted by ``key`` and numbered 1..n underneath (the
    menu's labels). With ``playable``, those cards are lifted and outlined and the
    others dimmed. ``key`` must be a module-level function (it travels to workers)."""
    return encode(draw_french_hand(cards, key=key, playable=playable, title=title,
                                   locale=locale))

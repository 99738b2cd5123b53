"""Card sprites: each card PNG loaded from ``assets/cards`` once and scaled once per size.

A missing PNG (a checkout where ``python -m tools.make_art`` was never run) is
drawn on the fly by :mod:`bot.render.art`, so rendering never fails on art.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

import engine.tichu.cards  # noqa: F401  (registers the Tichu specials' tokens)
from bot.render.art.suits import Deck
from bot.render.fonts import ASSETS_DIR
from engine.cards import ALL

CARDS_DIR = ASSETS_DIR / "cards"
CARD_W, CARD_H = 180, 252
"""Stored card size; sprites keep this aspect ratio."""

__all__ = [
    "CARDS_DIR",
    "CARD_H",
    "CARD_W",
    "Deck",
    "back_sprite",
    "card_height",
    "card_sprite",
    "card_token",
    "shadow_sprite",
    "shadowed_sprite",
]


def card_token(card: int) -> str:
    """The notation of a card value (``Ah``, ``Tc``, ``MAHJONG``): also its file name."""
    return str(ALL[int(card)])


def card_height(width: int) -> int:
    """The height of a card sprite ``width`` pixels wide."""
    return round(width * CARD_H / CARD_W)


@lru_cache(maxsize=256)
def _original(deck: Deck, token: str) -> Image.Image:
    path = CARDS_DIR / deck.value / f"{token}.png"
    if path.exists():
        with Image.open(path) as img:
            return img.convert("RGBA")
    from bot.render.art import back_image, card_image  # drawing is the slow fallback

    return back_image(deck) if token == "back" else card_image(deck, token)


@lru_cache(maxsize=2048)
def _scaled(deck: Deck, token: str, width: int) -> Image.Image:
    img = _original(deck, token)
    if width == img.width:
        return img
    return img.resize((width, card_height(width)), Image.Resampling.LANCZOS)


def card_sprite(card: int, width: int = CARD_W, deck: Deck = Deck.TICHU) -> Image.Image:
    """The RGBA image of ``card`` at ``width`` pixels (cached; do not modify it)."""
    if deck is Deck.FRENCH and int(card) >= 52:
        raise ValueError(f"{card_token(card)} is not a French card")
    return _scaled(deck, card_token(card), width)


def back_sprite(width: int, deck: Deck = Deck.TICHU) -> Image.Image:
    """The RGBA back of ``deck`` at ``width`` pixels (cached)."""
    return _scaled(deck, "back", width)


@lru_cache(maxsize=64)
def shadow_sprite(width: int, blur: int = 6, opacity: int = 110) -> Image.Image:
    """A soft card-shaped shadow, ``blur`` pixels wider on every side (cached)."""
    h = card_height(width)
    pad = blur * 2
    mask = Image.new("L", (width + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(mask).rounded_rectangle((pad, pad, pad + width, pad + h),
                                           radius=max(4, width // 16), fill=opacity)
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    shadow = Image.new("RGBA", mask.size, (0, 0, 0, 255))
    shadow.putalpha(mask)
    return shadow


SHADOW_PAD = 12
"""Margin around a :func:`shadowed_sprite` card, on every side."""


@lru_cache(maxsize=512)
def _shadowed(deck: Deck, token: str, width: int) -> Image.Image:
    card = _scaled(deck, token, width)
    blur = 6 if width >= 150 else 4
    shadow = shadow_sprite(width, blur, 110)
    img = Image.new("RGBA", (width + 2 * SHADOW_PAD, card.height + 2 * SHADOW_PAD), (0, 0, 0, 0))
    img.alpha_composite(shadow, (SHADOW_PAD - 2 * blur + 3, SHADOW_PAD - 2 * blur + 5))
    img.alpha_composite(card, (SHADOW_PAD, SHADOW_PAD))
    return img


def shadowed_sprite(card: int, width: int = CARD_W, deck: Deck = Deck.TICHU) -> Image.Image:
    """``card`` with its soft drop shadow, :data:`SHADOW_PAD` pixels of margin around it
    (cached): one paste instead of two."""
    if deck is Deck.FRENCH and int(card) >= 52:
        raise ValueError(f"{card_token(card)} is not a French card")
    return _shadowed(deck, card_token(card), width)

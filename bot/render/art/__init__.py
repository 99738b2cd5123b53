"""Card art drawn by code (used by ``python -m tools.make_art``, not at run time).

The bot itself only loads the PNGs this package produced (see
:mod:`bot.render.cards`); suit icons for the images are the one exception.
"""

from __future__ import annotations

from PIL import Image

from bot.render.art.card import CARD_SIZE, draw_back, draw_natural, draw_special_card, finish
from bot.render.art.suits import Deck

SPECIAL_NAMES = ("MAHJONG", "DOG", "PHOENIX", "DRAGON")

__all__ = ["CARD_SIZE", "SPECIAL_NAMES", "Deck", "back_image", "card_image"]


def card_image(deck: Deck, token: str) -> Image.Image:
    """The finished RGBA image of one card given by its token (``Ah``, ``Tc``, ``DRAGON``)."""
    if token in SPECIAL_NAMES:
        if deck is not Deck.TICHU:
            raise ValueError(f"{token} is not a French card")
        return finish(draw_special_card(token))
    rank = "23456789TJQKA".index(token[0].upper()) + 2
    suit = "cdhs".index(token[1].lower())
    return finish(draw_natural(deck, rank, suit))


def back_image(deck: Deck) -> Image.Image:
    """The finished RGBA image of a deck's back."""
    return finish(draw_back(deck))

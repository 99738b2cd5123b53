"""Cards and combinations named in words, in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n.catalog import t
from engine.tichu.cards import DOG, DRAGON, MAHJONG, PHOENIX, RANK, SUIT
from engine.tichu.combos import Combo, Kind

SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
"""Tichu suits as the deck's stickers show them: jade ♣, pagoda ♦, star ♥, sword ♠."""
_SPECIAL_KEYS: dict[int, str] = {MAHJONG: "card.mahjong", DOG: "card.dog",
                                  PHOENIX: "card.phoenix", DRAGON: "card.dragon"}
_FACE_KEYS = {
    11: ("rank.jack", "rank.jack.plural", "rank.jack.short"),
    12: ("rank.queen", "rank.queen.plural", "rank.queen.short"),
    13: ("rank.king", "rank.king.plural", "rank.king.short"),
    14: ("rank.ace", "rank.ace.plural", "rank.ace.short"),
}
"""The face cards and the Ace: their name, plural and one-letter label (J Q K A in
English and Greek, V D R A in French: Valet, Dame, Roi, As; B D K A in German: Bube,
Dame, König, Ass). The plural is the form a combination names them in: ``Pair of Aces``,
``Drilling Asse``, and in Greek the genitive, ``Ζευγάρι Άσσων``."""


def rank_name(locale: object, rank: float, *, plural: bool = False) -> str:
    """``7``, ``10``, ``Jack``/``Valet`` … (``7s``/``7er``, ``Jacks``/``Valets`` with
    ``plural``)."""
    if rank != int(rank):
        return f"{int(rank)}½" if rank > 1.5 else "1½"
    r = int(rank)
    if r == 1:
        return t(locale, "card.mahjong")
    if 2 <= r <= 10:
        return t(locale, "rank.number.plural", rank=r) if plural else str(r)
    keys = _FACE_KEYS.get(r)
    if keys is None:
        return t(locale, "card.dragon")
    return t(locale, keys[1] if plural else keys[0])


def rank_label(locale: object, rank: int) -> str:
    """A natural rank as printed in a card's corner: ``7``, ``10``; ``J Q K A`` in
    English and Greek, ``V D R A`` in French, ``B D K A`` in German."""
    keys = _FACE_KEYS.get(rank)
    return t(locale, keys[2]) if keys else str(rank)


def card_label(locale: object, card: int) -> str:
    """A card, compact, in the reader's language: ``7♣``, ``10♥``, ``Q♥`` (``D♥`` in
    French and German); a special card by its name (Mahjong/Moineau/Mah Jong/Μα Τζονγκ,
    Dog/Chien/Hund/Σκύλος, Phoenix/Phénix/Phönix/Φοίνικας, Dragon/Drache/Δράκος). Every
    game's cards: the Tichu deck's, and the French (52-card) deck of Chinois and
    Tysiacha."""
    key = _SPECIAL_KEYS.get(card)
    if key is not None:
        return t(locale, key)
    return rank_label(locale, RANK[card]) + SUIT_SYMBOLS[SUIT[card]]


def card_labels(locale: object, cards: Iterable[int]) -> str:
    """Several cards, space-separated: ``D♥ 10♣ Chien``."""
    return " ".join(card_label(locale, c) for c in cards)


def combo_name(locale: object, combo: Combo) -> str:
    """``Pair of 7s``, ``Straight 3–7``, ``Bomb: four 8s``, ``Full house: 8s over 5s`` …"""
    kind = combo.kind
    if kind is Kind.DOG:
        return t(locale, "card.dog")
    if kind is Kind.SINGLE:
        card = combo.cards[0]
        if card == PHOENIX:
            return t(locale, "combo.phoenix_single", value=rank_name(locale, combo.rank))
        return t(locale, "combo.single", card=card_label(locale, card))
    top = int(combo.rank)
    if kind is Kind.PAIR:
        return t(locale, "combo.pair", rank=rank_name(locale, top, plural=True))
    if kind is Kind.TRIPLE:
        return t(locale, "combo.triple", rank=rank_name(locale, top, plural=True))
    if kind is Kind.FOUR_BOMB:
        return t(locale, "combo.four_bomb", rank=rank_name(locale, top, plural=True))
    low = top - (combo.length // 2 if kind is Kind.STAIRS else combo.length) + 1
    span = f"{rank_name(locale, low)}–{rank_name(locale, top)}"
    if kind is Kind.STAIRS:
        return t(locale, "combo.stairs", span=span, pairs=combo.length // 2)
    if kind is Kind.STRAIGHT:
        return t(locale, "combo.straight", span=span)
    if kind is Kind.STRAIGHT_FLUSH:
        return t(locale, "combo.straight_flush", span=span)
    pair_rank = next(RANK[c] for c in combo.cards if c < 52 and RANK[c] != top) \
        if any(c < 52 and RANK[c] != top for c in combo.cards) else top
    return t(locale, "combo.full_house", rank=rank_name(locale, top, plural=True),
             pair=rank_name(locale, pair_rank, plural=True))

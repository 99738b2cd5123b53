"""Cards and combinations named in words, in the reader's language."""

from __future__ import annotations

from bot.i18n.catalog import t
from engine.cards import Card
from engine.tichu.cards import DOG, DRAGON, MAHJONG, PHOENIX, RANK, SUIT
from engine.tichu.combos import Combo, Kind

SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
"""Tichu suits as the deck's stickers show them: jade ♣, pagoda ♦, star ♥, sword ♠."""
_SPECIAL_KEYS = {MAHJONG: "card.mahjong", DOG: "card.dog", PHOENIX: "card.phoenix",
                 DRAGON: "card.dragon"}


def rank_name(locale: object, rank: float, *, plural: bool = False) -> str:
    """``7``, ``10``, ``Jack``/``Valet`` … (``Jacks``/``Valets`` with ``plural``)."""
    if rank != int(rank):
        return f"{int(rank)}½" if rank > 1.5 else "1½"
    r = int(rank)
    if r == 1:
        return t(locale, "card.mahjong")
    if 2 <= r <= 10:
        return str(r) + ("s" if plural and language_is_en(locale) else "")
    key = {11: "rank.jack", 12: "rank.queen", 13: "rank.king", 14: "rank.ace"}.get(r)
    if key is None:
        return t(locale, "card.dragon")
    return t(locale, key + (".plural" if plural else ""))


def language_is_en(locale: object) -> bool:
    from bot.i18n.catalog import language

    return language(locale) == "en"


def card_label(card: Card) -> str:
    """A compact, language-free label: ``7♣``, ``10♥``, ``A♠``; specials by symbol name."""
    if card >= 52:
        return {MAHJONG: "1", DOG: "Dog", PHOENIX: "Phoenix", DRAGON: "Dragon"}[card]
    rank = RANK[card]
    text = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))
    return text + SUIT_SYMBOLS[SUIT[card]]


def card_name(locale: object, card: Card) -> str:
    """A card in words: ``7♣``, or the special card's name in the reader's language."""
    key = _SPECIAL_KEYS.get(card)
    return t(locale, key) if key else card_label(card)


def combo_name(locale: object, combo: Combo) -> str:
    """``Pair of 7s``, ``Straight 3–7``, ``Bomb: four 8s``, ``Full house: 8s over 5s`` …"""
    kind = combo.kind
    if kind is Kind.DOG:
        return t(locale, "card.dog")
    if kind is Kind.SINGLE:
        card = combo.cards[0]
        if card == PHOENIX:
            return t(locale, "combo.phoenix_single", value=rank_name(locale, combo.rank))
        return t(locale, "combo.single", card=card_name(locale, card))
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

"""The shipped art: every card file exists, looks like a card, and is drawn deterministically;
fonts and their licence ship too; the label catalogs are complete."""

from __future__ import annotations

import string

import pytest
from PIL import Image, ImageStat

from bot.render import labels
from bot.render.art import Deck, back_image, card_image
from bot.render.art.suits import suit_icon
from bot.render.cards import CARD_H, CARD_W, CARDS_DIR, card_sprite
from bot.render.draw import text_width
from bot.render.fonts import FONTS_DIR, font
from engine.cards import ALL
from engine.tichu.cards import DECK

TICHU_TOKENS = [str(c) for c in DECK]
FRENCH_TOKENS = [str(c) for c in ALL[:52]]


def _check_card(path_img: Image.Image) -> None:
    img = path_img.convert("RGBA")
    assert img.size == (CARD_W, CARD_H)
    alpha = img.getchannel("A")
    corner, centre = alpha.getpixel((0, 0)), alpha.getpixel((CARD_W // 2, CARD_H // 2))
    assert isinstance(corner, int) and corner < 8, "rounded corners are transparent"
    assert centre == 255, "the face is opaque"
    rgb = Image.new("RGB", img.size, (0, 0, 0))
    rgb.paste(img, mask=alpha)
    colors = rgb.getcolors(maxcolors=1 << 16)
    assert colors is None or len(colors) > 40, "drawn art, not a flat rectangle"
    assert max(ImageStat.Stat(rgb).stddev) > 20


@pytest.mark.parametrize(("deck", "token"), [(Deck.TICHU, t) for t in [*TICHU_TOKENS, "back"]]
                         + [(Deck.FRENCH, t) for t in [*FRENCH_TOKENS, "back"]])
def test_card_file(deck: Deck, token: str) -> None:
    path = CARDS_DIR / deck.value / f"{token}.png"
    assert path.exists(), f"missing {path}: run python -m tools.make_art"
    assert path.stat().st_size < 40 * 1024
    with Image.open(path) as img:
        _check_card(img)


def test_specials_differ_from_each_other() -> None:
    images = [card_sprite(c) for c in DECK[52:]]
    means = [tuple(round(v) for v in ImageStat.Stat(i.convert("RGB")).mean) for i in images]
    assert len(set(means)) == 4


def test_art_is_deterministic() -> None:
    for deck, token in ((Deck.TICHU, "DRAGON"), (Deck.TICHU, "Qd"), (Deck.FRENCH, "Ks")):
        assert card_image(deck, token).tobytes() == card_image(deck, token).tobytes()
    assert back_image(Deck.FRENCH).tobytes() == back_image(Deck.FRENCH).tobytes()


def test_french_deck_has_no_specials() -> None:
    with pytest.raises(ValueError):
        card_image(Deck.FRENCH, "PHOENIX")
    with pytest.raises(ValueError):
        card_sprite(DECK[54], deck=Deck.FRENCH)


def test_suit_icons() -> None:
    for deck in Deck:
        for suit in range(4):
            icon = suit_icon(deck, suit, 48)
            assert icon.size == (48, 48)
            assert icon.getchannel("A").getbbox() is not None


def test_fonts_ship_with_their_licence() -> None:
    assert (FONTS_DIR / "LICENSE-DejaVu.txt").exists()
    for weight in ("regular", "bold", "condensed", "condensed-bold"):
        f = font(20, weight)  # type: ignore[arg-type]
        assert FONTS_DIR.as_posix() in str(f.path)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", ["fr", "de", "el"])
def test_catalogs_are_complete(lang: str) -> None:
    """Every language has every label; a short form (``<key>.short``) is a language's own
    choice, beside its label, with the same placeholders."""
    other = labels.CATALOG[lang]
    assert set(labels.CATALOG) == {"en", "fr", "de", "el"}
    assert {k for k in labels.EN if not k.endswith(".short")} == {
        k for k in other if not k.endswith(".short")}
    for key, text in labels.EN.items():
        assert fields(text) == fields(other[key]), key
    for key, text in other.items():
        base = key.removesuffix(".short")
        if base != key:
            assert base in other and fields(text) == fields(other[base]), key
            assert text_width(text, 38, "bold") < text_width(other[base], 38, "bold"), key


@pytest.mark.parametrize(("locale", "expected"), [
    ("en", "Wish"), ("en-US", "Wish"), ("fr", "Vœu"), ("fr-FR", "Vœu"), ("FR_ca", "Vœu"),
    ("de", "Wunsch"), ("de_AT", "Wunsch"), ("el", "Ευχή"), ("ja", "Wish"), ("es-ES", "Wish"),
    ("", "Wish"), (None, "Wish"),
])
def test_locale_fallback(locale: str | None, expected: str) -> None:
    assert labels.label(locale, "wish") == expected


def test_label_formatting() -> None:
    assert labels.label("fr", "deal_n", n=3) == "Donne 3"
    assert labels.ordinal("en", 2) == "2nd"
    assert labels.ordinal("fr", 1) == "1er"
    assert labels.ordinal("de", 3) == "3."
    assert labels.ordinal("el", 2) == "2ος"
    assert labels.label("el", "deal_n", n=3) == "Γύρος 3"

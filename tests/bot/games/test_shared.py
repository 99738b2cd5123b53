"""The pieces every game's messages share: an image's description (alt text) made of parts
by importance, within Discord's 1,024 characters, shortened cleanly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games.shared import ALT_LIMIT, ELLIPSIS, Part, alt_text, cut, listing, place_said


def test_parts_are_said_in_their_order() -> None:
    assert alt_text(["Bob's turn.", Part("Deal 4.", 2), "Score: 10."]) == \
        "Bob's turn. Deal 4. Score: 10."
    assert alt_text(["", "  ", "Alone."]) == "Alone."


def test_the_least_important_parts_go_first_the_last_of_equals_first() -> None:
    parts = ["Turn.", Part("aaaa", 1), Part("bbbb", 2), Part("cccc", 2)]
    assert alt_text(parts, limit=len("Turn. aaaa bbbb cccc")) == "Turn. aaaa bbbb cccc"
    assert alt_text(parts, limit=19) == "Turn. aaaa bbbb"
    assert alt_text(parts, limit=14) == "Turn. aaaa"
    assert alt_text(parts, limit=9) == "Turn."


def test_a_part_takes_its_short_form_before_it_goes() -> None:
    parts = ["Turn.", Part("seat one, many details", 0, "seat one"), Part("extra", 1, "ex")]
    assert alt_text(parts, limit=100) == "Turn. seat one, many details extra"
    # The less important part shortens, then goes, before the kept one shortens.
    assert alt_text(parts, limit=31) == "Turn. seat one, many details ex"
    assert alt_text(parts, limit=28) == "Turn. seat one, many details"
    assert alt_text(parts, limit=20) == "Turn. seat one"


def test_what_is_still_too_long_is_cut_at_a_word_with_an_ellipsis() -> None:
    text = alt_text(["word " * 300])
    assert len(text) <= ALT_LIMIT and text.endswith("word" + ELLIPSIS)
    assert cut("one two three", 9) == "one two" + ELLIPSIS
    assert cut("short", 9) == "short"
    # One endless word: cut inside it, never over the limit.
    assert cut("x" * 50, 10) == "x" * 9 + ELLIPSIS


@given(st.lists(st.tuples(st.text(min_size=1, max_size=400), st.integers(0, 5),
                          st.one_of(st.none(), st.text(max_size=60))), max_size=12),
       st.integers(20, ALT_LIMIT))
def test_never_over_the_limit_and_never_empty(raw: list[tuple[str, int, str | None]],
                                              limit: int) -> None:
    text = alt_text([Part(words, rank, short) for words, rank, short in raw], limit)
    assert 0 < len(text) <= limit


@pytest.mark.parametrize(("locale", "expected"), [
    ("en", "Alice, Bob and Chloé"), ("fr", "Alice, Bob et Chloé")])
def test_lists_and_places_in_words(locale: str, expected: str) -> None:
    assert listing(locale, ["Alice", "Bob", "Chloé"]) == expected
    assert listing(locale, ["Alice"]) == "Alice"
    assert place_said("en", 1) == "first" and place_said("en", 9) == "9"

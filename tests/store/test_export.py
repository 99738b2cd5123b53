"""The export file written a piece at a time (issue 51): the same text as ``json.dumps``
of the whole document, whatever it holds; plain while it fits the limit, gzipped past it,
and given up as soon as even that is too big."""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.store.export import BATCH, Packed, TooLate, document_file, json_chunks, pack

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20)


@given(st.dictionaries(st.text(), st.tuples(values, st.booleans()), max_size=6))
def test_the_pieces_make_the_text_of_json_dumps(entries: dict[str, tuple[Any, bool]]) -> None:
    """A list given as an iterator (built as it is written) comes out as the list would."""
    document = {key: value for key, (value, _) in entries.items()}
    sections = [(key, iter(value) if lazy and isinstance(value, list) else value)
                for key, (value, lazy) in entries.items()]
    expected = json.dumps(document, ensure_ascii=False, indent=1)
    assert "".join(json_chunks(sections)) == expected


def test_elements_are_built_only_as_they_are_written() -> None:
    built: list[int] = []

    def games() -> Iterator[dict[str, int]]:
        for n in range(3):
            built.append(n)
            yield {"id": n}

    chunks = json_chunks([("format", "x"), ("games", games()), ("empty", False)])
    for chunk in chunks:
        if '"id": 0' in chunk:
            break
    assert built == [0]  # the first written before the second is built
    rest = "".join(chunks)
    assert built == [0, 1, 2] and rest.endswith('\n ],\n "empty": false\n}')


def test_the_file_is_plain_while_it_fits_then_gzipped_then_refused() -> None:
    document = {"games": [{"replay": {"actions": ["pass"] * 500}}] * 40}
    text = json.dumps(document, ensure_ascii=False, indent=1).encode()
    plain = document_file(document, len(text))
    assert plain == Packed(text, packed=False, size=len(text))
    packed = document_file(document, len(text) - 1)
    assert packed is not None and packed.packed and packed.size == len(text)
    assert gzip.decompress(packed.data) == text
    assert len(packed.data) < len(text) // 20
    assert document_file(document, len(packed.data) - 1) is None


def test_a_file_too_big_even_gzipped_is_given_up_early() -> None:
    """Noise does not compress: ``pack`` stops once the compressed part passes the limit,
    without reading the rest (here, endless)."""
    rng = random.Random(5)
    read = 0

    def noise() -> Iterator[str]:
        nonlocal read
        while True:
            read += 1
            yield rng.randbytes(1000).hex()

    assert pack(noise(), 100_000) is None
    assert read < 2_000


def test_a_file_not_made_by_its_deadline_stops_there() -> None:
    """Past its deadline no one would take the file: the work stops at the next piece."""
    read = 0

    def text() -> Iterator[str]:
        nonlocal read
        while True:
            read += 1
            yield "x" * 1000

    with pytest.raises(TooLate):
        pack(text(), 10**9, deadline=0)
    assert read <= BATCH // 1000 + 1

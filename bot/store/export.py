"""The ``/privacy export`` file, made from the store's rows (issue 51).

A heavy player's file is large: 1,000 games and 5,000 reviews make 204 MiB of indented
JSON (7.2 MiB gzipped, 20 s of CPU: ``python -m tools.bench_export``), and Python's
encoder writes indented JSON in pure Python.
So the file is made where it cannot stall the live tables: :func:`make_export` is a plain
function of plain data, which the bot runs in its background process
(:func:`bot.workers.offload_background`), and it writes the file a piece at a time:

- :func:`json_chunks` gives the exact text of ``json.dumps(document, ensure_ascii=False,
  indent=1)``, the file as it always was, key by key and, in the long lists, element by
  element: each game's replay (or review) is read from its row's JSON, written, and
  dropped before the next;
- :func:`pack` keeps the text as it comes while it fits Discord's limit, else gzips it as
  it comes (level 9), and stops as soon as even the compressed file is over the limit, or
  once its deadline has passed (Discord takes the file for 15 minutes after the command).

Nothing here reads the store or knows Discord: the rows come from
:meth:`~bot.store.base.StoreBase.export_rows`.
"""

from __future__ import annotations

import gzip
import io
import json
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.personal import Rows, Section, export_sections

LEVEL = 9
"""gzip's level: the smallest file, so that as much as possible fits Discord's limit."""


@dataclass(frozen=True, slots=True)
class Packed:
    """The file's bytes: JSON, or gzipped JSON."""

    data: bytes
    packed: bool
    """Whether ``data`` is gzipped (the JSON alone was over the limit)."""
    size: int
    """The JSON's bytes (before gzip)."""


@dataclass(frozen=True, slots=True)
class ExportFile:
    """A person's export, ready to send."""

    file: Packed
    empty: bool
    """Nothing is stored about the person (the file says so)."""
    games: int
    """The finished games in it."""


def _dumps(value: object, depth: int) -> str:
    """``value`` as ``json.dumps(..., indent=1)`` writes it ``depth`` levels down: its own
    lines indented by ``depth`` more (JSON text holds no raw newline but these)."""
    text = json.dumps(value, ensure_ascii=False, indent=1)
    return text.replace("\n", "\n" + " " * depth) if depth else text


def json_chunks(sections: Iterable[Section]) -> Iterator[str]:
    """The text of ``json.dumps(dict(sections), ensure_ascii=False, indent=1)``, in
    pieces: a value that is an iterator (a long list, :func:`export_sections`) is
    written one element at a time, each built only when it is written."""
    yield "{"
    first = True
    for key, value in sections:
        yield ("\n " if first else ",\n ") + _dumps(key, 0) + ": "
        first = False
        if not isinstance(value, Iterator):
            yield _dumps(value, 1)
            continue
        opened = False
        for element in value:
            yield ("[\n  " if not opened else ",\n  ") + _dumps(element, 2)
            opened = True
        yield "\n ]" if opened else "[]"
    yield "\n}" if not first else "}"


class TooBig(Exception):
    """Even gzipped, the file is over the limit."""


class TooLate(Exception):
    """The file was not made by its deadline (no one would take it any more)."""


class _File:
    """The file as it is written: its text kept as it comes while it fits the limit;
    past it, all of it gzipped, and the rest gzipped as it comes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.plain: list[bytes] = []
        self.size = 0
        self.packed = io.BytesIO()
        self.gzip: gzip.GzipFile | None = None

    def write(self, data: bytes) -> None:
        self.size += len(data)
        if self.gzip is None:
            self.plain.append(data)
            if self.size <= self.limit:
                return
            self.gzip = gzip.GzipFile(fileobj=self.packed, mode="wb", compresslevel=LEVEL,
                                      mtime=0)
            for piece in self.plain:
                self.gzip.write(piece)
            self.plain.clear()
        else:
            self.gzip.write(data)
        if self.packed.tell() > self.limit:
            raise TooBig

    def close(self) -> Packed:
        if self.gzip is None:
            return Packed(b"".join(self.plain), packed=False, size=self.size)
        self.gzip.close()
        if self.packed.tell() > self.limit:
            raise TooBig
        return Packed(self.packed.getvalue(), packed=True, size=self.size)


BATCH = 1 << 20
"""Characters of text encoded and written at once (fewer, larger writes to gzip)."""


def pack(chunks: Iterable[str], limit: int, deadline: float | None = None) -> Packed | None:
    """The text of ``chunks`` as a file of at most ``limit`` bytes: UTF-8 JSON, or the
    same gzipped when that is over the limit; None when even gzipped it is (found as
    soon as the compressed part passes the limit: the rest is never made). Past
    ``deadline`` (``time.time()``), :class:`TooLate`: the work stops there."""
    out = _File(limit)
    batch: list[str] = []
    held = 0
    try:
        for chunk in chunks:
            batch.append(chunk)
            held += len(chunk)
            if held >= BATCH:
                if deadline is not None and time.time() > deadline:
                    raise TooLate
                out.write("".join(batch).encode())
                batch.clear()
                held = 0
        out.write("".join(batch).encode())
        return out.close()
    except TooBig:
        return None


def make_export(user_id: int, now: datetime, parts: Mapping[str, Rows], limit: int,
                deadline: float | None = None) -> ExportFile | None:
    """A person's export file from the rows of their export
    (:meth:`~bot.store.base.StoreBase.export_rows`), at most ``limit`` bytes (None: too
    big even gzipped; :class:`TooLate` past ``deadline``, a ``time.time()``). The bot runs
    it off the event loop; its bytes, once unpacked, are ``json.dumps(export_document(...),
    ensure_ascii=False, indent=1)``."""
    sections = export_sections(user_id, now, parts)
    empty = bool(dict(sections)["empty"])
    made = pack(json_chunks(sections), limit, deadline)
    if made is None:
        return None
    return ExportFile(file=made, empty=empty, games=len(parts["games"]))


def document_file(document: Mapping[str, Any], limit: int) -> Packed | None:
    """:func:`pack` of a whole document (a file made of a document already built)."""
    return pack(json_chunks(document.items()), limit)

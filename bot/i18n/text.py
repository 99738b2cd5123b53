"""What a person wrote or is called, made text: never a mention, a link or markup.

Every sentence of the bot is a catalogue sentence filled in by :func:`bot.i18n.t`, and
that is the one place where values are escaped: a value that is not the bot's own text
(:class:`Text`: a filled-in sentence, or markup the bot makes on purpose, such as the
mention of a person it pings) is escaped as it goes into the sentence, by the context
the sentence gives it:

- in message text (Discord markdown), :func:`escape`: markdown characters, mentions
  (``@everyone``, ``<@&role>``, ``<#channel>`` …), masked and bare links, and the marks
  that start a heading, a quote or a list are shown as written;
- inside a code span of the sentence (`` `…{name}…` ``), :func:`code`: a code span
  shows everything as written but a backtick, which would close it.

Either way the text is first :func:`clean`: no invisible character that hides or
reverses text (zero-width spaces, bidirectional overrides), no line break, and a name
written right to left is isolated, so that it cannot reorder the sentence around it.

Where Discord shows no markdown (a button's or a menu's label, an image's description,
an embed's footer), a filled-in sentence shows as it reads (:attr:`Text.read`, through
:func:`plain`): its values cleaned, not escaped. Pictures draw names as they are
written, without invisible characters (:func:`visible`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import SupportsIndex

from discord.utils import escape_mentions

__all__ = ["CONTENT", "DESCRIPTION", "TITLE", "Text", "clean", "code", "cut", "escape", "join",
           "plain", "visible"]


class Text(str):
    """Text the bot wrote: a catalogue sentence as filled in (what :func:`bot.i18n.t`
    gives), or markup it makes on purpose (the mention of a person it pings, a live
    timestamp). Goes into a sentence as it is; any other ``str`` is escaped there.

    :attr:`read` is the same sentence as it reads, its values cleaned but not escaped:
    what a label, an image or an image's description shows (:func:`plain`)."""

    read: str

    def __new__(cls, value: str = "", read: str | None = None) -> Text:
        made = super().__new__(cls, value)
        made.read = str(value) if read is None else read
        return made

    def __getitem__(self, key: SupportsIndex | slice) -> str:
        """A slice that keeps all of it (``label[:80]`` of a shorter label) is still this
        sentence; a part of it is only a ``str``."""
        piece = str.__getitem__(self, key)
        return self if piece == self else piece


def plain(text: str) -> str:
    """What ``text`` reads where Discord shows no markdown (a button's or a menu's label,
    an image's description, a picture): a filled-in sentence's :attr:`Text.read`; any
    other text as it is."""
    return text.read if isinstance(text, Text) else text


def join(separator: str, items: Iterable[str]) -> Text:
    """``separator.join(items)`` that stays the bot's text: each item that is not
    :class:`Text` escaped (:func:`escape`), as a sentence would; the separator is the
    bot's. For filled-in sentences that go into another sentence (``str.join`` would
    make them a plain ``str``, escaped a second time there)."""
    made = [item if isinstance(item, Text) else Text(escape(item), clean(item))
            for item in items]
    return Text(separator.join(made), separator.join(m.read for m in made))


_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200e\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]")
"""Characters that show nothing but change what is around them: zero-width spaces and
non-joiners, word joiners, soft hyphens, the byte-order mark, the left-to-right and
right-to-left marks, embeddings, overrides and isolates. (The zero-width joiner stays:
it joins emoji such as 👩‍👩‍👧.)"""
_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
"""Control characters, line and paragraph separators: a name is one line."""
ISOLATE = ("\u2068", "\u2069")
"""First-strong isolate … pop directional isolate, around a name written right to left."""

_INLINE = re.compile(r"[\\*_~|`\[\]<>]|:(?=//)")
"""Markdown's characters anywhere in a line, ``<`` and ``>`` (mentions, custom emoji,
timestamps, ``<url>``), the brackets of a masked link, and the colon of ``://`` (a bare
link is linked by the scheme's colon and slashes: escaped, it is text)."""
_LEADING = re.compile(r"^(?:#{1,3}(?=\s|$)|-#(?=\s|$)|[>+*-](?=\s|$)|\d+(?=\.(?:\s|$)))")
"""What makes a line a heading (``# ``, ``-# ``), a quote (``> ``) or a list item
(``- ``, ``+ ``, ``1. ``) when a name starts a line (the space may be the sentence's,
after the name): its first mark is escaped (``*`` and ``>`` always are). ``+110`` or
``50.0%`` start no list, and stay as they are."""


def _line(text: str) -> str:
    return _BREAKS.sub(" ", visible(text)).strip()


def visible(text: str) -> str:
    """``text`` without the characters that show nothing but change what is around them
    (:data:`_INVISIBLE`): what a picture draws."""
    return _INVISIBLE.sub("", str(text))


def _isolated(text: str) -> str:
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in text):
        return ISOLATE[0] + text + ISOLATE[1]
    return text


def clean(text: str) -> str:
    """``text`` as one line of visible characters: invisible and bidirectional control
    characters dropped, line breaks and other controls made spaces, spaces at the ends
    dropped; a text with a letter written right to left (Arabic, Hebrew …) is isolated
    (first-strong isolate … pop), so that it reads in its own direction without
    reversing the sentence around it."""
    return _isolated(_line(text))


def escape(text: str) -> str:
    """``text`` (cleaned) as markdown that shows it as written: each markdown character
    escaped, mentions broken with a zero-width space (``@everyone``, ``@here``,
    ``<@id>``, ``<@&id>``; :func:`discord.utils.escape_mentions`), ``<`` escaped (channel
    mentions, custom emoji, timestamps), the brackets of masked links and the ``:`` of
    ``https://`` escaped (no link), a heading's, quote's or list's first mark escaped.

    ``discord.utils.escape_markdown`` is not enough: it leaves the address of a masked
    link (``[x](https://…)``) a live link, and mentions as they are."""
    text = _INLINE.sub(lambda m: "\\" + m.group(0), _line(text))
    text = _LEADING.sub(lambda m: m.group(0) + "\\" if m.group(0)[0].isdigit()
                        else "\\" + m.group(0), text, count=1)
    return _isolated(escape_mentions(text))


CODE_BACKTICK = "\u02cb"
"""What a backtick of a name shows as inside a code span (ˋ, modifier letter grave
accent): a backtick would close the span."""


def code(text: str, spec: str = "") -> str:
    """``text`` (cleaned, then formatted by ``spec``: ``<17.17``) for a code span, where
    markdown, mentions and links are shown as written anyway: its backticks, which would
    end the span, become look-alikes (:data:`CODE_BACKTICK`); mentions broken as
    :func:`escape` does (with an invisible space, after the width is counted)."""
    shown = format(_isolated(_line(text).replace("`", CODE_BACKTICK)), spec)
    return escape_mentions(shown)


ELLIPSIS = "…"
CONTENT = 2000
"""The most characters of a message's content (a bot's)."""
DESCRIPTION = 4096
"""The most characters of an embed's description."""
TITLE = 256
"""The most characters of an embed's title."""


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters; longer, it ends with an ellipsis, never in
    the middle of an escape (a lone backslash would escape the ellipsis) and never with a
    right-to-left name's isolate left open."""
    if len(text) <= limit:
        return text
    room = max(0, limit - len(ELLIPSIS))
    kept = text[:room]
    if kept.count(ISOLATE[0]) > kept.count(ISOLATE[1]):
        kept = _whole(text[:max(0, room - 1)]) + ISOLATE[1]
    else:
        kept = _whole(kept)
    return kept + ELLIPSIS


def _whole(kept: str) -> str:
    """``kept`` without a trailing backslash that escaped the character cut off, nor a
    trailing zero-width joiner or space (half an emoji, half a broken mention)."""
    kept = kept.rstrip("\u200d\u200b")
    if (len(kept) - len(kept.rstrip("\\"))) % 2:
        kept = kept[:-1]
    return kept

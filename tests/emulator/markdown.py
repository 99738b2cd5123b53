"""What Discord makes of a message's text: its markdown as shown, and whom it pings.

Two separate readings, as on Discord:

- :func:`render` — how the client shows a text where markdown applies (a message's
  content, an embed's title, description and fields): formatting (bold, italics,
  underline, strike-through, spoilers), inline code and code blocks, headings, subtext,
  quotes and lists at a line's start, backslash escapes, mentions (users, roles,
  channels, ``@everyone``, ``@here``, slash commands, custom emoji, timestamps) and
  links (masked ``[text](https://…)``, ``<https://…>`` and bare ``https://…``). The rules
  follow simple-markdown's, which Discord's client uses, in Discord's order.
- :func:`pings` — whom a message notifies: the server reads ``<@id>``, ``<@!id>``,
  ``<@&id>``, ``@everyone`` and ``@here`` in the raw content (whatever markdown is
  around them) and keeps those its ``allowed_mentions`` allow. Without
  ``allowed_mentions`` every kind is parsed; ``@everyone``/``@here`` need the
  MENTION_EVERYONE permission, a role that is not mentionable too.

Where Discord shows no markdown (a label, an option, a placeholder, a footer, an
author's name, a thread's name, a modal's title, an attachment's description), text
shows as it is: :func:`message_texts` says which field is which.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Node",
    "PingReport",
    "Rendered",
    "invisible",
    "message_texts",
    "pings",
    "render",
]


@dataclass(frozen=True)
class Node:
    """A piece of shown text: ``kind`` is ``text``, ``code`` (inline code or a code
    block), ``mention`` (``target``: ``user:<id>``, ``role:<id>``, ``channel:<id>``,
    ``everyone``, ``here``, ``command:<id>``), ``emoji``, ``timestamp`` or ``link``
    (``target``: the address); ``styles`` the formatting around it, outermost first
    (``strong``, ``em``, ``underline``, ``strike``, ``spoiler``, ``heading``,
    ``subtext``, ``quote``, ``list``, ``link``)."""

    kind: str
    text: str
    styles: tuple[str, ...] = ()
    target: str = ""


@dataclass
class Rendered:
    """A text as Discord's client shows it."""

    source: str
    nodes: list[Node] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Everything shown, as characters (mentions as ``@…``/``#…``)."""
        return "".join(n.text for n in self.nodes)

    @property
    def links(self) -> list[str]:
        """The address of each link (masked, ``<…>`` or bare), in order."""
        return [n.target for n in self.nodes if n.kind == "link"]

    @property
    def mentions(self) -> list[str]:
        """Each mention shown as one (``user:<id>``, ``role:<id>``, ``channel:<id>``,
        ``everyone``, ``here``, ``command:<id>``), in order."""
        return [n.target for n in self.nodes if n.kind == "mention"]

    @property
    def formatted(self) -> bool:
        """Whether any markdown took effect (a style, code, a link, a mention…)."""
        return any(n.kind != "text" or n.styles for n in self.nodes)

    def runs(self) -> list[str]:
        """The literal text shown, in runs: consecutive text and code of the same
        styles joined. Where markdown took effect (a mark consumed, a mention or a link
        made), a run ends."""
        out: list[str] = []
        last: tuple[str, ...] | None = None
        for node in self.nodes:
            if node.kind not in ("text", "code"):
                last = None
                continue
            if last == node.styles and out:
                out[-1] += node.text
            else:
                out.append(node.text)
            last = node.styles
        return out


# -- rendering ---------------------------------------------------------------------------

_CODE_BLOCK = re.compile(r"```(?:([a-z0-9_+\-.#]+?)\n)?\n*([^\n][\s\S]*?)\n*```", re.I)
_ESCAPE = re.compile(r"\\([^0-9A-Za-z\s])")
_AUTOLINK = re.compile(r"<(https?://[^ >]+)>")
_URL = re.compile(r"https?://[^\s<]+[^<.,:;\"')\]\s]")
_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_COMMAND = re.compile(r"</([-_\w ]+):(\d+)>")
_EMOJI = re.compile(r"<a?:(\w+):(\d+)>")
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::[tTdDfFR])?>")
_EVERYONE = re.compile(r"@(everyone|here)")
_LINK = re.compile(r"\[((?:\\.|[^\[\]\\])+)\]\(\s*<?(https?://[^\s)<>]+)>?\s*\)")
_STRONG = re.compile(r"\*\*([\s\S]+?)\*\*(?!\*)")
_UNDERLINE = re.compile(r"__([\s\S]+?)__(?!_)")
_EM_STAR = re.compile(r"\*(?=\S)((?:\*\*|\\[\s\S]|\s+(?:\\[\s\S]|[^\s*\\]|\*\*)|[^\s*\\])+?)\*(?!\*)")
_EM_UNDER = re.compile(r"_((?:__|\\[\s\S]|[^\\_])+?)_\b")
_STRIKE = re.compile(r"~~([\s\S]+?)~~")
_SPOILER = re.compile(r"\|\|([\s\S]+?)\|\|")
_INLINE_CODE = re.compile(r"(`+)([\s\S]*?[^`])\1(?!`)")
_TEXT = re.compile(r"[\s\S]+?(?=[^0-9A-Za-z\s\u00c0-\uffff]|\n| {2,}\n|\w+:\S|$)")

_QUOTE_ALL = re.compile(r">>> ")
_QUOTE = re.compile(r"> ")
_HEADING = re.compile(r"#{1,3} +(?=\S)")
_SUBTEXT = re.compile(r"-# +(?=\S)")
_LIST = re.compile(r" *(?:[-*]|\d+\.) +(?=\S)")

_STYLED = ((_STRONG, "strong"), (_UNDERLINE, "underline"), (_EM_STAR, "em"),
           (_EM_UNDER, "em"), (_STRIKE, "strike"), (_SPOILER, "spoiler"))


def render(source: str) -> Rendered:
    """``source`` as Discord's client shows it where markdown applies."""
    shown = Rendered(source)
    _inline(source, (), shown.nodes, line_start=True, quoted=False)
    return shown


def _inline(src: str, styles: tuple[str, ...], out: list[Node], *, line_start: bool,
            quoted: bool) -> None:
    pos = 0
    line_styles: tuple[str, ...] = ()
    while pos < len(src):
        at_line = (pos == 0 and line_start) or (pos > 0 and src[pos - 1] == "\n")
        if at_line:
            line_styles, pos = _line_start(src, pos, quoted)
            if quoted is False and "quote-all" in line_styles:
                rest = src[pos:]
                _inline(rest, (*styles, "quote"), out, line_start=True, quoted=True)
                return
            if pos >= len(src):
                break
        here = (*styles, *(s for s in line_styles if s != "quote-all"))
        rest = src[pos:]
        if rest.startswith("\n"):
            out.append(Node("text", "\n", styles))
            line_styles = ()
            pos += 1
            continue
        match = _CODE_BLOCK.match(rest)
        if match:
            out.append(Node("code", match.group(2), here))
            pos += match.end()
            continue
        match = _ESCAPE.match(rest)
        if match:
            out.append(Node("text", match.group(1), here))
            pos += match.end()
            continue
        match = _AUTOLINK.match(rest)
        if match:
            out.append(Node("link", match.group(1), here, match.group(1)))
            pos += match.end()
            continue
        match = _URL.match(rest)
        if match:
            out.append(Node("link", match.group(0), here, match.group(0)))
            pos += match.end()
            continue
        node, length = _mention(rest, here)
        if node is not None:
            out.append(node)
            pos += length
            continue
        match = _LINK.match(rest)
        if match:
            inner: list[Node] = []
            _inline(match.group(1), (*here, "link"), inner, line_start=False, quoted=True)
            out.append(Node("link", "".join(n.text for n in inner), here, match.group(2)))
            pos += match.end()
            continue
        for pattern, style in _STYLED:
            match = pattern.match(rest)
            if match and (style != "em" or pattern is _EM_STAR or _word_edge(src, pos)):
                _inline(match.group(1), (*here, style), out, line_start=False, quoted=True)
                pos += match.end()
                break
        else:
            match = _INLINE_CODE.match(rest)
            if match:
                out.append(Node("code", match.group(2), here))
                pos += match.end()
                continue
            match = _TEXT.match(rest)
            length = match.end() if match and match.end() > 0 else 1
            text = rest[:length]
            if "\n" in text:
                length = text.index("\n") or 1
                text = rest[:length]
            out.append(Node("text", text, here))
            pos += length


def _word_edge(src: str, pos: int) -> bool:
    """An ``_emphasis_`` starts at a word's edge (simple-markdown's ``\\b_``)."""
    return pos == 0 or not (src[pos - 1].isalnum() or src[pos - 1] == "_")


def _line_start(src: str, pos: int, quoted: bool) -> tuple[tuple[str, ...], int]:
    """The block marks at the start of a line (consumed): a quote (``> ``, or ``>>> ``
    for the rest of the text), then a heading, subtext or a list item."""
    styles: list[str] = []
    rest = src[pos:]
    if not quoted:
        match = _QUOTE_ALL.match(rest)
        if match:
            return ("quote-all",), pos + match.end()
        match = _QUOTE.match(rest)
        if match:
            styles.append("quote")
            pos += match.end()
            rest = src[pos:]
    for pattern, style in ((_HEADING, "heading"), (_SUBTEXT, "subtext"), (_LIST, "list")):
        match = pattern.match(rest)
        if match:
            styles.append(style)
            pos += match.end()
            break
    return tuple(styles), pos


def _mention(rest: str, styles: tuple[str, ...]) -> tuple[Node | None, int]:
    for pattern, kind in ((_USER, "user"), (_ROLE, "role"), (_CHANNEL, "channel")):
        match = pattern.match(rest)
        if match:
            sign = "#" if kind == "channel" else "@"
            return Node("mention", f"{sign}{kind}", styles, f"{kind}:{match.group(1)}"), \
                match.end()
    match = _COMMAND.match(rest)
    if match:
        return Node("mention", f"/{match.group(1)}", styles, f"command:{match.group(2)}"), \
            match.end()
    match = _EMOJI.match(rest)
    if match:
        return Node("emoji", f":{match.group(1)}:", styles, match.group(2)), match.end()
    match = _TIMESTAMP.match(rest)
    if match:
        return Node("timestamp", "⏲", styles, match.group(1)), match.end()
    match = _EVERYONE.match(rest)
    if match:
        return Node("mention", match.group(0), styles, match.group(1)), match.end()
    return None, 0


INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]")
"""Characters that show nothing by themselves (zero-width spaces and joiners, soft
hyphens, the byte-order mark, bidirectional marks, embeddings, overrides, isolates)."""


def invisible(text: str) -> str:
    """``text`` without its :data:`INVISIBLE` characters: what a reader sees of it."""
    return INVISIBLE.sub("", text)


# -- pings ---------------------------------------------------------------------------------

_PING_USER = re.compile(r"<@!?(\d{1,20})>")
_PING_ROLE = re.compile(r"<@&(\d{1,20})>")


@dataclass(frozen=True)
class PingReport:
    """Whom one message notifies, by Discord's rules, and whom its ``allowed_mentions``
    named (``users``: the ids it lists; a ping through ``parse: ["users"]`` names
    nobody)."""

    message_id: int
    channel_id: int
    users: frozenset[int]
    roles: frozenset[int]
    everyone: bool
    here: bool
    named: frozenset[int]
    allowed_mentions: dict[str, Any] | None

    @property
    def unnamed(self) -> list[str]:
        """What it pings that its ``allowed_mentions`` did not name: users pinged through
        ``parse``, any role, ``@everyone``, ``@here``."""
        out = [f"user {u}" for u in sorted(self.users - self.named)]
        out += [f"role {r}" for r in sorted(self.roles)]
        out += ["@everyone"] * self.everyone + ["@here"] * self.here
        return out


def pings(message_id: int, channel_id: int, content: str,
          allowed_mentions: dict[str, Any] | None, *, mentionable_roles: set[int],
          mention_everyone: bool) -> PingReport:
    """Whom ``content`` sent with ``allowed_mentions`` (None: absent, every kind parsed)
    notifies. ``mention_everyone``: the sender's MENTION_EVERYONE permission (needed for
    ``@everyone``, ``@here`` and roles that are not ``mentionable_roles``)."""
    users = {int(u) for u in _PING_USER.findall(content)}
    roles = {int(r) for r in _PING_ROLE.findall(content)}
    everyone = "@everyone" in content
    here = "@here" in content
    if allowed_mentions is None:
        parse = {"users", "roles", "everyone"}
        named_users: set[int] = set()
        named_roles: set[int] = set()
    else:
        parse = set(allowed_mentions.get("parse") or [])
        named_users = {int(u) for u in allowed_mentions.get("users") or []}
        named_roles = {int(r) for r in allowed_mentions.get("roles") or []}
    pinged_users = {u for u in users if "users" in parse or u in named_users}
    pinged_roles = {r for r in roles if ("roles" in parse or r in named_roles)
                    and (r in mentionable_roles or mention_everyone)}
    may_everyone = "everyone" in parse and mention_everyone
    return PingReport(message_id, channel_id, frozenset(pinged_users),
                      frozenset(pinged_roles), everyone and may_everyone,
                      here and may_everyone, frozenset(named_users), allowed_mentions)


# -- where markdown applies ------------------------------------------------------------------

def message_texts(payload: dict[str, Any]) -> Iterator[tuple[str, str, bool]]:
    """Every text of a message object (content, embeds, components, attachments' alt
    text): ``(where, text, markdown)``; ``markdown`` says whether Discord renders it
    (content, an embed's title, description, fields) or shows it as it is (labels,
    options, placeholders, footers, authors, descriptions of attachments)."""
    if payload.get("content"):
        yield "content", str(payload["content"]), True
    for i, embed in enumerate(payload.get("embeds") or []):
        for key in ("title", "description"):
            if embed.get(key):
                yield f"embeds[{i}].{key}", str(embed[key]), True
        for j, item in enumerate(embed.get("fields") or []):
            yield f"embeds[{i}].fields[{j}].name", str(item.get("name", "")), True
            yield f"embeds[{i}].fields[{j}].value", str(item.get("value", "")), True
        if (embed.get("footer") or {}).get("text"):
            yield f"embeds[{i}].footer", str(embed["footer"]["text"]), False
        if (embed.get("author") or {}).get("name"):
            yield f"embeds[{i}].author", str(embed["author"]["name"]), False
    yield from _component_texts(payload.get("components") or [], "components")
    for i, attachment in enumerate(payload.get("attachments") or []):
        if attachment.get("description"):
            yield f"attachments[{i}].description", str(attachment["description"]), False


def _component_texts(components: list[Any], path: str) -> Iterator[tuple[str, str, bool]]:
    for i, item in enumerate(components):
        if not isinstance(item, dict):
            continue
        where = f"{path}[{i}]"
        if item.get("type") == 10 and item.get("content"):  # a v2 text display: markdown
            yield f"{where}.content", str(item["content"]), True
        for key in ("label", "placeholder", "title"):
            if item.get(key):
                yield f"{where}.{key}", str(item[key]), False
        for j, option in enumerate(item.get("options") or []):
            for key in ("label", "description"):
                if option.get(key):
                    yield f"{where}.options[{j}].{key}", str(option[key]), False
        yield from _component_texts(item.get("components") or [], f"{where}.components")

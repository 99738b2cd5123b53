"""The grammar of component custom IDs, so that a click carries everything it needs.

``tichu:<b|s>:<table>:<seq or ->:<action>[:<arg>]`` — ``b`` for buttons, ``s``
for selects (discord.py needs one pattern per component class). ``seq`` is the
clicking seat's move count (``Table.moves``) when the control was drawn: once the
seat has moved again, the click is stale and never applies; ``-`` marks controls
that stay valid whatever happens (My hand, Rules, a call the engine allows once).
Whether a click is stale is decided in one place only:
:func:`bot.tables.clicks.stale`, under the table's lock.
Every ID stays within Discord's 100 characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.cards import Card
from engine.tichu.cards import DECK as ALL

PREFIX = "tichu"
MAX_LENGTH = 100
BUTTON_TEMPLATE = rf"{PREFIX}:b:(?P<table>\d{{1,18}}):(?P<seq>\d{{1,9}}|-):(?P<action>[a-z_]{{1,16}})(?::(?P<arg>[0-9a-z.\-]{{1,60}}))?"
SELECT_TEMPLATE = rf"{PREFIX}:s:(?P<table>\d{{1,18}}):(?P<seq>\d{{1,9}}|-):(?P<action>[a-z_]{{1,16}})(?::(?P<arg>[0-9a-z.\-]{{1,60}}))?"
_ANY = re.compile(rf"{PREFIX}:(?P<kind>[bs]):(?P<table>\d{{1,18}}):(?P<seq>\d{{1,9}}|-):"
                  r"(?P<action>[a-z_]{1,16})(?::(?P<arg>[0-9a-z.\-]{1,60}))?")


@dataclass(frozen=True, slots=True)
class ComponentId:
    kind: str
    table: int
    seq: int | None
    action: str
    arg: str | None = None

    def __str__(self) -> str:
        seq = "-" if self.seq is None else str(self.seq)
        text = f"{PREFIX}:{self.kind}:{self.table}:{seq}:{self.action}"
        if self.arg is not None:
            text += f":{self.arg}"
        if len(text) > MAX_LENGTH:
            raise ValueError(f"custom id too long: {text}")
        return text


@dataclass(frozen=True, slots=True)
class Click:
    """One click on a seat's private panel: the control's parsed ID and, for a select,
    the values chosen. What a game's controls read (:func:`bot.tables.clicks.stale`
    has already decided that it is not out of date)."""

    id: ComponentId
    values: tuple[str, ...] = ()

    @property
    def action(self) -> str:
        return self.id.action

    @property
    def arg(self) -> str | None:
        return self.id.arg

    @property
    def seq(self) -> int | None:
        return self.id.seq

    def one(self) -> str | None:
        """The single value chosen, or None when there is not exactly one."""
        return self.values[0] if len(self.values) == 1 else None


def button(table: int, action: str, arg: str | None = None, seq: int | None = None) -> str:
    return str(ComponentId("b", table, seq, action, arg))


def select(table: int, action: str, arg: str | None = None, seq: int | None = None) -> str:
    return str(ComponentId("s", table, seq, action, arg))


def parse(custom_id: str) -> ComponentId | None:
    """Parse a custom ID; None if it is not one of ours (forged or foreign)."""
    match = _ANY.fullmatch(custom_id)
    if match is None:
        return None
    seq = match["seq"]
    return ComponentId(match["kind"], int(match["table"]), None if seq == "-" else int(seq),
                       match["action"], match["arg"])


def encode_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards as short text for an ID or a select value: ``12.13.54``."""
    return ".".join(str(int(c)) for c in cards)


def decode_cards(text: str | None) -> tuple[Card, ...] | None:
    """The cards of :func:`encode_cards`, or None if the text is not a valid list."""
    if not text:
        return None
    try:
        values = [int(part) for part in text.split(".")]
    except ValueError:
        return None
    if not values or len(values) > 14 or any(not 0 <= v < len(ALL) for v in values):
        return None
    if len(set(values)) != len(values):
        return None
    return tuple(ALL[v] for v in values)

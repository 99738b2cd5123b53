"""Read-only views of message components, and lookup helpers for tests.

Component payloads are kept as the raw dicts the bot sent. The helpers here
walk them (action rows, and the nested layouts of components v2: containers,
sections, labels) and wrap buttons and selects in small dataclasses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


class ComponentType:
    """Discord component type numbers."""

    ACTION_ROW = 1
    BUTTON = 2
    STRING_SELECT = 3
    TEXT_INPUT = 4
    USER_SELECT = 5
    ROLE_SELECT = 6
    MENTIONABLE_SELECT = 7
    CHANNEL_SELECT = 8
    SECTION = 9
    TEXT_DISPLAY = 10
    THUMBNAIL = 11
    MEDIA_GALLERY = 12
    FILE = 13
    SEPARATOR = 14
    CONTAINER = 17
    LABEL = 18
    FILE_UPLOAD = 19

    SELECTS = (3, 5, 6, 7, 8)


class ButtonStyle:
    """Discord button styles."""

    PRIMARY = 1
    SECONDARY = 2
    SUCCESS = 3
    DANGER = 4
    LINK = 5
    PREMIUM = 6


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield every component, depth first, nested ones included."""
    for component in components:
        yield component
        children = list(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                children.append(child)
        yield from walk(children)


@dataclass
class Button:
    """A button on a message."""

    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    url: str | None
    emoji: str | None
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_payload(cls, data: dict[str, Any]) -> Button:
        """Wrap a button component dict."""
        emoji = data.get("emoji") or {}
        return cls(
            custom_id=data.get("custom_id"),
            label=data.get("label"),
            style=int(data.get("style", 1)),
            disabled=bool(data.get("disabled", False)),
            url=data.get("url"),
            emoji=emoji.get("name") if emoji else None,
            raw=data,
        )


@dataclass
class SelectOption:
    """An option of a string select."""

    label: str
    value: str
    description: str | None
    default: bool
    emoji: str | None

    @classmethod
    def from_payload(cls, data: dict[str, Any]) -> SelectOption:
        """Wrap a select option dict."""
        emoji = data.get("emoji") or {}
        return cls(
            label=str(data.get("label", "")),
            value=str(data.get("value", "")),
            description=data.get("description"),
            default=bool(data.get("default", False)),
            emoji=emoji.get("name") if emoji else None,
        )


@dataclass
class Select:
    """A select menu on a message (string, user, role, mentionable or channel select)."""

    custom_id: str
    type: int
    options: list[SelectOption]
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool
    raw: dict[str, Any] = field(repr=False)

    @classmethod
    def from_payload(cls, data: dict[str, Any]) -> Select:
        """Wrap a select component dict."""
        return cls(
            custom_id=str(data.get("custom_id", "")),
            type=int(data["type"]),
            options=[SelectOption.from_payload(o) for o in data.get("options") or []],
            placeholder=data.get("placeholder"),
            min_values=int(data.get("min_values", 1)),
            max_values=int(data.get("max_values", 1)),
            disabled=bool(data.get("disabled", False)),
            raw=data,
        )

    @property
    def values(self) -> list[str]:
        """The option values, in order."""
        return [o.value for o in self.options]

    @property
    def labels(self) -> list[str]:
        """The option labels, in order."""
        return [o.label for o in self.options]

    def option(self, label: str | re.Pattern[str]) -> SelectOption:
        """The option with this label (a string for equality, or a compiled regex)."""
        found = [o for o in self.options if _matches(o.label, label)]
        if len(found) != 1:
            raise LookupError(
                f"{len(found)} options match {label!r} in select {self.custom_id!r}: {self.labels}"
            )
        return found[0]


def _matches(value: str | None, wanted: str | re.Pattern[str]) -> bool:
    if value is None:
        return False
    if isinstance(wanted, re.Pattern):
        return wanted.search(value) is not None
    return value == wanted


def buttons(components: list[dict[str, Any]]) -> list[Button]:
    """Every button, in display order."""
    return [
        Button.from_payload(c) for c in walk(components) if c.get("type") == ComponentType.BUTTON
    ]


def selects(components: list[dict[str, Any]]) -> list[Select]:
    """Every select menu, in display order."""
    return [
        Select.from_payload(c) for c in walk(components) if c.get("type") in ComponentType.SELECTS
    ]


def text_displays(components: list[dict[str, Any]]) -> list[str]:
    """The content of every text display (components v2)."""
    return [
        str(c.get("content", ""))
        for c in walk(components)
        if c.get("type") == ComponentType.TEXT_DISPLAY
    ]


def custom_ids(components: list[dict[str, Any]]) -> list[str]:
    """Every custom_id, in display order."""
    return [str(c["custom_id"]) for c in walk(components) if c.get("custom_id") is not None]


def find_button(
    components: list[dict[str, Any]],
    *,
    label: str | re.Pattern[str] | None = None,
    custom_id: str | re.Pattern[str] | None = None,
) -> Button:
    """The single button matching ``label`` and/or ``custom_id``.

    A string matches exactly, a compiled regex with ``search``. Raises
    LookupError (listing the buttons present) when none or several match.
    """
    if label is None and custom_id is None:
        raise ValueError("give a label or a custom_id")
    found = [
        b
        for b in buttons(components)
        if (label is None or _matches(b.label, label))
        and (custom_id is None or _matches(b.custom_id, custom_id))
    ]
    if len(found) != 1:
        present = [(b.label, b.custom_id) for b in buttons(components)]
        raise LookupError(
            f"{len(found)} buttons match label={label!r} custom_id={custom_id!r}; present: {present}"
        )
    return found[0]


def find_select(
    components: list[dict[str, Any]],
    *,
    custom_id: str | re.Pattern[str] | None = None,
    placeholder: str | re.Pattern[str] | None = None,
) -> Select:
    """The single select matching ``custom_id``/``placeholder`` (or the only select)."""
    found = [
        s
        for s in selects(components)
        if (custom_id is None or _matches(s.custom_id, custom_id))
        and (placeholder is None or _matches(s.placeholder, placeholder))
    ]
    if len(found) != 1:
        present = [(s.custom_id, s.placeholder) for s in selects(components)]
        raise LookupError(
            f"{len(found)} selects match custom_id={custom_id!r} placeholder={placeholder!r}; present: {present}"
        )
    return found[0]


def find_component(components: list[dict[str, Any]], custom_id: str) -> dict[str, Any]:
    """The raw component with this custom_id; raises LookupError."""
    for component in walk(components):
        if component.get("custom_id") == custom_id:
            return component
    raise LookupError(
        f"no component with custom_id {custom_id!r}; present: {custom_ids(components)}"
    )

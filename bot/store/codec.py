"""Encoding shared by the store backends: compact JSON and UTC timestamps.

Writing refuses what cannot be stored with :class:`StoreError`; reading fails
only with :class:`CorruptRowError`, whose message says where (``where`` names the
table, action or game), never with ``json.JSONDecodeError``/``KeyError``/``ValueError``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from bot.store.models import CorruptRowError, GuildSettings, PanelRecord, StoreError

# -- writing ---------------------------------------------------------------------


def dump_json(value: object, what: str) -> str:
    """``value`` as compact JSON text (no spaces, UTF-8 kept as is, no NaN)."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise StoreError("not_json", f"{what} cannot be stored as JSON: {error}") from error


def utc_now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """``moment`` as an aware datetime in UTC; a naive datetime is taken to be UTC
    already (as ``datetime.utcnow()`` gives)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def format_timestamp(moment: datetime) -> str:
    """``moment`` in UTC (see :func:`utc`) as fixed-width ISO-8601 text, which sorts
    as time does."""
    return utc(moment).isoformat(timespec="microseconds")


def _is_int(value: object) -> bool:
    return type(value) is int


def check_guild_settings(guild_id: int, settings: GuildSettings) -> tuple[object, ...]:
    """The settings as a row ``(locale, turn_timer, target, tables_per_channel,
    daily_channel_id)``; :class:`StoreError` ``invalid_settings`` if a value cannot
    be right."""
    where = f"guild {guild_id} settings"
    locale = settings.locale
    if locale is not None and (not isinstance(locale, str) or not locale.strip()):
        raise StoreError("invalid_settings", f"{where}: locale must be a non-empty text or "
                         f"None, got {locale!r}")
    limits = (("turn_timer", settings.turn_timer, 0), ("target", settings.target, 1),
              ("tables_per_channel", settings.tables_per_channel, 1))
    for name, value, least in limits:
        if value is not None and (not _is_int(value) or value < least or value >= 2**31):
            raise StoreError("invalid_settings", f"{where}: {name} must be an integer "
                             f">= {least} or None, got {value!r}")
    channel = settings.daily_channel_id
    if channel is not None and (not _is_int(channel) or not 0 < channel < 2**63):
        raise StoreError("invalid_settings", f"{where}: daily_channel_id must be a "
                         f"snowflake or None, got {channel!r}")
    return (locale, settings.turn_timer, settings.target, settings.tables_per_channel,
            channel)


def check_panel(table_id: int, panel: PanelRecord) -> tuple[int, int, str, int, str]:
    """The panel as a row ``(user_id, application_id, token, message_id, created_at)``."""
    where = f"table {table_id} panel"
    for name in ("user_id", "application_id", "message_id"):
        value = getattr(panel, name)
        if not _is_int(value) or not 0 <= value < 2**63:
            raise StoreError("invalid_panel", f"{where}: {name} must be a snowflake, "
                             f"got {value!r}")
    if not isinstance(panel.token, str) or not panel.token:
        raise StoreError("invalid_panel", f"{where}: the token must be a non-empty text")
    if not isinstance(panel.created_at, datetime):
        raise StoreError("invalid_panel", f"{where}: created_at must be a datetime, "
                         f"got {panel.created_at!r}")
    return (panel.user_id, panel.application_id, panel.token, panel.message_id,
            format_timestamp(panel.created_at))


def check_draft(table_id: int, seat: int, data: object) -> str | None:
    """A draft as JSON text (None: delete it)."""
    where = f"table {table_id}, seat {seat!r} draft"
    if not _is_int(seat) or seat < 0:
        raise StoreError("invalid_draft", f"{where}: the seat must be an integer >= 0")
    if data is None:
        return None
    if not isinstance(data, dict):
        raise StoreError("invalid_draft", f"{where}: must be a dict or None, "
                         f"got {type(data).__name__}")
    return dump_json(data, where)


def check_meta_key(key: object) -> str:
    if not isinstance(key, str) or not key:
        raise StoreError("invalid_argument", f"a meta key must be a non-empty text, got {key!r}")
    return key


def check_meta(key: object, value: object) -> tuple[str, str]:
    """A bookkeeping entry as a row ``(key, value)``."""
    checked = check_meta_key(key)
    if not isinstance(value, str):
        raise StoreError("invalid_argument", f"meta {key!r}: the value must be a text")
    return checked, value


# -- reading ---------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def load_json(text: object, where: str) -> Any:
    """Parse stored JSON text."""
    if not isinstance(text, str):
        raise CorruptRowError(f"{where}: expected JSON text, found {type(text).__name__}")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise CorruptRowError(f"{where}: invalid JSON ({error})") from error


def load_json_object(text: object, where: str) -> dict[str, Any]:
    """Parse stored JSON text that must be an object."""
    value = load_json(text, where)
    if not isinstance(value, dict):
        raise CorruptRowError(f"{where}: expected a JSON object, found {type(value).__name__}")
    return value


def load_int_list(text: object, where: str) -> list[int]:
    """Parse stored JSON text that must be an array of integers."""
    value = load_json(text, where)
    if not isinstance(value, list) or not all(type(item) is int for item in value):
        raise CorruptRowError(f"{where}: expected a JSON array of integers")
    return value


def parse_timestamp(value: object, where: str) -> datetime:
    """A stored timestamp (ISO text, or a datetime from PostgreSQL) as an aware datetime
    in UTC."""
    if isinstance(value, datetime):
        return utc(value)
    if not isinstance(value, str):
        raise CorruptRowError(f"{where}: expected a timestamp, found {type(value).__name__}")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as error:
        raise CorruptRowError(f"{where}: bad timestamp {value!r}") from error
    return utc(moment)


def parse_optional_timestamp(value: object, where: str) -> datetime | None:
    """A stored timestamp or NULL."""
    return None if value is None else parse_timestamp(value, where)


def as_int(value: object, where: str) -> int:
    """A stored integer (a bool, text or real number is corrupt)."""
    if type(value) is not int:
        raise CorruptRowError(f"{where}: expected an integer, found {value!r}")
    return value


def as_optional_int(value: object, where: str) -> int | None:
    """A stored integer or NULL."""
    return None if value is None else as_int(value, where)


def as_str(value: object, where: str) -> str:
    """A stored text."""
    if not isinstance(value, str):
        raise CorruptRowError(f"{where}: expected text, found {value!r}")
    return value


def as_optional_str(value: object, where: str) -> str | None:
    """A stored text or NULL."""
    return None if value is None else as_str(value, where)


def as_flag(value: object, where: str) -> bool:
    """A stored 0/1 flag (or a PostgreSQL boolean)."""
    if type(value) is bool:
        return value
    if value not in (0, 1) or type(value) is not int:
        raise CorruptRowError(f"{where}: expected 0 or 1, found {value!r}")
    return value == 1

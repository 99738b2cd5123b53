"""The records the emulator keeps: users, guilds, channels, messages, commands, interactions.

Every record is a plain mutable dataclass. Records are shared, not copied: a
:class:`MessageRecord` a test holds is updated in place when the bot edits it,
and marked ``deleted`` when the bot deletes it. ``to_payload`` methods render
the JSON object real Discord would send for the record.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import components as comp

DISCORD_EPOCH_MS = 1420070400000


class ChannelType:
    """Discord channel type numbers used by the emulator."""

    GUILD_TEXT = 0
    DM = 1
    GUILD_CATEGORY = 4
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    THREADS = (10, 11, 12)


class MessageFlags:
    """Discord message flag bits used by the emulator."""

    HAS_THREAD = 1 << 5
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


class MessageType:
    """Discord message type numbers used by the emulator."""

    DEFAULT = 0
    THREAD_CREATED = 18
    REPLY = 19
    CHAT_INPUT_COMMAND = 20
    CONTEXT_MENU_COMMAND = 23
    USER_MESSAGES = (0, 19, 20, 23)


class Intents:
    """Gateway intent bits the emulator honours."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15
    PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


class InteractionType:
    """Discord interaction type numbers."""

    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class ResponseType:
    """Discord interaction callback type numbers."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class HasId(Protocol):
    """Anything with an integer ``id`` (a record, or a discord.py object)."""

    @property
    def id(self) -> int: ...


IdLike = int | HasId


def id_of(obj: IdLike | str) -> int:
    """Return the snowflake of ``obj`` (an int, a numeric string or an object with ``id``)."""
    if isinstance(obj, int):
        return obj
    if isinstance(obj, str):
        return int(obj)
    return int(obj.id)


class SnowflakeFactory:
    """Generates increasing Discord snowflakes from the wall clock."""

    def __init__(self, worker: int = 1) -> None:
        self._worker = worker & 0x1F
        self._last_ms = 0
        self._increment = 0

    def next(self) -> int:
        """Return a new snowflake, strictly greater than every previous one."""
        now_ms = int(time.time() * 1000)
        if now_ms <= self._last_ms:
            now_ms = self._last_ms
            self._increment += 1
            if self._increment > 0xFFF:
                now_ms += 1
                self._increment = 0
        else:
            self._increment = 0
        self._last_ms = now_ms
        return ((now_ms - DISCORD_EPOCH_MS) << 22) | (self._worker << 17) | self._increment

    def next_in_shard(self, shard: int, count: int) -> int:
        """A new snowflake whose guild shard ``(id >> 22) % count`` is ``shard``."""
        flake = self.next()
        delta = (shard - (flake >> 22)) % count
        if delta:
            self._last_ms += delta
            self._increment = 0
            flake = ((self._last_ms - DISCORD_EPOCH_MS) << 22) | (self._worker << 17)
        return flake


def snowflake_time(snowflake: int) -> dt.datetime:
    """The creation time encoded in a snowflake."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


def iso_now() -> str:
    """The current time as Discord's ISO-8601 timestamp."""
    return dt.datetime.now(tz=dt.UTC).isoformat()


@dataclass(eq=False)
class UserRecord:
    """A Discord user (a human tester or the bot)."""

    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    global_name: str | None = None

    @property
    def mention(self) -> str:
        """The ``<@id>`` mention string."""
        return f"<@{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        """The Discord user object."""
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name if self.global_name is not None else self.name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass(eq=False)
class RoleRecord:
    """A guild role. The ``@everyone`` role has the guild's id."""

    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    color: int = 0
    managed: bool = False
    hoist: bool = False
    mentionable: bool = False

    def to_payload(self) -> dict[str, Any]:
        """The Discord role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": self.hoist,
            "managed": self.managed,
            "mentionable": self.mentionable,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
            "description": None,
        }


@dataclass(eq=False)
class MemberRecord:
    """A user's membership in a guild."""

    user: UserRecord
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def to_payload(
        self, *, with_user: bool = True, permissions: int | None = None
    ) -> dict[str, Any]:
        """The Discord guild member object (``permissions`` is set in interaction payloads)."""
        payload: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self.user.to_payload()
        if permissions is not None:
            payload["permissions"] = str(permissions)
        return payload


@dataclass
class Overwrite:
    """A channel permission overwrite for a role (type 0) or a member (type 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def to_payload(self) -> dict[str, Any]:
        """The Discord overwrite object."""
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class ChannelRecord:
    """A guild text channel, a thread, or a DM channel."""

    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    created_at: str = field(default_factory=iso_now)
    archive_timestamp: str = field(default_factory=iso_now)
    thread_member_ids: set[int] = field(default_factory=set)
    recipient_ids: list[int] = field(default_factory=list)
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        """Whether the channel is a thread."""
        return self.type in ChannelType.THREADS

    @property
    def is_dm(self) -> bool:
        """Whether the channel is a direct-message channel."""
        return self.type == ChannelType.DM

    @property
    def mention(self) -> str:
        """The ``<#id>`` mention string."""
        return f"<#{self.id}>"

    def to_payload(
        self, *, message_count: int = 0, recipients: list[UserRecord] | None = None
    ) -> dict[str, Any]:
        """The Discord channel object."""
        payload: dict[str, Any] = {"id": str(self.id), "type": self.type, "flags": 0}
        if self.is_dm:
            payload["recipients"] = [u.to_payload() for u in recipients or []]
            payload["last_message_id"] = None
            return payload
        payload.update(
            {
                "guild_id": str(self.guild_id),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [o.to_payload() for o in self.overwrites],
                "nsfw": False,
                "rate_limit_per_user": 0,
                "last_message_id": None,
                "parent_id": str(self.parent_id) if self.parent_id else None,
            }
        )
        if self.is_thread:
            payload.update(
                {
                    "owner_id": str(self.owner_id),
                    "message_count": message_count,
                    "total_message_sent": message_count,
                    "member_count": len(self.thread_member_ids),
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": self.auto_archive_duration,
                        "archive_timestamp": self.archive_timestamp,
                        "locked": self.locked,
                        "invitable": self.invitable,
                        "create_timestamp": self.created_at,
                    },
                    "applied_tags": [],
                }
            )
        else:
            payload["topic"] = self.topic
            payload["default_auto_archive_duration"] = 1440
            payload["default_thread_rate_limit_per_user"] = 0
        return payload


@dataclass(eq=False)
class GuildRecord:
    """A guild with its roles, members and channels."""

    id: int
    name: str
    locale: str
    owner_id: int
    roles: dict[int, RoleRecord] = field(default_factory=dict)
    members: dict[int, MemberRecord] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    bot_role_id: int | None = None
    created_at: str = field(default_factory=iso_now)

    @property
    def everyone(self) -> RoleRecord:
        """The ``@everyone`` role."""
        return self.roles[self.id]


@dataclass(eq=False)
class AttachmentRecord:
    """A stored file: its bytes, name and metadata."""

    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        """The file size in bytes."""
        return len(self.data)

    def to_payload(self) -> dict[str, Any]:
        """The Discord attachment object."""
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        if self.width is not None:
            payload["width"] = self.width
            payload["height"] = self.height
        return payload


_MENTION_RE = re.compile(r"<@!?(\d+)>")


@dataclass(eq=False)
class MessageRecord:
    """A message: in a channel, a thread or a DM, public or ephemeral.

    ``ephemeral_user_id`` is set for ephemeral interaction responses: only that
    user sees the message. ``history`` keeps a snapshot (content, embeds,
    components, attachment names, flags) of every previous version, oldest
    first, so tests can inspect edits.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: UserRecord
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[AttachmentRecord] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    ephemeral_user_id: int | None = None
    thread_id: int | None = None
    message_reference: dict[str, Any] | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    _parsed: tuple[list[dict[str, Any]], list[comp.Button], list[comp.Select]] | None = field(
        default=None, repr=False
    )
    """The buttons and selects of ``components`` (read again when it is replaced)."""

    @property
    def ephemeral(self) -> bool:
        """Whether only one user can see the message."""
        return bool(self.flags & MessageFlags.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred "Bot is thinking..." placeholder."""
        return bool(self.flags & MessageFlags.LOADING)

    def visible_to(self, user: IdLike) -> bool:
        """Whether ``user`` can see this message (ignoring channel permissions)."""
        if self.deleted:
            return False
        return self.ephemeral_user_id is None or self.ephemeral_user_id == id_of(user)

    # -- components -------------------------------------------------------
    def _components(self) -> tuple[list[comp.Button], list[comp.Select]]:
        parsed = self._parsed
        if parsed is None or parsed[0] is not self.components:
            parsed = (self.components, comp.buttons(self.components), comp.selects(self.components))
            self._parsed = parsed
        return parsed[1], parsed[2]

    @property
    def buttons(self) -> list[comp.Button]:
        """Every button on the message, in display order (nested layouts included)."""
        return list(self._components()[0])

    @property
    def selects(self) -> list[comp.Select]:
        """Every select menu on the message, in display order."""
        return list(self._components()[1])

    def button(
        self,
        label: str | re.Pattern[str] | None = None,
        *,
        custom_id: str | re.Pattern[str] | None = None,
    ) -> comp.Button:
        """The button with this label and/or custom_id (a str matches exactly, a regex by search).

        Raises LookupError, listing the buttons present, if none or several match.
        """
        return comp.find_button(self.components, label=label, custom_id=custom_id)

    def select(
        self,
        custom_id: str | re.Pattern[str] | None = None,
        *,
        placeholder: str | re.Pattern[str] | None = None,
    ) -> comp.Select:
        """The select with this custom_id/placeholder (or the only select); raises LookupError."""
        return comp.find_select(self.components, custom_id=custom_id, placeholder=placeholder)

    def select_options(self, custom_id: str | None = None) -> list[comp.SelectOption]:
        """The options of a string select (see :meth:`select`)."""
        return self.select(custom_id).options

    @property
    def texts(self) -> list[str]:
        """Content plus every text display (components v2) and embed title/description."""
        out = [self.content] if self.content else []
        out.extend(comp.text_displays(self.components))
        for embed in self.embeds:
            out.extend(str(embed[k]) for k in ("title", "description") if embed.get(k))
        return out

    def attachment(self, filename: str) -> AttachmentRecord:
        """The attachment with this filename; raises LookupError."""
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        names = [a.filename for a in self.attachments]
        raise LookupError(f"no attachment {filename!r} on message {self.id}; has {names}")

    def mentions(self) -> list[int]:
        """User ids mentioned with ``<@id>`` in the content."""
        return [int(m) for m in _MENTION_RE.findall(self.content)]

    def snapshot(self) -> dict[str, Any]:
        """The fields an edit can change, for :attr:`history`."""
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "components": list(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "edited_at": self.edited_at,
        }

    def __repr__(self) -> str:
        scope = f" ephemeral_to={self.ephemeral_user_id}" if self.ephemeral else ""
        return f"<MessageRecord id={self.id} channel={self.channel_id} content={self.content[:40]!r}{scope}>"


@dataclass(eq=False)
class CommandRecord:
    """A registered application command, as Discord stores and returns it."""

    id: int
    application_id: int
    guild_id: int | None
    data: dict[str, Any]
    version: int

    @property
    def name(self) -> str:
        """The default (unlocalized) name."""
        return str(self.data["name"])

    @property
    def type(self) -> int:
        """1 chat input, 2 user context menu, 3 message context menu."""
        return int(self.data.get("type", 1))

    @property
    def options(self) -> list[dict[str, Any]]:
        """The option definitions, subcommands and groups included."""
        return list(self.data.get("options") or [])

    @property
    def name_localizations(self) -> dict[str, str]:
        """Localized names by locale."""
        return dict(self.data.get("name_localizations") or {})

    @property
    def description_localizations(self) -> dict[str, str]:
        """Localized descriptions by locale."""
        return dict(self.data.get("description_localizations") or {})

    def localized_name(self, locale: str) -> str:
        """The name a user with ``locale`` sees."""
        return self.name_localizations.get(locale, self.name)

    def to_payload(self) -> dict[str, Any]:
        """The Discord application command object."""
        payload = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "name_localizations": None,
            "description_localizations": None,
            "integration_types": [0],
            "contexts": None,
        }
        payload.update(self.data)
        payload.update(
            {
                "id": str(self.id),
                "application_id": str(self.application_id),
                "version": str(self.version),
            }
        )
        if self.guild_id is not None:
            payload["guild_id"] = str(self.guild_id)
        return payload


@dataclass
class Violation:
    """A Discord rule the bot broke (the emulator answered it with an error, like Discord)."""

    kind: str
    status: int
    code: int
    message: str
    method: str = ""
    path: str = ""
    interaction_id: int | None = None
    errors: dict[str, Any] | None = None

    def __str__(self) -> str:
        where = f" [{self.method} {self.path}]" if self.method else ""
        detail = f" {self.errors}" if self.errors else ""
        return f"{self.kind}: {self.status} ({self.code}) {self.message}{where}{detail}"


@dataclass
class RequestRecord:
    """An HTTP request the emulator answered with an error."""

    method: str
    path: str
    status: int
    code: int
    message: str


@dataclass(eq=False)
class InteractionRecord:
    """An interaction a user triggered, and everything the bot did to answer it.

    Times are ``time.monotonic()`` values. ``latency`` is the time from the
    dispatch of INTERACTION_CREATE to the initial response callback; ``seen_latency``
    to :attr:`settled_at`, when the user sees the answer (after a click on a hand panel,
    the panel redrawn); ``public_edit_latency`` to :attr:`public_edit_at`.
    """

    id: int
    token: str
    type: int
    user: UserRecord
    channel_id: int
    guild_id: int | None
    data: dict[str, Any]
    payload: dict[str, Any]
    name: str = ""
    source_message_id: int | None = None
    created_at: float = 0.0
    dispatched_at: float | None = None
    deadline: float = 0.0
    clock_start: float = 0.0
    response_type: int | None = None
    responded_at: float | None = None
    settled_at: float | None = None
    """When the message the interaction resulted in was shown: the initial response's
    message (types 4 and 7), else the first follow-up or edit through its token (after a
    deferral, types 5 and 6: for a click on a panel, the panel redrawn)."""
    public_edit_at: float | None = None
    """A click's: when a public message of the bot in its channel was first edited after
    its dispatch (in a table's thread, the table message redrawn)."""
    callbacks: list[int] = field(default_factory=list)
    original_message_id: int | None = None
    result_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    rejections: list[Violation] = field(default_factory=list)
    expired: bool = False

    @property
    def acknowledged(self) -> bool:
        """Whether the initial response was accepted."""
        return self.response_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the initial response, or None."""
        if self.responded_at is None or self.dispatched_at is None:
            return None
        return self.responded_at - self.dispatched_at

    @property
    def seen_latency(self) -> float | None:
        """Seconds from dispatch to :attr:`settled_at` (the answer shown), or None."""
        if self.settled_at is None or self.dispatched_at is None:
            return None
        return self.settled_at - self.dispatched_at

    @property
    def public_edit_latency(self) -> float | None:
        """Seconds from dispatch to :attr:`public_edit_at`, or None."""
        if self.public_edit_at is None or self.dispatched_at is None:
            return None
        return self.public_edit_at - self.dispatched_at

    def __repr__(self) -> str:
        return (
            f"<InteractionRecord id={self.id} type={self.type} name={self.name!r} "
            f"user={self.user.name} response_type={self.response_type}>"
        )


@dataclass
class GatewayEvent:
    """A dispatched gateway event, as recorded for tests."""

    name: str
    seq: int
    session_id: str
    data: dict[str, Any]


@dataclass
class Upload:
    """A file part of a multipart request (``files[n]``), before it becomes an attachment."""

    index: int
    filename: str
    data: bytes
    content_type: str

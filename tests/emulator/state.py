"""The emulated Discord world: users, guilds, channels, messages, commands, interactions.

:class:`World` owns every record, applies Discord's rules when messages are
created or changed, and emits gateway events through an :class:`EventSink`.
It knows nothing about HTTP; ``rest.py`` and ``interactions.py`` call it.
"""

from __future__ import annotations

import asyncio
import base64
import mimetypes
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from . import display, markdown
from . import limits as lim
from . import spec as openapi
from .clock import LoadClock
from .errors import DiscordError, unknown
from .models import (
    AttachmentRecord,
    ChannelRecord,
    ChannelType,
    CommandRecord,
    GuildRecord,
    IdLike,
    Intents,
    InteractionRecord,
    InteractionType,
    MemberRecord,
    MessageFlags,
    MessageRecord,
    MessageType,
    Overwrite,
    RequestRecord,
    RoleRecord,
    SnowflakeFactory,
    Upload,
    UserRecord,
    Violation,
    id_of,
    iso_now,
)
from .permissions import DEFAULT_BOT, DEFAULT_EVERYONE, Perm, base_permissions, channel_permissions

T = TypeVar("T")


@dataclass(frozen=True)
class LinkRecord:
    """A link a bot message shows: its message, channel, field (``content``,
    ``embeds[0].description`` …) and address."""

    message_id: int
    channel_id: int
    where: str
    url: str

#: How long a test waits by default for something to happen. Only a safety net: waits end as
#: soon as it happens, and a loaded machine must not turn a slow success into a failure.
WAIT_TIMEOUT = 30.0

_EDITABLE_FLAGS = MessageFlags.SUPPRESS_NOTIFICATIONS | (1 << 2) | MessageFlags.IS_COMPONENTS_V2


class EventSink(Protocol):
    """Receives the gateway events the world emits (the gateway implements it)."""

    def dispatch(
        self,
        name: str,
        data: dict[str, Any],
        *,
        guild_id: int | None = None,
        intent: int = 0,
        gated_content: bool = False,
    ) -> object:
        """Queue ``name`` for every session that should receive it."""


class _NullSink:
    def dispatch(
        self,
        name: str,
        data: dict[str, Any],
        *,
        guild_id: int | None = None,
        intent: int = 0,
        gated_content: bool = False,
    ) -> None:
        return None


def make_bot_token(bot_id: int) -> str:
    """A token shaped like Discord's: base64(user id) . timestamp-ish . HMAC-ish."""
    head = base64.urlsafe_b64encode(str(bot_id).encode()).decode().rstrip("=")
    return f"{head}.{secrets.token_urlsafe(4)[:6]}.{secrets.token_urlsafe(29)[:38]}"


class World:
    """Every record of the emulated Discord, and the rules that change them.

    Tests normally use it through :class:`~tests.emulator.DiscordEmulator`,
    which subclasses it.
    """

    def __init__(
        self,
        *,
        bot_name: str = "TestBot",
        interaction_timeout: float = 3.0,
        token_ttl: float = 15 * 60.0,
        limits: lim.Limits | None = None,
        display_rules: bool = True,
        check_spec: bool = True,
        named_pings_only: bool = True,
    ) -> None:
        self.snowflakes = SnowflakeFactory()
        self.limits = limits or lim.Limits()
        self.spec = openapi.validator() if check_spec else None
        """Discord's OpenAPI request-body schemas (``spec.py``), or None not to check them."""
        self.display_rules = display_rules
        """Whether :meth:`assert_clean` also fails on :attr:`display_breaches`."""
        self.display_breaches: list[display.DisplayBreach] = []
        """Every display rule the bot's messages broke (creates and edits, ephemeral ones too):
        images cropped in a mosaic, image attachments without alt text. Each breach of a
        message is recorded once, however often the message is edited the same way."""
        self._breach_keys: set[tuple[int, str, tuple[str, ...]]] = set()
        self.named_pings_only = named_pings_only
        """Whether a bot message that pings anyone its ``allowed_mentions`` did not name
        (a user through ``parse``, a role, ``@everyone``, ``@here``) is a violation."""
        self.pings: list[markdown.PingReport] = []
        """Whom each message of the bot notified (its first showing: a create, or the
        follow-up that fills a deferred answer; edits notify nobody), by Discord's rules;
        ephemeral messages notify nobody and are not listed."""
        self.links: list[LinkRecord] = []
        """Every link the bot's messages show (masked, ``<…>`` or bare), once per message,
        field and address (edits included)."""
        self._link_keys: set[tuple[int, str, str]] = set()
        self._bot_images: dict[int, bool] = {}
        self._image_messages: set[int] = set()
        self._cropped_messages: set[int] = set()
        self.interaction_timeout = interaction_timeout
        self.shard_count = 1
        self.deadline_clock = LoadClock()
        self.token_ttl = token_ttl
        self.users: dict[int, UserRecord] = {}
        self.guilds: dict[int, GuildRecord] = {}
        self.channels: dict[int, ChannelRecord] = {}
        self.messages: dict[int, MessageRecord] = {}
        self.attachments: dict[int, AttachmentRecord] = {}
        self.commands: dict[int, CommandRecord] = {}
        self.user_installs: set[int] = set()
        """Users who installed the app for themselves (a user install): its commands that
        allow the user installation context reach them in direct messages."""
        self.dms_closed: set[int] = set()
        """Users who closed their direct messages to the bot (or blocked it): the bot
        still opens the DM channel, but a message it sends there fails with 50007."""
        self.interactions: list[InteractionRecord] = []
        self.violations: list[Violation] = []
        self.errors: list[RequestRecord] = []
        self.unhandled_requests: list[RequestRecord] = []
        self.command_syncs = 0
        self.base_url = ""
        self.sink: EventSink = _NullSink()
        self._interactions_by_id: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self._awaiting_public_edit: dict[int, list[InteractionRecord]] = {}
        """Per channel: the clicks that no public bot message of the channel was edited
        after yet (:attr:`InteractionRecord.public_edit_at`)."""
        self._waiters: list[asyncio.Future[None]] = []
        self._channel_waiters: dict[int, list[asyncio.Future[None]]] = {}
        self._messages_by_channel: dict[int, list[MessageRecord]] = {}
        bot_id = self.snowflakes.next()
        self.bot = UserRecord(id=bot_id, name=bot_name, bot=True)
        self.users[bot_id] = self.bot
        self.application_id = bot_id
        self.bot_token = make_bot_token(bot_id)
        self.application_owner_id = self.add_user("app-developer").id

    # -- change notification ---------------------------------------------------
    def notify(self, *channels: int) -> None:
        """Wake the :meth:`wait_for` calls so they re-check their predicates.

        With no argument every waiter wakes. With channel ids, only the waiters
        that watch no channel and those that watch one of these channels wake:
        a change that concerns one channel (a message in it, an interaction
        from it) names it, so that a thousand tables waiting each on its own
        thread do not all re-check on every message.
        """
        waiters, self._waiters = self._waiters, []
        if channels:
            for cid in channels:
                waiters += self._channel_waiters.pop(cid, ())
        else:
            for watched in self._channel_waiters.values():
                waiters += watched
            self._channel_waiters.clear()
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = WAIT_TIMEOUT,
        *,
        what: str = "condition",
        channel: IdLike | None = None,
    ) -> T:
        """Wait until ``predicate()`` returns something truthy, and return it.

        The predicate is re-checked after every change of the world (message,
        interaction, command sync, gateway session...); with ``channel``, only
        after changes that concern that channel (its messages, ephemeral ones
        included, and the interactions made in it) or the whole world. Raises
        TimeoutError.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        cid = None if channel is None else id_of(channel)
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            waiter: asyncio.Future[None] = loop.create_future()
            if cid is None:
                self._waiters.append(waiter)
            else:
                self._channel_waiters.setdefault(cid, []).append(waiter)
            try:
                # asyncio.wait (not wait_for): a cancellation must never be swallowed.
                await asyncio.wait({waiter}, timeout=remaining)
            finally:
                if not waiter.done():
                    waiter.cancel()

    # -- setup -------------------------------------------------------------------
    def add_user(
        self, name: str, *, locale: str = "en-US", global_name: str | None = None
    ) -> UserRecord:
        """Create a human user. ``locale`` is sent as the interaction ``locale``."""
        user = UserRecord(
            id=self.snowflakes.next(), name=name, locale=locale, global_name=global_name
        )
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        locale: str = "en-US",
        owner: UserRecord | None = None,
        bot_permissions: int = DEFAULT_BOT,
        everyone_permissions: int = DEFAULT_EVERYONE,
        shard: int | None = None,
    ) -> GuildRecord:
        """Create a guild the bot is in. ``locale`` is the guild's ``preferred_locale``.

        The owner (a new user named ``"<name> owner"`` unless given) is a
        member; the bot is a member with a managed role holding ``bot_permissions``.
        If a bot is connected it receives GUILD_CREATE. ``shard`` picks an id
        that falls on that shard of :attr:`shard_count` shards.
        """
        if shard is None:
            gid = self.snowflakes.next()
        else:
            if not 0 <= shard < self.shard_count:
                raise ValueError(f"shard {shard} is not below shard_count {self.shard_count}")
            gid = self.snowflakes.next_in_shard(shard, self.shard_count)
        owner = owner or self.add_user(f"{name} owner")
        guild = GuildRecord(id=gid, name=name, locale=locale, owner_id=owner.id)
        guild.roles[gid] = RoleRecord(
            id=gid, guild_id=gid, name="@everyone", permissions=everyone_permissions
        )
        bot_role = RoleRecord(
            id=self.snowflakes.next(),
            guild_id=gid,
            name=self.bot.name,
            permissions=bot_permissions,
            position=1,
            managed=True,
        )
        guild.roles[bot_role.id] = bot_role
        guild.bot_role_id = bot_role.id
        guild.members[owner.id] = MemberRecord(user=owner, guild_id=gid)
        guild.members[self.bot.id] = MemberRecord(user=self.bot, guild_id=gid, roles=[bot_role.id])
        self.guilds[gid] = guild
        self.sink.dispatch("GUILD_CREATE", self.guild_payload(guild, gateway=True, joined=True),
                           guild_id=gid)
        self.notify()
        return guild

    def remove_bot(self, guild: IdLike) -> None:
        """Remove the bot from ``guild`` (kicked, or its app removed by an admin): it is no
        longer a member, so its calls there fail with Missing Access, and a connected bot
        receives GUILD_DELETE without ``unavailable`` (Discord's sign that it left, not an
        outage). The guild, its people and channels stay."""
        g = self.get_guild(guild)
        if g.members.pop(self.bot.id, None) is None:
            raise ValueError(f"the bot is not in guild {g.id}")
        self.sink.dispatch("GUILD_DELETE", {"id": str(g.id)}, guild_id=g.id)
        self.notify()

    def add_bot(self, guild: IdLike) -> None:
        """Add the bot back to a guild that removed it, with its role: GUILD_CREATE, as for
        a guild it joins."""
        g = self.get_guild(guild)
        if self.bot.id in g.members:
            raise ValueError(f"the bot is already in guild {g.id}")
        roles = [g.bot_role_id] if g.bot_role_id is not None else []
        g.members[self.bot.id] = MemberRecord(user=self.bot, guild_id=g.id, roles=roles)
        self.sink.dispatch("GUILD_CREATE", self.guild_payload(g, gateway=True, joined=True),
                           guild_id=g.id)
        self.notify()

    def add_role(
        self, guild: IdLike, name: str, *, permissions: int = 0, color: int = 0
    ) -> RoleRecord:
        """Create a role in a guild."""
        g = self.get_guild(guild)
        role = RoleRecord(
            id=self.snowflakes.next(),
            guild_id=g.id,
            name=name,
            permissions=permissions,
            position=len(g.roles),
            color=color,
        )
        g.roles[role.id] = role
        self.sink.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(g.id), "role": role.to_payload()}, guild_id=g.id
        )
        return role

    def add_member(
        self,
        guild: IdLike,
        user: UserRecord,
        *,
        roles: list[RoleRecord] | None = None,
        permissions: int | None = None,
        nick: str | None = None,
    ) -> MemberRecord:
        """Make ``user`` a member of ``guild``.

        ``permissions`` creates a role ``"<user> permissions"`` with exactly
        those bits and gives it to the member (on top of ``@everyone``).
        """
        g = self.get_guild(guild)
        role_ids = [r.id for r in roles or []]
        if permissions is not None:
            role_ids.append(
                self.add_role(g, f"{user.name} permissions", permissions=permissions).id
            )
        member = MemberRecord(user=user, guild_id=g.id, roles=role_ids, nick=nick)
        g.members[user.id] = member
        payload = member.to_payload()
        payload["guild_id"] = str(g.id)
        self.sink.dispatch("GUILD_MEMBER_ADD", payload, guild_id=g.id, intent=Intents.GUILD_MEMBERS)
        self.notify()
        return member

    def add_text_channel(
        self,
        guild: IdLike,
        name: str,
        *,
        topic: str | None = None,
        overwrites: list[Overwrite] | None = None,
    ) -> ChannelRecord:
        """Create a text channel (CHANNEL_CREATE if a bot is connected)."""
        g = self.get_guild(guild)
        channel = ChannelRecord(
            id=self.snowflakes.next(),
            type=ChannelType.GUILD_TEXT,
            name=name,
            guild_id=g.id,
            position=len(g.channel_ids),
            topic=topic,
            overwrites=list(overwrites or []),
        )
        self.channels[channel.id] = channel
        g.channel_ids.append(channel.id)
        self.sink.dispatch("CHANNEL_CREATE", self.channel_payload(channel), guild_id=g.id)
        self.notify()
        return channel

    def set_permissions(
        self,
        channel: IdLike,
        target: RoleRecord | UserRecord | MemberRecord,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """Set a channel overwrite for a role or a member (CHANNEL_UPDATE if connected)."""
        ch = self.get_channel(channel)
        if isinstance(target, RoleRecord):
            overwrite = Overwrite(id=target.id, type=0, allow=allow, deny=deny)
        else:
            user = target.user if isinstance(target, MemberRecord) else target
            overwrite = Overwrite(id=user.id, type=1, allow=allow, deny=deny)
        ch.overwrites = [o for o in ch.overwrites if o.id != overwrite.id] + [overwrite]
        self.sink.dispatch("CHANNEL_UPDATE", self.channel_payload(ch), guild_id=ch.guild_id)

    def install_for_user(self, user: IdLike) -> None:
        """``user`` adds the app to their account (Discord's user install)."""
        self.user_installs.add(id_of(self.get_user(id_of(user))))

    def close_dms(self, user: IdLike, closed: bool = True) -> None:
        """``user`` closes (or opens again) their direct messages to the bot."""
        uid = id_of(self.get_user(id_of(user)))
        if closed:
            self.dms_closed.add(uid)
        else:
            self.dms_closed.discard(uid)

    def require_dm_open(self, channel: ChannelRecord) -> None:
        """Raise 403 50007 for a message to a user who closed their DMs (Discord's answer;
        no violation: the bot cannot know before it tries)."""
        if channel.is_dm and any(uid in self.dms_closed for uid in channel.recipient_ids):
            raise DiscordError(403, 50007, "Cannot send messages to this user")

    def dm_owners(self, user: UserRecord) -> dict[str, str]:
        """``authorizing_integration_owners`` of an interaction in the DM with the bot: the
        user's own install if they made one, else the guild install ("0" in DMs)."""
        if user.id in self.user_installs:
            return {"1": str(user.id)}
        return {"0": "0"}

    def dm_channel(self, user: IdLike) -> ChannelRecord:
        """The DM channel between the bot and ``user`` (created on first use)."""
        uid = id_of(user)
        self.get_user(uid)
        for channel in self.channels.values():
            if channel.is_dm and channel.recipient_ids == [uid]:
                return channel
        channel = ChannelRecord(
            id=self.snowflakes.next(), type=ChannelType.DM, name="", recipient_ids=[uid]
        )
        self.channels[channel.id] = channel
        return channel

    # -- lookups (raise Discord errors) -----------------------------------------------
    def get_user(self, user: IdLike | str) -> UserRecord:
        """The user, or 404 Unknown User."""
        try:
            return self.users[id_of(user)]
        except (KeyError, ValueError):
            raise unknown("User") from None

    def get_guild(self, guild: IdLike | str) -> GuildRecord:
        """The guild, or 404 Unknown Guild."""
        try:
            return self.guilds[id_of(guild)]
        except (KeyError, ValueError):
            raise unknown("Guild") from None

    def get_channel(self, channel: IdLike | str) -> ChannelRecord:
        """The channel or thread, or 404 Unknown Channel."""
        try:
            found = self.channels[id_of(channel)]
        except (KeyError, ValueError):
            raise unknown("Channel") from None
        if found.deleted:
            raise unknown("Channel")
        return found

    def get_member(self, guild: GuildRecord, user: IdLike | str) -> MemberRecord:
        """The member, or 404 Unknown Member."""
        try:
            return guild.members[id_of(user)]
        except (KeyError, ValueError):
            raise unknown("Member") from None

    def get_message(self, channel: ChannelRecord, message: IdLike | str) -> MessageRecord:
        """A public message of the channel, or 404 Unknown Message (ephemerals are not fetchable)."""
        try:
            found = self.messages[id_of(message)]
        except (KeyError, ValueError):
            raise unknown("Message") from None
        if found.deleted or found.channel_id != channel.id or found.ephemeral:
            raise unknown("Message")
        return found

    def parent_channel(self, channel: ChannelRecord) -> ChannelRecord:
        """The channel whose overwrites apply (a thread's parent, else itself)."""
        if channel.is_thread and channel.parent_id is not None:
            return self.channels[channel.parent_id]
        return channel

    # -- permissions -----------------------------------------------------------------
    def member_permissions(self, user: IdLike, channel: ChannelRecord) -> int:
        """Permissions of ``user`` in ``channel`` (everything in a DM)."""
        if channel.guild_id is None:
            return Perm.ALL & ~Perm.ADMINISTRATOR
        guild = self.guilds[channel.guild_id]
        member = guild.members.get(id_of(user))
        if member is None:
            return 0
        return channel_permissions(guild, member, self.parent_channel(channel))

    def guild_permissions(self, guild: GuildRecord, user: IdLike) -> int:
        """Guild-level permissions of a member (0 if not a member)."""
        member = guild.members.get(id_of(user))
        return 0 if member is None else base_permissions(guild, member)

    def require_bot_permissions(self, channel: ChannelRecord, needed: int) -> None:
        """Raise 403 Missing Access/Permissions (a violation) unless the bot has ``needed``."""
        if channel.is_dm:
            return
        perms = self.member_permissions(self.bot, channel)
        if not perms & Perm.VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access", violation="missing_access")
        if perms & needed != needed:
            raise DiscordError(403, 50013, "Missing Permissions", violation="missing_permissions")

    # -- queries for tests ---------------------------------------------------------
    def channel_index(self, channel: IdLike) -> list[MessageRecord]:
        """Every message ever created in ``channel`` (deleted and ephemeral ones too), oldest first."""
        return self._messages_by_channel.get(id_of(channel), [])

    def channel_messages(
        self, channel: IdLike, *, include_system: bool = False
    ) -> list[MessageRecord]:
        """Public, not deleted messages of a channel/thread/DM, oldest first.

        System messages (like "X started a thread") are left out unless
        ``include_system``. Ephemeral messages are never included.
        """
        cid = id_of(channel)
        return [
            m
            for m in self.channel_index(cid)
            if not m.deleted
            and not m.ephemeral
            and (include_system or m.type in MessageType.USER_MESSAGES)
        ]

    def ephemerals(self, user: IdLike, channel: IdLike | None = None) -> list[MessageRecord]:
        """Ephemeral messages shown to ``user`` (optionally in one channel), oldest first."""
        uid = id_of(user)
        cid = None if channel is None else id_of(channel)
        return [
            m
            for m in self.messages.values()
            if m.ephemeral_user_id == uid and not m.deleted and (cid is None or m.channel_id == cid)
        ]

    def visible_to(self, user: IdLike, channel: IdLike | None = None) -> list[MessageRecord]:
        """Every message ``user`` can see: public ones in channels they can view, their DMs, their ephemerals."""
        uid = id_of(user)
        cid = None if channel is None else id_of(channel)
        out = []
        for message in self.messages.values():
            if message.deleted or (cid is not None and message.channel_id != cid):
                continue
            if message.ephemeral:
                if message.ephemeral_user_id == uid:
                    out.append(message)
                continue
            ch = self.channels[message.channel_id]
            if ch.is_dm:
                if uid in ch.recipient_ids:
                    out.append(message)
            elif self.member_permissions(uid, ch) & Perm.VIEW_CHANNEL:
                out.append(message)
        return out

    def threads(self, channel: IdLike | None = None) -> list[ChannelRecord]:
        """Threads (of one parent channel, or all), oldest first."""
        pid = None if channel is None else id_of(channel)
        return [
            c
            for c in self.channels.values()
            if c.is_thread and not c.deleted and (pid is None or c.parent_id == pid)
        ]

    def message(self, message_id: IdLike) -> MessageRecord:
        """Any message by id (ephemeral and deleted ones included); raises KeyError."""
        return self.messages[id_of(message_id)]

    def list_commands(self, guild: IdLike | None = None) -> list[CommandRecord]:
        """Registered commands: global ones, or those of one guild."""
        gid = None if guild is None else id_of(guild)
        return [c for c in self.commands.values() if c.guild_id == gid]

    def get_command(
        self, name: str, guild: IdLike | None = None, *, type: int = 1
    ) -> CommandRecord:
        """A command by default name: the guild's own first, then the global one; raises LookupError."""
        gid = None if guild is None else id_of(guild)
        candidates = [c for c in self.commands.values() if c.name == name and c.type == type]
        for scope in (gid, None):
            for command in candidates:
                if command.guild_id == scope:
                    return command
        raise LookupError(
            f"no command {name!r} registered (guild={gid}); have {[c.name for c in self.commands.values()]}"
        )

    def assert_clean(self) -> None:
        """Raise AssertionError listing every violation and every unhandled request.

        With ``display_rules`` on, every display breach too (else they are only recorded).
        """
        problems = [f"violation {v}" for v in self.violations]
        problems += [f"unhandled request {r.method} {r.path}" for r in self.unhandled_requests]
        if self.display_rules:
            problems += [f"display breach {b}" for b in self.display_breaches]
        if problems:
            raise AssertionError("Discord emulator saw problems:\n  " + "\n  ".join(problems))

    # -- interactions bookkeeping ---------------------------------------------------
    def register_interaction(self, record: InteractionRecord) -> None:
        """Index a new interaction by id and token."""
        self.interactions.append(record)
        self._interactions_by_id[record.id] = record
        self._interactions_by_token[record.token] = record
        if record.type == InteractionType.MESSAGE_COMPONENT:
            self._awaiting_public_edit.setdefault(record.channel_id, []).append(record)
        self.notify(record.channel_id)

    def interaction_by_id(self, interaction_id: str | int) -> InteractionRecord | None:
        """The interaction with this id, if any."""
        try:
            return self._interactions_by_id.get(int(interaction_id))
        except ValueError:
            return None

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        """The interaction with this token, if any."""
        return self._interactions_by_token.get(token)

    def record_error(self, method: str, path: str, error: DiscordError) -> None:
        """Log an error response; a violation also goes to :attr:`violations`."""
        self.errors.append(RequestRecord(method, path, error.status, error.code, error.message))
        if error.violation:
            violation = Violation(
                kind=error.violation,
                status=error.status,
                code=error.code,
                message=error.message,
                method=method,
                path=path,
                interaction_id=error.interaction_id,
                errors=error.errors,
            )
            self.violations.append(violation)
            record = self._interactions_by_id.get(error.interaction_id or 0)
            if record is not None:
                record.rejections.append(violation)
        self.notify()  # an error may concern any channel

    # -- messages --------------------------------------------------------------------
    def check_body(self, route: str, body: Any, *, interaction_id: int | None = None) -> None:
        """Validate a JSON body against Discord's OpenAPI schema of ``route`` (a key of
        ``spec.routes``, e.g. :data:`~tests.emulator.spec.MESSAGE_CREATE`); raise the
        400 Invalid Form Body Discord answers, recorded as a violation."""
        if self.spec is not None:
            self.spec.check(route, body).raise_if_any("invalid_form_body", interaction_id)

    def plan_attachments(
        self,
        data: dict[str, Any],
        uploads: list[Upload],
        existing: list[AttachmentRecord],
        prefix: lim.Path,
    ) -> tuple[list[AttachmentRecord | tuple[Upload, dict[str, Any]]], lim.FormErrors]:
        """Work out the attachments after a create/edit.

        With an ``attachments`` array (API v10), the message keeps exactly the
        listed existing attachments plus the listed uploads; without one, it
        keeps the existing attachments and adds every upload.
        """
        errors = lim.FormErrors()
        by_index = {u.index: u for u in uploads}
        existing_by_id = {a.id: a for a in existing}
        plan: list[AttachmentRecord | tuple[Upload, dict[str, Any]]] = []
        listed = data.get("attachments")
        used: set[int] = set()
        if listed is None:
            plan.extend(existing)
        else:
            for i, entry in enumerate(listed):
                try:
                    aid = int(entry.get("id"))
                except (TypeError, ValueError):
                    errors.add(
                        (*prefix, "attachments", i, "id"),
                        "BASE_TYPE_REQUIRED",
                        "This field is required",
                    )
                    continue
                if aid in existing_by_id:
                    plan.append(existing_by_id[aid])
                elif aid in by_index:
                    plan.append((by_index[aid], entry))
                    used.add(aid)
                else:
                    errors.add(
                        (*prefix, "attachments", i, "id"),
                        "ATTACHMENT_NOT_FOUND",
                        f"Unknown attachment id {aid}",
                    )
        for upload in uploads:
            if upload.index not in used:
                plan.append((upload, {}))
        for upload in uploads:
            if len(upload.data) > self.limits.file_size:
                raise DiscordError(
                    413, 40005, "Request entity too large", violation="file_too_large"
                )
        return plan, errors

    def _materialize(
        self, channel_id: int, plan: list[AttachmentRecord | tuple[Upload, dict[str, Any]]]
    ) -> list[AttachmentRecord]:
        out = []
        for item in plan:
            if isinstance(item, AttachmentRecord):
                out.append(item)
                continue
            upload, entry = item
            aid = self.snowflakes.next()
            filename = str(entry.get("filename") or upload.filename)
            content_type = upload.content_type
            if not content_type or content_type == "application/octet-stream":
                content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
            size = display.image_size(upload.data)
            record = AttachmentRecord(
                id=aid,
                filename=filename,
                data=upload.data,
                content_type=content_type,
                url=f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}",
                description=entry.get("description"),
                width=size[0] if size else None,
                height=size[1] if size else None,
            )
            self.attachments[aid] = record
            out.append(record)
        return out

    def _resolve_embeds(
        self, embeds: list[dict[str, Any]], attachments: list[AttachmentRecord]
    ) -> list[dict[str, Any]]:
        by_name = {a.filename: a.url for a in attachments}
        out = []
        for embed in embeds:
            embed = dict(embed)
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                if isinstance(media, dict) and str(media.get("url", "")).startswith(
                    "attachment://"
                ):
                    url = by_name.get(media["url"][len("attachment://") :])
                    if url:
                        embed[key] = {**media, "url": url, "proxy_url": url}
            out.append(embed)
        return out

    def check_message(
        self,
        data: dict[str, Any],
        uploads: list[Upload],
        existing: list[AttachmentRecord],
        *,
        creating: bool,
        prefix: lim.Path = (),
        interaction_id: int | None = None,
    ) -> list[AttachmentRecord | tuple[Upload, dict[str, Any]]]:
        """Validate a message body against Discord's limits; raise the 400 Discord would."""
        plan, errors = self.plan_attachments(data, uploads, existing, prefix)
        errors.items.extend(
            lim.validate_message(data, self.limits, attachment_count=len(plan), prefix=prefix).items
        )
        errors.raise_if_any("invalid_form_body", interaction_id)
        if creating and lim.is_empty_message(data, len(plan)):
            raise DiscordError(
                400,
                50006,
                "Cannot send an empty message",
                violation="empty_message",
                interaction_id=interaction_id,
            )
        return plan

    def create_message(
        self,
        channel: ChannelRecord,
        author: UserRecord,
        data: dict[str, Any],
        plan: list[AttachmentRecord | tuple[Upload, dict[str, Any]]],
        *,
        msg_type: int = MessageType.DEFAULT,
        ephemeral_user_id: int | None = None,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> MessageRecord:
        """Store a validated message and dispatch MESSAGE_CREATE if it is public."""
        mid = self.snowflakes.next()
        attachments = self._materialize(channel.id, plan)
        flags = (int(data.get("flags") or 0) & _EDITABLE_FLAGS) | extra_flags
        if ephemeral_user_id is not None:
            flags |= MessageFlags.EPHEMERAL
        message = MessageRecord(
            id=mid,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=str(data.get("content") or ""),
            embeds=self._resolve_embeds(list(data.get("embeds") or []), attachments),
            components=list(data.get("components") or []),
            attachments=attachments,
            flags=flags,
            type=msg_type,
            ephemeral_user_id=ephemeral_user_id,
            message_reference=data.get("message_reference"),
        )
        if interaction is not None:
            message.webhook_id = self.application_id
            message.application_id = self.application_id
            message.interaction_id = interaction.id
            message.interaction_metadata = self._interaction_metadata(interaction)
        self.messages[mid] = message
        self._messages_by_channel.setdefault(message.channel_id, []).append(message)
        if author.id == self.bot.id:
            self.check_display(message)
            self.check_text(message, data, first=not message.loading)
        if not message.ephemeral:
            self._dispatch_message("MESSAGE_CREATE", message, channel)
        self.notify(message.channel_id)
        return message

    def edit_message(
        self,
        message: MessageRecord,
        data: dict[str, Any],
        plan: list[AttachmentRecord | tuple[Upload, dict[str, Any]]],
        *,
        clear_flags: int = 0,
    ) -> MessageRecord:
        """Apply a validated edit (only the fields present) and dispatch MESSAGE_UPDATE if public."""
        message.history.append(message.snapshot())
        first = message.loading and bool(clear_flags & MessageFlags.LOADING)
        if "content" in data:
            message.content = str(data["content"] or "")
        message.attachments = self._materialize(message.channel_id, plan)
        if "embeds" in data:
            message.embeds = self._resolve_embeds(list(data["embeds"] or []), message.attachments)
        if "components" in data:
            message.components = list(data["components"] or [])
        if data.get("flags") is not None:
            keep = message.flags & ~_EDITABLE_FLAGS
            message.flags = keep | (int(data["flags"]) & _EDITABLE_FLAGS)
        message.flags &= ~clear_flags
        message.edited_at = iso_now()
        if message.author.id == self.bot.id:
            self.check_display(message)
            self.check_text(message, data, first=first)
            if not message.ephemeral:
                self._public_edit(message.channel_id)
        if not message.ephemeral:
            self._dispatch_message("MESSAGE_UPDATE", message, self.channels[message.channel_id])
        self.notify(message.channel_id)
        return message

    def _public_edit(self, channel_id: int) -> None:
        """A public bot message of the channel was just edited: the time of the first such
        edit after each click made there (a click not dispatched yet waits for the next)."""
        waiting = self._awaiting_public_edit.pop(channel_id, [])
        now = time.monotonic()
        for record in waiting:
            if record.dispatched_at is None:
                self._awaiting_public_edit.setdefault(channel_id, []).append(record)
            else:
                record.public_edit_at = now

    # -- display rules -------------------------------------------------------------------
    def display_payload(self, message: MessageRecord) -> dict[str, Any]:
        """The parts of the message object that :mod:`~tests.emulator.display` reads."""
        return {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "flags": message.flags,
            "attachments": [a.to_payload() for a in message.attachments],
            "embeds": message.embeds,
            "components": message.components,
        }

    def check_display(self, message: MessageRecord) -> list[display.DisplayBreach]:
        """Record the display rules a (new or edited) bot message breaks; return them."""
        payload = self.display_payload(message)
        found = display.display_breaches(payload)
        for breach in found:
            key = (breach.message_id, breach.kind, breach.filenames)
            if key not in self._breach_keys:
                self._breach_keys.add(key)
                self.display_breaches.append(breach)
        alt = display.described(payload)
        for attachment in message.attachments:
            if attachment.filename in alt:
                self._bot_images[attachment.id] = alt[attachment.filename]
                self._image_messages.add(message.id)
        if any(b.kind == "cropped" for b in found):
            self._cropped_messages.add(message.id)
        return found

    # -- mentions and links ---------------------------------------------------------------
    def check_text(self, message: MessageRecord, data: dict[str, Any], *, first: bool) -> None:
        """Record whom a (new or edited) bot message pings and the links it shows.

        Pings: on its first showing only (Discord notifies nobody of an edit), not for an
        ephemeral message; with :attr:`named_pings_only`, a ping of anyone the message's
        ``allowed_mentions`` did not name is a violation (``unnamed_ping``)."""
        payload = self.message_payload(message)
        for where, text, rendered in markdown.message_texts(payload):
            if not rendered:
                continue
            for url in markdown.render(text).links:
                key = (message.id, where, url)
                if key not in self._link_keys:
                    self._link_keys.add(key)
                    self.links.append(LinkRecord(message.id, message.channel_id, where, url))
        if not first or message.ephemeral:
            return
        channel = self.channels.get(message.channel_id)
        guild = self.guilds.get(message.guild_id or 0)
        allowed = data.get("allowed_mentions")
        report = markdown.pings(
            message.id, message.channel_id, message.content,
            allowed if isinstance(allowed, dict) else None,
            mentionable_roles={r.id for r in guild.roles.values() if r.mentionable} if guild
            else set(),
            mention_everyone=channel is not None and bool(
                self.member_permissions(self.bot, channel) & Perm.MENTION_EVERYONE))
        self.pings.append(report)
        if self.named_pings_only and report.unnamed:
            self.violations.append(Violation(
                kind="unnamed_ping", status=0, code=0,
                message=f"message {message.id} pings {', '.join(report.unnamed)}, which its "
                        f"allowed_mentions did not name ({report.allowed_mentions})"))

    def image_displays(self, message: IdLike) -> list[display.ImageDisplay]:
        """How the Discord client shows each image of a stored message (any message by id or
        record: ephemeral ones too), as :func:`tests.emulator.display.image_displays` says."""
        return display.image_displays(self.display_payload(self.message(message)))

    def display_report(self) -> dict[str, int]:
        """Figures of the bot's images: ``images_sent`` (image attachments uploaded, each
        once however often its message is edited), ``images_with_alt_text`` (of those: with
        a description, as last shown), ``messages_with_images``, ``messages_cropped``
        (messages shown with cropped images at least once) and ``breaches``."""
        return {
            "images_sent": len(self._bot_images),
            "images_with_alt_text": sum(self._bot_images.values()),
            "messages_with_images": len(self._image_messages),
            "messages_cropped": len(self._cropped_messages),
            "breaches": len(self.display_breaches),
        }

    def delete_message(self, message: MessageRecord) -> None:
        """Mark a message deleted and dispatch MESSAGE_DELETE if it was public."""
        message.deleted = True
        if not message.ephemeral:
            payload: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id:
                payload["guild_id"] = str(message.guild_id)
            self.sink.dispatch(
                "MESSAGE_DELETE",
                payload,
                guild_id=message.guild_id,
                intent=self._message_intent(message),
            )
        self.notify(message.channel_id)

    def _message_intent(self, message: MessageRecord) -> int:
        return Intents.GUILD_MESSAGES if message.guild_id else Intents.DIRECT_MESSAGES

    def _dispatch_message(self, name: str, message: MessageRecord, channel: ChannelRecord) -> None:
        gated = not (
            channel.is_dm or message.author.id == self.bot.id or self.bot.id in message.mentions()
        )
        self.sink.dispatch(
            name,
            self.message_payload(message, gateway=True),
            guild_id=message.guild_id,
            intent=self._message_intent(message),
            gated_content=gated,
        )

    def _interaction_metadata(self, record: InteractionRecord) -> dict[str, Any]:
        owners = {"0": str(record.guild_id)} if record.guild_id else self.dm_owners(record.user)
        meta: dict[str, Any] = {
            "id": str(record.id),
            "type": record.type,
            "user": record.user.to_payload(),
            "authorizing_integration_owners": owners,
        }
        if record.name:
            meta["name"] = record.name
            meta["command_type"] = 1
        if record.source_message_id is not None:
            meta["interacted_message_id"] = str(record.source_message_id)
        if record.original_message_id is not None and record.result_message_id is not None:
            meta["original_response_message_id"] = str(record.original_message_id)
        return meta

    def post_as_user(self, user: UserRecord, channel: IdLike, content: str) -> MessageRecord:
        """A human user posts a plain message (MESSAGE_CREATE to the bot).

        A message in an archived (unlocked) thread un-archives it first, as on Discord.
        """
        ch = self.get_channel(channel)
        if ch.is_thread and ch.archived:
            if ch.locked:
                raise DiscordError(403, 50083, "Thread is locked")
            self.update_channel(ch, {"archived": False})
        return self.create_message(ch, user, {"content": content}, [])

    # -- threads -----------------------------------------------------------------------
    def create_thread(
        self,
        parent: ChannelRecord,
        *,
        name: str,
        type: int,
        owner: UserRecord,
        message: MessageRecord | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
    ) -> ChannelRecord:
        """Create a thread (from a message, or standalone) and dispatch THREAD_CREATE."""
        thread = ChannelRecord(
            id=message.id if message is not None else self.snowflakes.next(),
            type=type,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            thread_member_ids={owner.id},
        )
        self.channels[thread.id] = thread
        payload = self.channel_payload(thread)
        payload["newly_created"] = True
        payload["member"] = self.thread_member_payload(thread, owner.id)
        self.sink.dispatch("THREAD_CREATE", payload, guild_id=thread.guild_id)
        if message is not None:
            message.thread_id = thread.id
            message.flags |= MessageFlags.HAS_THREAD
            self._dispatch_message("MESSAGE_UPDATE", message, parent)
        elif type == ChannelType.PUBLIC_THREAD:
            self.create_message(
                parent,
                owner,
                {
                    "content": name,
                    "message_reference": {
                        "channel_id": str(thread.id),
                        "guild_id": str(parent.guild_id),
                    },
                },
                [],
                msg_type=MessageType.THREAD_CREATED,
            )
        self.notify()
        return thread

    def update_channel(self, channel: ChannelRecord, data: dict[str, Any]) -> ChannelRecord:
        """Apply a channel/thread PATCH (name, topic, archived, locked, auto_archive_duration)."""
        for key in ("name", "topic", "archived", "locked", "auto_archive_duration", "invitable"):
            if key in data and data[key] is not None:
                setattr(channel, key, data[key])
        if "archived" in data:
            channel.archive_timestamp = iso_now()
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        self.sink.dispatch(event, self.channel_payload(channel), guild_id=channel.guild_id)
        self.notify()
        return channel

    def archive_thread(self, thread: IdLike, *, locked: bool = False) -> ChannelRecord:
        """Archive a thread now, as Discord does after ``auto_archive_duration`` minutes idle.

        Dispatches THREAD_UPDATE. Editing a message in it then fails (400,
        50083); posting in it (unless ``locked``) or PATCH ``archived: false``
        un-archives it.
        """
        channel = self.get_channel(thread)
        if not channel.is_thread:
            raise ValueError(f"#{channel.name} is not a thread")
        return self.update_channel(channel, {"archived": True, "locked": locked})

    def require_unarchived(self, channel: ChannelRecord) -> None:
        """Raise Discord's 400 (50083) for a change inside an archived thread."""
        if channel.is_thread and channel.archived:
            raise DiscordError(400, 50083, "Thread is archived")

    def delete_channel(self, channel: ChannelRecord) -> None:
        """Delete a channel or thread (CHANNEL_DELETE / THREAD_DELETE)."""
        channel.deleted = True
        payload = self.channel_payload(channel)
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        self.sink.dispatch(event, payload, guild_id=channel.guild_id)
        self.notify()

    # -- payloads ------------------------------------------------------------------------
    def channel_payload(self, channel: ChannelRecord) -> dict[str, Any]:
        """The Discord channel object (thread counts and DM recipients filled in)."""
        count = sum(1 for m in self.channel_index(channel.id) if not m.deleted and not m.ephemeral)
        recipients = [self.users[u] for u in channel.recipient_ids]
        return channel.to_payload(message_count=count, recipients=recipients)

    def thread_member_payload(self, thread: ChannelRecord, user_id: int) -> dict[str, Any]:
        """A thread member object."""
        return {
            "id": str(thread.id),
            "user_id": str(user_id),
            "join_timestamp": thread.created_at,
            "flags": 0,
        }

    def guild_payload(self, guild: GuildRecord, *, gateway: bool = False,
                      joined: bool = False) -> dict[str, Any]:
        """The Discord guild object; ``gateway=True`` adds the GUILD_CREATE extras.
        ``joined``: the GUILD_CREATE of a guild the bot has just joined, which carries no
        ``unavailable`` (``false`` there is a guild back from an outage, and clients such
        as discord.py tell a join from a return by it)."""
        payload: dict[str, Any] = {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
        }
        if gateway:
            bot_member = guild.members[self.bot.id]
            payload.update(
                {
                    "joined_at": bot_member.joined_at,
                    "large": False,
                    **({} if joined else {"unavailable": False}),
                    "member_count": len(guild.members),
                    "members": [bot_member.to_payload()],
                    "channels": [self.channel_payload(self.channels[c]) for c in guild.channel_ids],
                    "threads": [
                        self.channel_payload(t)
                        for t in self.threads()
                        if t.guild_id == guild.id and not t.archived
                    ],
                    "voice_states": [],
                    "presences": [],
                    "stage_instances": [],
                    "guild_scheduled_events": [],
                    "soundboard_sounds": [],
                }
            )
        return payload

    def message_payload(self, message: MessageRecord, *, gateway: bool = False) -> dict[str, Any]:
        """The Discord message object."""
        mentions = [self.users[u].to_payload() for u in message.mentions() if u in self.users]
        payload: dict[str, Any] = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "author": message.author.to_payload(),
            "content": message.content,
            "timestamp": message.created_at,
            "edited_timestamp": message.edited_at,
            "tts": False,
            "mention_everyone": "@everyone" in message.content,
            "mentions": mentions,
            "mention_roles": [],
            "attachments": [a.to_payload() for a in message.attachments],
            "embeds": message.embeds,
            "pinned": False,
            "type": message.type,
            "flags": message.flags,
            "components": message.components,
        }
        if message.guild_id is not None:
            payload["guild_id"] = str(message.guild_id)
            guild = self.guilds.get(message.guild_id)
            member = guild.members.get(message.author.id) if guild else None
            if gateway and member is not None and message.webhook_id is None:
                payload["member"] = member.to_payload(with_user=False)
        if message.webhook_id is not None:
            payload["webhook_id"] = str(message.webhook_id)
            payload["application_id"] = str(message.application_id)
        if message.interaction_metadata is not None:
            meta = message.interaction_metadata
            payload["interaction_metadata"] = meta
            payload["interaction"] = {
                "id": meta["id"],
                "type": meta["type"],
                "name": meta.get("name", ""),
                "user": meta["user"],
            }
        if message.thread_id is not None and message.thread_id in self.channels:
            payload["thread"] = self.channel_payload(self.channels[message.thread_id])
        if message.message_reference is not None:
            payload["message_reference"] = message.message_reference
        channel = self.channels.get(message.channel_id)
        if channel is not None and channel.is_thread:
            payload["position"] = sum(
                1 for m in self.channel_index(channel.id) if m.id < message.id
            )
        return payload

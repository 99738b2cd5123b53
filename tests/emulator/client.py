"""The user side: what a human does in the Discord client, and handles to await the bot's answer.

:class:`UserActions` builds INTERACTION_CREATE payloads the way the Discord
client would (refusing what the client would not allow, such as clicking a
button on someone else's ephemeral message) and dispatches them to the bot.
Each action returns an :class:`InteractionHandle`.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Mapping
from typing import Any

from .components import ButtonStyle, ComponentType
from .display import image_size
from .errors import DiscordError, NoResponseError, UserActionError
from .gateway import Gateway
from .models import (
    AttachmentRecord,
    ChannelRecord,
    CommandRecord,
    GuildRecord,
    IdLike,
    InteractionRecord,
    InteractionType,
    MemberRecord,
    MessageRecord,
    RoleRecord,
    UserRecord,
    Violation,
    id_of,
)
from .permissions import Perm
from .state import WAIT_TIMEOUT, World

UserLike = UserRecord | MemberRecord


def _user_of(user: UserLike) -> UserRecord:
    return user.user if isinstance(user, MemberRecord) else user


class InteractionHandle:
    """An interaction a user triggered; await what the bot did with it."""

    def __init__(self, world: World, record: InteractionRecord) -> None:
        self._world = world
        self.record = record

    @property
    def id(self) -> int:
        """The interaction id."""
        return self.record.id

    @property
    def message(self) -> MessageRecord | None:
        """The message the interaction resulted in so far (see :meth:`response`)."""
        rid = self.record.result_message_id
        return None if rid is None else self._world.messages[rid]

    def _describe(self, wanted: str) -> str:
        rec = self.record
        parts = [f"{wanted} for interaction {rec.name or rec.data.get('custom_id') or rec.type!r}"]
        parts.append(f"response_type={rec.response_type}")
        if rec.expired and not rec.acknowledged:
            parts.append("the deadline passed without an initial response")
        if rec.rejections:
            parts.append("rejected requests: " + "; ".join(str(v) for v in rec.rejections))
        return ", ".join(parts)

    async def response(self, timeout: float = WAIT_TIMEOUT) -> MessageRecord:
        """The message the user sees as the answer.

        That is the new message of a type 4 response, the updated message of a
        type 7, and for deferrals (5 and 6) the message of the first follow-up
        or ``@original`` edit. Raises :class:`NoResponseError` if there is none
        within ``timeout`` seconds, or if the deadline passed unanswered, or
        if the bot answered with a modal or autocomplete choices.
        """
        rec = self.record

        def done() -> bool:
            return (
                rec.result_message_id is not None
                or rec.modal is not None
                or rec.choices is not None
                or (rec.expired and not rec.acknowledged)
            )

        try:
            await self._world.wait_for(
                done, timeout, what="an interaction response", channel=rec.channel_id
            )
        except TimeoutError:
            raise NoResponseError(
                self._describe(f"no response message within {timeout}s")
            ) from None
        message = self.message
        if message is None:
            raise NoResponseError(self._describe("no response message"))
        return message

    async def ack(self, timeout: float = WAIT_TIMEOUT) -> int:
        """Wait for the initial response callback and return its type (4, 5, 6, 7, 8 or 9)."""
        rec = self.record
        try:
            await self._world.wait_for(
                lambda: rec.acknowledged or rec.expired,
                timeout,
                what="an acknowledgement",
                channel=rec.channel_id,
            )
        except TimeoutError:
            raise NoResponseError(self._describe(f"no acknowledgement within {timeout}s")) from None
        if rec.response_type is None:
            raise NoResponseError(self._describe("no acknowledgement"))
        return rec.response_type

    async def modal(self, timeout: float = WAIT_TIMEOUT) -> dict[str, Any]:
        """The modal the bot opened (callback type 9)."""
        await self.ack(timeout)
        if self.record.modal is None:
            raise NoResponseError(self._describe("no modal"))
        return self.record.modal

    async def choices(self, timeout: float = WAIT_TIMEOUT) -> list[dict[str, Any]]:
        """The autocomplete choices the bot returned (callback type 8)."""
        await self.ack(timeout)
        if self.record.choices is None:
            raise NoResponseError(self._describe("no autocomplete choices"))
        return self.record.choices

    async def followup(self, index: int = 0, timeout: float = WAIT_TIMEOUT) -> MessageRecord:
        """The ``index``-th follow-up message (0 = first) that created a new message."""
        rec = self.record
        try:
            await self._world.wait_for(
                lambda: len(rec.followup_ids) > index,
                timeout,
                what="a follow-up",
                channel=rec.channel_id,
            )
        except TimeoutError:
            raise NoResponseError(
                self._describe(f"no follow-up #{index} within {timeout}s")
            ) from None
        return self._world.messages[rec.followup_ids[index]]

    async def rejected(self, timeout: float = WAIT_TIMEOUT) -> Violation:
        """The first request for this interaction that the emulator refused (a violation)."""
        rec = self.record
        try:
            await self._world.wait_for(
                lambda: rec.rejections, timeout, what="a rejected request", channel=rec.channel_id
            )
        except TimeoutError:
            raise NoResponseError(
                self._describe(f"no rejected request within {timeout}s")
            ) from None
        return rec.rejections[0]

    async def expired(self, timeout: float | None = None) -> None:
        """Wait until the initial-response deadline has passed."""
        rec = self.record
        limit = timeout if timeout is not None else max(0.0, rec.deadline - time.monotonic()) + 5.0
        await self._world.wait_for(
            lambda: rec.expired, limit, what="the response deadline", channel=rec.channel_id
        )


class UserActions(World):
    """User-side actions: slash commands, context menus, clicks, selects, modals, posts."""

    gateway: Gateway

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._timers: list[asyncio.TimerHandle] = []

    # -- public actions ------------------------------------------------------------------
    async def slash(
        self,
        user: UserLike,
        channel: IdLike,
        command: str,
        /,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionHandle:
        """Run a slash command: ``command`` is the path (``"tichu new"``), options as keywords.

        Names may be the default ones or the user's localized ones. Values are
        checked like the client does (choices, ranges, lengths, required).
        User/member, role, channel and attachment (``(filename, bytes)``)
        values are resolved into ``data.resolved``. Use ``options={...}`` for
        option names that are not Python identifiers.
        """
        return self._command_interaction(
            _user_of(user), channel, command, {**(options or {}), **kwargs}, focused=None
        )

    async def autocomplete(
        self,
        user: UserLike,
        channel: IdLike,
        command: str,
        /,
        focused: str,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> InteractionHandle:
        """Send an autocomplete interaction; ``focused`` names the option being typed."""
        return self._command_interaction(
            _user_of(user), channel, command, {**(options or {}), **kwargs}, focused=focused
        )

    async def context_menu(
        self, user: UserLike, channel: IdLike, name: str, target: UserLike | MessageRecord
    ) -> InteractionHandle:
        """Run a user (target is a user/member) or message (target is a message) context menu command."""
        actor = _user_of(user)
        ch = self._channel_for(actor, channel)
        guild = self.guilds.get(ch.guild_id or 0)
        ctype = 3 if isinstance(target, MessageRecord) else 2
        command = self._find_command(name, guild, actor.locale, ctype)
        self._check_command_access(actor, ch, guild, command)
        resolved: dict[str, Any] = {}
        if isinstance(target, MessageRecord):
            resolved["messages"] = {str(target.id): self.message_payload(target)}
        else:
            self._resolve_user(_user_of(target), resolved, guild, ch)
        data: dict[str, Any] = {
            "id": str(command.id),
            "name": command.name,
            "type": ctype,
            "target_id": str(
                target.id if isinstance(target, MessageRecord) else _user_of(target).id
            ),
            "resolved": resolved,
        }
        if command.guild_id is not None:
            data["guild_id"] = str(command.guild_id)
        return self._dispatch_interaction(
            InteractionType.APPLICATION_COMMAND, actor, ch, data, name=command.name
        )

    async def click(
        self,
        user: UserLike,
        message: MessageRecord | int,
        custom_id: str | None = None,
        /,
        *,
        label: str | None = None,
    ) -> InteractionHandle:
        """Click a button found by ``custom_id`` or ``label``.

        Raises :class:`UserActionError` for what the client forbids: a deleted
        message, someone else's ephemeral message, a disabled or link button.
        """
        actor = _user_of(user)
        msg = self._usable_message(actor, message)
        button = msg.button(label=label, custom_id=custom_id)
        if button.disabled:
            raise UserActionError(f"button {button.label or button.custom_id!r} is disabled")
        if button.style in (ButtonStyle.LINK, ButtonStyle.PREMIUM) or button.custom_id is None:
            raise UserActionError(
                f"button {button.label!r} does not send an interaction (link/premium)"
            )
        data = {"custom_id": button.custom_id, "component_type": ComponentType.BUTTON}
        return self._dispatch_interaction(
            InteractionType.MESSAGE_COMPONENT,
            actor,
            self.channels[msg.channel_id],
            data,
            source=msg,
        )

    async def select(
        self,
        user: UserLike,
        message: MessageRecord | int,
        custom_id: str | None,
        values: list[Any],
        /,
    ) -> InteractionHandle:
        """Choose ``values`` in a select menu (``custom_id`` None: the only select of the message).

        For a string select, values are option values (or labels). For
        user/role/channel/mentionable selects, pass records.
        """
        actor = _user_of(user)
        msg = self._usable_message(actor, message)
        select = msg.select(custom_id)
        if select.disabled:
            raise UserActionError(f"select {select.custom_id!r} is disabled")
        if not select.min_values <= len(values) <= select.max_values:
            raise UserActionError(
                f"select {select.custom_id!r} takes {select.min_values}..{select.max_values} values, got {len(values)}"
            )
        ch = self.channels[msg.channel_id]
        guild = self.guilds.get(ch.guild_id or 0)
        data: dict[str, Any] = {"custom_id": select.custom_id, "component_type": select.type}
        if select.type == ComponentType.STRING_SELECT:
            chosen = []
            for value in values:
                by_label = {o.label: o.value for o in select.options}
                if value in select.values:
                    chosen.append(str(value))
                elif value in by_label:
                    chosen.append(by_label[value])
                else:
                    raise UserActionError(
                        f"{value!r} is not an option of select {select.custom_id!r}: {select.values}"
                    )
            data["values"] = chosen
        else:
            resolved: dict[str, Any] = {}
            ids = []
            for value in values:
                if isinstance(value, RoleRecord):
                    resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
                    ids.append(str(value.id))
                elif isinstance(value, ChannelRecord):
                    resolved.setdefault("channels", {})[str(value.id)] = self._resolved_channel(
                        value, actor
                    )
                    ids.append(str(value.id))
                else:
                    target = _user_of(value)
                    self._resolve_user(target, resolved, guild, ch)
                    ids.append(str(target.id))
            data["values"] = ids
            data["resolved"] = resolved
        return self._dispatch_interaction(
            InteractionType.MESSAGE_COMPONENT, actor, ch, data, source=msg
        )

    async def forged_click(
        self,
        user: UserLike,
        message: MessageRecord | int,
        custom_id: str,
        /,
        *,
        values: list[str] | None = None,
    ) -> InteractionHandle:
        """What a modified client can send: a component interaction with any ``custom_id``
        (and, for a select, any ``values``), whether or not the message has such a component."""
        actor = _user_of(user)
        msg = self._usable_message(actor, message)
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": ComponentType.STRING_SELECT if values is not None
            else ComponentType.BUTTON,
        }
        if values is not None:
            data["values"] = values
        return self._dispatch_interaction(
            InteractionType.MESSAGE_COMPONENT, actor, self.channels[msg.channel_id], data,
            source=msg,
        )

    async def submit_modal(
        self, user: UserLike, opened_by: InteractionHandle, values: Mapping[str, str | list[str]]
    ) -> InteractionHandle:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps text input (or select) custom_ids to the text (or the
        list of chosen values). Fields left out keep their pre-filled value.
        """
        actor = _user_of(user)
        rec = opened_by.record
        modal = rec.modal
        if modal is None:
            raise UserActionError("the bot did not open a modal for this interaction")
        if actor.id != rec.user.id:
            raise UserActionError("only the user who opened a modal can submit it")
        known: set[str] = set()
        rows = []
        for component in modal.get("components") or []:
            ctype = component.get("type")
            if ctype == ComponentType.ACTION_ROW:
                inner = [
                    self._modal_value(child, values, known)
                    for child in component.get("components") or []
                ]
                rows.append({"type": ComponentType.ACTION_ROW, "components": inner})
            elif ctype == ComponentType.LABEL:
                inner_one = self._modal_value(component["component"], values, known)
                rows.append({"type": ComponentType.LABEL, "component": inner_one})
        unknown_ids = set(values) - known
        if unknown_ids:
            raise UserActionError(
                f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown_ids)}"
            )
        data = {"custom_id": modal["custom_id"], "components": rows}
        ch = self.channels[rec.channel_id]
        source = self.messages.get(rec.source_message_id or 0)
        return self._dispatch_interaction(
            InteractionType.MODAL_SUBMIT, actor, ch, data, source=source
        )

    async def post(self, user: UserLike, channel: IdLike, content: str) -> MessageRecord:
        """A user posts a plain message (the bot gets MESSAGE_CREATE)."""
        actor = _user_of(user)
        ch = self._channel_for(actor, channel)
        if not ch.is_dm and not self.member_permissions(actor, ch) & (
            Perm.SEND_MESSAGES_IN_THREADS if ch.is_thread else Perm.SEND_MESSAGES
        ):
            raise UserActionError(f"{actor.name} cannot send messages in #{ch.name}")
        if ch.is_thread and ch.archived and ch.locked:
            raise UserActionError(f"#{ch.name} is archived and locked")
        return self.post_as_user(actor, ch, content)

    async def wait_for_message(
        self,
        predicate: Any = None,
        *,
        channel: IdLike | None = None,
        timeout: float = WAIT_TIMEOUT,
    ) -> MessageRecord:
        """The first message created after this call (in ``channel``) for which ``predicate(msg)`` is true."""
        marker = self.snowflakes.next()
        cid = None if channel is None else id_of(channel)

        def find() -> MessageRecord | None:
            candidates = self.messages.values() if cid is None else self.channel_index(cid)
            for message in candidates:
                fresh = message.id > marker and not message.deleted
                if (
                    fresh
                    and (cid is None or message.channel_id == cid)
                    and (predicate is None or predicate(message))
                ):
                    return message
            return None

        return await self.wait_for(find, timeout, what="a new message", channel=cid)

    # -- building blocks ---------------------------------------------------------------------------
    def _channel_for(self, user: UserRecord, channel: IdLike) -> ChannelRecord:
        try:
            ch = self.get_channel(channel)
        except DiscordError:
            raise UserActionError(f"unknown channel {channel!r}") from None
        if ch.is_dm:
            if user.id not in ch.recipient_ids:
                raise UserActionError(f"{user.name} is not in this DM")
            return ch
        guild = self.guilds[ch.guild_id or 0]
        if user.id not in guild.members:
            raise UserActionError(f"{user.name} is not a member of {guild.name}")
        if not self.member_permissions(user, ch) & Perm.VIEW_CHANNEL:
            raise UserActionError(f"{user.name} cannot see #{ch.name}")
        return ch

    def _usable_message(self, user: UserRecord, message: MessageRecord | int) -> MessageRecord:
        msg = self.messages.get(id_of(message))
        if msg is None:
            raise UserActionError(f"unknown message {message!r}")
        if msg.deleted:
            raise UserActionError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.ephemeral_user_id != user.id:
            raise UserActionError(
                f"message {msg.id} is ephemeral and only visible to user {msg.ephemeral_user_id}"
            )
        if msg.loading:
            raise UserActionError(f"message {msg.id} is still loading (deferred)")
        self._channel_for(user, msg.channel_id)
        return msg

    def _find_command(
        self, name: str, guild: GuildRecord | None, locale: str, ctype: int
    ) -> CommandRecord:
        scopes = [guild.id, None] if guild is not None else [None]
        for scope in scopes:
            for command in self.commands.values():
                if command.guild_id != scope or command.type != ctype:
                    continue
                if name in (command.name, command.name_localizations.get(locale)):
                    return command
        available = sorted(c.name for c in self.commands.values() if c.guild_id in scopes)
        raise UserActionError(f"no command {name!r} available here; registered: {available}")

    def _check_command_access(
        self,
        user: UserRecord,
        channel: ChannelRecord,
        guild: GuildRecord | None,
        command: CommandRecord,
    ) -> None:
        contexts = command.data.get("contexts")
        if guild is None:
            if contexts is not None and 1 not in contexts:
                raise UserActionError(f"/{command.name} cannot be used in DMs")
            if command.data.get("dm_permission") is False:
                raise UserActionError(f"/{command.name} cannot be used in DMs")
            # Which install lets the user reach the command here: their own (a user
            # install, for a command of the user installation context), or the app's in
            # a server they share with it (the guild installation context).
            types = command.data.get("integration_types") or [0]
            shares = any(user.id in g.members for g in self.guilds.values())
            if not ((user.id in self.user_installs and 1 in types)
                    or (shares and 0 in types)):
                raise UserActionError(
                    f"/{command.name} is not installed for {user.name} (integration types "
                    f"{types}; user install: {user.id in self.user_installs}, shares a "
                    f"server with the app: {shares})")
            return
        if contexts is not None and 0 not in contexts:
            raise UserActionError(f"/{command.name} cannot be used in guilds")
        perms = self.member_permissions(user, channel)
        if not perms & Perm.USE_APPLICATION_COMMANDS:
            raise UserActionError(
                f"{user.name} may not use application commands in #{channel.name}"
            )
        required = command.data.get("default_member_permissions")
        if required is not None and perms & int(required) != int(required):
            raise UserActionError(
                f"/{command.name} is hidden from {user.name} (default_member_permissions={required})"
            )

    def _command_interaction(
        self,
        user: UserRecord,
        channel: IdLike,
        path: str,
        values: dict[str, Any],
        *,
        focused: str | None,
    ) -> InteractionHandle:
        ch = self._channel_for(user, channel)
        guild = self.guilds.get(ch.guild_id or 0)
        tokens = path.split()
        if not tokens:
            raise UserActionError("empty command path")
        command = self._find_command(tokens[0].lstrip("/"), guild, user.locale, 1)
        self._check_command_access(user, ch, guild, command)
        definitions = command.options
        top: list[dict[str, Any]] = []
        container = top
        names = [command.name]
        for token in tokens[1:]:
            sub = self._match_option(definitions, token, user.locale, kinds=(1, 2))
            if sub is None:
                raise UserActionError(f"/{' '.join(names)} has no subcommand {token!r}")
            node: dict[str, Any] = {"type": sub["type"], "name": sub["name"], "options": []}
            container.append(node)
            container = node["options"]
            definitions = list(sub.get("options") or [])
            names.append(sub["name"])
        if any(d.get("type") in (1, 2) for d in definitions):
            choices = [d["name"] for d in definitions]
            raise UserActionError(f"/{' '.join(names)} needs a subcommand: {choices}")
        resolved: dict[str, Any] = {}
        given = set()
        for key, value in values.items():
            definition = self._match_option(
                definitions, key, user.locale, kinds=tuple(range(3, 12))
            )
            if definition is None:
                raise UserActionError(
                    f"/{' '.join(names)} has no option {key!r}; options: {[d['name'] for d in definitions]}"
                )
            given.add(definition["name"])
            if definition["name"] == focused or key == focused:
                container.append(
                    {
                        "type": definition["type"],
                        "name": definition["name"],
                        "value": str(value),
                        "focused": True,
                    }
                )
            else:
                container.append(self._option_payload(definition, value, resolved, guild, ch, user))
        if focused is None:
            missing = [
                d["name"] for d in definitions if d.get("required") and d["name"] not in given
            ]
            if missing:
                raise UserActionError(f"/{' '.join(names)} is missing required options {missing}")
        elif not any(o.get("focused") for o in container):
            raise UserActionError(f"focused option {focused!r} needs a value")
        data: dict[str, Any] = {"id": str(command.id), "name": command.name, "type": 1}
        if top:
            data["options"] = top
        if command.guild_id is not None:
            data["guild_id"] = str(command.guild_id)
        if resolved:
            data["resolved"] = resolved
        kind = (
            InteractionType.AUTOCOMPLETE
            if focused is not None
            else InteractionType.APPLICATION_COMMAND
        )
        return self._dispatch_interaction(kind, user, ch, data, name=" ".join(names))

    @staticmethod
    def _match_option(
        definitions: list[dict[str, Any]], name: str, locale: str, *, kinds: tuple[int, ...]
    ) -> dict[str, Any] | None:
        for definition in definitions:
            if definition.get("type") not in kinds:
                continue
            localized = (definition.get("name_localizations") or {}).get(locale)
            if name in (definition["name"], localized):
                return definition
        return None

    def _option_payload(
        self,
        definition: dict[str, Any],
        value: Any,
        resolved: dict[str, Any],
        guild: GuildRecord | None,
        channel: ChannelRecord,
        user: UserRecord,
    ) -> dict[str, Any]:
        kind = int(definition["type"])
        name = definition["name"]
        out: Any
        if kind in (3, 4, 10):
            out = self._scalar_option(definition, value, user.locale)
        elif kind == 5:
            if not isinstance(value, bool):
                raise UserActionError(f"option {name!r} takes a boolean, got {value!r}")
            out = value
        elif kind == 6 or (kind == 9 and isinstance(value, UserRecord | MemberRecord)):
            target = _user_of(value)
            self._resolve_user(target, resolved, guild, channel)
            out = str(target.id)
        elif kind in (8, 9):
            if not isinstance(value, RoleRecord):
                raise UserActionError(f"option {name!r} takes a role, got {value!r}")
            resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            out = str(value.id)
        elif kind == 7:
            if not isinstance(value, ChannelRecord):
                raise UserActionError(f"option {name!r} takes a channel record, got {value!r}")
            allowed = definition.get("channel_types")
            if allowed and value.type not in allowed:
                raise UserActionError(f"option {name!r} only accepts channel types {allowed}")
            resolved.setdefault("channels", {})[str(value.id)] = self._resolved_channel(value, user)
            out = str(value.id)
        elif kind == 11:
            attachment = self._attachment_option(value, channel)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.to_payload()
            out = str(attachment.id)
        else:
            raise UserActionError(f"option type {kind} is not supported")
        return {"type": kind, "name": name, "value": out}

    @staticmethod
    def _scalar_option(definition: dict[str, Any], value: Any, locale: str) -> Any:
        kind = int(definition["type"])
        name = definition["name"]
        choices = definition.get("choices")
        if choices:
            for choice in choices:
                labels = (choice["name"], (choice.get("name_localizations") or {}).get(locale))
                if value == choice["value"] or value in labels:
                    return choice["value"]
            raise UserActionError(
                f"option {name!r} must be one of {[c['value'] for c in choices]}, got {value!r}"
            )
        if kind == 3:
            if not isinstance(value, str):
                raise UserActionError(f"option {name!r} takes a string, got {value!r}")
            low, high = definition.get("min_length", 0), definition.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise UserActionError(f"option {name!r} must be {low}..{high} characters long")
            return value
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (kind == 4 and not isinstance(value, int))
        ):
            raise UserActionError(
                f"option {name!r} takes a {'integer' if kind == 4 else 'number'}, got {value!r}"
            )
        low, high = definition.get("min_value"), definition.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise UserActionError(f"option {name!r} must be within {low}..{high}, got {value!r}")
        return value

    def _resolve_user(
        self,
        user: UserRecord,
        resolved: dict[str, Any],
        guild: GuildRecord | None,
        channel: ChannelRecord,
    ) -> None:
        resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id]
            perms = self.member_permissions(user, channel)
            resolved.setdefault("members", {})[str(user.id)] = member.to_payload(
                with_user=False, permissions=perms
            )

    def _resolved_channel(self, channel: ChannelRecord, user: UserRecord) -> dict[str, Any]:
        payload = self.channel_payload(channel)
        payload["permissions"] = str(self.member_permissions(user, channel))
        return payload

    def _attachment_option(self, value: Any, channel: ChannelRecord) -> AttachmentRecord:
        if isinstance(value, AttachmentRecord):
            return value
        if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes)):
            raise UserActionError("attachment options take (filename, bytes)")
        filename, data = value
        aid = self.snowflakes.next()
        size = image_size(data)
        attachment = AttachmentRecord(
            id=aid,
            filename=filename,
            data=data,
            content_type="image/png" if size else "application/octet-stream",
            url=f"{self.base_url}/attachments/{channel.id}/{aid}/{filename}",
            width=size[0] if size else None,
            height=size[1] if size else None,
        )
        self.attachments[aid] = attachment
        return attachment

    @staticmethod
    def _modal_value(
        component: dict[str, Any], values: Mapping[str, str | list[str]], known: set[str]
    ) -> dict[str, Any]:
        custom_id = component.get("custom_id")
        ctype = component.get("type")
        if custom_id is None:
            return {"type": ctype}
        known.add(custom_id)
        if ctype == ComponentType.TEXT_INPUT:
            text = values.get(custom_id, component.get("value") or "")
            if not isinstance(text, str):
                raise UserActionError(f"text input {custom_id!r} takes a string")
            if component.get("required", True) and not text:
                raise UserActionError(f"text input {custom_id!r} is required")
            low, high = component.get("min_length", 0), component.get("max_length", 4000)
            if text and not low <= len(text) <= high:
                raise UserActionError(
                    f"text input {custom_id!r} must be {low}..{high} characters long"
                )
            return {"type": ctype, "custom_id": custom_id, "value": text}
        chosen = values.get(custom_id, [])
        return {"type": ctype, "custom_id": custom_id, "values": list(chosen)}

    def _dispatch_interaction(
        self,
        kind: int,
        user: UserRecord,
        channel: ChannelRecord,
        data: dict[str, Any],
        *,
        name: str = "",
        source: MessageRecord | None = None,
    ) -> InteractionHandle:
        if not any(
            s.ready and s.connection is not None and s.handles_guild(channel.guild_id)
            for s in self.gateway.live_sessions()
        ):
            raise RuntimeError("no bot shard of this guild is connected to the emulator gateway")
        guild = self.guilds.get(channel.guild_id or 0)
        iid = self.snowflakes.next()
        token = secrets.token_urlsafe(64)
        perms = self.member_permissions(user, channel)
        interaction_channel = self.channel_payload(channel)
        interaction_channel["permissions"] = str(perms)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": interaction_channel,
            "locale": user.locale,
            "app_permissions": str(self.member_permissions(self.bot, channel)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.limits.file_size,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = guild.locale
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["member"] = guild.members[user.id].to_payload(permissions=perms)
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
            payload["context"] = 0
        else:
            payload["user"] = user.to_payload()
            payload["authorizing_integration_owners"] = self.dm_owners(user)
            payload["context"] = 1
        if source is not None:
            payload["message"] = self.message_payload(source)
        now = time.monotonic()
        record = InteractionRecord(
            id=iid,
            token=token,
            type=kind,
            user=user,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            data=data,
            payload=payload,
            name=name,
            source_message_id=source.id if source is not None else None,
            created_at=now,
            deadline=now + self.interaction_timeout,
            clock_start=self.deadline_clock(),
        )
        self.register_interaction(record)

        def sent() -> None:
            if record.dispatched_at is None:
                record.dispatched_at = time.monotonic()

        self.gateway.dispatch(
            "INTERACTION_CREATE", payload, guild_id=channel.guild_id, on_sent=sent
        )
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(self.interaction_timeout, self._expire, record))
        return InteractionHandle(self, record)

    def _expire(self, record: InteractionRecord) -> None:
        # The deadline clock runs slower than wall time while other processes hold the CPU.
        left = self.interaction_timeout - (self.deadline_clock() - record.clock_start)
        if left > 0.001 and not record.acknowledged:
            loop = asyncio.get_running_loop()
            self._timers.append(loop.call_later(left, self._expire, record))
            return
        record.expired = True
        if not record.acknowledged:
            self.violations.append(
                Violation(
                    kind="no_response",
                    status=0,
                    code=0,
                    message=f"The application did not respond within {self.interaction_timeout:g}s",
                    interaction_id=record.id,
                )
            )
        self.notify()

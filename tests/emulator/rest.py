"""The REST API v10 routes, on top of :class:`~tests.emulator.state.World`.

Request bodies may be JSON or multipart/form-data (``payload_json`` plus
``files[n]`` parts), as discord.py sends them. Errors are answered in
Discord's JSON shape; unknown routes get ``404: Not Found`` and are recorded
in ``World.unhandled_requests``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, hdrs, web
from aiohttp.multipart import content_disposition_filename, parse_content_disposition

from . import limits as lim
from . import spec as openapi
from .errors import DiscordError, not_found_route, unauthorized, unknown
from .interactions import InteractionResponder
from .models import (
    ChannelRecord,
    ChannelType,
    CommandRecord,
    MessageType,
    RequestRecord,
    Upload,
)
from .permissions import Perm
from .ratelimits import RateLimited, RateLimiter, RestCall
from .state import World

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_NO_AUTH_PREFIXES = (f"{API}/interactions/", f"{API}/webhooks/")


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """Parse a JSON or multipart (``payload_json`` + ``files[n]``) request body."""
    # The media type only: aiohttp's ``request.content_type`` runs the e-mail header parser
    # on every multipart request (each has its own boundary, so its cache never hits).
    media = request.headers.get(hdrs.CONTENT_TYPE, "").partition(";")[0].strip().lower()
    if media == "multipart/form-data":
        payload: Any = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            name, filename = _disposition(part.headers.get(hdrs.CONTENT_DISPOSITION, ""))
            name = name or ""
            if name == "payload_json":
                payload = _loads(await part.text())
            elif name.startswith("files[") or name == "file":
                index = int(name[6:-1]) if name.startswith("files[") else 0
                data = bytes(await part.read(decode=False))
                uploads.append(
                    Upload(
                        index=index,
                        filename=filename or f"file{index}",
                        data=data,
                        content_type=part.headers.get("Content-Type", ""),
                    )
                )
        return payload, uploads
    raw = await request.read()
    if not raw:
        return {}, []
    return _loads(raw.decode()), []


@functools.lru_cache(maxsize=1024)
def _disposition(header: str) -> tuple[str | None, str | None]:
    """``name`` and ``filename`` of a part's Content-Disposition (the same few headers
    come again and again: ``files[0]`` named ``board.png``...)."""
    _, params = parse_content_disposition(header or None)
    return (content_disposition_filename(params, "name"),
            content_disposition_filename(params, "filename"))


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json" (no charset), as Discord sends: discord.py compares it verbatim.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _no_content() -> web.Response:
    return web.Response(status=204)


def _route_of(request: web.Request) -> str:
    """``"METHOD /template"`` of a request, without the ``/api/v10`` prefix."""
    resource = request.match_info.route.resource
    template = resource.canonical if resource is not None else request.path
    return f"{request.method} {template.removeprefix(API)}"


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true", "yes")


class RestApi:
    """Registers the REST routes and turns Discord errors into responses."""

    def __init__(
        self, world: World, responder: InteractionResponder, limiter: RateLimiter
    ) -> None:
        self.world = world
        self.responder = responder
        self.limiter = limiter

    # -- plumbing ---------------------------------------------------------------------
    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Check the bot token and the rate limits, map errors to Discord-style JSON, log the call."""
        path = request.path
        call: RestCall | None = None
        limit_headers: dict[str, str] = {}
        response: web.StreamResponse
        try:
            public = path == f"{API}/gateway" or path.startswith(_NO_AUTH_PREFIXES)
            authorized = request.headers.get("Authorization", "") == f"Bot {self.world.bot_token}"
            if path.startswith(f"{API}/"):
                if not public and not authorized:
                    raise unauthorized()
                call, limit_headers = self.limiter.check(
                    request.method,
                    _route_of(request),
                    path,
                    dict(request.match_info),
                    "bot" if authorized else f"ip:{request.remote}",
                )
            response = await handler(request)
        except RateLimited as limited:
            await request.read()
            limit_headers = {**limited.headers, "Via": "1.1 google"}
            response = _json(limited.body(), 429)
            self.world.notify()
        except DiscordError as error:
            self.world.record_error(request.method, path, error)
            response = _json(error.body(), error.status)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed) as exc:
            status = exc.status
            message = "404: Not Found" if status == 404 else "405: Method Not Allowed"
            record = RequestRecord(request.method, path, status, 0, message)
            self.world.unhandled_requests.append(record)
            self.world.errors.append(record)
            self.world.notify()
            response = _json({"message": message, "code": 0}, status)
        if call is not None:
            call.status = response.status
            call.bytes_in = request.content.total_bytes or (request.content_length or 0)
        response.headers.update(limit_headers)
        return response

    def register(self, router: web.UrlDispatcher) -> None:
        """Add every route to ``router``."""
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback),
            ("POST", "/webhooks/{app_id}/{token}", self.webhook_execute),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_delete),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("PATCH", "/channels/{channel_id}", self.patch_channel),
            ("DELETE", "/channels/{channel_id}", self.delete_channel),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self.thread_from_message,
            ),
            ("POST", "/channels/{channel_id}/threads", self.thread_without_message),
            ("GET", "/channels/{channel_id}/thread-members", self.list_thread_members),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            (
                "DELETE",
                "/channels/{channel_id}/thread-members/{user_id}",
                self.remove_thread_member,
            ),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.get_guild_roles),
            ("GET", "/guilds/{guild_id}/members", self.list_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
        ]
        for scope in (
            "/applications/{app_id}/commands",
            "/applications/{app_id}/guilds/{guild_id}/commands",
        ):
            routes += [
                ("GET", scope, self.list_commands),
                ("PUT", scope, self.put_commands),
                ("POST", scope, self.create_command),
                ("GET", scope + "/{command_id}", self.get_command),
                ("PATCH", scope + "/{command_id}", self.patch_command),
                ("DELETE", scope + "/{command_id}", self.delete_command),
            ]
        for method, path, handler in routes:
            router.add_route(method, API + path, handler)
        router.add_route(
            "GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self.cdn_attachment
        )

    # -- users, application, gateway -----------------------------------------------------
    async def get_me(self, request: web.Request) -> web.Response:
        """GET /users/@me: the bot user."""
        return _json(
            {**self.world.bot.to_payload(), "verified": True, "mfa_enabled": False, "email": None}
        )

    async def get_user(self, request: web.Request) -> web.Response:
        """GET /users/{id}."""
        return _json(self.world.get_user(request.match_info["user_id"]).to_payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        """POST /users/@me/channels: open the DM channel with a user."""
        body, _ = await read_body(request)
        channel = self.world.dm_channel(self.world.get_user(str(body.get("recipient_id"))))
        return _json(self.world.channel_payload(channel))

    async def get_application(self, request: web.Request) -> web.Response:
        """GET /oauth2/applications/@me: the application of the bot."""
        world = self.world
        owner = world.users.get(world.application_owner_id)
        return _json(
            {
                "id": str(world.application_id),
                "name": world.bot.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "hook": True,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": owner.to_payload() if owner else world.bot.to_payload(),
                "team": None,
                "rpc_origins": [],
                "bot": world.bot.to_payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": len(world.guilds),
                "integration_types_config": {"0": {}, "1": {}},
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        """GET /gateway."""
        return _json({"url": self._gateway_url(request)})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """GET /gateway/bot: the emulator's websocket URL and its recommended shard count."""
        return _json(
            {
                "url": self._gateway_url(request),
                "shards": int(getattr(self.world, "shard_count", 1)),
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14400000,
                    "max_concurrency": 1,
                },
            }
        )

    def _gateway_url(self, request: web.Request) -> str:
        return f"ws://{request.host}/gateway"

    # -- application commands ---------------------------------------------------------------
    def _command_scope(self, request: web.Request) -> int | None:
        if request.match_info["app_id"] != str(self.world.application_id):
            raise unknown("Application")
        raw = request.match_info.get("guild_id")
        if raw is None:
            return None
        try:
            return self.world.get_guild(raw).id
        except DiscordError:
            raise DiscordError(403, 50001, "Missing Access", violation="missing_access") from None

    def _store_command(self, scope: int | None, data: dict[str, Any]) -> tuple[CommandRecord, bool]:
        world = self.world
        data = {
            k: v
            for k, v in data.items()
            if k not in ("id", "application_id", "version", "guild_id")
        }
        data.setdefault("type", 1)
        for existing in world.commands.values():
            if (
                existing.guild_id == scope
                and existing.name == data["name"]
                and existing.type == data["type"]
            ):
                existing.data = data
                existing.version = world.snowflakes.next()
                return existing, False
        record = CommandRecord(
            id=world.snowflakes.next(),
            application_id=world.application_id,
            guild_id=scope,
            data=data,
            version=world.snowflakes.next(),
        )
        world.commands[record.id] = record
        return record, True

    async def list_commands(self, request: web.Request) -> web.Response:
        """GET the global or guild commands."""
        scope = self._command_scope(request)
        return _json([c.to_payload() for c in self.world.list_commands(scope)])

    async def put_commands(self, request: web.Request) -> web.Response:
        """PUT (bulk overwrite) the global or guild commands; ids of kept commands survive."""
        scope = self._command_scope(request)
        body, _ = await read_body(request)
        if not isinstance(body, list):
            raise DiscordError(400, 50035, "Invalid Form Body", violation="invalid_command")
        lim.validate_commands(body, self.world.limits).raise_if_any("invalid_command")
        records = [self._store_command(scope, command)[0] for command in body]
        kept = {r.id for r in records}
        for record in self.world.list_commands(scope):
            if record.id not in kept:
                del self.world.commands[record.id]
        self.world.command_syncs += 1
        self.world.notify()
        return _json([r.to_payload() for r in records])

    async def create_command(self, request: web.Request) -> web.Response:
        """POST one command (an existing one with the same name and type is overwritten)."""
        scope = self._command_scope(request)
        body, _ = await read_body(request)
        errors = lim.FormErrors()
        lim.validate_command(errors, body, self.world.limits, ())
        errors.raise_if_any("invalid_command")
        record, created = self._store_command(scope, body)
        self.world.command_syncs += 1
        self.world.notify()
        return _json(record.to_payload(), 201 if created else 200)

    def _command(self, request: web.Request) -> CommandRecord:
        scope = self._command_scope(request)
        try:
            record = self.world.commands[int(request.match_info["command_id"])]
        except (KeyError, ValueError):
            raise unknown("application command") from None
        if record.guild_id != scope:
            raise unknown("application command")
        return record

    async def get_command(self, request: web.Request) -> web.Response:
        """GET one command."""
        return _json(self._command(request).to_payload())

    async def patch_command(self, request: web.Request) -> web.Response:
        """PATCH one command."""
        record = self._command(request)
        body, _ = await read_body(request)
        merged = {**record.data, **body}
        errors = lim.FormErrors()
        lim.validate_command(errors, merged, self.world.limits, ())
        errors.raise_if_any("invalid_command")
        record.data = {
            k: v
            for k, v in merged.items()
            if k not in ("id", "application_id", "version", "guild_id")
        }
        record.version = self.world.snowflakes.next()
        self.world.notify()
        return _json(record.to_payload())

    async def delete_command(self, request: web.Request) -> web.Response:
        """DELETE one command."""
        record = self._command(request)
        del self.world.commands[record.id]
        self.world.notify()
        return _no_content()

    # -- interactions ---------------------------------------------------------------------------
    async def interaction_callback(self, request: web.Request) -> web.Response:
        """POST /interactions/{id}/{token}/callback."""
        body, uploads = await read_body(request)
        info = request.match_info
        record = self.world.interaction_by_id(info["interaction_id"])
        self.world.check_body(
            openapi.INTERACTION_CALLBACK,
            body,
            interaction_id=record.id if record is not None and record.token == info["token"] else None,
        )
        result = self.responder.callback(info["interaction_id"], info["token"], body, uploads)
        if _truthy(request.query.get("with_response")):
            return _json(result)
        return _no_content()

    async def webhook_execute(self, request: web.Request) -> web.Response:
        """POST /webhooks/{app}/{token}: an interaction follow-up."""
        body, uploads = await read_body(request)
        info = request.match_info
        self.world.check_body(
            openapi.WEBHOOK_EXECUTE, body, interaction_id=self._interaction_of(info["token"])
        )
        return _json(self.responder.followup(info["app_id"], info["token"], body, uploads))

    def _interaction_of(self, token: str) -> int | None:
        record = self.world.interaction_by_token(token)
        return None if record is None else record.id

    async def webhook_get(self, request: web.Request) -> web.Response:
        """GET a message of an interaction webhook."""
        info = request.match_info
        return _json(self.responder.get(info["app_id"], info["token"], info["message_id"]))

    async def webhook_edit(self, request: web.Request) -> web.Response:
        """PATCH a message of an interaction webhook (``@original`` or a follow-up)."""
        body, uploads = await read_body(request)
        info = request.match_info
        self.world.check_body(
            openapi.WEBHOOK_EDIT, body, interaction_id=self._interaction_of(info["token"])
        )
        return _json(
            self.responder.edit(info["app_id"], info["token"], info["message_id"], body, uploads)
        )

    async def webhook_delete(self, request: web.Request) -> web.Response:
        """DELETE a message of an interaction webhook."""
        info = request.match_info
        self.responder.delete(info["app_id"], info["token"], info["message_id"])
        return _no_content()

    # -- channels and messages ---------------------------------------------------------------
    def _channel(self, request: web.Request) -> ChannelRecord:
        return self.world.get_channel(request.match_info["channel_id"])

    async def get_channel(self, request: web.Request) -> web.Response:
        """GET /channels/{id}."""
        return _json(self.world.channel_payload(self._channel(request)))

    async def patch_channel(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}: rename, topic, archive/lock a thread."""
        channel = self._channel(request)
        body, _ = await read_body(request)
        if channel.is_thread and channel.owner_id != self.world.bot.id:
            self.world.require_bot_permissions(channel, Perm.MANAGE_THREADS)
        elif not channel.is_thread:
            self.world.require_bot_permissions(channel, Perm.MANAGE_CHANNELS)
        if "name" in body:
            errors = lim.FormErrors()
            errors.bad_len(("name",), body["name"], 1, 100)
            errors.raise_if_any("invalid_form_body")
        return _json(self.world.channel_payload(self.world.update_channel(channel, body)))

    async def delete_channel(self, request: web.Request) -> web.Response:
        """DELETE /channels/{id}."""
        channel = self._channel(request)
        self.world.require_bot_permissions(
            channel, Perm.MANAGE_THREADS if channel.is_thread else Perm.MANAGE_CHANNELS
        )
        self.world.delete_channel(channel)
        return _json(self.world.channel_payload(channel))

    async def list_messages(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages (newest first; before/after/around/limit)."""
        channel = self._channel(request)
        self.world.require_bot_permissions(channel, Perm.VIEW_CHANNEL | Perm.READ_MESSAGE_HISTORY)
        messages = self.world.channel_messages(channel, include_system=True)
        query = request.query
        limit = max(1, min(100, int(query.get("limit", 50))))
        if "before" in query:
            messages = [m for m in messages if m.id < int(query["before"])]
        if "after" in query:
            messages = [m for m in messages if m.id > int(query["after"])]
            messages = messages[:limit]
        if "around" in query:
            around = int(query["around"])
            older = [m for m in messages if m.id <= around][-((limit + 1) // 2) :]
            newer = [m for m in messages if m.id > around][: limit // 2]
            messages = older + newer
        messages = list(reversed(messages))[:limit]
        return _json([self.world.message_payload(m) for m in messages])

    async def get_message(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/messages/{id} (ephemeral messages are not fetchable)."""
        channel = self._channel(request)
        self.world.require_bot_permissions(channel, Perm.VIEW_CHANNEL | Perm.READ_MESSAGE_HISTORY)
        return _json(
            self.world.message_payload(
                self.world.get_message(channel, request.match_info["message_id"])
            )
        )

    async def post_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages: the bot posts a message."""
        world = self.world
        channel = self._channel(request)
        body, uploads = await read_body(request)
        world.check_body(openapi.MESSAGE_CREATE, body)
        needed = Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
        if uploads:
            needed |= Perm.ATTACH_FILES
        world.require_bot_permissions(channel, needed)
        world.require_dm_open(channel)
        if channel.is_thread and channel.locked:
            raise DiscordError(403, 50083, "Thread is locked", violation="thread_locked")
        msg_type = MessageType.DEFAULT
        reference = body.get("message_reference")
        if reference:
            ref_channel = world.get_channel(str(reference.get("channel_id") or channel.id))
            world.get_message(ref_channel, str(reference.get("message_id")))
            msg_type = MessageType.REPLY
        plan = world.check_message(body, uploads, [], creating=True)
        if channel.is_thread and channel.archived:
            world.update_channel(channel, {"archived": False})
        message = world.create_message(channel, world.bot, body, plan, msg_type=msg_type)
        return _json(world.message_payload(message))

    async def patch_message(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}/messages/{id}: only the bot's own messages."""
        world = self.world
        channel = self._channel(request)
        message = world.get_message(channel, request.match_info["message_id"])
        if message.author.id != world.bot.id:
            raise DiscordError(
                403,
                50005,
                "Cannot edit a message authored by another user",
                violation="edit_foreign_message",
            )
        body, uploads = await read_body(request)
        world.check_body(openapi.MESSAGE_EDIT, body)
        world.require_unarchived(channel)
        plan = world.check_message(body, uploads, message.attachments, creating=False)
        return _json(world.message_payload(world.edit_message(message, body, plan)))

    async def delete_message(self, request: web.Request) -> web.Response:
        """DELETE /channels/{id}/messages/{id}: own messages, or others' with MANAGE_MESSAGES."""
        world = self.world
        channel = self._channel(request)
        message = world.get_message(channel, request.match_info["message_id"])
        if message.author.id != world.bot.id:
            world.require_bot_permissions(channel, Perm.MANAGE_MESSAGES)
        world.delete_message(message)
        return _no_content()

    def _thread_name(self, body: dict[str, Any]) -> str:
        errors = lim.FormErrors()
        errors.bad_len(("name",), body.get("name"), 1, 100)
        duration = body.get("auto_archive_duration")
        if duration is not None and duration not in (60, 1440, 4320, 10080):
            errors.add(
                ("auto_archive_duration",),
                "BASE_TYPE_CHOICES",
                "Value must be one of {60, 1440, 4320, 10080}.",
            )
        errors.raise_if_any("invalid_form_body")
        return str(body["name"])

    async def thread_from_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/messages/{id}/threads: a public thread whose id is the message's."""
        world = self.world
        channel = self._channel(request)
        if channel.type != ChannelType.GUILD_TEXT:
            raise DiscordError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation="invalid_channel_type",
            )
        message = world.get_message(channel, request.match_info["message_id"])
        body, _ = await read_body(request)
        name = self._thread_name(body)
        world.require_bot_permissions(channel, Perm.CREATE_PUBLIC_THREADS)
        if message.thread_id is not None:
            raise DiscordError(
                400,
                160004,
                "A thread has already been created for this message",
                violation="thread_exists",
            )
        thread = world.create_thread(
            channel,
            name=name,
            type=ChannelType.PUBLIC_THREAD,
            owner=world.bot,
            message=message,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        return _json(world.channel_payload(thread), 201)

    async def thread_without_message(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/threads: a standalone public or private thread."""
        world = self.world
        channel = self._channel(request)
        if channel.type != ChannelType.GUILD_TEXT:
            raise DiscordError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation="invalid_channel_type",
            )
        body, _ = await read_body(request)
        name = self._thread_name(body)
        kind = int(body.get("type") or ChannelType.PRIVATE_THREAD)
        if kind not in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD):
            raise DiscordError(400, 50035, "Invalid Form Body", violation="invalid_form_body")
        needed = (
            Perm.CREATE_PUBLIC_THREADS
            if kind == ChannelType.PUBLIC_THREAD
            else Perm.CREATE_PRIVATE_THREADS
        )
        world.require_bot_permissions(channel, needed)
        thread = world.create_thread(
            channel,
            name=name,
            type=kind,
            owner=world.bot,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            invitable=bool(body.get("invitable", True)),
        )
        return _json(world.channel_payload(thread), 201)

    def _thread(self, request: web.Request) -> ChannelRecord:
        channel = self._channel(request)
        if not channel.is_thread:
            raise DiscordError(
                400,
                50024,
                "Cannot execute action on this channel type",
                violation="invalid_channel_type",
            )
        return channel

    def _thread_user(self, request: web.Request) -> int:
        raw = request.match_info["user_id"]
        return self.world.bot.id if raw == "@me" else self.world.get_user(raw).id

    async def list_thread_members(self, request: web.Request) -> web.Response:
        """GET /channels/{id}/thread-members."""
        thread = self._thread(request)
        return _json(
            [
                self.world.thread_member_payload(thread, uid)
                for uid in sorted(thread.thread_member_ids)
            ]
        )

    async def add_thread_member(self, request: web.Request) -> web.Response:
        """PUT /channels/{id}/thread-members/{user|@me}."""
        thread = self._thread(request)
        uid = self._thread_user(request)
        thread.thread_member_ids.add(uid)
        self.world.sink.dispatch(
            "THREAD_MEMBERS_UPDATE",
            {
                "id": str(thread.id),
                "guild_id": str(thread.guild_id),
                "member_count": len(thread.thread_member_ids),
                "added_members": [self.world.thread_member_payload(thread, uid)],
            },
            guild_id=thread.guild_id,
        )
        self.world.notify()
        return _no_content()

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        """DELETE /channels/{id}/thread-members/{user|@me}."""
        thread = self._thread(request)
        uid = self._thread_user(request)
        thread.thread_member_ids.discard(uid)
        self.world.sink.dispatch(
            "THREAD_MEMBERS_UPDATE",
            {
                "id": str(thread.id),
                "guild_id": str(thread.guild_id),
                "member_count": len(thread.thread_member_ids),
                "removed_member_ids": [str(uid)],
            },
            guild_id=thread.guild_id,
        )
        self.world.notify()
        return _no_content()

    async def typing(self, request: web.Request) -> web.Response:
        """POST /channels/{id}/typing."""
        self._channel(request)
        return _no_content()

    # -- guilds ---------------------------------------------------------------------------------
    async def get_guild(self, request: web.Request) -> web.Response:
        """GET /guilds/{id} (``with_counts`` adds approximate counts)."""
        guild = self.world.get_guild(request.match_info["guild_id"])
        payload = self.world.guild_payload(guild)
        if _truthy(request.query.get("with_counts")):
            payload["approximate_member_count"] = len(guild.members)
            payload["approximate_presence_count"] = 0
        return _json(payload)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/channels."""
        guild = self.world.get_guild(request.match_info["guild_id"])
        return _json(
            [self.world.channel_payload(self.world.channels[c]) for c in guild.channel_ids]
        )

    async def get_guild_roles(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/roles."""
        guild = self.world.get_guild(request.match_info["guild_id"])
        return _json([r.to_payload() for r in guild.roles.values()])

    async def list_members(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/members (``limit``, ``after``)."""
        guild = self.world.get_guild(request.match_info["guild_id"])
        limit = max(1, min(1000, int(request.query.get("limit", 1))))
        after = int(request.query.get("after", 0))
        members = sorted(
            (m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id
        )
        return _json([m.to_payload() for m in members[:limit]])

    async def get_member(self, request: web.Request) -> web.Response:
        """GET /guilds/{id}/members/{user}."""
        guild = self.world.get_guild(request.match_info["guild_id"])
        return _json(self.world.get_member(guild, request.match_info["user_id"]).to_payload())

    # -- CDN --------------------------------------------------------------------------------------
    async def cdn_attachment(self, request: web.Request) -> web.Response:
        """GET /attachments/{channel}/{id}/{filename}: the stored bytes."""
        try:
            attachment = self.world.attachments[int(request.match_info["attachment_id"])]
        except (KeyError, ValueError):
            raise not_found_route() from None
        return web.Response(body=attachment.data, content_type=attachment.content_type)

"""The gateway: a v10 JSON websocket with optional zlib-stream / zstd-stream compression.

Each connection has one writer task draining an ordered queue, so events,
heartbeat ACKs and compression state stay in order. Sessions survive their
connection: events dispatched while a bot is disconnected are buffered and
replayed on RESUME, as Discord does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .models import GatewayEvent, Intents
from .state import World

_log = logging.getLogger(__name__)


class Op:
    """Gateway opcodes."""

    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class Close:
    """Gateway close codes."""

    UNKNOWN_ERROR = 4000
    UNKNOWN_OPCODE = 4001
    DECODE_ERROR = 4002
    NOT_AUTHENTICATED = 4003
    AUTHENTICATION_FAILED = 4004
    ALREADY_AUTHENTICATED = 4005
    INVALID_SHARD = 4010
    INVALID_API_VERSION = 4012
    INVALID_INTENTS = 4013
    DISALLOWED_INTENTS = 4014


def _make_compressor(kind: str | None) -> Callable[[bytes], bytes] | None:
    """A per-connection stream compressor for ``compress=<kind>``, or None for text frames."""
    if kind == "zlib-stream":
        zobj = zlib.compressobj()
        return lambda data: zobj.compress(data) + zobj.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        try:
            import zstandard  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            pass
        else:
            zstd_obj = zstandard.ZstdCompressor().compressobj()
            flush_block = zstandard.COMPRESSOBJ_FLUSH_BLOCK
            return lambda data: zstd_obj.compress(data) + zstd_obj.flush(flush_block)
        try:
            from compression import zstd  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            _log.warning(
                "zstd-stream requested but no zstd module is installed; sending text frames"
            )
            return None
        compressor = zstd.ZstdCompressor()
        return lambda data: compressor.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK)
    return None


class Connection:
    """One websocket connection and its ordered writer."""

    def __init__(self, ws: web.WebSocketResponse, compression: str | None) -> None:
        self.ws = ws
        self.compression = compression
        self._compress = _make_compressor(compression)
        self._queue: asyncio.Queue[tuple[str, Callable[[], None] | None] | int] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop(), name="emulator-gateway-writer")
        self.closed = False

    @property
    def compressed(self) -> bool:
        """Whether frames are sent compressed (binary) rather than as JSON text."""
        return self._compress is not None

    def send(
        self, payload: dict[str, Any] | str, on_sent: Callable[[], None] | None = None
    ) -> None:
        """Queue a frame (a payload dict or an already encoded JSON string)."""
        if self.closed:
            return
        frame = payload if isinstance(payload, str) else json.dumps(payload)
        self._queue.put_nowait((frame, on_sent))

    def close_after_pending(self, code: int) -> None:
        """Close with ``code`` once every queued frame is sent."""
        if not self.closed:
            self._queue.put_nowait(code)
            self.closed = True

    async def _write_loop(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, int):
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await self.ws.close(code=item)
                return
            frame, on_sent = item
            try:
                if self._compress is not None:
                    await self.ws.send_bytes(self._compress(frame.encode()))
                else:
                    await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                self.closed = True
                return
            if on_sent is not None:
                on_sent()

    async def shutdown(self) -> None:
        """Stop the writer once pending frames are sent (or the socket is gone)."""
        self.closed = True
        if not self._writer.done():
            self._queue.put_nowait(1000)
            try:
                await asyncio.wait_for(asyncio.shield(self._writer), 1.0)
            except TimeoutError:
                self._writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._writer


@dataclass(eq=False)
class GatewaySession:
    """An identified gateway session (resumable across connections)."""

    session_id: str
    intents: int
    shard: tuple[int, int]
    seq: int = 0
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=5000))
    connection: Connection | None = None
    ready: bool = False
    invalidated: bool = False
    presence: dict[str, Any] | None = None

    def handles_guild(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives events of ``guild_id`` (DMs go to shard 0)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id


class Gateway:
    """Accepts gateway connections and dispatches the world's events to sessions."""

    def __init__(
        self,
        world: World,
        *,
        heartbeat_interval_ms: int = 41250,
        allowed_intents: int = Intents.PRIVILEGED,
    ):
        self.world = world
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.allowed_intents = allowed_intents
        self.resume_url = ""
        self.sessions: dict[str, GatewaySession] = {}
        self.events: deque[GatewayEvent] = deque(maxlen=10000)
        self.connections: set[Connection] = set()
        self.heartbeats = 0
        self.identifies = 0
        self.resumes = 0
        self.close_codes: list[int] = []
        """Close codes the emulator sent, oldest first."""

    # -- dispatch -------------------------------------------------------------------
    def live_sessions(self) -> list[GatewaySession]:
        """Sessions that are identified and not invalidated."""
        return [s for s in self.sessions.values() if not s.invalidated]

    def dispatch(
        self,
        name: str,
        data: dict[str, Any],
        *,
        guild_id: int | None = None,
        intent: int = 0,
        gated_content: bool = False,
        on_sent: Callable[[], None] | None = None,
    ) -> int:
        """Queue a DISPATCH for every live session of the right shard with the needed intent.

        ``gated_content`` blanks content, embeds, attachments and components
        for sessions without the MESSAGE_CONTENT intent. Returns the number of
        sessions the event was queued for.
        """
        count = 0
        for session in self.live_sessions():
            if not session.ready or not session.handles_guild(guild_id):
                continue
            if intent and not session.intents & intent:
                continue
            payload = data
            if gated_content and not session.intents & Intents.MESSAGE_CONTENT:
                payload = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
            self._send_dispatch(session, name, payload, on_sent)
            count += 1
        return count

    def _send_dispatch(
        self,
        session: GatewaySession,
        name: str,
        data: dict[str, Any],
        on_sent: Callable[[], None] | None = None,
    ) -> None:
        session.seq += 1
        frame = json.dumps({"op": Op.DISPATCH, "t": name, "s": session.seq, "d": data})
        session.buffer.append((session.seq, frame))
        self.events.append(
            GatewayEvent(name=name, seq=session.seq, session_id=session.session_id, data=data)
        )
        if session.connection is not None:
            session.connection.send(frame, on_sent)

    # -- connection handling ---------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.StreamResponse:
        """The aiohttp handler of the gateway websocket route."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws, request.query.get("compress"))
        self.connections.add(conn)
        session: GatewaySession | None = None
        try:
            if request.query.get("v", "10") != "10":
                conn.close_after_pending(Close.INVALID_API_VERSION)
            elif request.query.get("encoding", "json") != "json":
                conn.close_after_pending(Close.DECODE_ERROR)
            else:
                conn.send({"op": Op.HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY) or conn.closed:
                    break
                try:
                    raw = msg.data if msg.type == WSMsgType.TEXT else msg.data.decode()
                    payload = json.loads(raw)
                    op = payload["op"]
                except (ValueError, KeyError, TypeError):
                    self._close(conn, Close.DECODE_ERROR)
                    break
                session = self._handle_op(conn, session, op, payload.get("d"))
        finally:
            if session is not None and session.connection is conn:
                session.connection = None
            self.connections.discard(conn)
            await conn.shutdown()
            self.world.notify()
        return ws

    def _close(self, conn: Connection, code: int) -> None:
        if not conn.closed:
            self.close_codes.append(code)
        conn.close_after_pending(code)

    def _handle_op(
        self, conn: Connection, session: GatewaySession | None, op: int, data: Any
    ) -> GatewaySession | None:
        if op == Op.HEARTBEAT:
            self.heartbeats += 1
            conn.send({"op": Op.HEARTBEAT_ACK, "d": None})
            return session
        if op == Op.IDENTIFY:
            if session is not None:
                self._close(conn, Close.ALREADY_AUTHENTICATED)
                return session
            return self._identify(conn, data or {})
        if op == Op.RESUME:
            return self._resume(conn, data or {})
        if session is None:
            self._close(conn, Close.NOT_AUTHENTICATED)
            return None
        if op == Op.PRESENCE_UPDATE:
            session.presence = data
        elif op == Op.REQUEST_GUILD_MEMBERS:
            self._send_member_chunks(session, data or {})
        elif op != Op.VOICE_STATE_UPDATE:
            self._close(conn, Close.UNKNOWN_OPCODE)
        return session

    def _token_ok(self, token: Any) -> bool:
        if not isinstance(token, str):
            return False
        return token.removeprefix("Bot ") == self.world.bot_token

    def _identify(self, conn: Connection, data: dict[str, Any]) -> GatewaySession | None:
        if not self._token_ok(data.get("token")):
            self._close(conn, Close.AUTHENTICATION_FAILED)
            return None
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0:
            self._close(conn, Close.INVALID_INTENTS)
            return None
        if intents & Intents.PRIVILEGED & ~self.allowed_intents:
            self._close(conn, Close.DISALLOWED_INTENTS)
            return None
        shard_data = data.get("shard") or [0, 1]
        shard = (int(shard_data[0]), int(shard_data[1]))
        if not 0 <= shard[0] < shard[1]:
            self._close(conn, Close.INVALID_SHARD)
            return None
        for old in self.sessions.values():
            if old.connection is None and old.shard == shard:
                old.invalidated = True
        self.identifies += 1
        session = GatewaySession(
            session_id=secrets.token_hex(16), intents=intents, shard=shard, connection=conn
        )
        self.sessions[session.session_id] = session
        world = self.world
        # Only the guilds the bot is in: one that removed it is not announced again.
        guilds = [g for g in world.guilds.values()
                  if session.handles_guild(g.id) and world.bot.id in g.members]
        ready = {
            "v": 10,
            "user": {
                **world.bot.to_payload(),
                "verified": True,
                "mfa_enabled": False,
                "email": None,
            },
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url,
            "shard": list(shard),
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["discord-emulator"],
        }
        self._send_dispatch(session, "READY", ready)
        for guild in guilds:
            self._send_dispatch(session, "GUILD_CREATE", world.guild_payload(guild, gateway=True))
        session.ready = True
        world.notify()
        return session

    def _resume(self, conn: Connection, data: dict[str, Any]) -> GatewaySession | None:
        if not self._token_ok(data.get("token")):
            self._close(conn, Close.AUTHENTICATION_FAILED)
            return None
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq") or 0
        oldest = session.buffer[0][0] if session and session.buffer else 1
        if session is None or session.invalidated or seq < oldest - 1 or seq > session.seq:
            conn.send({"op": Op.INVALID_SESSION, "d": False})
            return None
        if session.connection is not None and session.connection is not conn:
            self._close(session.connection, Close.UNKNOWN_ERROR)
        self.resumes += 1
        session.connection = conn
        for frame_seq, frame in session.buffer:
            if frame_seq > seq:
                conn.send(frame)
        self._send_dispatch(session, "RESUMED", {"_trace": ["discord-emulator"]})
        self.world.notify()
        return session

    def _send_member_chunks(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild_ids = data.get("guild_id")
        for raw_id in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            guild = self.world.guilds.get(int(str(raw_id))) if str(raw_id).isdigit() else None
            if guild is None:
                continue
            query = str(data.get("query") or "").lower()
            user_ids = {int(u) for u in data.get("user_ids") or []}
            members = [
                m.to_payload()
                for m in guild.members.values()
                if (not user_ids or m.user.id in user_ids) and m.user.name.lower().startswith(query)
            ]
            limit = int(data.get("limit") or 0)
            if limit:
                members = members[:limit]
            chunk: dict[str, Any] = {
                "guild_id": str(guild.id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            self._send_dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    # -- controls for tests -------------------------------------------------------------------
    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to every connected session (the bot should RESUME)."""
        for session in self.live_sessions():
            if session.connection is not None:
                session.connection.send({"op": Op.RECONNECT, "d": None})

    def drop_connections(self, code: int = Close.UNKNOWN_ERROR) -> None:
        """Close every connection with ``code`` (4000 lets the bot RESUME)."""
        for conn in list(self.connections):
            self._close(conn, code)

    def invalidate_sessions(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION; with ``resumable=False`` the bot must IDENTIFY again."""
        for session in self.live_sessions():
            if not resumable:
                session.invalidated = True
            if session.connection is not None:
                session.connection.send({"op": Op.INVALID_SESSION, "d": resumable})

    async def close(self) -> None:
        """Close every connection."""
        for conn in list(self.connections):
            with contextlib.suppress(ConnectionError, RuntimeError):
                await conn.ws.close(code=1001)
            await conn.shutdown()

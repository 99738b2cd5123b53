"""The emulator itself: an aiohttp server (REST + gateway + attachment CDN) around the world."""

from __future__ import annotations

import contextlib
import statistics
from typing import Any

from aiohttp import web

from .client import UserActions
from .gateway import Gateway
from .interactions import InteractionResponder
from .limits import Limits
from .models import CommandRecord, GatewayEvent, IdLike, Intents, id_of
from .ratelimits import RateLimiter, RateLimitHit, RateLimits, RestCall, summarize
from .ratelimits import max_writes_per_channel as _max_writes
from .rest import API, RestApi


class DiscordEmulator(UserActions):
    """A local Discord (REST API v10 + gateway v10) for a real discord.py bot.

    Use as ``async with DiscordEmulator() as emu:``; it listens on
    ``host:port`` (port 0 picks a free one). See the package README for the
    full test-facing API.

    Args:
        host: interface to bind.
        port: TCP port, 0 for a free one.
        bot_name: the bot user's name.
        interaction_timeout: seconds the bot has for the initial response (Discord: 3).
        token_ttl: seconds an interaction token accepts follow-ups (Discord: 900).
        heartbeat_interval_ms: the interval announced in HELLO.
        allowed_intents: privileged intents the application is allowed (else close 4014).
        limits: Discord's payload limits (see :class:`~tests.emulator.limits.Limits`).
        rate_limits: Discord's REST rate limits (on by default, like Discord); ``False``
            turns them off (calls are still logged), a
            :class:`~tests.emulator.ratelimits.RateLimits` changes them.
        shard_count: the shard count ``GET /gateway/bot`` recommends.
        display_rules: whether :meth:`assert_clean` also fails on the display breaches
            (images shown cropped, images without alt text; see ``display.py``); on by
            default, as a person sees them. They are recorded in :attr:`display_breaches`
            either way.
        check_spec: validate the JSON bodies of message creates/edits, interaction callbacks
            and webhook executes/edits against Discord's OpenAPI schemas (``spec.py``); on
            by default, like Discord.
        named_pings_only: whether a bot message that pings anyone its ``allowed_mentions``
            did not name by id (a user through ``parse``, a role, ``@everyone``, ``@here``)
            is a violation (``unnamed_ping``); on by default. Every ping is recorded in
            :attr:`pings` either way.
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        bot_name: str = "TestBot",
        interaction_timeout: float = 3.0,
        token_ttl: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41250,
        allowed_intents: int = Intents.PRIVILEGED,
        limits: Limits | None = None,
        rate_limits: RateLimits | bool = True,
        shard_count: int = 1,
        display_rules: bool = True,
        check_spec: bool = True,
        named_pings_only: bool = True,
    ) -> None:
        super().__init__(
            bot_name=bot_name,
            interaction_timeout=interaction_timeout,
            token_ttl=token_ttl,
            limits=limits,
            display_rules=display_rules,
            check_spec=check_spec,
            named_pings_only=named_pings_only,
        )
        self.host = host
        self.port = port
        self.shard_count = shard_count
        self.gateway = Gateway(
            self, heartbeat_interval_ms=heartbeat_interval_ms, allowed_intents=allowed_intents
        )
        self.sink = self.gateway
        if isinstance(rate_limits, bool):
            rate_limits = RateLimits(enabled=rate_limits)
        self.limiter = RateLimiter(rate_limits)
        self.rest = RestApi(self, InteractionResponder(self), self.limiter)
        self._runner: web.AppRunner | None = None

    # -- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Start listening; fills in :attr:`port`, :attr:`api_base` and :attr:`gateway_url`."""
        if self._runner is not None:
            raise RuntimeError("emulator already started")
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=200 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        self.rest.register(app.router)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        self.base_url = f"http://{self.host}:{self.port}"
        self.gateway.resume_url = self.gateway_url

    async def close(self) -> None:
        """Stop timers, close gateway connections and the HTTP server."""
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        await self.gateway.close()
        if self._runner is not None:
            with contextlib.suppress(RuntimeError):
                await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordEmulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- addresses ------------------------------------------------------------------------
    @property
    def api_base(self) -> str:
        """The REST base, e.g. ``http://127.0.0.1:PORT/api/v10`` (for ``discord.http.Route.BASE``)."""
        return f"{self.base_url}{API}"

    @property
    def gateway_url(self) -> str:
        """The gateway websocket URL, e.g. ``ws://127.0.0.1:PORT/gateway``."""
        return f"ws://{self.host}:{self.port}/gateway"

    # -- waiting for the bot -----------------------------------------------------------------
    def is_ready(self, shard: int | None = None) -> bool:
        """Whether a bot session (of ``shard``, if given) got READY and its GUILD_CREATEs."""
        return any(
            s.ready and s.connection is not None and (shard is None or s.shard[0] == shard)
            for s in self.gateway.live_sessions()
        )

    async def wait_until_ready(self, timeout: float = 10.0, *, shard: int | None = None) -> None:
        """Wait until a bot (shard) has identified (or resumed) and received READY + GUILD_CREATEs."""
        await self.wait_for(
            lambda: self.is_ready(shard), timeout, what=f"a bot (shard {shard}) to identify"
        )

    def shard_of(self, guild: IdLike) -> int:
        """The shard that receives ``guild``: ``(guild_id >> 22) % shard_count``."""
        return (id_of(guild) >> 22) % self.shard_count

    async def wait_for_commands(
        self, names: list[str] | None = None, *, guild: IdLike | None = None, timeout: float = 10.0
    ) -> list[CommandRecord]:
        """Wait until commands were synced (and, if given, ``names`` exist in that scope)."""
        gid = None if guild is None else id_of(guild)

        def synced() -> list[CommandRecord] | None:
            if not self.command_syncs:
                return None
            scoped = [c for c in self.commands.values() if gid is None or c.guild_id == gid]
            have = {c.name for c in scoped}
            if names and not set(names) <= have:
                return None
            return scoped or None

        return await self.wait_for(synced, timeout, what=f"command sync {names or ''}")

    # -- gateway controls ---------------------------------------------------------------------
    @property
    def events(self) -> list[GatewayEvent]:
        """Every gateway DISPATCH sent (most recent 10000), oldest first."""
        return list(self.gateway.events)

    def event_names(self) -> list[str]:
        """The names of the dispatched events, oldest first."""
        return [e.name for e in self.gateway.events]

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the bot should reconnect and RESUME."""
        self.gateway.request_reconnect()

    def drop_connections(self, code: int = 4000) -> None:
        """Close the bot's websocket(s) with ``code`` (4000: resumable)."""
        self.gateway.drop_connections(code)

    def invalidate_sessions(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION (not resumable: the bot must IDENTIFY again)."""
        self.gateway.invalidate_sessions(resumable=resumable)

    # -- measurements ----------------------------------------------------------------------------
    def latencies(self) -> list[float]:
        """Seconds from INTERACTION_CREATE to the initial response, for answered interactions."""
        return [i.latency for i in self.interactions if i.latency is not None]

    def latency_stats(self) -> dict[str, Any]:
        """``count``, ``p50_ms``, ``p99_ms``, ``max_ms`` and ``mean_ms`` of :meth:`latencies`."""
        values = sorted(self.latencies())
        if not values:
            return {"count": 0, "p50_ms": None, "p99_ms": None, "max_ms": None, "mean_ms": None}

        def pct(p: float) -> float:
            index = min(len(values) - 1, max(0, round(p * (len(values) - 1))))
            return values[index] * 1000

        return {
            "count": len(values),
            "p50_ms": pct(0.50),
            "p99_ms": pct(0.99),
            "max_ms": values[-1] * 1000,
            "mean_ms": statistics.fmean(values) * 1000,
        }

    # -- REST log and rate limits ----------------------------------------------------------------
    @property
    def rest_calls(self) -> list[RestCall]:
        """Every REST call to ``/api/v10``, oldest first (429s included)."""
        return self.limiter.calls

    @property
    def rate_limited(self) -> list[RateLimitHit]:
        """Every request answered 429, oldest first."""
        return self.limiter.hits

    def rest_summary(self) -> dict[str, Any]:
        """Figures of :attr:`rest_calls` (see :func:`tests.emulator.ratelimits.summarize`)."""
        return summarize(self.limiter.calls, self.limiter.hits)

    def max_writes_per_channel(self, window: float = 5.0) -> dict[int, int]:
        """Per channel id: the most accepted message creates + edits within any ``window`` s."""
        return _max_writes(self.limiter.calls, window)

"""Discord's REST rate limits: per-route buckets, the global limit, and the call log.

Modelled on https://discord.com/developers/docs/topics/rate-limits:

- Every answer of a bucketed route carries ``X-RateLimit-Limit``,
  ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds) and
  ``-Bucket`` (an opaque hash that does not include the top-level resource).
  A bucket is counted per top-level resource (channel id, or webhook id and
  token) and refills all at once when its window ends.
- A bot may make 50 requests per second in all (the global limit).
  "Interaction endpoints are not bound to the bot's Global Rate Limit"
  (#global-rate-limit): the interaction callback and the webhook routes an
  interaction token opens (follow-ups, ``@original`` and follow-up messages:
  :data:`INTERACTION_ROUTES`) are exempt; their per-token bucket still applies.
  Other requests without a bot token (``GET /gateway``) are counted per client
  address.
- Past a limit Discord answers ``429`` with ``Retry-After`` (whole seconds),
  ``X-RateLimit-Scope`` (``user`` or ``global``), ``X-RateLimit-Global`` on a
  global limit, ``Via`` (discord.py treats a 429 without it as a Cloudflare
  ban) and the JSON body ``{"message", "retry_after", "global"}``.

Every REST call is logged as a :class:`RestCall`, every 429 as a
:class:`RateLimitHit`; :func:`summarize` turns the log into figures.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

GLOBAL_LIMIT_MESSAGE = "You are being rate limited."


@dataclass(frozen=True)
class BucketRule:
    """One per-route bucket: ``limit`` requests per ``window`` seconds per top-level resource.

    ``major`` names the route parameters that make the top-level resource
    (``channel_id``; ``app_id`` and ``token`` for interaction webhooks).
    """

    name: str
    limit: int
    window: float
    major: tuple[str, ...]

    @property
    def bucket_hash(self) -> str:
        """The opaque ``X-RateLimit-Bucket`` value (the same for every resource)."""
        return hashlib.sha1(f"{self.name}:{self.limit}:{self.window}".encode()).hexdigest()[:32]


MESSAGE_WRITE = BucketRule("message_write", 5, 5.0, ("channel_id",))
MESSAGE_DELETE = BucketRule("message_delete", 5, 1.0, ("channel_id",))
INTERACTION_WEBHOOK = BucketRule("interaction_webhook", 5, 2.0, ("app_id", "token"))


@dataclass
class RateLimits:
    """Which limits the emulator enforces; ``DiscordEmulator(rate_limits=...)``.

    ``routes`` maps ``"METHOD /template"`` (the template without ``/api/v10``)
    to its bucket. Routes not listed have no per-route bucket (and no
    ``X-RateLimit-*`` headers) but count toward the global limit.
    """

    enabled: bool = True
    global_limit: int = 50
    global_window: float = 1.0
    routes: dict[str, BucketRule] = field(default_factory=lambda: dict(DEFAULT_ROUTES))
    global_exempt: frozenset[str] = field(default_factory=lambda: INTERACTION_ROUTES)

    def scaled(self, factor: float) -> RateLimits:
        """The same limits with every window multiplied by ``factor`` (for quick tests)."""
        return RateLimits(
            enabled=self.enabled,
            global_limit=self.global_limit,
            global_window=self.global_window * factor,
            routes={
                key: BucketRule(rule.name, rule.limit, rule.window * factor, rule.major)
                for key, rule in self.routes.items()
            },
            global_exempt=self.global_exempt,
        )


_WEBHOOK = "/webhooks/{app_id}/{token}"
INTERACTION_CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
#: The routes an interaction token opens: not bound to the global limit.
INTERACTION_ROUTES: frozenset[str] = frozenset(
    {
        INTERACTION_CALLBACK,
        f"POST {_WEBHOOK}",
        f"GET {_WEBHOOK}/messages/{{message_id}}",
        f"PATCH {_WEBHOOK}/messages/{{message_id}}",
        f"DELETE {_WEBHOOK}/messages/{{message_id}}",
    }
)
DEFAULT_ROUTES: dict[str, BucketRule] = {
    "POST /channels/{channel_id}/messages": MESSAGE_WRITE,
    "PATCH /channels/{channel_id}/messages/{message_id}": MESSAGE_WRITE,
    "DELETE /channels/{channel_id}/messages/{message_id}": MESSAGE_DELETE,
    f"POST {_WEBHOOK}": INTERACTION_WEBHOOK,
    f"GET {_WEBHOOK}/messages/{{message_id}}": INTERACTION_WEBHOOK,
    f"PATCH {_WEBHOOK}/messages/{{message_id}}": INTERACTION_WEBHOOK,
    f"DELETE {_WEBHOOK}/messages/{{message_id}}": INTERACTION_WEBHOOK,
}


@dataclass
class RestCall:
    """One REST request to ``/api/v10``: when, what, which bucket, how big, how answered.

    ``at`` is ``time.monotonic()``; ``route`` is ``"METHOD /template"``;
    ``resource`` the top-level resource of the bucket (e.g. the channel id);
    ``bytes_in`` the request body size.
    """

    at: float
    method: str
    route: str
    path: str
    bucket: str | None
    resource: str | None
    bytes_in: int
    status: int = 0

    @property
    def channel_id(self) -> int | None:
        """The channel of a ``/channels/{channel_id}/...`` call."""
        parts = self.path.split("/")
        if len(parts) > 4 and parts[3] == "channels" and parts[4].isdigit():
            return int(parts[4])
        return None


@dataclass
class RateLimitHit:
    """A request answered 429: its route, bucket, scope and ``retry_after`` (seconds)."""

    at: float
    method: str
    route: str
    path: str
    bucket: str | None
    resource: str | None
    scope: str
    retry_after: float

    @property
    def is_global(self) -> bool:
        """Whether the global limit (not a route bucket) refused it."""
        return self.scope == "global"


@dataclass
class _Window:
    reset_at: float
    remaining: int


class RateLimited(Exception):
    """Raised by :meth:`RateLimiter.check` with the 429 to answer."""

    def __init__(self, hit: RateLimitHit, headers: dict[str, str]) -> None:
        super().__init__(f"429 {hit.scope} {hit.method} {hit.path}")
        self.hit = hit
        self.headers = headers

    def body(self) -> dict[str, Any]:
        """Discord's 429 body."""
        return {
            "message": GLOBAL_LIMIT_MESSAGE,
            "retry_after": math.ceil(self.hit.retry_after * 1000) / 1000,
            "global": self.hit.is_global,
        }


class RateLimiter:
    """Counts requests per bucket and globally; decides on 429s; keeps the call log."""

    def __init__(self, config: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.calls: list[RestCall] = []
        self.hits: list[RateLimitHit] = []
        self._buckets: dict[tuple[str, str], _Window] = {}
        self._global: dict[str, _Window] = {}

    def check(
        self, method: str, route: str, path: str, params: dict[str, str], client: str
    ) -> tuple[RestCall, dict[str, str]]:
        """Count one request; return its log entry and the headers to answer with.

        Raises :class:`RateLimited` (already logged) when a limit refuses it.
        """
        config = self.config
        now = self.clock()
        rule = config.routes.get(route) if config.enabled else None
        resource = ":".join(params.get(k, "") for k in rule.major) if rule else None
        call = RestCall(
            at=now,
            method=method,
            route=route,
            path=path,
            bucket=rule.name if rule else None,
            resource=resource,
            bytes_in=0,
        )
        self.calls.append(call)
        if not config.enabled:
            return call, {}
        if route not in config.global_exempt:
            window = self._global.get(client)
            if window is None or now >= window.reset_at:
                window = self._global[client] = _Window(
                    now + config.global_window, config.global_limit
                )
            if window.remaining <= 0:
                retry = window.reset_at - now
                hit = self._hit(call, "global", retry)
                raise RateLimited(
                    hit,
                    {
                        "Retry-After": str(math.ceil(retry)),
                        "X-RateLimit-Global": "true",
                        "X-RateLimit-Scope": "global",
                    },
                )
            window.remaining -= 1
        if rule is None or resource is None:
            return call, {}
        key = (rule.name, resource)
        bucket = self._buckets.get(key)
        if bucket is None or now >= bucket.reset_at:
            bucket = self._buckets[key] = _Window(now + rule.window, rule.limit)
        # Rounded up to the millisecond: a client never learns of a reset earlier than it is.
        reset_after = math.ceil((bucket.reset_at - now) * 1000) / 1000
        headers = {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.remaining - 1)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": rule.bucket_hash,
        }
        if bucket.remaining <= 0:
            hit = self._hit(call, "user", reset_after)
            headers["X-RateLimit-Remaining"] = "0"
            headers["Retry-After"] = str(math.ceil(reset_after))
            headers["X-RateLimit-Scope"] = "user"
            raise RateLimited(hit, headers)
        bucket.remaining -= 1
        return call, headers

    def _hit(self, call: RestCall, scope: str, retry_after: float) -> RateLimitHit:
        call.status = 429
        hit = RateLimitHit(
            at=call.at,
            method=call.method,
            route=call.route,
            path=call.path,
            bucket=call.bucket,
            resource=call.resource,
            scope=scope,
            retry_after=retry_after,
        )
        self.hits.append(hit)
        return hit

    def reset(self) -> None:
        """Forget every window (the counts, not the log)."""
        self._buckets.clear()
        self._global.clear()


def is_message_write(call: RestCall) -> bool:
    """A create or edit of a channel message through the channel routes."""
    return call.route in (
        "POST /channels/{channel_id}/messages",
        "PATCH /channels/{channel_id}/messages/{message_id}",
    )


def max_in_window(times: Iterable[float], window: float) -> int:
    """The most events inside any half-open window ``(t - window, t]``."""
    best = 0
    inside: deque[float] = deque()
    for t in sorted(times):
        inside.append(t)
        while inside[0] <= t - window:
            inside.popleft()
        best = max(best, len(inside))
    return best


def max_writes_per_channel(calls: Iterable[RestCall], window: float = 5.0) -> dict[int, int]:
    """Per channel: the most accepted message writes (create + edit) within ``window`` seconds."""
    times: dict[int, list[float]] = defaultdict(list)
    for call in calls:
        channel = call.channel_id
        if is_message_write(call) and channel is not None and 200 <= call.status < 300:
            times[channel].append(call.at)
    return {channel: max_in_window(ts, window) for channel, ts in times.items()}


def summarize(calls: list[RestCall], hits: list[RateLimitHit]) -> dict[str, Any]:
    """Figures of a call log.

    ``calls``; ``by_route`` (``"METHOD /template"`` -> count); ``kb_uploaded``
    and ``kb_by_route``; ``rate_limited`` (429s) and ``rate_limited_global``;
    ``max_writes_5s``: the most message writes to one channel in any 5 s;
    ``peak_per_second``: the most calls in any 1 s.
    """
    by_route = Counter(c.route for c in calls)
    kb_by_route: dict[str, float] = defaultdict(float)
    for call in calls:
        kb_by_route[call.route] += call.bytes_in / 1024
    writes = max_writes_per_channel(calls, 5.0)
    return {
        "calls": len(calls),
        "by_route": dict(by_route.most_common()),
        "kb_uploaded": round(sum(c.bytes_in for c in calls) / 1024, 1),
        "kb_by_route": {
            k: round(v, 1) for k, v in sorted(kb_by_route.items(), key=lambda kv: -kv[1])
        },
        "rate_limited": len(hits),
        "rate_limited_global": sum(1 for h in hits if h.is_global),
        "max_writes_5s": max(writes.values(), default=0),
        "peak_per_second": max_in_window((c.at for c in calls), 1.0),
    }

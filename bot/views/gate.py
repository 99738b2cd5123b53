"""The gate every interaction passes first: one person's pace, in this process.

discord.py hands an interaction to one of two doors, each as its own task: a slash
command to the command tree (:class:`GatedTree`, whose ``interaction_check`` runs before
the command is even looked up), a click to the view store, which calls our components'
callbacks (every one of them goes to :meth:`bot.views.controller.Controller.handle`, which
asks the gate first); the app's ``on_interaction``, which answers clicks no component
claims, runs after both and asks too. All three ask the same :class:`Gate`, which decides
once per interaction.

The pace is a token bucket per user id, in memory (:class:`Buckets`): ``burst``
interactions at once, then ``rate`` a second. Past it, an interaction costs no work: no
store, no drawing, no lock, no background work held. The first one refused in a flood is
answered with one private sentence (``error.too_fast``); the others of the same flood as
cheaply as Discord allows, since each interaction must be answered within 3 seconds or
the person sees "This interaction failed": a click is acknowledged without a message
(nothing changes on screen), a command gets the sentence again (Discord has no silent
answer to a command; an answer is one request, and interaction answers are outside the
bot's global rate limit). A flood ends when the person's bucket is full again (they
were quiet for ``burst / rate`` seconds).

The buckets are per process: each bot process sees only the interactions of its shards'
servers (direct messages arrive on shard 0), so a person active in servers of several
processes may go that many times as fast in all.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import discord
from discord import app_commands

from bot import metrics
from bot.i18n import t

ADMITTED = "gate.admitted"
"""The key of the gate's decision in ``interaction.extras`` (asked twice, it holds)."""
PRUNE_EVERY = 4096
"""Buckets are looked over for idle ones (full again: nothing to remember) every so many
interactions, so that memory follows the people active now."""


class Verdict(Enum):
    """What the gate does with one interaction."""

    ADMIT = "admit"
    """Within the person's pace: it goes on."""
    TELL = "tell"
    """The first refused of a flood: one private sentence."""
    QUIET = "quiet"
    """Another of the same flood: the cheapest answer Discord takes."""


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float
    told: bool = False


class Buckets:
    """A token bucket per key (a user id): ``burst`` at once, refilled at ``rate`` a
    second (``rate`` 0: no limit)."""

    def __init__(self, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if rate < 0 or burst < 1:
            raise ValueError(f"a bucket needs rate >= 0 and burst >= 1, got {rate}, {burst}")
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self._buckets: dict[int, _Bucket] = {}
        self._since_prune = 0

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: int) -> Verdict:
        """One interaction of ``key`` now: admitted if a token is left; else the first of
        a flood is told, the rest are quiet until the bucket is full again."""
        if self.rate <= 0:
            return Verdict.ADMIT
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self.burst, now)
            self._since_prune += 1
            if self._since_prune >= PRUNE_EVERY:
                self.prune(now)
        else:
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
            if bucket.tokens >= self.burst:
                bucket.told = False  # quiet long enough: the flood is over
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return Verdict.ADMIT
        if bucket.told:
            return Verdict.QUIET
        bucket.told = True
        return Verdict.TELL

    def prune(self, now: float | None = None) -> int:
        """Forget the buckets that are full again (their people idle); how many."""
        now = self.clock() if now is None else now
        idle = [key for key, b in self._buckets.items()
                if b.tokens + (now - b.at) * self.rate >= self.burst]
        for key in idle:
            del self._buckets[key]
        self._since_prune = 0
        return len(idle)


class Gate:
    """Admits or answers each interaction by its person's pace (see the module)."""

    def __init__(self, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.buckets = Buckets(rate, burst, clock)

    async def admit(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether the interaction goes on; if not, it is answered here, and nothing else
        is done for it. Decided once per interaction: asked again, the answer holds."""
        decided = interaction.extras.get(ADMITTED)
        if isinstance(decided, bool):
            return decided
        verdict = self.buckets.take(interaction.user.id)
        admitted = verdict is Verdict.ADMIT
        interaction.extras[ADMITTED] = admitted
        if not admitted:
            metrics.throttled(verdict.value)
            await _answer(interaction, verdict)
        return admitted


async def _answer(interaction: discord.Interaction[Any], verdict: Verdict) -> None:
    """A refused interaction's answer: the sentence, or for a click within a flood already
    told, a bare acknowledgement."""
    response = interaction.response
    if response.is_done():
        return
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await response.autocomplete([])
        elif verdict is Verdict.QUIET and interaction.type is discord.InteractionType.component:
            await response.defer()
        else:
            locale = str(interaction.locale.value if interaction.locale else "en")
            await response.send_message(t(locale, "error.too_fast"), ephemeral=True)
    except discord.HTTPException:
        pass  # the interaction expired or Discord refused: nothing more to do for it


class GatedTree(app_commands.CommandTree[Any]):
    """The command tree, whose every command first passes the client's :class:`Gate` (its
    ``gate``; a client without one admits everything)."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        gate = getattr(self.client, "gate", None)
        return not isinstance(gate, Gate) or await gate.admit(interaction)

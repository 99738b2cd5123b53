"""The bot: discord.py client, store, table service, every game's commands and
components wired together (Tichu, Tichu for six, Chinois, Tysiacha)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any

import discord
from discord.ext import commands

from bot import health, metrics, workers
from bot.cogs import coach, daily, privacy, records
from bot.cogs.games import open_table
from bot.cogs.tree import command_groups
from bot.config import Settings
from bot.games.base import GameSpec
from bot.games.registry import all_specs, job_handlers
from bot.games.tichu.coach import Coach
from bot.games.tichu.duplicate import Duplicate, utc_today
from bot.games.ui import GameButton, GameSelect
from bot.i18n import language, t
from bot.i18n.translator import CatalogTranslator
from bot.jobs import Jobs, jobs_for
from bot.store import Repository, SQLiteRepository, StoreError, open_repository
from bot.tables import Table, TableError, TableService, ids
from bot.tables.errors import store_refusal
from bot.views.controller import Controller, locale_of
from bot.views.gate import Gate, GatedTree
from bot.views.pacing import Pacer
from bot.views.panels import Panels
from bot.views.presenter import TablePresenter
from bot.views.queue import READY_ACTIONS, ReadyChecks

log = logging.getLogger(__name__)

# The bot never joins voice: no warning about the voice libraries it does not need.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


SHARD_LOCK_RETRY = 2.0
"""Seconds between two tries at the shard locks while another process holds them."""


class StartRefused(Exception):
    """This process must not run (its shards are another's, or the store cannot be shared);
    the message says why and what to do."""


class TichuBot(commands.Bot):
    """A discord.py bot hosting tables of every game in the registry (Tichu, Chinois,
    Tysiacha; the name is historical). Needs no privileged intents.

    With ``SHARD_COUNT`` set, :func:`create_bot` gives the sharded kind
    (:class:`ShardedTichuBot`), which runs the shards ``SHARD_IDS`` of this process.
    Either way the process first takes the lock of each of its shards in the store
    (see :meth:`lock_shards`), and only then restores, drives and connects.
    """

    def __init__(self, settings: Settings, *, repo: Repository | None = None,
                 **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        if isinstance(self, commands.AutoShardedBot):
            options.setdefault("shard_count", settings.shard_count)
            options.setdefault("shard_ids", settings.shard_ids)
        options.setdefault("tree_cls", GatedTree)
        # No message of the bot pings anyone unless it names them (the turn's ping names
        # the people due): a name that reads "@everyone" or "<@&role>" is only text.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **options)
        self.settings = settings
        self.gate = Gate(settings.interaction_rate, settings.interaction_burst)
        """One person's pace: every command and click passes it first."""
        self._given_repo = repo
        self._repo: Repository | None = None
        self.controller = Controller(lambda: self.service, lambda: self.panels, self.gate)
        self.pacer = Pacer(settings.rest_writes_per_second)
        self.presenter = TablePresenter(self, lambda: self.service.repo, lambda: self.panels,
                                        edit_interval=settings.table_edit_interval,
                                        pacer=self.pacer)
        self.controller.direct = self.presenter.direct
        self.presenter.direct.rematch = lambda: self.service.rematch
        self._sweeper: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._job_runner: asyncio.Task[None] | None = None
        self.jobs: Jobs | None = None
        self._daily_checked: date | None = None
        """The UTC day whose daily standings were last looked at for posting."""
        self._closing: asyncio.Task[None] | None = None
        self._gateway_task: asyncio.Task[None] | None = None
        self.gateway_down: dict[int | None, float] = {}
        """Since when (Unix time) each gateway connection has been lost, by shard (None
        unsharded); discord.py reconnects meanwhile, and keeps ``is_ready()`` true."""
        self.restored = asyncio.Event()
        self.exit_code = 0
        """What ``python -m bot`` exits with: 3 when this process gave a shard up."""

    async def setup_hook(self) -> None:
        settings = self.settings
        repo = self._given_repo or open_repository(settings.database,
                                                      pool_size=settings.database_pool_size,
                                                      timeout=settings.database_timeout,
                                                      shard_lease=settings.shard_lease)
        if isinstance(repo, SQLiteRepository) and not settings.all_shards:
            raise StartRefused(
                f"SHARD_IDS={','.join(map(str, settings.owned_shards))} of SHARD_COUNT="
                f"{settings.shard_count} means several bot processes, but SQLite serves one "
                "process: use PostgreSQL (DATABASE=postgresql://...), or run every shard in "
                "this process (leave SHARD_IDS unset)")
        self._repo = repo
        await repo.open()
        await self.lock_shards(repo)
        workers.start(settings.worker_processes)
        specs = all_specs()
        self.service = TableService(repo, specs, ai_delay=settings.ai_delay,
                                    lobby_timeout=settings.lobby_timeout,
                                    idle_timeout=settings.table_idle_timeout,
                                    presenter=self.presenter,
                                    shard_count=settings.shard_count,
                                    shard_ids=settings.shard_ids,
                                    shard_lock_wait=settings.shard_lock_wait,
                                    on_lost=self._shards_lost,
                                    tables_per_person=settings.tables_per_person,
                                    wave_seconds=settings.queue_wave_interval,
                                    queue_turn_timer=settings.queue_turn_timer)
        self.ready_checks = ReadyChecks(self, lambda: self.service.matchmaker, self.pacer)
        self.service.matchmaker.messenger = self.ready_checks
        self.panels = Panels(self, repo)
        workers.start_background(settings.field_processes)
        jobs = self.jobs = jobs_for(settings, repo)
        for kind, handler in job_handlers().items():
            jobs.handle(kind, handler)
        await jobs.open()
        if not jobs.durable or settings.run_jobs:
            self._job_runner = asyncio.create_task(jobs.run())
            log.info("running background jobs in this process (%s)",
                     "the queue in PostgreSQL" if jobs.durable else "in memory")
        if settings.metrics_port is not None:
            try:
                metrics.serve(settings.metrics_port)
            except metrics.PortRefused as exc:
                raise StartRefused(str(exc)) from None
        metrics.shards(settings.owned_shards)
        self.duplicate = Duplicate(self.service, jobs, boards=settings.daily_boards,
                                   field_tables=settings.field_tables,
                                   level=settings.daily_level, secret=settings.board_secret)
        await self.duplicate.open()
        self.controller.route(
            records.RECORD_ACTIONS,
            lambda interaction, cid, values: records.handle_component(self, interaction, cid,
                                                                      values),
            ephemeral=records.EPHEMERAL_ACTIONS)
        self.coach = Coach(self.service, jobs)
        self.controller.route(
            coach.COACH_ACTIONS,
            lambda interaction, cid, values: coach.handle_component(self, interaction, cid,
                                                                    values),
            ephemeral=coach.EPHEMERAL_ACTIONS)
        self.controller.route(
            privacy.PRIVACY_ACTIONS,
            lambda interaction, cid, values: privacy.handle_component(self, interaction, cid,
                                                                      values))
        self.controller.route(
            daily.DAILY_ACTIONS,
            lambda interaction, cid, values: daily.handle_component(self, interaction, cid,
                                                                    values),
            ephemeral=daily.EPHEMERAL_ACTIONS)
        self.controller.route(READY_ACTIONS, self.ready_checks.handle_component)
        await self.tree.set_translator(CatalogTranslator())
        for group in command_groups(self, self._opener):
            self.tree.add_command(group)
        self.add_dynamic_items(GameButton, GameSelect)
        restored = await self.service.watch.restore()
        log.info("restored %d active tables%s", len(restored), self._shards_text())
        rematches = await self.service.rematch.resume()
        if rematches:
            log.info("opened %d rematches a restart had kept from opening", len(rematches))
        self.service.watch.watch_shards(settings.owned_shards)
        self._watcher = asyncio.create_task(self._watch())
        self.service.matchmaker.start()
        self.restored.set()
        await self.sync_commands()
        self._sweeper = asyncio.create_task(self._sweep())

    def _shards_text(self) -> str:
        settings = self.settings
        if settings.shard_count is None:
            return ""
        return f" of shards {settings.owned_shards} (SHARD_COUNT={settings.shard_count})"

    async def lock_shards(self, repo: Repository) -> None:
        """Hold this process's shards in the store (PostgreSQL advisory locks, or lock files
        beside an SQLite database) so that no second process drives the same tables.

        While another process holds one of them this process does nothing else (it has
        not restored a table nor connected to Discord): it tries again every
        ``SHARD_LOCK_RETRY`` seconds, saying so in the log, for ``SHARD_LOCK_WAIT``
        seconds, then raises :class:`StartRefused`."""
        shards = self.settings.owned_shards
        count = self.settings.shard_count
        of = "" if count is None else f" of {count}"
        wait = self.settings.shard_lock_wait
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while not await self._try_shards(repo, shards, count or 1):
            left = deadline - loop.time()
            if left <= 0:
                raise StartRefused(
                    f"another bot process on this database runs shard(s) {shards}{of}; this "
                    f"process stopped without acting (waited {wait:g} s, SHARD_LOCK_WAIT). "
                    "Give each process its own SHARD_IDS, or stop the other")
            log.warning("shard(s) %s are held by another bot process on this database: "
                        "waiting for them, doing nothing meanwhile (%.0f s left of "
                        "SHARD_LOCK_WAIT)", shards, left)
            await asyncio.sleep(min(SHARD_LOCK_RETRY, left))
        log.info("holding shard(s) %s%s", shards, of)

    @staticmethod
    async def _try_shards(repo: Repository, shards: list[int], count: int) -> bool:
        """One try at the shard locks; a database that does not answer is waited for."""
        try:
            return await repo.lock_shards(shards, shard_count=count)
        except StoreError as exc:
            if store_refusal(exc.code) == "store_failed":
                raise
            log.warning("cannot take the lock of shard(s) %s: the database does not answer "
                        "(%s)", shards, exc)
            return False

    async def sync_commands(self) -> bool:
        """Send the command tree to Discord only when it changed since the last sync (its
        hash is stored): a restart costs no sync and no rate limit. Whether it synced."""
        guild = discord.Object(id=self.settings.dev_guild_id) \
            if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        payload = [await c.get_translated_payload(self.tree, translator) if translator
                   else c.to_dict(self.tree) for c in self.tree._get_all_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str)
                                .encode()).hexdigest()
        key = f"commands:{self.application_id}:{guild.id if guild else 'global'}"
        repo = self.service.repo
        if await repo.get_meta(key) == digest:
            return False
        await self.tree.sync(guild=guild)
        await repo.set_meta(key, digest)
        return True

    def _opener(self, spec: GameSpec) -> Any:
        async def opener(interaction: discord.Interaction[Any], options: dict[str, Any]) -> None:
            guild_id, host_id = interaction.guild_id, interaction.user.id
            if guild_id is None:  # refused by the game's group before it gets here
                raise TableError("server_only")

            async def duplicate(chosen: dict[str, Any]) -> dict[str, Any]:
                # After the channel's and the host's limits, before the table is written.
                return await self.duplicate.table_options(chosen, guild_id=guild_id,
                                                          host_id=host_id)
            await open_table(self, spec, interaction, options, prepare=duplicate)
        return opener

    async def repost(self, table: Table) -> None:
        await self.presenter.repost(table)

    async def _watch(self) -> None:
        """Every ``WATCH_INTERVAL``: the service's check (the database, the shard locks,
        every table's computer players and timers), then the heartbeat, which says
        whether the database answers."""
        while True:
            try:
                await self.service.watch.check()
                self._beat()
                await self._measure()
            except Exception:
                log.exception("watch failed")
            await asyncio.sleep(self.settings.watch_interval)

    async def _measure(self) -> None:
        """The figures of :mod:`bot.metrics`: live tables, the database, the job queue."""
        metrics.live_tables(sum(1 for t in self.service.core.tables.values() if t.game is not None
                                and not t.game_over))
        metrics.database_down(self.service.watch.database_down_since is not None)
        if self.jobs is not None:
            try:
                await self.jobs.stats(job_handlers())
            except StoreError as exc:
                log.debug("job figures not read: %s", exc)

    def _beat(self) -> None:
        if self.settings.heartbeat_file and self.is_ready() and not self.is_closed():
            health.write_heartbeat(self.settings.heartbeat_file,
                                   database_down_since=self.service.watch.database_down_since,
                                   gateway_down_since=self.gateway_down_since())

    def gateway_down_since(self, now: float | None = None) -> float | None:
        """Since when a gateway connection of this process has been lost, once that is
        longer ago than ``GATEWAY_DOWN_LIMIT`` (a reconnect within it goes unreported),
        else None."""
        if not self.gateway_down:
            return None
        since = min(self.gateway_down.values())
        now = time.time() if now is None else now
        return since if now - since > self.settings.gateway_down_limit else None

    def _gateway_lost(self, shard: int | None) -> None:
        if shard not in self.gateway_down:
            log.warning("the Discord gateway connection%s is lost; reconnecting",
                        "" if shard is None else f" of shard {shard}")
            self.gateway_down[shard] = time.time()

    def _gateway_back(self, shard: int | None) -> None:
        if self.gateway_down.pop(shard, None) is not None:
            log.info("the Discord gateway connection%s is back",
                     "" if shard is None else f" of shard {shard}")

    # discord.py dispatches the plain events for one connection, and the shard_ ones (too)
    # for each shard of the sharded client.
    async def on_disconnect(self) -> None:
        if not self.settings.sharded:
            self._gateway_lost(None)

    async def on_resumed(self) -> None:
        if not self.settings.sharded:
            self._gateway_back(None)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self._gateway_lost(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._gateway_back(shard_id)

    async def on_shard_ready(self, shard_id: int) -> None:
        self._gateway_back(shard_id)

    def _shards_lost(self, message: str) -> None:
        """The service gave a shard up (another process owns it): stop this process."""
        if self.exit_code:
            return
        self.exit_code = 3
        metrics.shards(self.settings.owned_shards, held=False)
        log.error("stopping: %s", message)
        task = asyncio.get_running_loop().create_task(self.close())
        self._closing = task

    async def _sweep(self) -> None:
        """Expire idle lobbies, close games nobody plays (and have computers finish the
        daily boards of days gone by), post yesterday's daily standings, empty the servers
        that removed the bot past the retention and forget the hand messages of closed
        tables, now and then."""
        while True:
            await asyncio.sleep(self.settings.sweep_interval)
            try:
                await self.service.lobby.expire_idle_lobbies()
                await self.service.results.close_idle_tables()
                self.service.core.evict_closed()
                await self.duplicate.prepare(utc_today())
                await self.post_daily_standings()
                await self.sweep_left_guilds()
                await self.service.repo.sweep_closed_tables()
            except Exception:
                log.exception("lobby sweep failed")

    async def sweep_left_guilds(self, now: datetime | None = None) -> list[int]:
        """Empty the servers that removed the bot more than ``LEFT_GUILD_RETENTION`` days
        ago (settings, unplayed lobbies and reviews deleted, results anonymized); those
        servers."""
        cutoff = (now or datetime.now(UTC)) - timedelta(days=self.settings.left_guild_retention)
        swept = await self.service.repo.sweep_left_guilds(cutoff)
        self.service.core.forget_guilds(swept.guilds)
        if swept.settings or swept.lobbies or swept.people or swept.reviews:
            log.info("swept %d servers the bot left over %g days ago: %d settings, %d lobbies "
                     "and %d reviews deleted, %d people anonymized", len(swept.guilds),
                     self.settings.left_guild_retention, swept.settings, swept.lobbies,
                     swept.reviews, swept.people)
        return swept.guilds

    @property
    def privacy_url(self) -> str | None:
        """The operator's privacy policy (``PRIVACY_URL``)."""
        return self.settings.privacy_url

    @property
    def export_cooldown(self) -> float:
        """Seconds between two ``/privacy export`` of one person (``EXPORT_COOLDOWN``)."""
        return self.settings.export_cooldown

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: its data goes after the retention."""
        try:
            await self.service.repo.guild_left(guild.id)
        except StoreError:
            log.exception("could not note that the bot left server %s", guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot was added to a server (perhaps again): nothing of it is swept."""
        try:
            if await self.service.repo.guild_back(guild.id):
                log.info("added back to server %s within the retention: its data stays",
                         guild.id)
        except StoreError:
            log.exception("could not note that the bot joined server %s", guild.id)

    async def post_daily_standings(self) -> int:
        """Once a day, in each server of this process that names a daily channel,
        yesterday's final standings (the store remembers each day posted); how many
        were posted."""
        today = utc_today()
        if self._daily_checked == today:
            return 0
        posted = 0
        repo = self.service.repo
        for guild in list(self.guilds):
            if not self.service.shards.owns(guild.id):
                continue
            settings = await repo.guild_settings(guild.id)
            if settings.daily_channel_id is None:
                continue
            locale = settings.locale or language(str(guild.preferred_locale.value))
            try:
                posted += await daily.post_yesterday(self, self, guild.id,
                                                     settings.daily_channel_id, locale, today)
            except discord.HTTPException as exc:
                log.warning("guild %s: yesterday's daily standings not posted (%s)", guild.id,
                            exc)
        self._daily_checked = today
        return posted

    async def on_ready(self) -> None:
        if not self.settings.sharded:
            self._gateway_back(None)
        service = getattr(self, "service", None)
        if self.settings.heartbeat_file:
            health.write_heartbeat(self.settings.heartbeat_file, database_down_since=None
                                   if service is None else service.watch.database_down_since)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer component clicks that no component of ours claims (forged or foreign IDs)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, object] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        parsed = ids.parse(custom_id)
        present = interaction.message is not None and any(
            getattr(child, "custom_id", None) == custom_id
            for row in interaction.message.components
            for child in getattr(row, "children", [row])
        )
        if parsed is not None and present:
            return  # a GameButton / GameSelect handles it
        if not await self.gate.admit(interaction):
            return  # past its person's pace: answered by the gate
        await asyncio.sleep(0)
        if not interaction.response.is_done():
            # In a DM there is no "My hand" to press again: a DM table's panel is there.
            key = "error.forged" if interaction.guild_id is not None else "error.forged_direct"
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(
                    t(locale_of(interaction), key), ephemeral=True)

    async def connect(self, *, reconnect: bool = True) -> None:
        """discord.py's ``connect``, which :meth:`close` ends at once: while Discord is out
        of reach, discord.py sleeps out its reconnect back-off (minutes, growing) before it
        looks whether the client was closed, and ``docker stop`` would end in a kill."""
        connection = asyncio.ensure_future(super().connect(reconnect=reconnect))
        self._gateway_task = connection
        try:
            await connection
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not connection.cancelled() or (task is not None and task.cancelling()):
                raise  # this task itself is cancelled, not only the connection by close()
        finally:
            self._gateway_task = None

    async def close(self) -> None:
        for task in (self._sweeper, self._watcher, self._job_runner):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        if self._job_runner is not None:
            await asyncio.gather(self._job_runner, return_exceptions=True)
        if self.jobs is not None:
            await self.jobs.close()
        service = getattr(self, "service", None)
        if service is not None:
            await service.close()
        if self._repo is not None:
            repo, self._repo = self._repo, None
            await repo.close()
        workers.stop()
        workers.stop_background()
        await super().close()
        connection = self._gateway_task
        if connection is not None and connection is not asyncio.current_task():
            connection.cancel()  # it may be waiting out a reconnect back-off


class ShardedTichuBot(TichuBot, commands.AutoShardedBot):
    """The bot on discord.py's sharded client: the shards ``SHARD_IDS`` of ``SHARD_COUNT``
    (all of them if ``SHARD_IDS`` is unset), each on its own gateway connection."""


def create_bot(settings: Settings, **options: Any) -> TichuBot:
    """The bot these settings ask for: sharded with ``SHARD_COUNT``, else one connection."""
    if settings.sharded:
        return ShardedTichuBot(settings, **options)
    return TichuBot(settings, **options)

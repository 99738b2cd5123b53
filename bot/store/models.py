"""Records the store keeps, and the one interface every backend implements.

All SQL lives behind :class:`Repository`; the bot talks to nothing else. SQLite
(aiosqlite) is the backend today; PostgreSQL can slot in beside it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol


class StoreError(Exception):
    """Anything the store cannot do; ``code`` says what for the bot's messages."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class CorruptRowError(StoreError):
    """A stored row cannot be read back (bad JSON, impossible values)."""

    def __init__(self, message: str) -> None:
        super().__init__("corrupt_row", message)


class SequenceConflictError(StoreError):
    """An action with this sequence number is already stored for the table."""

    def __init__(self, message: str) -> None:
        super().__init__("sequence_conflict", message)


class StoreUnavailableError(StoreError):
    """The database did not answer: the connection was refused, lost or closed, its
    socket is missing, the query or the connection timed out, or the pool is closing.

    The call may or may not have taken effect (a commit may have happened before the
    answer was lost). Trying again is the caller's choice; the repository itself
    recovers (new connections replace the dead ones) once the database is back."""

    def __init__(self, message: str) -> None:
        super().__init__("unavailable", message)


class ShardLostError(StoreError):
    """A write was refused because this repository no longer owns the shard of the
    table it writes to: another process took the shard (its epoch moved on). Nothing
    of the refused call was stored, and the repository forgot the shard."""

    def __init__(self, message: str) -> None:
        super().__init__("shard_lost", message)


class PersonAtTableError(StoreError):
    """An erase refused: the person sits at (or hosts) a live table; nothing changed."""

    def __init__(self, tables: list[int]) -> None:
        super().__init__("person_at_table", f"the person is at live tables {tables}")
        self.tables = tables


class TableStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    EXPIRED = "expired"

    @property
    def is_active(self) -> bool:
        return self in (TableStatus.LOBBY, TableStatus.PLAYING)


@dataclass(slots=True)
class SeatRecord:
    seat: int
    user_id: int | None = None
    """The Discord user sitting here, or None for a computer player / empty seat."""
    name: str = ""
    bot_level: str | None = None
    """``easy``/``normal``/``hard`` for a computer player (or for the computer that
    keeps an away person's seat), else None."""
    away: bool = False
    """A person's seat played by a computer after repeated timeouts: ``user_id`` stays
    set (the person can take the seat back) and ``bot_level`` is the computer's level."""


@dataclass(slots=True)
class GuildSettings:
    """What a server's admins chose; None everywhere means "not set"."""

    locale: str | None = None
    """Language of public messages; None follows Discord's guild locale."""
    turn_timer: int | None = None
    """Seconds per decision; None is the bot's default, 0 turns the timer off."""
    target: int | None = None
    """Default score to reach; None is the game's default."""
    tables_per_channel: int | None = None
    """How many active tables one channel may hold; None is the bot's default."""
    daily_channel_id: int | None = None
    """The channel where the final standings of yesterday's daily challenge (duplicate
    Tichu) are posted; None posts them nowhere."""


@dataclass(slots=True)
class PanelRecord:
    """A person's live private hand message, edited through the interaction's webhook
    (``application_id`` and ``token``, valid 15 minutes from ``created_at``)."""

    user_id: int
    application_id: int
    token: str
    message_id: int
    created_at: datetime


@dataclass(slots=True)
class ActionRecord:
    seq: int
    """1, 2, 3 … per table, with no gaps."""
    payload: dict[str, Any]
    """The action in its replay JSON form, plus bot fields such as ``"by": "timer"``."""
    created_at: datetime | None = None


@dataclass(slots=True)
class TableRecord:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    status: TableStatus
    seed: str
    options: dict[str, Any] = field(default_factory=dict)
    """Game options: ``target``, ``turn_timer`` (seconds or None), and so on."""
    locale: str = "en"
    thread_id: int | None = None
    message_id: int | None = None
    """The table message, edited in place."""
    ping_message_id: int | None = None
    """The short "your turn" message, deleted when the next one is posted."""
    seats: list[SeatRecord] = field(default_factory=list)
    actions: list[ActionRecord] = field(default_factory=list)
    drafts: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Choices in progress by seat number (exchange picks …), see ``save_draft``."""
    panels: dict[int, PanelRecord] = field(default_factory=dict)
    """Each person's live hand message, by user id, see ``save_panel``."""
    created_at: datetime | None = None
    updated_at: datetime | None = None


@dataclass(slots=True)
class GamePlayerResult:
    seat: int
    user_id: int | None
    bot_level: str | None
    name: str
    team: int
    won: bool
    stats: dict[str, int] = field(default_factory=dict)
    """Per-player counters derived from the action log (calls made and won, bombs…)."""


@dataclass(slots=True)
class GameResult:
    table_id: int
    guild_id: int
    game: str
    scores: list[int]
    winner: int | None
    """Winning team (Tichu) or seat; None for a draw."""
    players: list[GamePlayerResult]
    replay: dict[str, Any]
    """The replay file of the whole game (``python -m engine replay`` plays it)."""
    finished_at: datetime | None = None
    id: int | None = None
    rated: bool = True
    """False: the game is kept (history, replay) but changes no rating and counts in
    no leaderboard, player stats or partners (a duplicate board, say)."""


@dataclass(slots=True)
class LeaderboardRow:
    user_id: int
    name: str
    games: int
    wins: int
    stats: dict[str, int] = field(default_factory=dict)
    """Summed per-player counters, e.g. ``tichu_called``, ``tichu_won``."""
    rating: float | None = None
    """The conservative rating ``mu - 3 * sigma`` (None if no rated game yet)."""
    rank: int = 0
    """The place on the guild's leaderboard of the game (1 is first)."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player key's current rating in a guild and game (``u:<id>`` or ``cpu:<level>``)."""

    player: str
    user_id: int | None
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one of their rated games (the chart's points)."""

    game_id: int
    finished_at: datetime
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class PartnerRow:
    """Someone a player sat with (same team in Tichu, same table otherwise)."""

    player: str
    name: str
    games: int
    wins: int
    """Games both won."""


EVENT_KINDS = ("daily", "event")


@dataclass(slots=True)
class EventRecord:
    """A set of duplicate boards: a day of the daily challenge, or an event of
    duplicate tables that people join with its code."""

    code: str
    """``daily:2026-11-27`` for a day of the daily challenge, else the join code
    (``K7Q2XM``)."""
    kind: str
    """``daily`` or ``event`` (:data:`EVENT_KINDS`)."""
    seed: str
    """What the boards are dealt from."""
    boards: int
    """How many boards (at least 1)."""
    guild_id: int | None
    """The host's guild (None for a daily)."""
    host_id: int | None
    created_at: datetime | None = None
    """Set by the store when None."""


@dataclass(slots=True)
class FieldResult:
    """How one computer table of a board's field played it."""

    board: str
    index: int
    """The field table, 0 … n-1."""
    diff: int
    """Direction 0's deal score minus direction 1's."""
    replay: dict[str, Any]
    """How it was played (a JSON object)."""


@dataclass(slots=True)
class BoardPlayer:
    user_id: int
    name: str


@dataclass(slots=True)
class BoardResult:
    """One table-direction's attempt at a board: claimed by ``claim_board`` (``diff``,
    ``replay`` and ``finished_at`` None), finished by ``finish_board``."""

    board: str
    """The board's id, e.g. ``daily:2026-11-27/1`` or ``ev:K7Q2XM/3``."""
    event: str
    """The code of the board's event (:class:`EventRecord`)."""
    table_id: int
    direction: int
    """0 (seats 0 and 2) or 1 (seats 1 and 3)."""
    guild_id: int
    """0 in direct messages."""
    players: list[BoardPlayer]
    """The people of that direction at that table (1 or 2), in the order given."""
    diff: int | None
    """Direction 0's deal score minus direction 1's; None until the board is finished."""
    replay: dict[str, Any] | None
    """The board's play once finished."""
    created_at: datetime | None = None
    """When the board was claimed (set by the store when None)."""
    finished_at: datetime | None = None


@dataclass(slots=True)
class ReviewRecord:
    """One person's review of their decisions in one deal of a table's game (issue 25)."""

    table_id: int
    deal: int
    """The deal's index in the game (0, 1, …)."""
    seat: int
    """The seat reviewed (0 or more)."""
    user_id: int
    """The person who sat there when the deal was played."""
    review: dict[str, Any]
    """The engine's review JSON (``{"decisions": [...], "error": ...}``) as the bot
    stores it (any JSON object)."""
    created_at: datetime | None = None
    """Set by the store when None."""


@dataclass(slots=True)
class Counts:
    """What is stored about one person, counted (``/privacy show``; the statements:
    :mod:`bot.store.personal`)."""

    games: int = 0
    actions: int = 0
    tables: int = 0
    ratings: int = 0
    daily: int = 0
    events: int = 0
    reviews: int = 0
    panels: int = 0
    settings: int = 0

    @property
    def empty(self) -> bool:
        return not any((self.games, self.actions, self.tables, self.ratings, self.daily,
                        self.events, self.reviews, self.panels, self.settings))

    @classmethod
    def from_row(cls, row: Any) -> Counts:
        """From the row of :meth:`Statements.counts`."""
        return cls(**{f.name: int(row[f.name]) for f in dataclasses.fields(cls)})


@dataclass(slots=True)
class Erased:
    """What an erase did."""

    counts: Counts
    """What was stored before it."""
    games_rerated: int = 0
    reviews_scrubbed: int = 0
    live: list[int] = field(default_factory=list)
    """The live tables that refused it (nothing was changed)."""


@dataclass(slots=True)
class Swept:
    """What a sweep of the guilds the bot left did (``sweep_left_guilds``)."""

    guilds: list[int]
    """The guilds left before the cutoff (swept now, or emptied already)."""
    settings: int = 0
    lobbies: int = 0
    people: int = 0
    """People whose rows there were anonymized now."""
    reviews: int = 0


class Repository(Protocol):
    """Everything the bot stores. Every method commits before it returns."""

    async def open(self) -> None:
        """Connect and apply pending migrations."""

    async def close(self) -> None: ...

    async def schema_version(self) -> int: ...

    async def ensure_guild(self, guild_id: int, locale: str) -> None:
        """Create or update the guild's row with the locale Discord gives for the guild
        (kept apart from the admins' choice in :class:`GuildSettings`)."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The settings the guild's admins chose (all None if none, or no such guild)."""

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Replace the guild's settings (creating the guild's row if needed)."""

    async def get_meta(self, key: str) -> str | None:
        """The bot's own bookkeeping value under ``key`` (None if unset)."""

    async def set_meta(self, key: str, value: str) -> None:
        """Set a bookkeeping value (e.g. the hash of the synced command tree)."""

    async def create_table(self, *, guild_id: int, channel_id: int, host_id: int, game: str,
                           seed: str, options: dict[str, Any], locale: str,
                           seats: list[SeatRecord]) -> TableRecord:
        """Insert a new table in status lobby with its seats, and return it with its id."""

    async def update_table(self, table_id: int, *, status: TableStatus | None = None,
                           thread_id: int | None = None, message_id: int | None = None,
                           ping_message_id: int | None = None,
                           options: dict[str, Any] | None = None) -> None:
        """Change some fields of a table (None leaves a field unchanged)."""

    async def clear_ping(self, table_id: int) -> None:
        """Forget the table's ping message id."""

    async def save_seats(self, table_id: int, seats: list[SeatRecord]) -> None:
        """Replace the table's seats."""

    async def save_draft(self, table_id: int, seat: int, data: dict[str, Any] | None) -> None:
        """Store a seat's choice in progress (None deletes it); ``load_table`` gives them
        back in :attr:`TableRecord.drafts`."""

    async def save_panel(self, table_id: int, panel: PanelRecord) -> None:
        """Store a person's live hand message (replacing their previous one at the table)."""

    async def delete_panel(self, table_id: int, user_id: int) -> None:
        """Forget a person's hand message at the table (no-op if there is none)."""

    async def append_action(self, table_id: int, action: ActionRecord) -> None:
        """Append one action; raises :class:`SequenceConflictError` if ``seq`` is taken
        or is not the next number."""

    async def load_table(self, table_id: int) -> TableRecord | None:
        """The table with its seats, actions in order (with their ``created_at``), drafts
        and panels; None if there is no such table.
        Raises :class:`CorruptRowError` if a row cannot be read."""

    async def active_table_ids(self, *, shard_count: int = 1,
                               shard_ids: Collection[int] | None = None) -> list[int]:
        """Ids of tables in status lobby or playing (to rebuild after a restart); with
        ``shard_ids``, only those of guilds whose ``(guild_id >> 22) % shard_count`` is
        one of them."""

    async def ping(self) -> None:
        """Return if the database answers (``SELECT 1`` within the timeout), else raise
        :class:`StoreUnavailableError` (StoreError ``not_open`` if not open)."""

    async def lock_shards(self, shard_ids: Collection[int], *, shard_count: int = 1) -> bool:
        """Take an exclusive lock per shard (of ``shard_count``), held until ``close()``;
        False (nothing new taken) if another process holds one of them. Shards
        already held are not taken again.

        PostgreSQL also gives each shard taken its next fencing epoch: from then on
        this repository's writes to a table (``append_action``, ``save_seats``,
        ``save_draft``, ``record_game``, ``update_table`` of a status) go through
        only while the table's shard is still held at that epoch, else raise
        :class:`ShardLostError`. False too while a shard's owner before a database
        restart may still be reconnecting (its lease). Raises
        :class:`StoreUnavailableError` if the database does not answer; callable
        again afterwards (a new lock session)."""

    async def check_shards(self) -> frozenset[int]:
        """The shards this repository still provably holds (PostgreSQL: the lock
        session answers, holds their locks, and their epochs are still ours; their
        leases are renewed). Shards found lost are forgotten, so a later
        ``lock_shards`` takes them again. Raises :class:`StoreUnavailableError`,
        forgetting nothing, if the database cannot tell in time."""

    def held_shards(self) -> frozenset[int]:
        """What the repository believes it holds now (no I/O)."""

    async def find_active_table(self, channel_id: int) -> int | None:
        """The active table whose channel or thread is ``channel_id``, if any."""

    async def active_tables_in(self, channel_id: int) -> list[int]:
        """Ids of the active tables whose channel or thread is ``channel_id``, oldest first."""

    async def count_active_tables(self, channel_id: int) -> int:
        """How many active tables were opened in the (parent) channel ``channel_id``."""

    async def count_open_tables_of(self, user_id: int) -> int:
        """How many active tables, in every channel and server, ``user_id`` hosts or holds a
        seat at (a seat a computer keeps while they are away included); tables played
        alone (a daily board: no channel) are not counted."""

    async def record_game(self, result: GameResult) -> int:
        """Store a finished game and mark its table finished, in one transaction; the
        game is rated unless :attr:`GameResult.rated` is False."""

    async def leaderboard(self, guild_id: int, game: str, *, limit: int = 10,
                          offset: int = 0) -> list[LeaderboardRow]:
        """Human players of a guild's rated games by rating (``mu - 3 sigma``), then wins,
        win rate, games. ``record_game`` keeps the ratings (bot/ratings.py) in its own
        transaction."""

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        """How many human players the guild's leaderboard of the game has."""

    async def player_stats(self, guild_id: int, game: str, user_id: int) -> LeaderboardRow | None:
        """One player's totals and leaderboard place in a guild (None if they never
        finished a rated game)."""

    async def ratings(self, guild_id: int, game: str) -> list[RatingRow]:
        """Every current rating of the guild's game (people and computer levels)."""

    async def rating_history(self, guild_id: int, game: str,
                             user_id: int) -> list[RatingPoint]:
        """A player's rating after each of their rated games, oldest first."""

    async def partners(self, guild_id: int, game: str, user_id: int, *,
                       limit: int = 3) -> list[PartnerRow]:
        """Who the player sat with most in rated games (teammates in Tichu), most shared
        wins first."""

    async def load_game(self, guild_id: int, game_id: int) -> GameResult | None:
        """One finished game of the guild with players, stats and replay (None if absent)."""

    async def rebuild_ratings(self) -> int:
        """Recompute every rating and its history from the stored rated games in finish
        order, in one transaction; the number of games rated."""

    async def recent_games(self, guild_id: int, game: str, *, user_id: int | None = None,
                           limit: int = 10) -> list[GameResult]:
        """The last finished games, newest first."""

    async def create_event(self, event: EventRecord) -> bool:
        """Store a new event; False (nothing changed) if its code exists already."""

    async def get_event(self, code: str) -> EventRecord | None:
        """The event with this code (None if there is none)."""

    async def claim_board(self, result: BoardResult) -> None:
        """Start one table-direction's attempt at a board (``diff``, ``replay`` and
        ``finished_at`` None): the result and its players, in one transaction. Raises
        :class:`StoreError` ``board_taken`` (nothing stored) if one of the players
        already has a result on the board, finished or not, at any table and
        direction, or if this table-direction has claimed it already;
        ``unknown_table`` and ``unknown_event`` if the table or event does not exist."""

    async def claim_boards(self, results: Sequence[BoardResult]) -> None:
        """:meth:`claim_board` for several results (a table of several boards, both of its
        directions), all or nothing: one refusal stores none of them."""

    async def finish_board(self, table_id: int, board: str, direction: int, diff: int,
                           replay: dict[str, Any]) -> None:
        """Set a claimed result's ``diff``, ``replay`` and ``finished_at``. Called again
        with the same ``diff`` it changes nothing; StoreError ``unknown_result`` if
        there is no such claim, ``board_finished`` if it was finished with another
        diff."""

    async def board_results(self, board: str, *, guild_id: int | None = None,
                            finished: bool = True) -> list[BoardResult]:
        """The results of a board (only the finished ones if ``finished``), of the
        guild ``guild_id`` or of every guild (None), oldest claim first."""

    async def event_results(self, event: str, *,
                            guild_id: int | None = None) -> list[BoardResult]:
        """Every finished result of an event (of one guild, or all if None), oldest
        claim first."""

    async def user_results(self, user_id: int, event: str) -> list[BoardResult]:
        """The results (finished or not) a person has in an event, oldest claim first."""

    async def user_daily_days(self, user_id: int, *, limit: int = 400) -> list[str]:
        """The codes of the daily events in which the person finished at least one
        board, newest first (``daily:YYYY-MM-DD`` codes in reverse order)."""

    async def save_field(self, board: str, results: list[FieldResult]) -> None:
        """Store a board's whole field (its computer tables ``0 … n-1``) in one
        transaction; if the board has a field already it is kept as it is (the first
        saved wins, no error)."""

    async def field(self, board: str) -> list[FieldResult]:
        """A board's field by index (empty if none is stored)."""

    async def save_review(self, record: ReviewRecord) -> None:
        """Store one person's review of one deal (``created_at`` now if None); if that
        ``(table_id, deal, seat)`` has a review already it is kept as it is (the first
        saved wins, no error). Raises :class:`StoreError` ``invalid_review`` (a
        negative deal or seat, a review that is not a dict …), ``not_json``,
        ``unknown_table``. Not fenced on PostgreSQL: it never overwrites, so a process
        that lost the table's shard can at most fill in a missing review."""

    async def review(self, table_id: int, deal: int, seat: int) -> ReviewRecord | None:
        """The review of that seat in that deal of the table (None if none is stored)."""

    async def user_reviews(self, table_id: int, user_id: int) -> list[ReviewRecord]:
        """A person's reviews at a table, by deal then seat (empty if none)."""

    # -- the board secret (issue 51): StoreBase ------------------------------------

    async def board_secret(self) -> str | None:
        """The deployment's board secret as stored (None: none is stored). Raises
        :class:`CorruptRowError` if its row holds no text."""

    async def make_board_secret(self, secret: str) -> str | None:
        """Store ``secret`` as the board secret if none is stored (never replacing one);
        the secret stored afterwards (None if its row holds no text)."""

    # -- a person's data (issue 42): bot.store.personal, StoreBase ------------------

    async def person_counts(self, user_id: int) -> Counts:
        """How much is stored about a person (all zero for a stranger)."""

    async def export_rows(self, user_id: int) -> dict[str, list[dict[str, Any]]]:
        """The rows of everything stored about a person, by part of the export, read in
        one snapshot beside the live tables' work (the file: ``bot.store.export``)."""

    async def export_person(self, user_id: int, *, now: datetime | None = None
                            ) -> dict[str, Any]:
        """Everything stored about a person as one JSON document, in one snapshot."""

    async def erase_person(self, user_id: int) -> Erased:
        """Erase a person in one transaction (``PersonAtTableError`` at a live table)."""

    async def set_standings(self, user_id: int, appear: bool) -> None:
        """A person's choice to appear by name in standings across servers."""

    async def standings_choice(self, user_id: int) -> bool:
        """Whether the person chose to appear by name in standings across servers."""

    async def appearing(self, user_ids: Iterable[int]) -> set[int]:
        """Those of ``user_ids`` who chose to appear by name across servers."""

    async def guild_left(self, guild_id: int, *, when: datetime | None = None) -> None:
        """Note that the bot was removed from the guild."""

    async def guild_left_at(self, guild_id: int) -> datetime | None:
        """When the bot was removed from the guild (None while it is in it)."""

    async def guild_back(self, guild_id: int) -> bool:
        """The bot is in the guild (again); whether it had been noted as left."""

    async def sweep_closed_tables(self) -> int:
        """Delete the drafts and hand messages of closed tables; how many rows went."""

    async def sweep_left_guilds(self, before: datetime) -> Swept:
        """Empty the guilds left before ``before``: settings, lobbies and reviews deleted,
        results anonymized."""

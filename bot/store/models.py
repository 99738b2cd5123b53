"""Records the store keeps, and the one interface every backend implements.

All SQL lives behind :class:`Repository`; the bot talks to nothing else. SQLite
(aiosqlite) is the backend today; PostgreSQL can slot in beside it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
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


class QueueRefusedError(StoreError):
    """A change of the queue refused because of what was asked (queueing twice, a partner
    already queued, a ready check that expired, a block of oneself …): ``code`` names the
    refusal (the sentence ``error.queue.<code>`` of the person's language), and nothing
    was written."""


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


@dataclass(frozen=True, slots=True)
class TalkLine:
    """One phrase said at a table (issue 53): its key (``talk.<phrase>``, each reader's
    panel shows it in their own language), who said it, and where it goes in the log."""

    seq: int
    """1, 2, 3 … per table."""
    seat: int
    user_id: int
    phrase: str
    after: int
    """How many actions the table had when it was said (its place in the table's log)."""
    created_at: datetime


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
    talk: list[TalkLine] = field(default_factory=list)
    """The phrases said at the table, in order, see ``add_talk``."""
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
    """The place on the guild's leaderboard of the game (1 is first); on the global board,
    among everyone rated, those who chose not to appear too."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class BoardSize:
    """The people of a game's global board (issue 53): those it lists, who chose to appear
    (``/privacy standings``), and those it does not."""

    shown: int
    hidden: int


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


QUEUE_POOLS: dict[str, tuple[int, ...]] = {"tichu": (4, 6), "chinois": (4,), "tysiacha": (3, 4)}
"""The games the queue seats, with their seat counts (each game's ``seat_count``:
Tichu for four or six, Chinois for four, Tysiacha for three or four)."""
PARTNER_GAMES = frozenset({"tichu"})
"""The games played in teams, where a partner pair queues as one team (Tichu: partners
sit opposite, on the seats of one parity). Chinois and Tysiacha have no teams."""
FILL_AFTER = (60, 120, 300)
"""The fill-with-computers choices: seconds of waiting (None: never)."""
READY_SECONDS = 30.0
"""How long a ready check waits for its answers."""
READY_CHECKS_KEPT = timedelta(hours=1)
"""How long a closed ready check stays (the memory of a person's repeated declines)."""
DEPARTURES_KEPT = timedelta(days=30)
"""How long a game left early is remembered (and counted for pairing)."""
MAX_BLOCKS = 500
"""The most people one person may block."""
MATCHMAKER_LEASE = "matchmaker"
"""The name of the matchmaker's lease (one across bot processes)."""


@dataclass(frozen=True, slots=True)
class Pool:
    """Where people wait for one kind of table: a game, its seat count, rated or not."""

    game: str
    seats: int
    rated: bool = True


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A person waiting in a pool, or a partner pair (one team, one entry)."""

    user_id: int
    """Who queued."""
    pool: Pool
    locale: str
    """Their language (Discord's locale: ``en-US``, ``fr`` …)."""
    rating: float
    """Their rating when they queued, as the caller read it (the leaderboard's ``mu - 3
    sigma``: :meth:`Repository.queue_rating`)."""
    partner_id: int | None = None
    """The partner who queued with them as one team (team games only)."""
    partner_rating: float | None = None
    """The partner's rating (set exactly when ``partner_id`` is)."""
    fill_after: int | None = None
    """Seconds after which computers may fill their table, unrated (:data:`FILL_AFTER`);
    None: never."""
    guild_id: int | None = None
    """The server they queued from; None: direct messages (a user install)."""
    joined_at: datetime | None = None
    """When they queued (set by the store when None); kept when they go back to the
    queue after a ready check that failed, so they are at its head."""
    waves: int = 0
    """The pairing waves they missed (their rating window widens with each)."""
    id: int | None = None
    """The store's number of the entry (None until stored)."""
    check_id: int | None = None
    """The open ready check they are in (None: waiting)."""

    @property
    def people(self) -> tuple[int, ...]:
        """Who the entry seats: the person, then the partner."""
        return (self.user_id,) if self.partner_id is None else (self.user_id, self.partner_id)

    @property
    def ratings(self) -> tuple[float, ...]:
        """The ratings of :attr:`people`, in their order."""
        if self.partner_id is None or self.partner_rating is None:
            return (self.rating,)
        return (self.rating, self.partner_rating)


@dataclass(frozen=True, slots=True)
class PoolCount:
    """How many wait in a pool: counts only, never who."""

    pool: Pool
    entries: int
    people: int
    """People in the pool, in a ready check or not."""
    waiting: int
    """People in the pool not in a ready check."""


class Answer(StrEnum):
    """A person's answer to a ready check."""

    ACCEPT = "accept"
    DECLINE = "decline"
    TIMEOUT = "timeout"
    """No answer in time (written when the check closes)."""


class CheckStatus(StrEnum):
    OPEN = "open"
    SEATING = "seating"
    """Everyone accepted, and their table is being made: the check still holds their
    entries (not waiting, not paired), so that a crash before the table started loses
    nobody's place. (Stored as ``seated`` with entries still held.)"""
    SEATED = "seated"
    """Everyone accepted and their table started: their entries left the queue."""
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class ReadyMessage:
    """The ready check's direct message to one of its people."""

    channel_id: int
    message_id: int
    locale: str
    """The language it is written in (what came of the check is told in it too)."""


@dataclass(frozen=True, slots=True)
class ReadyMember:
    user_id: int
    entry_id: int
    seat: int
    answer: Answer | None = None
    answered_at: datetime | None = None
    message: ReadyMessage | None = None
    """Their ready check message (None: not sent yet, or Discord refused it), kept so
    that what came of the check edits it, through a restart too."""


@dataclass(frozen=True, slots=True)
class ReadyCheck:
    """A proposed table that waits for its people's answers."""

    id: int
    pool: Pool
    filled: bool
    """Computers take the seats no member holds; the table is unrated."""
    status: CheckStatus
    created_at: datetime
    expires_at: datetime
    members: tuple[ReadyMember, ...]
    """By seat."""
    closed_at: datetime | None = None

    @property
    def seats(self) -> tuple[int | None, ...]:
        """The person of each seat; None: a computer."""
        by_seat = {m.seat: m.user_id for m in self.members}
        return tuple(by_seat.get(seat) for seat in range(self.pool.seats))

    @property
    def rated(self) -> bool:
        return self.pool.rated and not self.filled

    def member(self, user_id: int) -> ReadyMember | None:
        return next((m for m in self.members if m.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class ReadyOutcome:
    """What closing a ready check did."""

    check: ReadyCheck
    """The check as closed (status seated or failed; timeouts written)."""
    returned: tuple[int, ...] = ()
    """People back in the queue, at its head (their entry kept its place): they
    accepted, or had not answered when someone declined."""
    removed: tuple[int, ...] = ()
    """People out of the queue: they declined or did not answer in time (with their
    partner), or they had left it."""

    @property
    def seated(self) -> bool:
        """Everyone accepted: the table is to be made with :attr:`ReadyCheck.seats`."""
        return self.check.status in (CheckStatus.SEATING, CheckStatus.SEATED)


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
    blocks: int = 0
    """The people they blocked."""
    queue: int = 0
    """Their place in the queue (0 or 1)."""
    ready_checks: int = 0
    """Their answers to ready checks (kept an hour)."""
    left_games: int = 0
    """The games they left early (kept 30 days)."""
    talk: int = 0
    """The phrases they said at tables still open."""

    @property
    def empty(self) -> bool:
        return not any(getattr(self, f.name) for f in dataclasses.fields(self))

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

    async def add_talk(self, table_id: int, line: TalkLine) -> None:
        """Store a phrase said at the table; :class:`SequenceConflictError` if its
        ``seq`` is taken, StoreError ``unknown_table`` if there is no such table."""

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

    async def finished_direct_tables(self, since: datetime) -> list[int]:
        """Ids of the finished tables shown in direct messages (guild 0, no channel) whose
        row changed at ``since`` or later (their Rematch presses), oldest first."""

    async def count_open_tables_of(self, user_id: int) -> int:
        """How many active tables, in every channel and server, ``user_id`` hosts or holds a
        seat at (a seat a computer keeps while they are away included); tables played
        alone (a daily board: no channel) are not counted."""

    async def record_game(self, result: GameResult) -> int:
        """Store a finished game and mark its table finished, in one transaction; the
        game is rated unless :attr:`GameResult.rated` is False."""

    async def leaderboard(self, guild_id: int | None, game: str, *, limit: int = 10,
                          offset: int = 0) -> list[LeaderboardRow]:
        """Human players of a guild's rated games by rating (``mu - 3 sigma``), then wins,
        win rate, games. ``record_game`` keeps the ratings (bot/ratings.py) in its own
        transaction. ``guild_id`` None: the global board (every guild's games and the
        global ratings), which lists only those who chose to appear, at their rank among
        everyone rated."""

    async def leaderboard_size(self, guild_id: int, game: str) -> int:
        """How many human players the guild's leaderboard of the game has."""

    async def global_board_size(self, game: str) -> BoardSize:
        """How many people the global board of the game lists, and how many rated people
        it does not (they did not choose to appear)."""

    async def player_stats(self, guild_id: int | None, game: str,
                           user_id: int) -> LeaderboardRow | None:
        """One player's totals and leaderboard place in a guild, or on the global board
        (None), whether they chose to appear or not (None if they never finished a rated
        game)."""

    async def ratings(self, guild_id: int | None, game: str) -> list[RatingRow]:
        """Every current rating of the guild's game (people and computer levels); None:
        the global ratings of the game."""

    async def rating_history(self, guild_id: int | None, game: str,
                             user_id: int) -> list[RatingPoint]:
        """A player's rating after each of their rated games, oldest first (their global
        rating's when ``guild_id`` is None)."""

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

    # -- "Play now" (issue 53): bot.store.queue, StoreBase -------------------------

    async def queue_join(self, entry: QueueEntry) -> QueueEntry:
        """Put a person (or a partner pair, one entry) in the queue of ``entry.pool``, and
        return the stored entry (its id, its ``joined_at``: now if None). Everything is
        checked before anything is written; :class:`QueueRefusedError` (nothing written):
        ``unknown_game``, ``bad_seats``, ``bad_fill``, ``bad_locale``, ``bad_rating``,
        ``not_a_person``, ``self_partner``, ``partner_no_teams`` (a partner in a game
        without teams), ``already_queued`` (the person is in the queue),
        ``partner_queued``, ``partner_blocked`` (one of the two blocked the other).
        Whether the person sits at a live table is the caller's to check
        (:meth:`count_open_tables_of`)."""

    async def queue_leave(self, user_id: int) -> QueueEntry | None:
        """Take the person's entry out of the queue (with their partner's place: the pair
        is one entry) and return it; None if they were not queued. In an open ready
        check, it counts as their decline."""

    async def queue_entry(self, user_id: int) -> QueueEntry | None:
        """The entry that holds the person (theirs, or their partner's), waiting or in a
        ready check; None if they are not queued."""

    async def queue_entries(self, pool: Pool) -> list[QueueEntry]:
        """The entries of a pool waiting for a table (not in a ready check), first come
        first."""

    async def queue_counts(self) -> list[PoolCount]:
        """How many wait in each pool that has someone (counts only), by game, seats,
        rated."""

    async def miss_wave(self, entry_ids: Collection[int]) -> int:
        """Add one missed wave to each of the entries still waiting; how many changed."""

    async def open_ready_check(self, pool: Pool, seats: Sequence[int | None], *,
                               filled: bool = False, now: datetime | None = None,
                               seconds: float = READY_SECONDS) -> ReadyCheck:
        """Propose a table: ``seats`` gives each seat's person (None: a computer, only
        when ``filled``). Their entries leave the waiting list for the check's
        ``seconds``. QueueRefusedError (nothing written): ``bad_check`` (the seats do not
        fit the pool, a person twice, nobody), ``entry_gone`` (someone is not in the
        pool's queue, or is in another check), ``partner_missing`` (an entry's partner
        has no seat)."""

    async def answer_ready_check(self, check_id: int, user_id: int, accept: bool, *,
                                 now: datetime | None = None) -> ReadyCheck:
        """Note a person's answer and return the check. QueueRefusedError (nothing
        written): ``no_check``, ``check_closed``, ``check_expired``, ``not_in_check``,
        ``already_answered``."""

    async def note_ready_message(self, check_id: int, user_id: int,
                                 message: ReadyMessage) -> bool:
        """Keep the ready check's message to a member (whatever the check's status);
        False if the check or the member is gone."""

    async def close_ready_check(self, check_id: int, *,
                                now: datetime | None = None) -> ReadyOutcome:
        """Close a check once it is decided: everyone accepted (seating: the check holds
        their entries until :meth:`seat_ready_check` or :meth:`unseat_ready_check`), or
        someone declined or the time ran out (failed: those who
        declined or did not answer are out, with their partner; the others go back to
        the head of the queue). QueueRefusedError: ``no_check``, ``check_closed``,
        ``check_open`` (still waiting for answers; nothing changed)."""

    async def seat_ready_check(self, check_id: int) -> int:
        """The table of a seating check started: the entries it holds leave the queue
        (the check is seated); how many. QueueRefusedError (nothing written):
        ``no_check``, ``not_seating``."""

    async def unseat_ready_check(self, check_id: int, *, requeue: bool) -> ReadyOutcome:
        """The table of a seating check was not made (the check fails): the entries it
        holds go back to the head of the queue (``requeue``: they kept their place), or
        leave it. QueueRefusedError (nothing written): ``no_check``, ``not_seating``."""

    async def seating_ready_checks(self) -> list[int]:
        """The checks left seating (everyone accepted, the table not known to be made),
        oldest first: what the matchmaker finishes after a restart."""

    async def ready_check(self, check_id: int) -> ReadyCheck | None:
        """The check with its members (None if there is no such check)."""

    async def due_ready_checks(self, now: datetime | None = None) -> list[int]:
        """The open checks that can be closed now (every answer in, a decline, or past
        their time), oldest first: what the matchmaker closes, after a restart too."""

    async def recent_declines(self, user_id: int, since: datetime) -> list[datetime]:
        """When the person declined a ready check or let one time out, since ``since``,
        oldest first (for the cooldown after repeated declines)."""

    async def block(self, blocker: int, blocked: int, *, now: datetime | None = None) -> bool:
        """``blocker`` blocks ``blocked``: the two are never paired. False if it was
        blocked already. QueueRefusedError: ``block_self``, ``not_a_person``,
        ``too_many_blocks`` (:data:`MAX_BLOCKS`)."""

    async def unblock(self, blocker: int, blocked: int) -> bool:
        """Remove a block; whether there was one."""

    async def blocks_of(self, user_id: int) -> list[int]:
        """The people the person blocked, by id."""

    async def blocks_among(self, user_ids: Iterable[int]) -> set[tuple[int, int]]:
        """The blocks ``(blocker, blocked)`` between people of ``user_ids``."""

    async def record_departure(self, user_id: int, table_id: int, *, reason: str = "left",
                               when: datetime | None = None) -> bool:
        """Note that a person left a game in play before its end (``left``: by their own
        choice; ``away``: out after missed turns), once per table; False if it was
        noted already. StoreError ``unknown_table``; QueueRefusedError ``bad_reason``,
        ``not_a_person``."""

    async def left_early(self, user_ids: Iterable[int], *,
                         since: datetime) -> dict[int, int]:
        """How many games each of ``user_ids`` left early since ``since`` (only those
        with at least one)."""

    async def queue_rating(self, user_id: int, game: str) -> float | None:
        """The person's global rating of ``game`` (its record name: ``tichu``, ``tichu6``
        …) as the leaderboard shows it (``mu - 3 sigma``), from every rated game anywhere.
        None if they have none."""

    async def take_lease(self, name: str, holder: str, seconds: float) -> int | None:
        """Take or renew the lease ``name`` for ``holder`` for ``seconds``, atomically:
        taken if it is free, expired, or the holder's already. Its epoch while held (one
        more each time another holder takes it), None if another holds it. On PostgreSQL
        the time is the server's, the same for every process."""

    async def release_lease(self, name: str, holder: str) -> bool:
        """Let the lease go at once if ``holder`` holds it; whether it did."""

    async def sweep_queue(self, now: datetime | None = None) -> int:
        """Delete the ready checks closed before :data:`READY_CHECKS_KEPT` (not those left
        seating, which hold their people's places) and the games left early before
        :data:`DEPARTURES_KEPT`; how many rows went."""

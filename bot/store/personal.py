"""What the store keeps about a person, and how it is counted, exported and erased
(issue 42).

:data:`KEPT` names every table of the store (both backends have the same tables) with
the columns that hold a person (their Discord id, ``'u:<id>'`` or the name they had),
what it is for, how long it is kept, who sees it and what an erase does to it. The
privacy page of the docs is generated from it (``python -m tools.docs``), and a test
fails when a table of the schema is missing here or holds a person in a column not
named here.

The statements are written once for both backends in a small dialect (:class:`Dialect`:
parameter markers, JSON and time columns read as text, a JSON field). Each takes the
person's id as its first parameter.

An **erase** replaces the person's id, wherever a result of other people needs the seat
(tables they hosted, seats, game players, duplicate players, events they hosted), by a
pseudonym: a negative random number, the same in all their rows so the ratings of the
others are rebuilt as they were, kept nowhere else, so it cannot be linked back. Their
names there become empty (shown as "a former player"). What is theirs alone goes:
ratings, each server's and the global ones (rebuilt from the stored games), the stats of
their seats, their reviews, their live hand messages, their choices, their place in the
queue, their answers to ready checks, the blocks they made, the games they left early and
the phrases they said at tables (issue 53: kept only while a table is open, and an erase
is refused at an open table, so it finds only lines the sweep has not deleted yet). The
blocks others made of them stay: they are the others' choice, for the others' peace, and
never shown to the person. Their name is blanked in the reviews of the others who sat
with them. Nothing
of the actions or the replays names a person: an action says a seat.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from bot.store.codec import format_timestamp, load_json
from bot.store.models import DEPARTURES_KEPT, ReviewRecord
from engine.errors import EngineError
from engine.tichu.replay import seen_by

Erase = Literal["pseudonym", "delete", "rebuilt", "nothing"]

QUEUE_TABLE = "pgqueuer"
"""PgQueuer's queue table (its default name, which :mod:`bot.jobs` keeps)."""
REVIEW_JOBS = "review"
"""The kind (PgQueuer's entrypoint) of a person's review job, whose payload names them
(``user_id``, :func:`bot.games.tichu.coach.review_payload`)."""

FORMAT = "tichu-bot personal data"
"""The ``format`` field of an export file."""
VERSION = 1


@dataclass(frozen=True, slots=True)
class Kept:
    """One table of the store, as the privacy page describes it."""

    table: str
    person: tuple[str, ...]
    """The columns that hold a person: their id, ``'u:<id>'``, or their name."""
    what: str
    why: str
    how_long: str
    seen_by: str
    erase: Erase
    """What an erase does to the person's rows: replaced by a pseudonym (and the name
    blanked), deleted, rebuilt from the games (ratings), or nothing (no person in it)."""
    export: str = ""
    """Where ``/privacy export`` puts the person's rows (a key of the file), or empty
    when the table holds no person."""
    backend: Literal["both", "postgresql"] = "both"
    """Whether both stores have it, or PostgreSQL alone."""


_GAME = ("as long as the bot runs, so that results, histories and ratings stay whole; a "
         "server that removed the bot keeps them anonymized after the retention")
_LIVE = "while the table is open; the bot's sweep deletes it once the table closes"
_QUEUED = ("while the person waits: until they are seated, leave the queue, decline or let "
           "a proposed table's time run out")
_CHECKS = "an hour after the check closes, then the queue's sweep deletes it"

KEPT: tuple[Kept, ...] = (
    Kept("guilds", (), "each server the bot is in: its language, when the bot was removed",
         "to speak the server's language", "until the server's data is swept after the "
         "bot left (the row itself stays for the games played there)",
         "the bot's operators", "nothing"),
    Kept("guild_settings", (), "what a server's admins chose: language, timer, target, "
         "tables per channel, daily channel", "to play as the server chose",
         "until the retention after the bot is removed from the server",
         "the server's members (through the bot)", "nothing"),
    Kept("tables", ("host_id",), "each table: its server, channel, host, game, seed, "
         "status", "to run the table and find it again after a restart", _GAME,
         "the people of the server (the table's thread)", "pseudonym", export="tables"),
    Kept("seats", ("user_id", "name"), "who sits where at each table, by Discord id and "
         "display name", "to seat people and send each their own hand", _GAME,
         "the table's players", "pseudonym", export="tables"),
    Kept("actions", (), "every action at a table, by seat (never by person)",
         "to restore a table after a restart and to replay games", _GAME,
         "the table's players (the replay)", "nothing"),
    Kept("drafts", (), "a seat's choice in progress (cards picked, not yet played)",
         "so a restart loses no half-made choice", _LIVE, "the seat's own person",
         "nothing"),
    Kept("panels", ("user_id",), "each person's live hand message at a table (its id and "
         "the interaction token that edits it)", "to keep the private hand up to date",
         _LIVE, "nobody: the bot's own bookkeeping", "delete", export="hand_messages"),
    Kept("talk", ("user_id",), "each phrase a person chose to say at a table shown in "
         "direct messages (its key, never free text), with their seat and when",
         "every reader's panel shows the table's last lines, in their own language, "
         "through a restart too", _LIVE, "the table's players", "delete", export="talk"),
    Kept("games", (), "each finished game: scores, winner, replay (by seat)",
         "histories, replays, ratings", _GAME, "the server's people", "nothing"),
    Kept("game_players", ("user_id", "name"), "who played each finished game, their "
         "team, whether they won, the name they had", "histories, statistics, ratings",
         _GAME, "the server's people", "pseudonym", export="games"),
    Kept("game_player_stats", (), "each seat's counts in a finished game (calls made, "
         "tricks, …)", "`/tichu stats`", _GAME, "the server's people", "delete", export="games"),
    Kept("ratings", ("player", "user_id"), "each person's rating per server and game",
         "the leaderboard and fair ratings", _GAME, "the server's people", "rebuilt", export="ratings"),
    Kept("rating_history", ("player",), "each rating after each game",
         "rating trends in `/tichu stats`", _GAME, "the person, and the server's people",
         "rebuilt", export="rating_history"),
    Kept("global_ratings", ("player", "user_id"), "each person's global rating per game, "
         "from every rated game in every server and in direct messages",
         "the global leaderboard and the pairing of \"Play now\"", _GAME,
         "everyone, on the global leaderboard, only by choice; the person's own always",
         "rebuilt", export="global_ratings"),
    Kept("global_rating_history", ("player",), "each global rating after each game",
         "to rebuild and check the global ratings", _GAME, "the person",
         "rebuilt", export="global_rating_history"),
    Kept("meta", (), "the bot's own bookkeeping (the command tree synced, the days "
         "whose standings were posted)", "to do each thing once", "as long as the bot runs",
         "the bot's operators", "nothing"),
    Kept("shard_epochs", (), "which bot process runs which part of Discord",
         "so two processes never run one table", "as long as the bot runs",
         "the bot's operators", "nothing"),
    Kept("dup_events", ("host_id",), "duplicate events and daily challenges: code, seed, "
         "boards, host", "to deal the same boards to everyone", _GAME,
         "everyone with the code", "pseudonym", export="events_hosted"),
    Kept("dup_fields", (), "the computer field's results of each board",
         "to score every result against the field", _GAME, "everyone who plays the board",
         "nothing"),
    Kept("dup_results", (), "each table's result on each duplicate board, with its replay",
         "matchpoints and standings", _GAME, "everyone who plays the board", "nothing"),
    Kept("dup_players", ("user_id", "name"), "who played each duplicate result, by Discord "
         "id and name (the daily claims)", "one attempt per person and board; standings",
         _GAME, "the server's people; everyone, in global standings, only by choice",
         "pseudonym", export="duplicate"),
    Kept("reviews", ("user_id",), "the coach's review of each person's decisions in each "
         "deal (with the names at the table)", "so Review opens at once, in history too",
         "as long as the bot runs; those of a server that removed the bot go after the "
         "retention", "the person alone", "delete", export="reviews"),
    Kept("people", ("user_id",), "what a person chose: to appear by name in global "
         "standings", "to show them only if they chose it", "until they erase their data",
         "the bot's operators", "delete", export="settings"),
    Kept("queue_entries", (), "each place in the queue of \"Play now\": game, seats, rated "
         "or not, language, the fill-with-computers choice, the server it came from (none "
         "from direct messages), when it joined, the waves it missed",
         "to seat people from anywhere at one table, through a restart too", _QUEUED,
         "the bot's operators; the others see counts only", "delete", export="queue"),
    Kept("queue_people", ("user_id",), "who each place in the queue seats (a person, and "
         "the partner they queued with) and their rating when they queued",
         "to pair people of close ratings, a partner pair as one team", _QUEUED,
         "the bot's operators", "delete", export="queue"),
    Kept("ready_checks", (), "each table the queue proposed: its game, seats, whether "
         "computers fill it, its 30 seconds to answer, how it ended",
         "to seat those who accept, through a restart too", _CHECKS, "the bot's operators",
         "nothing"),
    Kept("ready_members", ("user_id",), "each person's seat and answer at a proposed table "
         "(accept, decline, or none in time), and the ready check's direct message to them "
         "(its ids and language)", "to seat those who accept; a short cooldown after "
         "repeated declines; to tell what came of the check in that message, through a "
         "restart too", _CHECKS, "the proposed table's people",
         "delete", export="ready_checks"),
    Kept("blocks", ("blocker", "blocked"), "who blocked whom (`/tichu block`)",
         "two people who blocked each other are never seated together",
         "until the person unblocks; an erase deletes their own (the blocks others made of "
         "them stay, the others' choice, never shown to them)",
         "the person who blocked", "delete", export="blocks"),
    Kept("departures", ("user_id",), "the games a person left before their end (by "
         "choice, or out after missed turns)", "the queue seats people who left games "
         "early with each other first", f"{DEPARTURES_KEPT.days} days",
         "the bot's operators", "delete", export="left_games"),
    Kept("leases", (), "which bot process runs the matchmaker, and until when",
         "one matchmaker at a time across the bot's processes", "as long as the bot runs",
         "the bot's operators", "nothing"),
    Kept("board_secret", (), "the deployment's board secret: the daily boards, new "
         "events' boards and the computers' play on them are dealt from it",
         "so that nobody can compute a board before playing it",
         "as long as the bot runs", "the bot's operators (never shown nor exported)",
         "nothing"),
    Kept("schema_migrations", (), "which migrations the database has (SQLite keeps the "
         "number in the file's header)", "to upgrade it once", "as long as the bot runs",
         "the bot's operators", "nothing", backend="postgresql"),
    Kept(QUEUE_TABLE, ("payload",), "the background jobs waiting, being made, or failed "
         "(PgQueuer's tables; with SQLite the queue is in memory): a review's job names its "
         "person and the names at the table", "to make reviews and fields on workers",
         "until the job is done (a failed one until an operator clears it)",
         "the bot's operators", "delete", backend="postgresql"),
)


def kept(table: str) -> Kept:
    """The description of ``table`` (KeyError if the store has no such table)."""
    for entry in KEPT:
        if entry.table == table:
            return entry
    raise KeyError(table)


@dataclass(frozen=True, slots=True)
class Dialect:
    """What differs between the backends' SQL here."""

    mark: Callable[[int], str]
    """The n-th parameter (1-based), which a statement may use several times."""
    text: Callable[[str], str]
    """A JSON column as JSON text."""
    seat: Callable[[str], str]
    """The integer ``seat`` of a JSON object column (an action's payload)."""
    json: Callable[[int], str]
    """The n-th parameter, JSON text, as a JSON value."""
    time: Callable[[datetime], object]
    """A moment as the backend stores it."""
    flag: Callable[[bool], object]
    """A boolean as the backend stores it."""


SQLITE = Dialect(mark=lambda n: f"?{n}", text=lambda c: c,
                 seat=lambda c: f"json_extract({c}, '$.seat')", json=lambda n: f"?{n}",
                 time=format_timestamp, flag=int)
POSTGRES = Dialect(mark=lambda n: f"${n}", text=lambda c: f"{c}::text",
                   seat=lambda c: f"({c}->>'seat')::bigint", json=lambda n: f"${n}::jsonb",
                   time=lambda t: t, flag=bool)

LIVE = "('lobby', 'playing')"


@dataclass(frozen=True, slots=True)
class Statements:
    """Every statement of the privacy commands, in one backend's dialect."""

    d: Dialect

    def _u(self) -> str:
        return self.d.mark(1)

    # -- what there is -------------------------------------------------------------

    def counts(self) -> str:
        """One row: how many of each kind of thing is stored about the person."""
        u, seat = self._u(), self.d.seat("a.payload")
        return f"""
SELECT
  (SELECT COUNT(DISTINCT game_id) FROM game_players WHERE user_id = {u}) AS games,
  (SELECT COUNT(*) FROM actions AS a JOIN seats AS s ON s.table_id = a.table_id
     WHERE s.user_id = {u} AND {seat} = s.seat) AS actions,
  (SELECT COUNT(*) FROM tables AS t WHERE t.host_id = {u} OR EXISTS
     (SELECT 1 FROM seats AS s WHERE s.table_id = t.id AND s.user_id = {u})) AS tables,
  (SELECT COUNT(*) FROM ratings WHERE user_id = {u})
    + (SELECT COUNT(*) FROM global_ratings WHERE user_id = {u}) AS ratings,
  (SELECT COUNT(*) FROM dup_players WHERE user_id = {u}) AS daily,
  (SELECT COUNT(*) FROM dup_events WHERE host_id = {u}) AS events,
  (SELECT COUNT(*) FROM reviews WHERE user_id = {u}) AS reviews,
  (SELECT COUNT(*) FROM panels WHERE user_id = {u}) AS panels,
  (SELECT COUNT(*) FROM people WHERE user_id = {u}) AS settings,
  (SELECT COUNT(*) FROM blocks WHERE blocker = {u}) AS blocks,
  (SELECT COUNT(*) FROM queue_people WHERE user_id = {u}) AS queue,
  (SELECT COUNT(*) FROM ready_members WHERE user_id = {u}) AS ready_checks,
  (SELECT COUNT(*) FROM departures WHERE user_id = {u}) AS left_games,
  (SELECT COUNT(*) FROM talk WHERE user_id = {u}) AS talk
"""

    def live(self) -> str:
        """The live tables (lobby or playing) the person sits at or hosts."""
        u = self._u()
        return f"""
SELECT t.id FROM tables AS t WHERE t.status IN {LIVE} AND (t.host_id = {u} OR EXISTS
    (SELECT 1 FROM seats AS s WHERE s.table_id = t.id AND s.user_id = {u}))
ORDER BY t.id
"""

    # -- export ----------------------------------------------------------------------

    def export(self) -> dict[str, str]:
        """Each part of the export: its statement."""
        u, text = self._u(), self.d.text
        mine = f"SELECT game_id FROM game_players WHERE user_id = {u}"

        def live(table: str) -> str:
            """1 while the table's game is in play (or its lobby open), else 0."""
            return (f"CASE WHEN EXISTS (SELECT 1 FROM tables AS l WHERE l.id = {table} "
                    f"AND l.status IN {LIVE}) THEN 1 ELSE 0 END")
        return {
            "settings": f"SELECT standings, updated_at FROM people WHERE user_id = {u}",
            "tables": f"""
SELECT t.id, t.guild_id, t.channel_id, t.thread_id, t.game, t.status, t.created_at,
       t.updated_at, CASE WHEN t.host_id = {u} THEN 1 ELSE 0 END AS host
FROM tables AS t WHERE t.host_id = {u} OR EXISTS
    (SELECT 1 FROM seats AS s WHERE s.table_id = t.id AND s.user_id = {u})
ORDER BY t.id""",
            "seats": f"""
SELECT table_id, seat, name, away FROM seats WHERE user_id = {u} ORDER BY table_id, seat""",
            "games": f"""
SELECT g.id, g.table_id, g.guild_id, g.game, {text('g.scores')} AS scores, g.winner,
       g.finished_at, g.rated, {text('g.replay')} AS replay
FROM games AS g WHERE g.id IN ({mine}) ORDER BY g.id""",
            "players": f"""
SELECT p.game_id, p.seat, p.team, p.won, p.name, p.bot_level,
       CASE WHEN p.user_id = {u} THEN 1 ELSE 0 END AS you,
       CASE WHEN p.user_id IS NULL THEN 0 ELSE 1 END AS person
FROM game_players AS p WHERE p.game_id IN ({mine}) ORDER BY p.game_id, p.seat""",
            "stats": f"""
SELECT s.game_id, s.seat, s.key, s.value FROM game_player_stats AS s
JOIN game_players AS p ON p.game_id = s.game_id AND p.seat = s.seat
WHERE p.user_id = {u} ORDER BY s.game_id, s.seat, s.key""",
            "ratings": f"""
SELECT guild_id, game, mu, sigma, ordinal, games FROM ratings WHERE user_id = {u}
ORDER BY guild_id, game""",
            "rating_history": f"""
SELECT h.game_id, g.guild_id, g.game, h.mu, h.sigma FROM rating_history AS h
JOIN games AS g ON g.id = h.game_id
WHERE h.player = 'u:' || CAST({u} AS BIGINT) ORDER BY h.game_id""",
            "global_ratings": f"""
SELECT game, mu, sigma, ordinal, games FROM global_ratings WHERE user_id = {u}
ORDER BY game""",
            "global_rating_history": f"""
SELECT h.game_id, g.guild_id, g.game, h.mu, h.sigma FROM global_rating_history AS h
JOIN games AS g ON g.id = h.game_id
WHERE h.player = 'u:' || CAST({u} AS BIGINT) ORDER BY h.game_id""",
            "duplicate": f"""
SELECT p.board, r.event, p.table_id, p.direction, p.position, p.name, r.guild_id, r.diff,
       r.created_at, r.finished_at, {text('r.replay')} AS replay, {live('p.table_id')} AS live
FROM dup_players AS p JOIN dup_results AS r ON r.table_id = p.table_id
     AND r.board = p.board AND r.direction = p.direction
WHERE p.user_id = {u} ORDER BY r.created_at, p.board""",
            "events": f"""
SELECT code, kind, boards, guild_id, created_at FROM dup_events WHERE host_id = {u}
ORDER BY created_at, code""",
            "reviews": f"""
SELECT table_id, deal, seat, created_at, {text('review')} AS review,
       {live('reviews.table_id')} AS live
FROM reviews WHERE user_id = {u} ORDER BY table_id, deal, seat""",
            "panels": f"""
SELECT table_id, message_id, created_at FROM panels WHERE user_id = {u}
ORDER BY table_id""",
            "talk": f"""
SELECT table_id, seq, seat, phrase, created_at FROM talk WHERE user_id = {u}
ORDER BY table_id, seq""",
            "blocks": f"""
SELECT blocked, created_at FROM blocks WHERE blocker = {u} ORDER BY created_at, blocked""",
            "queue": f"""
SELECT e.game, e.seats, e.rated, e.locale, e.fill_after, e.guild_id, e.joined_at, e.waves,
       p.position, p.rating,
       (SELECT o.user_id FROM queue_people AS o WHERE o.entry_id = e.id AND o.user_id <> {u})
       AS partner_id
FROM queue_people AS p JOIN queue_entries AS e ON e.id = p.entry_id WHERE p.user_id = {u}""",
            "ready_checks": f"""
SELECT c.id, c.game, c.seats, c.rated, c.filled, c.status, c.created_at, m.seat, m.answer,
       m.answered_at, m.channel_id, m.message_id, m.locale
FROM ready_members AS m JOIN ready_checks AS c ON c.id = m.check_id WHERE m.user_id = {u}
ORDER BY c.id""",
            "departures": f"""
SELECT d.table_id, t.game, d.reason, d.left_at FROM departures AS d
JOIN tables AS t ON t.id = d.table_id WHERE d.user_id = {u} ORDER BY d.left_at, d.table_id""",
        }

    # -- erase -----------------------------------------------------------------------

    def scrubbed_reviews(self) -> str:
        """The other people's reviews at tables where the person sat, with the seats the
        person had there: their names there are blanked."""
        u, text = self._u(), self.d.text
        return f"""
SELECT r.table_id, r.deal, r.seat, {text('r.review')} AS review, s.seat AS theirs
FROM reviews AS r JOIN seats AS s ON s.table_id = r.table_id
WHERE s.user_id = {u} AND r.user_id <> {u} ORDER BY r.table_id, r.deal, r.seat, s.seat"""

    def erase(self) -> list[str]:
        """The erase, in order; parameter 1 is the person, 2 their pseudonym. The
        ratings are rebuilt afterwards, in the same transaction."""
        u, p = self._u(), self.d.mark(2)
        return [
            f"UPDATE tables SET host_id = {p} WHERE host_id = {u}",
            f"UPDATE seats SET user_id = {p}, name = '' WHERE user_id = {u}",
            f"DELETE FROM panels WHERE user_id = {u}",
            f"DELETE FROM talk WHERE user_id = {u}",
            f"""DELETE FROM game_player_stats WHERE EXISTS (SELECT 1 FROM game_players AS p
    WHERE p.game_id = game_player_stats.game_id AND p.seat = game_player_stats.seat
    AND p.user_id = {u})""",
            f"UPDATE game_players SET user_id = {p}, name = '' WHERE user_id = {u}",
            f"UPDATE dup_events SET host_id = {p} WHERE host_id = {u}",
            f"UPDATE dup_players SET user_id = {p}, name = '' WHERE user_id = {u}",
            f"DELETE FROM reviews WHERE user_id = {u}",
            f"DELETE FROM people WHERE user_id = {u}",
            # The queue (issue 53): an open ready check of theirs fails (the others of it
            # wait again, at the head of the queue), then their answers, their place
            # (with their partner's: one entry), their blocks and departures go.
            f"""UPDATE queue_entries SET check_id = NULL WHERE check_id IN (SELECT c.id
    FROM ready_checks AS c JOIN ready_members AS m ON m.check_id = c.id
    WHERE m.user_id = {u} AND c.status = 'open')""",
            f"""UPDATE ready_checks SET status = 'failed', closed_at = expires_at
    WHERE status = 'open' AND id IN (SELECT check_id FROM ready_members WHERE user_id = {u})""",
            f"DELETE FROM ready_members WHERE user_id = {u}",
            f"DELETE FROM queue_entries WHERE id IN (SELECT entry_id FROM queue_people "
            f"WHERE user_id = {u})",
            f"DELETE FROM blocks WHERE blocker = {u}",
            f"DELETE FROM departures WHERE user_id = {u}",
        ]

    def rewrite_review(self) -> str:
        """Replace one review's JSON (parameters: table, deal, seat, the review)."""
        m = self.d.mark
        return (f"UPDATE reviews SET review = {self.d.json(4)} WHERE table_id = {m(1)} "
                f"AND deal = {m(2)} AND seat = {m(3)}")

    # -- choices -------------------------------------------------------------------

    def set_standings(self) -> str:
        """Parameters: the person, the choice, the time."""
        m = self.d.mark
        return (f"INSERT INTO people (user_id, standings, updated_at) VALUES ({m(1)}, {m(2)}, "
                f"{m(3)}) ON CONFLICT (user_id) DO UPDATE SET standings = excluded.standings, "
                "updated_at = excluded.updated_at")

    def standings(self, count: int) -> str:
        """Which of ``count`` people (parameters 1..count) chose to appear by name."""
        marks = ", ".join(self.d.mark(i + 1) for i in range(count))
        return f"SELECT user_id FROM people WHERE standings AND user_id IN ({marks})"

    def standing(self) -> str:
        return f"SELECT standings FROM people WHERE user_id = {self._u()}"

    # -- guilds the bot left ---------------------------------------------------------

    def guild_left(self) -> str:
        """Parameters: the guild and the time (a time already noted is kept: the first counts)."""
        m = self.d.mark
        return (f"INSERT INTO guilds (id, locale, created_at, updated_at, left_at) VALUES "
                f"({m(1)}, 'en', {m(2)}, {m(2)}, {m(2)}) ON CONFLICT (id) DO UPDATE SET "
                "left_at = COALESCE(guilds.left_at, excluded.left_at)")

    def left_at(self) -> str:
        return f"SELECT left_at FROM guilds WHERE id = {self._u()}"

    def guild_back(self) -> str:
        return f"UPDATE guilds SET left_at = NULL WHERE id = {self._u()} AND left_at IS NOT NULL"

    def swept(self) -> list[str]:
        """Delete what a guild left before parameter 1 still holds: its settings, and its
        tables that never started a game (lobbies, open or expired). Each statement's
        result: the rows deleted."""
        gone = f"SELECT id FROM guilds WHERE left_at IS NOT NULL AND left_at < {self._u()}"
        unplayed = ("status IN ('lobby', 'expired') AND NOT EXISTS (SELECT 1 FROM actions AS a "
                    "WHERE a.table_id = tables.id) AND NOT EXISTS (SELECT 1 FROM games AS g "
                    "WHERE g.table_id = tables.id) AND NOT EXISTS (SELECT 1 FROM dup_results "
                    "AS r WHERE r.table_id = tables.id) AND NOT EXISTS (SELECT 1 FROM reviews "
                    "AS v WHERE v.table_id = tables.id)")
        return [f"DELETE FROM guild_settings WHERE guild_id IN ({gone})",
                f"DELETE FROM tables WHERE guild_id IN ({gone}) AND {unplayed}"]

    def guild_people(self) -> str:
        """The people (their ids) in what a guild (parameter 1) keeps: its tables' hosts
        and seats, its games, its duplicate results and the events it hosted."""
        g = self._u()
        return f"""
SELECT host_id AS user_id FROM tables
      WHERE guild_id = {g} AND host_id > 0 AND status NOT IN {LIVE}
UNION SELECT s.user_id FROM seats AS s JOIN tables AS t ON t.id = s.table_id
      WHERE t.guild_id = {g} AND s.user_id > 0 AND t.status NOT IN {LIVE}
UNION SELECT p.user_id FROM game_players AS p JOIN games AS x ON x.id = p.game_id
      WHERE x.guild_id = {g} AND p.user_id > 0
UNION SELECT p.user_id FROM dup_players AS p JOIN dup_results AS r ON r.table_id = p.table_id
      AND r.board = p.board AND r.direction = p.direction
      WHERE r.guild_id = {g} AND p.user_id > 0
UNION SELECT host_id FROM dup_events WHERE guild_id = {g} AND host_id > 0
ORDER BY 1"""

    def anonymized(self) -> list[str]:
        """A person's rows in what one guild keeps, under a pseudonym of that guild, their
        names blanked: parameters the guild, the person, the pseudonym (each statement
        names all three). Their rows of other guilds, and of a table still open (which
        its own timers close), are left as they are."""
        g, u, p = self.d.mark(1), self.d.mark(2), self.d.mark(3)
        return [
            f"UPDATE tables SET host_id = {p} WHERE guild_id = {g} AND host_id = {u} "
            f"AND status NOT IN {LIVE}",
            f"UPDATE seats SET user_id = {p}, name = '' WHERE user_id = {u} AND table_id IN "
            f"(SELECT id FROM tables WHERE guild_id = {g} AND status NOT IN {LIVE})",
            f"UPDATE game_players SET user_id = {p}, name = '' WHERE user_id = {u} "
            f"AND game_id IN (SELECT id FROM games WHERE guild_id = {g})",
            f"""UPDATE dup_players SET user_id = {p}, name = '' WHERE user_id = {u}
    AND EXISTS (SELECT 1 FROM dup_results AS r WHERE r.table_id = dup_players.table_id
    AND r.board = dup_players.board AND r.direction = dup_players.direction
    AND r.guild_id = {g})""",
            f"UPDATE dup_events SET host_id = {p} WHERE guild_id = {g} AND host_id = {u}",
        ]

    def guild_reviews(self) -> str:
        """Delete the reviews made at a guild's tables (parameter 1): each names its
        person and the names at the table."""
        return ("DELETE FROM reviews WHERE table_id IN "
                f"(SELECT id FROM tables WHERE guild_id = {self._u()})")

    def closed_leftovers(self) -> list[str]:
        """Delete the drafts, hand messages and talk lines of closed tables (kept only
        while a table is open)."""
        closed = f"SELECT id FROM tables WHERE status NOT IN {LIVE}"
        return [f"DELETE FROM drafts WHERE table_id IN ({closed})",
                f"DELETE FROM panels WHERE table_id IN ({closed})",
                f"DELETE FROM talk WHERE table_id IN ({closed})"]

    def left_guilds(self) -> str:
        """The guilds left before parameter 1 (those the sweep empties)."""
        return (f"SELECT id FROM guilds WHERE left_at IS NOT NULL AND left_at < {self._u()} "
                "ORDER BY id")


def job_for(payload: object) -> int | None:
    """The person a review job's payload (JSON bytes) is for (None if it names none)."""
    try:
        data = json.loads(bytes(payload)) if isinstance(payload, (bytes, bytearray, memoryview)) \
            else None
        return int(data["user_id"]) if isinstance(data, dict) else None
    except (ValueError, TypeError, KeyError):
        return None


def pseudonym() -> int:
    """A new pseudonym: a random negative 62-bit number (a Discord id is positive), kept
    nowhere but in the rows it replaces."""
    return -(secrets.randbits(62) | 1)


def is_former(user_id: int | None) -> bool:
    """Whether ``user_id`` is the pseudonym of a person who erased their data."""
    return user_id is not None and user_id < 0


Rows = Sequence[Mapping[str, Any]]
"""The rows of one part of the export, each by column name."""
Section = tuple[str, Any]
"""One key of the export file and its value; a long list's value is an iterator that
builds its elements one at a time (:func:`export_sections`)."""
SECTIONS = ("settings", "tables", "games", "ratings", "rating_history", "global_ratings",
            "global_rating_history", "duplicate", "events_hosted", "reviews", "hand_messages",
            "talk", "blocks", "queue", "ready_checks", "left_games")
"""The keys of the file that hold the person's data (each empty or None when nothing is
stored), in the file's order."""
ROWS_OF = {"settings": "settings", "tables": "tables", "games": "games",
           "ratings": "ratings", "rating_history": "rating_history",
           "global_ratings": "global_ratings", "global_rating_history": "global_rating_history",
           "duplicate": "duplicate", "events_hosted": "events", "reviews": "reviews",
           "hand_messages": "panels", "talk": "talk", "blocks": "blocks", "queue": "queue",
           "ready_checks": "ready_checks", "left_games": "departures"}
"""The part of :meth:`Statements.export` each key is made from, one element per row."""


def _plain(value: object) -> object:
    """A value of a row as JSON: times as ISO text, everything else as it is."""
    if isinstance(value, datetime):
        return format_timestamp(value)
    return value


def _id(value: object) -> str | None:
    """A Discord id (a snowflake) as text, as Discord's own JSON gives them."""
    return None if value is None else str(value)


def _rows(rows: Rows) -> list[dict[str, object]]:
    """Rows as objects by column name."""
    out = []
    for row in rows:
        names = list(row.keys())
        out.append({k: _plain(row[k]) for k in names})
    return out


def _unhidden(replay: object, live: bool, seats: Sequence[object]) -> object:
    """A replay as the export gives it: whole once its table's game is over; while it is
    still played, as the person's ``seats`` saw it (:func:`engine.tichu.replay.seen_by`:
    no card another seat held unseen), or nothing if it cannot be read so."""
    if not live:
        return replay
    if not isinstance(replay, dict):
        return None
    try:
        return seen_by(replay, [s for s in seats if isinstance(s, int)])
    except EngineError:
        return None


def _review_shown(review: object, live: bool, seat: int) -> object:
    """A review as the export gives it: its ``replay`` as :func:`_unhidden` gives it."""
    if not live or not isinstance(review, dict) or "replay" not in review:
        return review
    shown = {**review, "replay": _unhidden(review["replay"], live, [seat])}
    if shown["replay"] is None:
        del shown["replay"]
    return shown


def export_document(user_id: int, now: datetime, parts: Mapping[str, Rows]) -> dict[str, Any]:
    """The export file's content from the rows of :meth:`Statements.export`'s parts."""
    return {key: list(value) if isinstance(value, Iterator) else value
            for key, value in export_sections(user_id, now, parts)}


def export_sections(user_id: int, now: datetime, parts: Mapping[str, Rows]) -> list[Section]:
    """The export file's keys in order, each with its value: :func:`export_document`,
    but the lists whose elements hold a replay or a review (games, duplicate, reviews)
    are iterators that read each element's JSON only when it is asked for, so a file of
    thousands of games is written without holding them all at once
    (:mod:`bot.store.export`)."""
    stats: dict[tuple[int, int], dict[str, int]] = {}
    for row in parts["stats"]:
        stats.setdefault((int(row["game_id"]), int(row["seat"])), {})[str(row["key"])] = \
            int(row["value"])
    players: dict[int, list[dict[str, object]]] = {}
    for row in parts["players"]:
        game_id, seat = int(row["game_id"]), int(row["seat"])
        entry: dict[str, object] = {
            "seat": seat, "team": int(row["team"]), "won": bool(row["won"]),
            "you": bool(row["you"]),
            "player": ("person" if row["person"] else f"computer:{row['bot_level']}")}
        if row["person"]:
            entry["name"] = row["name"] or None
        if row["you"]:
            entry["stats"] = stats.get((game_id, seat), {})
        players.setdefault(game_id, []).append(entry)
    games = ({
        "id": int(row["id"]), "table_id": int(row["table_id"]),
        "guild_id": _id(row["guild_id"]), "game": row["game"],
        "finished_at": _plain(row["finished_at"]), "rated": bool(row["rated"]),
        "scores": load_json(row["scores"], "a game's scores"), "winner": row["winner"],
        "players": players.get(int(row["id"]), []),
        "replay": load_json(row["replay"], "a game's replay"),
    } for row in parts["games"])
    seats: dict[int, list[dict[str, object]]] = {}
    for row in parts["seats"]:
        seats.setdefault(int(row["table_id"]), []).append(
            {"seat": int(row["seat"]), "name": row["name"], "away": bool(row["away"])})
    tables = [{
        "id": int(row["id"]), "guild_id": _id(row["guild_id"]),
        "channel_id": _id(row["channel_id"]), "thread_id": _id(row["thread_id"]),
        "game": row["game"], "status": row["status"], "host": bool(row["host"]),
        "created_at": _plain(row["created_at"]), "updated_at": _plain(row["updated_at"]),
        "seats": seats.get(int(row["id"]), []),
    } for row in parts["tables"]]
    duplicate = ({
        **{k: _plain(row[k]) for k in ("board", "event", "table_id", "direction", "position",
                                       "name", "diff", "created_at", "finished_at")},
        "guild_id": _id(row["guild_id"]),
        "replay": None if row["replay"] is None else _unhidden(
            load_json(row["replay"], "a board's replay"), bool(row["live"]),
            [s["seat"] for s in seats.get(int(row["table_id"]), [])]),
    } for row in parts["duplicate"])
    events = [{**r, "guild_id": _id(r["guild_id"])} for r in _rows(parts["events"])]
    reviews = ({
        **{k: _plain(row[k]) for k in ("table_id", "deal", "seat", "created_at")},
        "review": _review_shown(load_json(row["review"], "a review"), bool(row["live"]),
                                int(row["seat"])),
    } for row in parts["reviews"])
    ratings = [{**r, "guild_id": _id(r["guild_id"])} for r in _rows(parts["ratings"])]
    history = [{**r, "guild_id": _id(r["guild_id"])} for r in _rows(parts["rating_history"])]
    global_ratings = _rows(parts["global_ratings"])
    global_history = [{**r, "guild_id": _id(r["guild_id"])}
                      for r in _rows(parts["global_rating_history"])]
    settings = [{"standings": bool(r["standings"]), "updated_at": _plain(r["updated_at"])}
                for r in parts["settings"]]
    blocks = [{"user_id": _id(r["blocked"]), "created_at": _plain(r["created_at"])}
              for r in parts["blocks"]]
    queue = [{
        **{k: _plain(r[k]) for k in ("game", "seats", "locale", "fill_after", "joined_at",
                                     "waves", "rating")},
        "rated": bool(r["rated"]), "guild_id": _id(r["guild_id"]),
        "partner_id": _id(r["partner_id"]), "queued_by_partner": int(r["position"]) == 1,
    } for r in parts["queue"]]
    checks = [{
        **{k: _plain(r[k]) for k in ("id", "game", "seats", "status", "created_at", "seat",
                                     "answer", "answered_at")},
        "rated": bool(r["rated"]), "filled": bool(r["filled"]),
    } for r in parts["ready_checks"]]
    left = [{k: _plain(r[k]) for k in ("table_id", "game", "reason", "left_at")}
            for r in parts["departures"]]
    # Each key's value has one element per row of its part: empty when its rows are.
    empty = not any(parts[ROWS_OF[key]] for key in SECTIONS)
    sections: list[Section] = [
        ("format", FORMAT), ("version", VERSION), ("user_id", _id(user_id)),
        ("exported_at", format_timestamp(now)),
        ("settings", settings[0] if settings else None),
        ("tables", tables), ("games", games), ("ratings", ratings),
        ("rating_history", history), ("global_ratings", global_ratings),
        ("global_rating_history", global_history), ("duplicate", duplicate),
        ("events_hosted", events),
        ("reviews", reviews), ("hand_messages", [{**r} for r in _rows(parts["panels"])]),
        ("talk", _rows(parts["talk"])), ("blocks", blocks), ("queue", queue),
        ("ready_checks", checks), ("left_games", left),
        ("empty", empty)]
    if empty:
        sections.append(("note", "Nothing is stored about you."))
    return sections


def seated_review(record: ReviewRecord, seated: Sequence[tuple[int, int | None]]
                  ) -> ReviewRecord | None:
    """The review to store, given the table's seats (seat, user id) as they are now:
    None if the reviewed seat holds a pseudonym now (its person erased their data while
    the review was being made), else the review with the names of those who erased
    theirs blanked."""
    former = [seat for seat, user_id in seated if is_former(user_id)]
    if record.seat in former:
        return None
    changed = scrub_names(record.review, former) if former else None
    if not isinstance(changed, dict):
        return record
    return dataclasses.replace(record, review=changed)


def scrub_names(review: object, seats: Sequence[int]) -> object | None:
    """A review (JSON) with the names of ``seats`` blanked; None if it had none of them."""
    if not isinstance(review, dict):
        return None
    names = review.get("names")
    if not isinstance(names, list):
        return None
    changed = [*names]
    for seat in seats:
        if 0 <= seat < len(changed) and changed[seat] != "":
            changed[seat] = ""
    if changed == names:
        return None
    return {**review, "names": changed}

"""Pairing the queue of "Play now" (issue 53): the tables to propose in one wave.

Pure: no I/O, no Discord, no clock (``now`` is given), no randomness. The same pool,
entries, blocks, departures and ``now`` always give the same tables, whatever the order
the entries come in. The matchmaker runs :func:`propose` for each pool every
:data:`WAVE_SECONDS` (or at once when a table can fill), opens a ready check for each
:class:`Proposal` (``Repository.open_ready_check(pool, seats, filled=...)``) and adds a
missed wave to the entries left (``Repository.miss_wave(wave.missed)``).

**Who sits together.** Two entries (a person, or a partner pair: one team) may share a
table only if all of these hold:

1. **blocks**: no person of one blocked a person of the other, either way (and a pair
   one of whom blocked the other since they queued is seated nowhere);
2. **language**: they speak the same language (the locale's first part: ``en-US`` and
   ``en-GB`` are one), unless both have waited :data:`ANY_LANGUAGE_AFTER` (60 s) or more.
   So a table of several languages is made only of people who have all waited a minute;
3. **rating**: their ratings (a pair's: the mean of its two) differ by no more than the
   narrower of their two windows. A window is :data:`RATING_WINDOW` (8 points of the
   leaderboard's ``mu - 3 sigma``, where a newcomer's sigma is 8.3) plus
   :data:`RATING_STEP` (4 points) for each wave the entry missed, and has no bound once
   it missed :data:`ANY_RATING_AFTER` (6) waves, a minute at a wave every 10 s, as for
   the language: 8, 12, 16 … 28 points, then anyone. As lichess's pools, whose window
   widens with each missed wave. Wide and quick, for a queue of mixed ratings (a
   newcomer queues at 0, a rated player at 12 on average) is seated within the
   language's minute (docs/developers/benchmarks.md: 40 people of the real mix, join →
   seated table p50 11 s where 3 points and 1 a wave, anyone after three minutes, gave
   39 s). A newcomer may sit with a player of 8 at once; the game stays even because the
   teams are split so that their mean ratings are as close as can be (below);
4. **games left early**: a person who left :data:`LEAVER_AT` (2) or more games early in
   the last 30 days (the store's ``left_early``; a pair counts as such if either did)
   sits only with others like them until they missed :data:`LEAVERS_APART_WAVES` (3)
   waves. Others are never kept from them longer than that.

A table is whole entries, every two of them allowed together, its seats exactly full.

**The order.** Entries are taken oldest first (``joined_at``, then the entry's id): a
person back from a failed ready check kept their ``joined_at``, so they come first. For
each entry not yet seated, the table is searched among the entries it may sit with, in
this order of preference: those of its own kind (games left early or not) first, then
its own language, then the closest rating, then the oldest. The first full table found
in that order is proposed (a depth-first search over at most :data:`SEARCH_BUDGET`
steps per entry, so a wave of 400 people stays short); an entry for which none is found
waits for the next wave.

**Teams.** In Tichu (the games of :data:`~bot.store.models.PARTNER_GAMES`) the seats of
one parity are a team: partners sit opposite (0 and 2 at four; 0, 2 and 4 at six). A
partner pair takes two seats of one team. The entries are split between the two teams
so that the teams' mean ratings are as close as can be (the oldest entry on the first
team, which seats from seat 0). Chinois and Tysiacha have no teams: entries take the
seats in order.

**Computers.** After the tables of people, each entry whose fill timer is due (it waited
its ``fill_after`` seconds) and is still unseated gets a table filled with computers,
unrated: the due entries are grouped, oldest first, as long as they fit and no two of
them blocked each other (language, rating and games left early do not matter at a table
no rating follows); computers take the seats left, spread evenly between the teams.

:func:`cooldown_until` is the short wait after repeated declines.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import product

from bot.store.models import PARTNER_GAMES, Pool, QueueEntry

WAVE_SECONDS = 10.0
"""How often the matchmaker pairs each pool (the issue's waves)."""
ANY_LANGUAGE_AFTER = 60.0
"""Seconds of waiting after which a person is seated with any language."""
RATING_WINDOW = 8.0
"""The rating window of an entry that missed no wave (points of ``mu - 3 sigma``)."""
RATING_STEP = 4.0
"""How much the window widens with each missed wave."""
ANY_RATING_AFTER = 6
"""Missed waves after which the window has no bound (a minute at 10 s a wave, as
:data:`ANY_LANGUAGE_AFTER`)."""
LEAVER_AT = 2
"""Games left early (in the store's 30 days) from which a person is paired with those
who left games early first."""
LEAVERS_APART_WAVES = 3
"""Missed waves during which such a person sits only with others like them."""
SEARCH_BUDGET = 1000
"""Steps of the search for one entry's table, at most (deterministic)."""
DECLINES_FOR_COOLDOWN = 2
"""Declines (or ready checks let time out) within :data:`DECLINE_MEMORY` that bring a
cooldown."""
DECLINE_MEMORY = timedelta(minutes=15)
COOLDOWN = timedelta(minutes=5)
"""How long after the last of those declines the person may not queue."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """A table to propose: its entries and the person of each seat."""

    pool: Pool
    entries: tuple[int, ...]
    """The entries' ids (oldest first)."""
    seats: tuple[int | None, ...]
    """The person of each seat; None: a computer."""
    filled: bool = False
    """Made for fill timers that came due: computers take the empty seats, unrated."""

    @property
    def rated(self) -> bool:
        return self.pool.rated and not self.filled

    @property
    def people(self) -> tuple[int, ...]:
        return tuple(user for user in self.seats if user is not None)


@dataclass(frozen=True, slots=True)
class Wave:
    """What one wave of one pool proposes."""

    tables: tuple[Proposal, ...]
    missed: tuple[int, ...]
    """The ids of the entries given that no table takes (they missed the wave)."""


def rating_window(waves: int) -> float:
    """How far apart two ratings may be for an entry that missed ``waves`` waves."""
    if waves >= ANY_RATING_AFTER:
        return math.inf
    return RATING_WINDOW + RATING_STEP * max(0, waves)


def language(locale: str) -> str:
    """The language of a locale: ``en-US`` → ``en``, ``pt-BR`` → ``pt``."""
    return locale.replace("_", "-").split("-", 1)[0].lower()


def teams(pool: Pool) -> tuple[tuple[int, ...], ...]:
    """The seats of each team: by parity in a team game (partners opposite), else one
    seat each."""
    if pool.game in PARTNER_GAMES:
        return tuple(tuple(range(t, pool.seats, 2)) for t in range(2))
    return tuple((seat,) for seat in range(pool.seats))


def cooldown_until(declines: Iterable[datetime], now: datetime) -> datetime | None:
    """Until when a person who declined (or let time out) the ready checks at
    ``declines`` may not queue: :data:`COOLDOWN` after the last of them, once
    :data:`DECLINES_FOR_COOLDOWN` fell within :data:`DECLINE_MEMORY` before ``now``.
    None: they may queue now."""
    recent = sorted(d for d in declines if now - DECLINE_MEMORY <= d <= now)
    if len(recent) < DECLINES_FOR_COOLDOWN:
        return None
    until = recent[-1] + COOLDOWN
    return until if until > now else None


@dataclass(frozen=True, slots=True)
class _Unit:
    """One entry as the pairing sees it."""

    entry: QueueEntry
    id: int
    order: int
    people: frozenset[int]
    rating: float
    language: str
    waited: float
    leaver: bool
    avoid: frozenset[int]
    """The people it may not sit with (blocked by or blocking one of its people)."""

    @property
    def size(self) -> int:
        return len(self.entry.people)

    @property
    def window(self) -> float:
        return rating_window(self.entry.waves)

    def due(self) -> bool:
        after = self.entry.fill_after
        return after is not None and self.waited >= after


def _units(entries: Sequence[QueueEntry], blocks: Collection[tuple[int, int]],
           left_early: Mapping[int, int], now: datetime) -> list[_Unit]:
    avoid: dict[int, set[int]] = {}
    for blocker, blocked in blocks:
        avoid.setdefault(blocker, set()).add(blocked)
        avoid.setdefault(blocked, set()).add(blocker)
    ordered = sorted(entries, key=lambda e: (e.joined_at or now, e.id or 0))
    units = []
    for order, entry in enumerate(ordered):
        if entry.id is None:
            raise ValueError(f"an entry without an id: {entry!r}")
        people = frozenset(entry.people)
        joined = entry.joined_at or now
        units.append(_Unit(
            entry=entry, id=entry.id, order=order, people=people,
            rating=sum(entry.ratings) / len(entry.ratings), language=language(entry.locale),
            waited=(now - joined).total_seconds(),
            leaver=any(left_early.get(p, 0) >= LEAVER_AT for p in people),
            avoid=frozenset(x for p in people for x in avoid.get(p, ()))))
    return units


def _blocked(a: _Unit, b: _Unit) -> bool:
    return bool(a.avoid & b.people)


def allowed(a: _Unit, b: _Unit) -> bool:
    """Whether two entries may share a rated table of people (rules 1 to 4)."""
    if _blocked(a, b):
        return False
    if a.language != b.language and min(a.waited, b.waited) < ANY_LANGUAGE_AFTER:
        return False
    if abs(a.rating - b.rating) > min(a.window, b.window):
        return False
    if a.leaver != b.leaver:
        leaver = a if a.leaver else b
        if leaver.entry.waves < LEAVERS_APART_WAVES:
            return False
    return True


def _pairs_most(pool: Pool) -> int:
    """How many partner pairs a table of the pool holds."""
    groups = teams(pool)
    if pool.game not in PARTNER_GAMES:
        return pool.seats // 2
    return sum(len(group) // 2 for group in groups)


def _seat(pool: Pool, units: Sequence[_Unit], *, balance_count: bool) -> tuple[int | None, ...]:
    """The person of each seat (None: a computer) for ``units`` (the first is the table's
    oldest): see the module's description, Teams."""
    seats: list[int | None] = [None] * pool.seats
    groups = teams(pool)
    if pool.game not in PARTNER_GAMES:
        free = iter(range(pool.seats))
        for unit in units:
            for person in unit.entry.people:
                seats[next(free)] = person
        return tuple(seats)
    capacity = len(groups[0])
    best: tuple[tuple[float, ...], tuple[int, ...]] | None = None
    # The oldest entry on team 0; every way of putting the others on the two teams.
    for rest in product((0, 1), repeat=len(units) - 1):
        sides = (0, *rest)
        sizes = [sum(u.size for u, s in zip(units, sides, strict=True) if s == t)
                 for t in (0, 1)]
        pairs = [sum(1 for u, s in zip(units, sides, strict=True) if s == t and u.size == 2)
                 for t in (0, 1)]
        if max(sizes) > capacity or max(pairs) > capacity // 2:
            continue
        means = []
        for t in (0, 1):
            ratings = [r for u, s in zip(units, sides, strict=True) if s == t
                       for r in u.entry.ratings]
            means.append(sum(ratings) / len(ratings) if ratings else None)
        gap = abs(means[0] - means[1]) if means[0] is not None and means[1] is not None \
            else 0.0
        score = (abs(sizes[0] - sizes[1]) if balance_count else 0, gap)
        if best is None or score < best[0]:
            best = (score, sides)
    assert best is not None, "a table whose entries fit no teams"
    for t, group in enumerate(groups):
        members = [u for u, s in zip(units, best[1], strict=True) if s == t]
        # A pair first, so that it takes two seats of the team (opposite at four).
        members.sort(key=lambda u: (-u.size, u.order))
        free = iter(group)
        for unit in members:
            for person in unit.entry.people:
                seats[next(free)] = person
    return tuple(seats)


def _search(seed: _Unit, candidates: list[_Unit], pool: Pool) -> list[_Unit] | None:
    """The first full table in the order of ``candidates`` that seats ``seed`` (None if
    none within :data:`SEARCH_BUDGET` steps)."""
    most_pairs = _pairs_most(pool)
    steps = 0

    def search(chosen: list[_Unit], need: int, pairs: int,
               rest: list[_Unit]) -> list[_Unit] | None:
        nonlocal steps
        if need == 0:
            return chosen
        if sum(u.size for u in rest) < need:
            return None
        for i, unit in enumerate(rest):
            steps += 1
            if steps > SEARCH_BUDGET:
                return None
            if unit.size > need or (unit.size == 2 and pairs >= most_pairs):
                continue
            found = search([*chosen, unit], need - unit.size, pairs + (unit.size == 2),
                           [u for u in rest[i + 1:] if allowed(unit, u)])
            if found is not None:
                return found
        return None

    if seed.size == 2 and most_pairs < 1:
        return None
    return search([seed], pool.seats - seed.size, int(seed.size == 2), candidates)


def propose(pool: Pool, entries: Sequence[QueueEntry], *,
            blocks: Collection[tuple[int, int]] = (), left_early: Mapping[int, int] | None = None,
            now: datetime) -> Wave:
    """The tables to propose this wave from the waiting ``entries`` of ``pool`` (each
    with its id, ``joined_at`` and missed waves), given the ``blocks`` (``(blocker,
    blocked)``) among their people and how many games each person left early
    (``left_early``, by user id). See the module's description for the rules."""
    units = _units([e for e in entries if e.pool == pool], blocks, left_early or {}, now)
    # A pair one of whom blocked the other since they queued: never seated together.
    seated: set[int] = set()
    apart = {u.id for u in units if _blocked(u, u)}
    tables: list[Proposal] = []
    for seed in units:
        if seed.id in seated or seed.id in apart:
            continue
        candidates = [u for u in units if u.id != seed.id and u.id not in seated
                      and u.id not in apart and allowed(seed, u)]
        candidates.sort(key=lambda u: (u.leaver != seed.leaver, u.language != seed.language,
                                       abs(u.rating - seed.rating), u.order))
        found = _search(seed, candidates, pool)
        if found is None:
            continue
        found.sort(key=lambda u: u.order)
        seated.update(u.id for u in found)
        tables.append(Proposal(pool, tuple(u.id for u in found),
                               _seat(pool, found, balance_count=False)))
    most_pairs = _pairs_most(pool)
    due = [u for u in units if u.id not in seated and u.id not in apart and u.due()]
    for seed in due:
        if seed.id in seated or (seed.size == 2 and most_pairs < 1):
            continue
        group = [seed]
        for unit in due:
            if unit.id in seated or any(unit.id == u.id for u in group):
                continue
            size = sum(u.size for u in group) + unit.size
            pairs = sum(u.size == 2 for u in group) + (unit.size == 2)
            if size <= pool.seats and pairs <= most_pairs and \
                    not any(_blocked(unit, u) for u in group):
                group.append(unit)
        seated.update(u.id for u in group)
        tables.append(Proposal(pool, tuple(u.id for u in group),
                               _seat(pool, group, balance_count=True), filled=True))
    return Wave(tuple(tables), tuple(u.id for u in units if u.id not in seated))

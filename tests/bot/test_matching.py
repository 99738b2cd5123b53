"""The pairing of "Play now" (issue 53, ``bot/tables/matching.py``): properties over
random pools (hypothesis) and the rules one at a time. Never a blocked pair together,
every table full and legal, partners together as a team, the rating window widening
with each missed wave, the same language first for a minute, people who left games
early with each other first, computers for the fill timers that came due."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.registry import all_specs
from bot.store.models import FILL_AFTER, PARTNER_GAMES, QUEUE_POOLS, Pool, QueueEntry
from bot.tables.matching import (
    ANY_LANGUAGE_AFTER,
    ANY_RATING_AFTER,
    COOLDOWN,
    LEAVER_AT,
    LEAVERS_APART_WAVES,
    RATING_STEP,
    RATING_WINDOW,
    WAVE_SECONDS,
    Proposal,
    Wave,
    cooldown_until,
    language,
    propose,
    rating_window,
    teams,
)

NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
TICHU = Pool("tichu", 4)
POOLS = [Pool(game, seats, rated) for game, counts in QUEUE_POOLS.items()
         for seats in counts for rated in (True, False)]


def make(entry_id: int, user: int, *, pool: Pool = TICHU, locale: str = "en",
         rating: float = 10.0, waited: float = 0.0, waves: int = 0,
         partner: int | None = None, partner_rating: float | None = None,
         fill_after: int | None = None) -> QueueEntry:
    return QueueEntry(
        user_id=user, pool=pool, locale=locale, rating=rating, partner_id=partner,
        partner_rating=(rating if partner_rating is None else partner_rating)
        if partner is not None else None,
        fill_after=fill_after, joined_at=NOW - timedelta(seconds=waited), waves=waves,
        id=entry_id)


def singles(count: int) -> list[QueueEntry]:
    return [make(i + 1, 100 + i) for i in range(count)]


# -- random pools --------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    pool: Pool
    entries: list[QueueEntry]
    blocks: set[tuple[int, int]]
    left_early: dict[int, int]


@st.composite
def cases(draw: st.DrawFn) -> Case:
    pool = draw(st.sampled_from(POOLS))
    count = draw(st.integers(0, 24))
    people = iter(range(1000, 1100))
    entries = []
    for entry_id in range(1, count + 1):
        user = next(people)
        pair = pool.game in PARTNER_GAMES and draw(st.booleans()) and draw(st.booleans())
        partner = next(people) if pair else None
        entries.append(make(
            entry_id, user, pool=pool, partner=partner,
            locale=draw(st.sampled_from(["en", "en-US", "en-GB", "fr", "de", "el"])),
            rating=draw(st.floats(-5, 40)),
            partner_rating=draw(st.floats(-5, 40)) if pair else None,
            waited=draw(st.floats(0, 400)), waves=draw(st.integers(0, 25)),
            fill_after=draw(st.sampled_from([None, *FILL_AFTER]))))
    everyone = [p for e in entries for p in e.people]
    blocks: set[tuple[int, int]] = set()
    if len(everyone) > 1:
        blocks = set(draw(st.lists(
            st.tuples(st.sampled_from(everyone), st.sampled_from(everyone))
            .filter(lambda b: b[0] != b[1]), max_size=12)))
    left = {p: draw(st.integers(0, 3)) for p in everyone if draw(st.booleans())}
    return Case(pool, entries, blocks, left)


def wave_of(case: Case) -> Wave:
    return propose(case.pool, case.entries, blocks=case.blocks, left_early=case.left_early,
                   now=NOW)


def by_id(case: Case) -> dict[int, QueueEntry]:
    return {e.id or 0: e for e in case.entries}


def waited(entry: QueueEntry) -> float:
    assert entry.joined_at is not None
    return (NOW - entry.joined_at).total_seconds()


def leaver(entry: QueueEntry, left: dict[int, int]) -> bool:
    return any(left.get(p, 0) >= LEAVER_AT for p in entry.people)


def mean(entry: QueueEntry) -> float:
    return sum(entry.ratings) / len(entry.ratings)


PROPERTIES = settings(max_examples=300, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])


@PROPERTIES
@given(cases())
def test_every_entry_is_proposed_once_or_misses_the_wave(case: Case) -> None:
    wave = wave_of(case)
    proposed = [i for table in wave.tables for i in table.entries]
    assert len(proposed) == len(set(proposed))
    assert sorted(proposed + list(wave.missed)) == sorted(by_id(case))


@PROPERTIES
@given(cases())
def test_every_table_is_full_and_made_of_whole_entries(case: Case) -> None:
    entries = by_id(case)
    for table in wave_of(case).tables:
        assert table.pool == case.pool and len(table.seats) == case.pool.seats
        people = [p for i in table.entries for p in entries[i].people]
        assert sorted(table.people) == sorted(people)  # each person of each entry, once
        if table.filled:
            assert table.people and not table.rated
            assert all(waited(entries[i]) >= (entries[i].fill_after or 10**9)
                       for i in table.entries)  # everyone's timer came due
        else:
            assert None not in table.seats and table.rated == case.pool.rated


@PROPERTIES
@given(cases())
def test_two_people_who_blocked_each_other_never_share_a_table(case: Case) -> None:
    for table in wave_of(case).tables:
        at = set(table.people)
        assert not [b for b in case.blocks if b[0] in at and b[1] in at]


@PROPERTIES
@given(cases())
def test_partners_sit_together_as_a_team(case: Case) -> None:
    entries = by_id(case)
    for table in wave_of(case).tables:
        for i in table.entries:
            entry = entries[i]
            if entry.partner_id is None:
                continue
            seats = (table.seats.index(entry.user_id), table.seats.index(entry.partner_id))
            assert seats[0] % 2 == seats[1] % 2  # one team: the seats of one parity
            if case.pool.seats == 4:
                assert abs(seats[0] - seats[1]) == 2  # opposite


@PROPERTIES
@given(cases())
def test_a_table_of_people_keeps_every_rule(case: Case) -> None:
    entries = by_id(case)
    for table in wave_of(case).tables:
        if table.filled:
            continue
        members = [entries[i] for i in table.entries]
        for a in members:
            for b in members:
                # The rating window: the narrower of the two.
                assert abs(mean(a) - mean(b)) <= min(rating_window(a.waves),
                                                     rating_window(b.waves))
        languages = {language(m.locale) for m in members}
        if len(languages) > 1:  # several languages: everyone waited a minute
            assert all(waited(m) >= ANY_LANGUAGE_AFTER for m in members)
        kinds = {leaver(m, case.left_early) for m in members}
        if len(kinds) > 1:  # mixed: those who left games early missed three waves
            assert all(m.waves >= LEAVERS_APART_WAVES for m in members
                       if leaver(m, case.left_early))


@PROPERTIES
@given(cases(), st.randoms(use_true_random=False))
def test_the_same_pool_gives_the_same_tables_in_any_order(case: Case,
                                                         shuffle: random.Random) -> None:
    entries = list(case.entries)
    shuffle.shuffle(entries)
    assert propose(case.pool, entries, blocks=case.blocks, left_early=case.left_early,
                   now=NOW) == wave_of(case)


@PROPERTIES
@given(st.sampled_from(POOLS), st.integers(0, 30), st.lists(st.floats(-5, 40), min_size=6,
                                                           max_size=6))
def test_enough_people_who_may_sit_together_get_a_table(pool: Pool, waves: int,
                                                         ratings: list[float]) -> None:
    """No blocks, one language, no games left early: a table forms whenever the ratings
    fit the window, and the window only widens."""
    entries = [make(i + 1, 100 + i, pool=pool, rating=r, waves=waves)
               for i, r in enumerate(ratings[:pool.seats])]
    wave = propose(pool, entries, now=NOW)
    spread = max(ratings[:pool.seats]) - min(ratings[:pool.seats])
    assert (len(wave.tables) == 1) == (spread <= rating_window(waves))
    assert rating_window(waves) <= rating_window(waves + 1)


# -- the rules, one at a time ---------------------------------------------------------


def test_the_pools_match_the_games() -> None:
    """The store's pools and partner games say what each game's spec says."""
    specs = all_specs()
    assert set(QUEUE_POOLS) == set(specs)
    for game, counts in QUEUE_POOLS.items():
        for seats in counts:
            assert specs[game].seat_count({"players": seats}) == seats
        assert (specs[game].team_size > 1) == (game in PARTNER_GAMES)
    assert teams(Pool("tichu", 4)) == ((0, 2), (1, 3))
    assert teams(Pool("tichu", 6)) == ((0, 2, 4), (1, 3, 5))
    assert teams(Pool("tysiacha", 3)) == ((0,), (1,), (2,))


def test_the_window_widens_with_each_missed_wave() -> None:
    assert [rating_window(w) for w in range(4)] == [RATING_WINDOW + RATING_STEP * w
                                                   for w in range(4)]
    # 8, 12, 16, 20, 24, 28 points, then anyone: after a minute, as for the language.
    assert rating_window(ANY_RATING_AFTER - 1) == RATING_WINDOW + RATING_STEP * 5 == 28
    assert rating_window(ANY_RATING_AFTER) == float("inf")
    assert ANY_RATING_AFTER * WAVE_SECONDS == ANY_LANGUAGE_AFTER
    # Four people 20 points apart at the ends (a newcomer at 0 and players of 6 to 20):
    # a table from the third missed wave on.
    ratings = [0.0, 6.0, 14.0, 20.0]
    for waves in range(8):
        entries = [make(i + 1, 100 + i, rating=r, waves=waves) for i, r in enumerate(ratings)]
        assert len(propose(TICHU, entries, now=NOW).tables) == (waves >= 3), waves
    # 40 points apart: only once anyone is taken.
    far = [make(i + 1, 100 + i, rating=r, waves=ANY_RATING_AFTER - 1)
           for i, r in enumerate([0.0, 10.0, 30.0, 40.0])]
    assert not propose(TICHU, far, now=NOW).tables
    assert propose(TICHU, [replace(e, waves=ANY_RATING_AFTER) for e in far], now=NOW).tables


def test_the_window_is_the_narrower_of_two() -> None:
    """A long wait widens one's own window, not the newcomer's."""
    old = make(1, 101, rating=0.0, waves=10)
    new = [make(i, 100 + i, rating=10.0) for i in (2, 3, 4)]
    assert propose(TICHU, [old, *new], now=NOW).tables == ()
    grown = [replace(e, waves=1) for e in new]
    assert len(propose(TICHU, [old, *grown], now=NOW).tables) == 1


def test_the_same_language_first_any_after_a_minute() -> None:
    english = [make(i, 100 + i, locale=loc) for i, loc in ((1, "en-US"), (2, "en-GB"),
                                                           (3, "en"))]
    french = make(4, 104, locale="fr")
    assert propose(TICHU, [*english, french], now=NOW).tables == ()
    # Four of each language at once: two tables, one per language.
    many = [make(i, 100 + i, locale="fr" if i % 2 else "en") for i in range(1, 9)]
    tables = propose(TICHU, many, now=NOW).tables
    assert [sorted({language(e.locale) for e in many if e.id in t.entries}) for t in tables] \
        == [["fr"], ["en"]]
    # After a minute, everyone: but only once all four waited that long.
    almost = [replace(e, joined_at=NOW - timedelta(seconds=ANY_LANGUAGE_AFTER))
              for e in (*english[:2], french)]
    fresh = replace(english[2], joined_at=NOW - timedelta(seconds=59))
    assert propose(TICHU, [*almost, fresh], now=NOW).tables == ()
    ready = [*almost, replace(fresh, joined_at=NOW - timedelta(seconds=60))]
    assert len(propose(TICHU, ready, now=NOW).tables) == 1


def test_people_who_left_games_early_are_paired_with_each_other_first() -> None:
    entries = singles(8)
    left = {100 + i: LEAVER_AT for i in (0, 2, 4, 6)}
    tables = propose(TICHU, entries, left_early=left, now=NOW).tables
    assert [sorted(t.people) for t in tables] == [[100, 102, 104, 106], [101, 103, 105, 107]]
    # Three who left early and one who did not: no table until they missed three waves.
    few = singles(4)
    left = {100: 2, 101: 3, 102: 5}
    assert propose(TICHU, few, left_early=left, now=NOW).tables == ()
    waited_long = [replace(e, waves=LEAVERS_APART_WAVES) for e in few[:3]]
    assert len(propose(TICHU, [*waited_long, few[3]], left_early=left, now=NOW).tables) == 1
    assert propose(TICHU, few, left_early={100: 1}, now=NOW).tables != ()  # once is nothing


def test_blocked_people_wait_for_other_tables() -> None:
    entries = singles(5)
    wave = propose(TICHU, entries, blocks={(100, 101)}, now=NOW)
    assert [sorted(t.people) for t in wave.tables] == [[100, 102, 103, 104]]
    assert wave.missed == (2,)
    assert propose(TICHU, singles(4), blocks={(103, 100)}, now=NOW).tables == ()


def test_the_oldest_come_first_and_keep_their_place() -> None:
    entries = [make(i, 100 + i, waited=w) for i, w in ((1, 5), (2, 50), (3, 20), (4, 40),
                                                      (5, 30))]
    wave = propose(TICHU, entries, now=NOW)
    assert [t.entries for t in wave.tables] == [(2, 4, 5, 3)] and wave.missed == (1,)


def test_partners_sit_opposite_and_the_teams_are_balanced() -> None:
    pair = make(1, 100, partner=101, rating=20.0, partner_rating=10.0)
    others = [make(2, 102, rating=5.0, waves=20), make(3, 103, rating=25.0, waves=20)]
    [table] = propose(TICHU, [replace(pair, waves=20), *others], now=NOW).tables
    assert table.seats == (100, 102, 101, 103)
    # Four strangers: the strongest and the weakest partner each other.
    ratings = [10.0, 12.0, 11.0, 13.0]
    entries = [make(i + 1, 100 + i, rating=r) for i, r in enumerate(ratings)]
    [table] = propose(TICHU, entries, now=NOW).tables
    assert {frozenset(table.seats[0::2]), frozenset(table.seats[1::2])} == {
        frozenset({100, 103}), frozenset({101, 102})}
    # Six: a pair and a stranger against three strangers, or two pairs apart.
    six = Pool("tichu", 6)
    pairs = [make(1, 100, pool=six, partner=101), make(2, 102, pool=six, partner=103)]
    two = [make(3, 104, pool=six), make(4, 105, pool=six)]
    [table] = propose(six, [*pairs, *two], now=NOW).tables
    team = {p: s % 2 for s, p in enumerate(table.seats)}
    assert team[100] == team[101] != team[102] == team[103]


def test_games_without_teams_seat_in_order() -> None:
    pool = Pool("tysiacha", 3)
    entries = [make(i, 100 + i, pool=pool, waited=10 - i) for i in (1, 2, 3)]
    [table] = propose(pool, entries, now=NOW).tables
    assert table.seats == (101, 102, 103)


def test_a_due_fill_timer_brings_computers() -> None:
    alone = make(1, 100, fill_after=60, waited=59)
    assert propose(TICHU, [alone], now=NOW).tables == ()
    due = replace(alone, joined_at=NOW - timedelta(seconds=60))
    [table] = propose(TICHU, [due], now=NOW).tables
    assert table.filled and not table.rated and table.seats == (100, None, None, None)
    # Two due, of any language and rating: one table, one on each team, the older at
    # seat 0; a third who chose never waits on.
    other = make(2, 102, fill_after=120, waited=130, locale="fr", rating=39.0)
    never = make(3, 103, waited=500)
    wave = propose(TICHU, [due, other, never], now=NOW)
    [table] = wave.tables
    assert table.seats == (102, 100, None, None) and wave.missed == (3,)
    # A pair and a stranger who blocked one of them: two tables.
    pair = make(4, 104, partner=105, fill_after=300, waited=301)
    tables = propose(TICHU, [due, pair], blocks={(100, 105)}, now=NOW).tables
    assert [(t.seats, t.filled) for t in tables] == [((104, None, 105, None), True),
                                                     ((100, None, None, None), True)]


def test_a_table_of_people_comes_before_computers() -> None:
    entries = [make(i, 100 + i, fill_after=60, waited=100) for i in range(1, 6)]
    wave = propose(TICHU, entries, now=NOW)
    assert [(len(t.people), t.filled) for t in wave.tables] == [(4, False), (1, True)]


def test_a_large_wave_is_quick() -> None:
    """400 people in one pool, of every language and rating, some blocks: one wave."""
    rng = random.Random(53)
    entries = [make(i, 1000 + i, locale=rng.choice(["en", "fr", "de", "el"]),
                    rating=rng.uniform(0, 35), waited=rng.uniform(0, 200),
                    waves=rng.randrange(0, 12)) for i in range(1, 401)]
    blocks = {(1000 + rng.randrange(1, 401), 1000 + rng.randrange(1, 401)) for _ in range(200)}
    start = time.perf_counter()
    wave = propose(TICHU, entries, blocks=blocks, now=NOW)
    assert time.perf_counter() - start < 5.0
    assert len(wave.tables) > 50


def test_entries_of_other_pools_are_not_seated() -> None:
    other = [make(i, 100 + i, pool=Pool("chinois", 4)) for i in range(1, 5)]
    assert propose(TICHU, other, now=NOW) == Wave((), ())


@pytest.mark.parametrize(("declines", "until"), [
    ([], None),
    ([NOW - timedelta(minutes=1)], None),
    ([NOW - timedelta(minutes=16), NOW - timedelta(minutes=1)], None),  # one is too old
    ([NOW - timedelta(minutes=3), NOW - timedelta(minutes=1)],
     NOW - timedelta(minutes=1) + COOLDOWN),
    ([NOW - timedelta(minutes=14), NOW - timedelta(minutes=6)], None),  # served already
])
def test_repeated_declines_bring_a_short_cooldown(declines: Sequence[datetime],
                                                  until: datetime | None) -> None:
    assert cooldown_until(declines, NOW) == until


def test_a_proposal_says_who_sits_where() -> None:
    proposal = Proposal(TICHU, (1,), (100, None, None, None), filled=True)
    assert proposal.people == (100,) and not proposal.rated

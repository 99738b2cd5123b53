"""When the database blinks, no table freezes and no shard is driven twice (issue #21).

Each test runs one scenario of ``tools/chaos.py``: a PostgreSQL cluster of its own
(``controlled_pg``), the local Discord with two shards, two real bot processes
(``SHARD_COUNT=2``, ``SHARD_IDS=0`` and ``1``, one worker process each), six tables of one
person and three computers, the people clicking all through; then the database is
restarted, killed or frozen, a duplicate process is started, or a bot process is killed
in the middle of a click. The scenario fails on any check of
:meth:`tools.chaos.Figures.problems`: a table that does not move again within 10 s of the
database's return, a click left waiting longer than the database timeout allows, an
accepted decision lost or stored twice, a table driven by two processes, a duplicate
that restores, answers or writes anything, a bot process that dies or logs a traceback,
a click answered "something went wrong", a broken Discord rule, or a table that does not
play on to its next deal. The outages are shorter than the benchmark's (3 s; 10 s for
the freeze, which must outlast the bound on a click's answer), the people and computers
quicker and the images cheap to encode: about 20 s of CPU per scenario (bots, workers,
PostgreSQL and this process), 100 s for the file. ``python -m tools.chaos`` prints the
same figures with 10 s outages (``make bench``).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from tests.bot.processes import ROOT
from tests.postgres import ControlledPostgres
from tools import chaos

QUICK = chaos.ChaosConfig(outage=3.0, think=(0.1, 0.6), ai_delay=0.05, edit_interval=2.0,
                          quick_images=True, database_timeout=2.0, watch_interval=0.5,
                          click_timeout=20.0, next_deal_timeout=150.0,
                          bot_root=Path(os.environ.get("CHAOS_BOT_ROOT", ROOT)))
"""``CHAOS_BOT_ROOT=/some/checkout`` runs another checkout's bot (e.g. before a fix)."""
OUTAGES = {"freeze": 10.0}
"""A frozen database answers nothing: the freeze must outlast the bound on a click's
answer (two database timeouts and a margin, 7 s) for that bound to mean anything."""


@pytest.mark.parametrize("scenario", chaos.SCENARIOS)
async def test_database_blink(scenario: str, controlled_pg: ControlledPostgres,
                              tmp_path: Path) -> None:
    config = replace(QUICK, outage=OUTAGES.get(scenario, QUICK.outage))
    figures = await chaos.run_scenario(scenario, controlled_pg, config, tmp_path)
    assert not figures.problems(), figures.describe()
    assert figures.matched.decisions > 0 and figures.next_deal == figures.tables


def _attempt(kind: str, token: int | None, at: float, outcome: str,
             cards: tuple[str, ...] | None = None) -> chaos.Attempt:
    return chaos.Attempt(table=1, kind=kind, token=token, cards=cards, interaction=0, at=at,
                         mono=at, outcome=outcome)


def _row(seq: int, do: str, by: str, created: float, moves_before: int,
         cards: tuple[str, ...] | None = None) -> chaos.Row:
    return chaos.Row(seq=seq, do=do, by=by, seat=0, cards=cards, created=created,
                     moves_before=moves_before)


def test_reconcile_matches_each_decision_with_its_stored_action() -> None:
    """The harness's own bookkeeping: moves by their token, the once-a-deal decisions by
    time; lost, doubled, refused-but-stored and unknown outcomes told apart."""
    attempts = [
        _attempt("decline_grand", None, 1.0, "accepted"),
        _attempt("exchange", None, 2.0, "refused"),  # refused, yet stored: a ghost
        _attempt("pass", 0, 3.0, "accepted"),
        _attempt("play", 1, 4.0, "refused", ("7h",)),
        _attempt("play", 1, 5.0, "accepted", ("7h",)),  # the same play again: stored
        _attempt("pass", 2, 6.0, "accepted"),  # lost: the timer's move holds its place
        _attempt("play", 3, 7.0, "unknown", ("9s",)),  # the process died: stored once
        _attempt("pass", 4, 8.0, "accepted"),  # stored twice
        _attempt("decline_grand", None, 20.0, "accepted"),  # the next deal's
    ]
    rows = [
        _row(4, "decline_grand", "human", 1.1, 0),
        _row(9, "exchange", "human", 2.1, 0),
        _row(12, "pass", "human", 3.1, 0),
        _row(15, "play", "human", 5.1, 1, ("7h",)),
        _row(19, "pass", "timer", 6.5, 2),
        _row(22, "play", "human", 7.1, 3, ("9s",)),
        _row(25, "pass", "human", 8.1, 4),
        _row(26, "pass", "human", 8.2, 5),
        _row(40, "decline_grand", "human", 20.1, 6),
    ]
    result = chaos.reconcile(attempts, rows)
    assert result.decisions == 6
    assert len(result.lost) == 1 and "pass #2" in result.lost[0] and "timer" in result.lost[0]
    assert len(result.doubled) == 1 and "seq 26" in result.doubled[0]
    assert len(result.ghost) == 1 and "exchange" in result.ghost[0]
    assert (result.unknown, result.unknown_stored) == (1, 1)


def test_tracebacks_are_told_from_the_expected_ones() -> None:
    lines = [
        "2026-11-25 13:00:00,000 WARNING asyncpg.pool: Failed to restore the pool connection "
        "floor; retrying",
        "Traceback (most recent call last):",
        '  File "pool.py", line 1, in connect',
        "ConnectionRefusedError: [Errno 111] Connection refused",
        "2026-11-25 13:00:01,000 ERROR bot.views.presenter: presenting table 3 failed",
        "Traceback (most recent call last):",
        '  File "x.py", line 1, in f',
        "OSError: down",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        '  File "y.py", line 2, in g',
        "bot.store.models.StoreUnavailableError: clear_ping: the database did not answer",
        "2026-11-25 13:00:02,000 INFO bot.app: fine",
    ]
    errors, expected = chaos.tracebacks(lines)
    assert len(expected) == 1 and "ConnectionRefusedError" in expected[0]
    assert errors == ["bot.views.presenter: presenting table 3 failed -> "
                      "bot.store.models.StoreUnavailableError: clear_ping: the database did "
                      "not answer"]

"""``make bench``: every benchmark of the project, figures printed."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(
        prog="python -m tools.bench",
        description="Every benchmark of the project, one after the other, figures printed "
        "(`make bench`). Each also runs alone, with its options: python -m tools.bench_engine "
        "--help, and so on.").parse_args(argv)
    # (imported once the command line is read: --help answers without loading them all)
    from tools import (
        bench_bot,
        bench_coach,
        bench_compare,
        bench_direct,
        bench_duplicate,
        bench_engine,
        bench_export,
        bench_flood,
        bench_jobs,
        bench_queue,
        bench_render,
        bench_shards,
        bench_store,
        bench_table,
        chaos,
        legibility,
    )
    for title, module in (("Engine", bench_engine),
                          (f"Engine against {bench_compare.BASELINE}, side by side", bench_compare),
                          ("Images", bench_render),
                          ("Images as Discord shows them: the smallest glyph, before and "
                           "after", legibility),
                          ("Store: SQLite and PostgreSQL", bench_store),
                          ("A table of people: menus, panels, REST", bench_table),
                          ("Bot through the local Discord", bench_bot),
                          ("A flood: one person's 50 commands a second while 20 tables play",
                           bench_flood),
                          ("An export: one person's 1,000 games and 5,000 reviews while 20 "
                           "tables play", bench_export),
                          ("Duplicate: a board's field, and live tables while fields are "
                           "computed", bench_duplicate),
                          ("Coach: one hint, one seat's review of one deal", bench_coach),
                          ("Background jobs: deal end to review, PostgreSQL with a worker "
                           "and SQLite in-process; a worker killed mid-job", bench_jobs),
                          ("Tables over two bot processes on PostgreSQL: 100 to 1,000",
                           bench_shards),
                          ("Play now: 8, 40 and 400 people queue at once, two bot processes "
                           "on PostgreSQL, until their tables", bench_queue),
                          ("Play now: 100 tables in DMs on shard 0's process, click → panel",
                           bench_direct),
                          ("Faults: the database blinks", chaos)):
        print(f"== {title}", flush=True)
        if module is bench_shards:
            # The two ends of the growth series, 30 s measured each: 5-15 minutes on two
            # shared cores, most of it opening 1,000 tables ten at a time.
            # `python -m tools.bench_shards` runs 100, 300 and 1,000 (60 s each).
            bench_shards.main(["--tables", "100,1000", "--window", "30"])
        elif module is bench_compare:
            # Five rounds, each running the three measures on both trees in turn:
            # about two minutes.
            bench_compare.main([])
        elif module is bench_duplicate:
            # Two boards' fields (about two CPU-minutes on two processes), then two runs
            # of 50 live tables in each condition: about six minutes.
            bench_duplicate.main([])
        elif module is bench_coach:
            # 30 hints and 4 reviews at the defaults, on deals played for it: about
            # two CPU-minutes.
            bench_coach.main([])
        elif module is bench_jobs:
            # 100 live tables in three conditions (a few minutes each, plus the queue's
            # drain), then one review whose worker is killed: 15-40 minutes.
            bench_jobs.main([])
        elif module is legibility:
            # Every image kind, then the same at the baseline commit (a git worktree).
            legibility.main(["--baseline"])
        elif module is chaos:
            # Every scenario with the full 10 s outage: about a minute each.
            chaos.main(["--outage", "10"])
        elif module is bench_queue:
            # Each size on a fresh database, the waves on the bot's own clock: about
            # six minutes, most of it the 400 people.
            bench_queue.main([])
        elif module is bench_direct:
            # 400 people seated through the queue (two to four minutes of set-up), then
            # 10 s of play and 60 s measured. The growth: --tables 50,100,200,400.
            bench_direct.main(["--tables", "100"])
        elif module is bench_bot:
            bench_bot.main()  # (it reads the command line itself: this one, with no options)
        else:
            module.main([])


if __name__ == "__main__":
    main()

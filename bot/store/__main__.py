"""Store tools: ``python -m bot.store copy SRC DST`` copies an SQLite database into an
empty PostgreSQL database (see :mod:`bot.store.copy`)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from bot.store.copy import copy_database
from bot.store.models import StoreError


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.store", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    copy = commands.add_parser(
        "copy", help="copy an SQLite database into an empty PostgreSQL database",
        description="Copy every row (tables, seats, actions, drafts, panels, games, players, "
        "stats, ratings, rating history, guilds, settings, metadata, duplicate events and "
        "results, reviews, people's choices, the board secret) with its ids, in one "
        "transaction committed only when the row counts match and every finished game's "
        "replay gives its stored scores.")
    copy.add_argument("source", help="the SQLite file (a path or a sqlite:/// URL)")
    copy.add_argument("destination", help="the PostgreSQL database (a postgresql:// URL)")
    args = parser.parse_args(argv)

    source: str = args.source
    if source.startswith("sqlite:///"):
        source = source[len("sqlite:///"):]
    destination: str = args.destination
    scheme = destination.partition("://")[0].split("+", 1)[0].lower()
    if scheme not in ("postgresql", "postgres"):
        parser.error("the destination must be a postgresql:// URL")
    destination = "postgresql://" + destination.partition("://")[2]
    try:
        report = asyncio.run(copy_database(source, destination))
    except StoreError as error:
        print(f"copy refused: {error}", file=sys.stderr)
        return 1
    print(f"copied {source} into PostgreSQL:")
    for line in report.lines():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

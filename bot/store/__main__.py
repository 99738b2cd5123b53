"""Store tools: ``python -m bot.store copy SRC DST`` copies an SQLite database into an
empty PostgreSQL database (see :mod:`bot.store.copy`); ``python -m bot.store export
DATABASE USER_ID FILE`` writes the file ``/privacy export`` sends, whatever its size (for
a person whose file is over Discord's limit, see :mod:`bot.store.export`)."""

from __future__ import annotations

import argparse
import asyncio
import gzip
import sys
from collections.abc import Callable, Sequence

from bot.store import open_repository
from bot.store.codec import utc_now
from bot.store.copy import copy_database
from bot.store.export import json_chunks
from bot.store.models import StoreError
from bot.store.personal import export_sections


async def export_person(database: str, user_id: int, write: Callable[[bytes], object]) -> int:
    """Write a person's export with ``write``, a piece at a time; the games in it."""
    repo = open_repository(database)
    await repo.open()
    try:
        rows = await repo.export_rows(user_id)
    finally:
        await repo.close()
    for chunk in json_chunks(export_sections(user_id, utc_now(), rows)):
        write(chunk.encode())
    return len(rows["games"])


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
    export = commands.add_parser(
        "export", help="write everything stored about one person: the /privacy export file",
        description="Write the file /privacy export sends, whatever its size: for a person "
        "whose file, even compressed, is over what Discord accepts from the bot.")
    export.add_argument("database", help="the store (DATABASE: a path, or a URL)")
    export.add_argument("user_id", type=int, help="the person's Discord id")
    export.add_argument("file", help="where to write it; a name ending in .gz is gzipped")
    args = parser.parse_args(argv)
    if args.command == "export":
        return _export(args.database, args.user_id, args.file)

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


def _export(database: str, user_id: int, path: str) -> int:
    try:
        with (gzip.open(path, "wb") if path.endswith(".gz") else open(path, "wb")) as out:
            games = asyncio.run(export_person(database, user_id, out.write))
    except StoreError as error:
        print(f"export refused: {error}", file=sys.stderr)
        return 1
    print(f"wrote {path}: everything stored about {user_id} ({games} finished games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

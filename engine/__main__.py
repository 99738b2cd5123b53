"""``python -m engine replay FILE|-``: replay a game file and print the resulting state.
``python -m engine duplicate FILE|-``: score duplicate results (matchpoints, standings)."""

from __future__ import annotations

import argparse
import sys

from engine.replay import main as replay_main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine")
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="replay a JSON game file (or - for stdin)")
    replay.add_argument("file")
    duplicate = sub.add_parser("duplicate",
                               help="score a JSON file of duplicate results (or - for stdin)")
    duplicate.add_argument("file")
    args = parser.parse_args(argv)
    if args.command == "duplicate":
        from engine.duplicate.scoring import main as duplicate_main

        return duplicate_main(args.file)
    return replay_main(args.file)


if __name__ == "__main__":
    sys.exit(main())

"""``python -m engine replay FILE|-``: replay a game file and print the resulting state."""

from __future__ import annotations

import argparse
import sys

from engine.replay import main as replay_main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine")
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="replay a JSON game file (or - for stdin)")
    replay.add_argument("file")
    args = parser.parse_args(argv)
    return replay_main(args.file)


if __name__ == "__main__":
    sys.exit(main())

"""``python -m engine replay FILE|-``: replay a game file and print the resulting state.
``python -m engine duplicate FILE|-``: score duplicate results (matchpoints, standings).
``python -m engine review FILE|- [--seat N] [--model-dir DIR]``: a coach's review of a
Tichu replay (the decisions that cost the most, see ``docs/review.md``)."""

from __future__ import annotations

import argparse
import sys

from engine.blas import one_thread

one_thread()  # before NumPy is first imported: see engine/blas.py

from engine.replay import main as replay_main  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="The rules engine's commands, on JSON files: replay a game and print the "
        "state it ends in, score duplicate results, or review a Tichu replay's decisions.")
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="replay a JSON game file (or - for stdin)")
    replay.add_argument("file", help="the replay file (docs/reference/replay-cli.md), - for stdin")
    duplicate = sub.add_parser("duplicate",
                               help="score a JSON file of duplicate results (or - for stdin)")
    duplicate.add_argument("file", help="the duplicate results as JSON, - for stdin")
    review = sub.add_parser("review", help="review the decisions of a Tichu replay (or - for stdin)")
    review.add_argument("file", help="the Tichu replay file, - for stdin")
    review.add_argument("--seat", type=int, default=None, help="review this seat only")
    review.add_argument("--model-dir", default=None,
                        help="folder of the Tichu model files (default: the shipped ones)")
    args = parser.parse_args(argv)
    if args.command == "duplicate":
        from engine.duplicate.scoring import main as duplicate_main

        return duplicate_main(args.file)
    if args.command == "review":
        from engine.review import main as review_main

        if args.model_dir is not None:
            from engine.tichu.ai import model

            model.use_directory(args.model_dir)
        return review_main(args.file, args.seat)
    return replay_main(args.file)


if __name__ == "__main__":
    sys.exit(main())

"""A coach's review of a Tichu replay: the decisions whose choice cost the most.

For each reviewed decision (an action of a reviewed seat with more than one
option, :mod:`~engine.review.options`, and the Tichu a seat did not call, weighed
at its first card), every option is valued by
:func:`~engine.review.value.option_scores` from the seat's
:class:`~engine.review.moment.Moment` alone. ``best`` is what the ``hard`` player
would have chosen (:func:`~engine.review.options.hard_choice`): its heuristics'
choice, overruled where it searches (a play with a real choice) by the option that
gains :data:`~engine.tichu.ai.searcher.MIN_GAIN` points on it at two standard errors over
the review's deals, as its own search decides; for a borderline Tichu, which it
settles by search alone, the option of the highest mean. ``cost`` is
the mean points the choice lost against ``best``, never negative, rounded to 0.1: a
choice the valuation rates above ``best`` costs nothing, and the ``hard`` player's own
choice costs nothing unless its search, run on the review's deals, would overrule it.
Only decisions of positive cost are listed, the costliest first; equal costs in the
order of play (deal, then index, a call before the card it preceded).

Each decision has its own random numbers, seeded by ``seed``, the deal and the
action's index, so the same file and seed give the same review whichever seats are
reviewed, and a decision's figures do not change when others are added.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from engine.errors import EngineError, GameOverError
from engine.review.moment import DealWatch, Moment
from engine.review.options import (
    Abstain,
    HardChoice,
    Option,
    hard_choice,
    option_json,
    options,
    silent_call,
)
from engine.review.value import option_scores
from engine.run import ReplayFormatError
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrand,
    Exchange,
    Gift,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.ai.searcher import MIN_GAIN, mean_error
from engine.tichu.cards import MAHJONG
from engine.tichu.game import TichuGame
from engine.tichu.replay import ReplayFile, read_file
from engine.tichu.view import Phase

DEFAULT_SAMPLES = 128
"""Sampled deals per decision (see ``docs/review.md`` for what it costs)."""
CALL_FACTOR = 4
"""Calls (Grand Tichu, Tichu) are valued on this many times the samples: they have only
two options, but a call's outcome swings by 200 to 400 points, so its mean needs more
deals to settle; one seat makes one or two a deal."""


KINDS = ("grand", "tichu", "exchange", "play", "pass", "wish", "bomb", "gift")
"""Every kind of decision (:attr:`Decision.kind`)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision: what was chosen, the best option, and the cost."""

    deal: int
    index: int
    """The action's index in its deal's ``actions``."""
    seat: int
    kind: str
    """``grand``, ``tichu``, ``exchange``, ``play``, ``pass``, ``wish``, ``bomb`` or ``gift``."""
    chosen: Option
    best: Option
    cost: float
    """Mean points lost against ``best`` (never negative), rounded to 0.1."""
    values: tuple[float, ...]
    """Each option's mean score, the chosen one first (for tools; not printed)."""

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "index": self.index, "seat": self.seat, "kind": self.kind,
                "chosen": option_json(self.chosen), "best": option_json(self.best),
                "cost": self.cost}


@dataclass(frozen=True, slots=True)
class Review:
    decisions: list[Decision]
    """Decisions of positive cost, costliest first (ties: deal, then index)."""
    error: dict[str, Any] | None
    """The first refused action, as the replay's ``error``: the review stops there."""
    reviewed: int
    """How many decisions were valued (costly or not)."""

    def to_json(self) -> dict[str, Any]:
        return {"decisions": [d.to_json() for d in self.decisions], "error": self.error}


def kind_of(chosen: Action, moment: Moment) -> str:
    if isinstance(chosen, (GrandTichu, DeclineGrand)):
        return "grand"
    if isinstance(chosen, CallTichu):
        return "tichu"
    if isinstance(chosen, Exchange):
        return "exchange"
    if isinstance(chosen, Gift):
        return "gift"
    if isinstance(chosen, Pass):
        return "pass"
    if isinstance(chosen, Play) and moment.view.turn != moment.seat:
        return "bomb"
    if isinstance(chosen, Play) and MAHJONG in chosen.cards and chosen.wish is not None:
        return "wish"
    return "play"


def review_decision(moment: Moment, chosen: Action, deal: int, index: int, samples: int,
                    rng: random.Random) -> Decision | None:
    """The review of one decision (None when there was nothing to choose)."""
    return _valued(moment, options(moment, chosen), kind_of(chosen, moment), deal, index,
                   samples, rng)


def review_silence(moment: Moment, chosen: Action, deal: int, index: int, samples: int,
                   rng: random.Random) -> Decision | None:
    """The review of the Tichu the seat did not call before ``chosen``, its first card
    (None when there is no such decision, :func:`~engine.review.options.silent_call`)."""
    return _valued(moment, silent_call(moment, chosen), "tichu", deal, index, samples, rng)


def _valued(moment: Moment, found: list[Option], kind: str, deal: int, index: int,
            samples: int, rng: random.Random) -> Decision | None:
    if len(found) < 2:
        return None
    chosen = found[0]
    if isinstance(chosen, (GrandTichu, DeclineGrand, CallTichu)) or (
            isinstance(chosen, Abstain) and chosen.what == "tichu"):
        samples *= CALL_FACTOR
    scores = option_scores(moment, found, samples, rng)
    means = tuple(sum(s) / len(s) for s in scores)
    best = hard_best(hard_choice(moment, found), scores, means)
    cost = round(max(0.0, means[best] - means[0]), 1)
    return Decision(deal, index, moment.seat, kind, chosen,
                    found[best] if cost > 0 else chosen, cost, means)


def hard_best(choice: HardChoice, scores: list[list[int]], means: Sequence[float]) -> int:
    """The option the ``hard`` player would have chosen, its search run on the review's
    deals: its heuristics' choice, unless it searches and another option gains
    :data:`~engine.tichu.ai.searcher.MIN_GAIN` points on it and two standard errors (the
    greatest such gain wins); with no heuristic choice, the option of the highest mean
    (the first on a tie)."""
    if choice.index is None:
        return max(range(len(means)), key=lambda i: (means[i], -i))
    best = choice.index
    if not choice.searched:
        return best
    base = scores[best]
    gain = 0.0
    for i, other in enumerate(scores):
        mean, error = mean_error([a - b for a, b in zip(other, base, strict=True)])
        if mean > max(MIN_GAIN, 2.0 * error) and mean > gain:
            best, gain = i, mean
    return best


def load_replay(data: Mapping[str, Any]) -> ReplayFile:
    """Read a Tichu replay file (parsed JSON); :class:`~engine.run.ReplayFormatError`
    if it is not a Tichu file or is malformed."""
    if not isinstance(data, Mapping) or data.get("game") != "tichu":
        raise ReplayFormatError("the review reads Tichu replay files only")
    try:
        return read_file(data)
    except EngineError as exc:
        raise ReplayFormatError(str(exc)) from None


def check_seats(read: ReplayFile, seats: Collection[int]) -> None:
    """:class:`~engine.run.ReplayFormatError` for a seat not at the file's table."""
    missing = sorted(set(seats) - set(range(read.players)))
    if missing:
        raise ReplayFormatError(f"no seat {missing[0]} at a table of {read.players}")


def review_game(data: Mapping[str, Any], seats: Sequence[int] | None = None,
                samples: int = DEFAULT_SAMPLES, seed: int | str = 0,
                deals: Collection[int] | None = None) -> Review:
    """Review a Tichu replay file (parsed JSON) for ``seats`` (default: every seat).

    ``deals``: the indexes of the deals whose decisions are valued (default: all);
    the others are only replayed (the bot reviews the deal just ended). Raises
    :class:`~engine.run.ReplayFormatError` if the file is malformed; a refused
    action ends the review there (:attr:`Review.error`)."""
    read = load_replay(data)
    wanted = set(range(read.players)) if seats is None else set(seats)
    check_seats(read, wanted)
    valued = None if deals is None else set(deals)
    first = read.deals[0]
    game = TichuGame(target=read.target, hands=first.hands, players=read.players,
                     dealer=first.dealer)
    decisions: list[Decision] = []
    error: dict[str, Any] | None = None
    reviewed = 0
    for d, deal in enumerate(read.deals):
        if d > 0:
            if game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
                raise ReplayFormatError(f"deal {d - 1} is not over but deal {d} follows")
            if game.phase is Phase.GAME_OVER:
                over = GameOverError("the game is over")
                error = {"index": 0, "deal": d, "message": str(over), "code": over.code}
                break
            game.next_deal(deal.hands, deal.dealer)
        watch = DealWatch(game)
        for i, action in enumerate(deal.actions):
            try:
                game.check(action)
            except EngineError as exc:
                error = {"index": i, "deal": d, "message": str(exc), "code": exc.code}
                break
            if action.seat in wanted and (valued is None or d in valued):
                moment = watch.moment(action.seat)
                for review, salt in ((review_silence, ":tichu"), (review_decision, "")):
                    rng = random.Random(f"review:{seed}:{d}:{i}{salt}")
                    decision = review(moment, action, d, i, samples, rng)
                    if decision is not None:
                        reviewed += 1
                        if decision.cost > 0:
                            decisions.append(decision)
            game.apply(action)
            watch.after(action)
        if error is not None:
            break
    decisions.sort(key=lambda x: (-x.cost, x.deal, x.index, x.kind != "tichu"))
    return Review(decisions, error, reviewed)


def main(path: str, seat: int | None = None, samples: int = DEFAULT_SAMPLES,
         seed: int | str = 0, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``python -m engine review PATH`` and return the exit status: 0 with the
    review's JSON on ``out``, 2 with one line on ``err`` for an unreadable or malformed
    file (a refused action is no such thing: the review stops there), or for a Tichu
    model file that cannot be used (:mod:`~engine.tichu.ai.model`)."""
    from engine.replay import read_json
    from engine.tichu.ai import model as models
    from engine.tichu.ai.evaluator import ModelError

    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    try:
        models.check()
    except ModelError as exc:
        print(f"error: {exc}", file=err)
        return 2
    try:
        if samples < 1:
            raise ReplayFormatError(f"--samples must be at least 1, not {samples}")
        data = read_json(path)
        result = review_game(data, None if seat is None else [seat], samples, seed)
    except ReplayFormatError as exc:
        print(f"error: {exc}", file=err)
        return 2
    json.dump(result.to_json(), out)
    out.write("\n")
    return 0

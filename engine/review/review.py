"""A coach's review of a Tichu replay: the decisions whose choice cost the most.

For each reviewed decision (an action of a reviewed seat with more than one
option, :mod:`~engine.review.options`, and the Tichu a seat did not call, weighed
at its first card), every option is valued by the learned evaluator
(:func:`~engine.review.value.option_values`) from the seat's
:class:`~engine.review.moment.Moment` alone. ``best`` is the option of the highest
value: the ``hard`` player's own choice among its candidates, or the choice made
when the evaluator rates it higher still (on a tie the choice stands). ``cost`` is
the points the choice lost against ``best``, rounded to 0.1: the ``hard`` player's
own choice costs nothing. A decision that the evaluator says cost :data:`CHECK_FROM`
points or more is checked by play-outs (:func:`checked_cost`), its cost being the
smaller of the two figures (before the seat's own call, the play-outs' figure is the
most they do not rule out), unless it is a call, or the exchange before the seat's own
call (Grand Tichu or Tichu): there the evaluator's figure stands (:func:`checked`).
Only decisions of positive cost are listed, the costliest first; equal costs in the
order of play (deal, then index, a call before the card it preceded).

The play-outs draw from a generator seeded by the deal and the index alone: the same
file always gives the same review, whichever seats are reviewed.
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
    Option,
    choice_kind,
    option_json,
    options,
    silent_call,
)
from engine.review.playout import option_scores
from engine.review.value import option_values
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
from engine.tichu.ai.searcher import mean_error
from engine.tichu.cards import MAHJONG
from engine.tichu.game import TichuGame
from engine.tichu.replay import ReplayFile, read_file
from engine.tichu.view import Phase

CHECK_FROM = 10.0
"""A decision other than a call that the evaluator says cost this many points or more
(what the bot shows) is checked by play-outs: see :func:`checked_cost`."""
CHECK_SAMPLES = 32
"""The play-outs' ``samples`` for that check (:func:`~engine.review.playout.option_scores`:
8 to 64 sampled deals, until settled)."""
RULED_OUT = 2.0
"""Before the seat's own call, the play-outs lower a cost only to their mean plus this
many standard errors (:func:`checked_cost`)."""
CALLS = ("grand", "tichu")

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
    """Points lost against ``best`` (never negative), rounded to 0.1."""
    values: tuple[float, ...]
    """Each option's value, the chosen one first (for tools; not printed)."""

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


def review_decision(moment: Moment, chosen: Action, deal: int, index: int) -> Decision | None:
    """The review of one decision (None when there was nothing to choose)."""
    return _valued(moment, options(moment, chosen), kind_of(chosen, moment), deal, index)


def review_silence(moment: Moment, chosen: Action, deal: int, index: int) -> Decision | None:
    """The review of the Tichu the seat did not call before ``chosen``, its first card
    (None when there is no such decision, :func:`~engine.review.options.silent_call`)."""
    return _valued(moment, silent_call(moment, chosen), "tichu", deal, index)


def _valued(moment: Moment, found: list[Option], kind: str, deal: int, index: int
            ) -> Decision | None:
    if len(found) < 2:
        return None
    chosen = found[0]
    values = tuple(option_values(moment, found, choice_kind(moment, chosen)))
    best = max(range(len(values)), key=lambda i: (values[i], -i))
    cost = round(max(0.0, values[best] - values[0]), 1)
    if cost >= CHECK_FROM and checked(moment, kind):
        cost = min(cost, checked_cost(moment, chosen, found[best], deal, index))
    return Decision(deal, index, moment.seat, kind, chosen,
                    found[best] if cost > 0 else chosen, cost, values)


def checked(moment: Moment, kind: str) -> bool:
    """Whether a costly decision of ``kind`` is checked by play-outs: every kind but the
    calls, and the exchange only once the seat's own call stands.

    Where each measure is the weaker one (``docs/review.md``, four seeds of blunder
    cases): the play-outs undervalue a Dragon given to an opponent in the exchange (0
    to 7 points where the evaluator gives 38 to 41, and the play-outs' own review missed
    that gift in 9 of 12 cases), so the evaluator's figure for an exchange without a
    call stands, as for the calls it was measured on. Its differences between a seat's
    plays and passes are what the play-outs confirm: in deals where the seat gave its
    Dragon away, unchecked, it rated some later plays 38 to 56 points worse than
    ``hard``'s, above the gift itself; after a weak call, up to 200 points."""
    if kind in CALLS:
        return False
    return kind != "exchange" or moment.view.calls[moment.seat] is not None


def checked_cost(moment: Moment, chosen: Option, best: Option, deal: int, index: int) -> float:
    """What ``chosen`` cost against ``best`` by play-outs: the mean over sampled deals of
    ``best``'s score minus ``chosen``'s (:func:`~engine.review.playout.option_scores`,
    :data:`CHECK_SAMPLES`, a generator seeded by the deal and the index), never negative,
    rounded to 0.1; before the seat's own call, the most the play-outs do not rule out
    (that mean plus :data:`RULED_OUT` standard errors).

    The evaluator picks ``best``; where :func:`checked` says so, the cost stands only as
    far as the play-outs confirm it. After a call on a hand unlike those of self-play (a
    Tichu on a weak hand), the evaluator's differences between the seat's later plays
    were off by up to 200 points, and ranked them above the call itself; the play-outs
    do not depend on what self-play has seen, but on 8 to 64 deals they are noisy too
    (a deal with a call swings by hundreds of points): a cost must be found by both
    (``docs/review.md``). Before a call of the seat the evaluator is on ground self-play
    knows well, and the play-outs' rollout policy is the weaker judge of some decisions
    (it seldom makes an opponent use a pass that let it go out first: on 8 to 64 deals
    such a pass often scores as well as going out), so there they cap a cost only where
    they rule it out."""
    scores = option_scores(moment, [chosen, best], CHECK_SAMPLES,
                           random.Random(f"review:{deal}:{index}"))
    gain, error = mean_error([b - a for a, b in zip(scores[0], scores[1], strict=True)])
    if moment.view.calls[moment.seat] is None:
        gain += RULED_OUT * error
    return round(max(0.0, gain), 1)


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
                for review in (review_silence, review_decision):
                    decision = review(moment, action, d, i)
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


def main(path: str, seat: int | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
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
        data = read_json(path)
        result = review_game(data, None if seat is None else [seat])
    except ReplayFormatError as exc:
        print(f"error: {exc}", file=err)
        return 2
    json.dump(result.to_json(), out)
    out.write("\n")
    return 0

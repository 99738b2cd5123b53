"""How good is the review (``python -m engine review``)? Figures, measured (issue 25).

``python -m tools.review_quality [--per-kind 20] [--hard-deals 10]
[--hard-samples 96] [--seed S] [--jobs 2]`` prints three sets of figures.

The deals are played by the search player that was ``hard`` before the learned
evaluator (:class:`~engine.tichu.ai.searcher.SearchPlayer`, level ``search``): the
same deals as when the review played options out, so the two are compared on the
same cases. Below, "hard" means that player.

1. **Blunders first.** Deals between ``hard`` players (seeded), in which one
   decision of one seat is replaced by an obvious blunder before the deal is played
   on by the same players:

   - ``grand``: Grand Tichu called on eight weak cards (grand strength below
     :data:`WEAK_GRAND`; the seat's partner has not called);
   - ``tichu``: Tichu called before the exchange on a weak hand (call strength
     below :data:`WEAK_TICHU`);
   - ``dragon``: the Dragon given to an opponent in the exchange (the ``hard``
     exchange otherwise);
   - ``pass``: a pass on the seat's turn when one legal play would take it out at
     once, the trick being an opponent's (the first seat of the deal to meet that),
     while going out is worth something: no opponent is out yet (out first, or
     second after the partner for a 1-2), no partner's call stands, an opponent
     has called or holds at most :data:`PASS_NEAR` cards.

   Every blunder must also lose at least :data:`TRUE_COST` points, both options
   played on by ``hard`` players at :data:`TRUTH_SAMPLES` samples a search:

   - a Grand Tichu, a Tichu or a Dragon given away, against the ``hard`` player's
     own decision, with the real cards (:func:`true_cost`, :data:`TRUTH_SEEDS`
     seeds);
   - a pass, against going out, from what the seat knew (:func:`expected_cost`): on
     :data:`EXPECTED_DEALS` deals of the cards it could not see, dealt as the
     review deals them. With the real cards alone, a pass that lost only because
     the hidden cards happened to punish it counted as a blunder, while nobody
     could have known it (see ``docs/review.md``).

   One that does not lose so much is no blunder (a pass or a Dragon given away can
   even win); the seat then plays on as ``hard``, and a later moment (a pass) or the
   next deal is tried. The figures say how many moments were turned down.

   The review of the blundering seat passes when it lists the blunder first, at a
   cost at least 1.5 times the next decision's, or 30 points more. The rate is
   printed per kind and overall (goal: 9 in 10).
2. **Hard's own play is rarely called costly**: on hard-vs-hard deals, every
   seat's review; the decisions listed at 50 points or more, per deal and in total.
3. **Speed**: the CPU seconds of one seat's review of one deal, median and max.

Deals are made from ``--seed`` and the kind, so a run is reproducible; ``--jobs``
plays them in that many processes (figures do not depend on it). ``--cases DIR``
keeps the deals made in DIR and takes them from there on the next run, so that a
change to the review alone is measured again in minutes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.games.tichu.coach import MIN_COST
from engine.duplicate.play import board_player
from engine.review import Review, review_game
from engine.review.moment import DealWatch
from engine.review.playout import positions
from engine.tichu.actions import Action, CallTichu, Exchange, Pass, Play
from engine.tichu.ai import bidding
from engine.tichu.ai.base import Player
from engine.tichu.ai.searcher import DEFAULT_MAX_SAMPLES
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.cards import DRAGON
from engine.tichu.game import TichuGame
from engine.tichu.legal import can_pass, legal_plays
from engine.tichu.replay import to_replay
from engine.tichu.view import Phase, TichuView

KINDS = ("grand", "tichu", "dragon", "pass")
WEAK_GRAND = 1.0
"""Grand strength (:func:`~engine.tichu.ai.bidding.grand_strength`) below which eight
cards are weak (the hard player calls at 3.8)."""
WEAK_TICHU = -2.0
"""Call strength (:func:`~engine.tichu.ai.bidding.call_strength`) below which a hand is
weak (the hard player calls at 0.25)."""
PASS_NEAR = 2
"""A ``pass`` blunder is tried only when an opponent has called or holds at most this
many cards: otherwise the seat often goes out first a trick later anyway."""
TRUE_COST = 30.0
"""Points a blunder must lose to be one (see :func:`truly_costly`)."""
TRUTH_SEEDS = 4
"""Seeds of the play-outs that measure a blunder's real cost."""
EXPECTED_DEALS = 96
"""Deals of the unseen cards that measure a pass's cost from what the seat knew."""
TRUTH_SAMPLES = 24
"""Samples a search of the ``hard`` players of those play-outs (fewer than the deals'
own: a deal may meet several moments to check)."""
MAX_TRIES = 60
"""Deals tried per case before giving up on finding one with the blunder's conditions."""


Blunder = Callable[[TichuView], Action | None]
"""What the blundering seat does instead of the hard player, or None (not here)."""


class Blundering:
    """The hard player, except for one decision of one seat: the blunder, once."""

    def __init__(self, player: Player, seat: int | None, blunder: Blunder,
                 too_late: Callable[[TichuView], bool] = lambda view: False,
                 confirm: Callable[[TichuGame, Action], bool] | None = None) -> None:
        self.player = player
        self.seat = seat
        self.blunder = blunder
        self.too_late = too_late
        """Whether the deal has gone past any moment of the blunder (then the deal is
        dropped at once: the next one is tried)."""
        self.confirm = confirm
        """Whether the blunder, about to be made in the game, truly is one (None: it is)."""
        self.rejected = 0
        """Moments of the blunder that ``confirm`` turned down."""
        self.done: tuple[int, Action] | None = None
        self.game: TichuGame | None = None

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        if self.done is None and self.too_late(view):
            raise _TooLate
        if self.done is None and view.seat is not None and self.seat in (None, view.seat):
            action = self.blunder(view)
            if action is not None:
                assert self.game is not None
                if self.confirm is None or self.confirm(self.game, action):
                    self.done = (len(self.game.deal_log[-1][1]), action)
                    return action
                self.rejected += 1
        return self.player.act(view, rng)


class _TooLate(Exception):
    """The deal has gone past any moment of the blunder: try the next one."""


def _grand(view: TichuView) -> Action | None:
    if view.phase is Phase.GRAND:
        return bidding_call_grand(view)
    return None


def bidding_call_grand(view: TichuView) -> Action:
    from engine.tichu.actions import GrandTichu

    assert view.seat is not None
    return GrandTichu(view.seat)


def _tichu(view: TichuView) -> Action | None:
    if view.phase is Phase.EXCHANGE and not view.exchanged[view.seat or 0]:
        assert view.seat is not None
        return CallTichu(view.seat)
    return None


def _dragon(view: TichuView) -> Action | None:
    seat = view.seat
    if view.phase is not Phase.EXCHANGE or seat is None or view.exchanged[seat]:
        return None
    calling = view.calls[seat] is not None
    give = dict(bidding.choose_exchange(view, calling).give)
    if DRAGON in give.values():
        return None
    opponent = (seat + 1) % view.n_seats
    give[opponent] = DRAGON
    return Exchange(seat, tuple(give.items()))


def _pass(view: TichuView) -> Action | None:
    seat = view.seat
    if view.phase is not Phase.PLAY or seat is None or view.turn != seat or view.top is None:
        return None
    if view.trick[-1].seat % 2 == seat % 2 or not can_pass(view):
        return None
    if any(s in view.out for s in view.opponents(seat)) or (
            not view.out and any(view.calls[p] is not None for p in view.partners(seat))):
        return None  # going out now must be first, or second after the partner (a 1-2),
        # and not against a partner's standing call
    if not any(view.calls[o] is not None or 0 < view.hand_counts[o] <= PASS_NEAR
               for o in view.opponents(seat)):
        return None  # nobody to lose the first place to: passing may cost nothing
    if _going_out(view) is not None:
        return Pass(seat)
    return None


def _going_out(view: TichuView) -> Play | None:
    """The play that takes the seat on turn out at once, if there is one."""
    assert view.seat is not None
    for p in legal_plays(view):
        if len(p.cards) == len(view.hand):
            return Play(view.seat, p.cards, None, p.phoenix)
    return None


def true_cost(game: TichuGame, blunder: Action, better: Action, hard_samples: int,
              seeds: int = TRUTH_SEEDS) -> float:
    """What ``blunder`` loses against ``better`` in ``game`` with the real cards: the
    mean difference of the deal's score (the seat's team minus the other), both played
    on by ``hard`` players with the same ``seeds`` seeds."""
    return sum(_gap(lambda: _copy(game), blunder, better, hard_samples, r)
               for r in range(seeds)) / seeds


def expected_cost(game: TichuGame, blunder: Action, better: Action, hard_samples: int,
                  deals: int = EXPECTED_DEALS) -> float:
    """What ``blunder`` loses against ``better`` in ``game`` from what the seat knew:
    the mean difference of the deal's score (the seat's team minus the other) over
    ``deals`` deals of the cards it could not see, dealt as the review deals them
    (:func:`~engine.review.playout.positions`), both played on by ``hard`` players."""
    replay = _fresh(game)
    watch = DealWatch(replay)
    actions = game.deal_log[-1][1]
    for action in actions:
        replay.apply(action)
        watch.after(action)
    made = positions(watch.moment(blunder.seat), random.Random(f"expected:{len(actions)}"))
    return sum(_gap(next(made), blunder, better, hard_samples, r)
               for r in range(deals)) / deals


def _gap(make: Callable[[], TichuGame], blunder: Action, better: Action, hard_samples: int,
         seed: int) -> int:
    """The deal's score of ``better`` minus ``blunder``'s for the seat's team (its team
    minus the other), each carried out on a game from ``make`` and played on by
    ``hard`` players seeded by ``seed``."""
    team = blunder.seat % 2
    gap = 0
    for sign, action in ((-1, blunder), (1, better)):
        game = make()
        game.apply(action)
        players: list[Player] = [board_player("search", hard_samples)] * game.n_seats
        play_deal(game, players, random.Random(f"truth:{seed}"))
        scores = game.history[-1].scores
        gap += sign * (scores[team] - scores[1 - team])
    return gap


def _fresh(game: TichuGame) -> TichuGame:
    """The game's current deal as it was dealt, on a new game."""
    dealt = game.deal_log[-1][0]
    copy = TichuGame(target=game.target, hands=[list(h) for h in dealt],
                     players=game.n_seats, dealer=game.dealer)
    copy.scores = list(game.scores)
    copy.touch()
    return copy


def _copy(game: TichuGame) -> TichuGame:
    """The game's current deal, replayed on a new game."""
    copy = _fresh(game)
    for action in game.deal_log[-1][1]:
        copy.apply(action)
    return copy


def truly_costly(game: TichuGame, blunder: Action, hard_samples: int) -> bool:
    """Whether ``blunder`` loses at least :data:`TRUE_COST`: a pass against going out,
    from what the seat knew (:func:`expected_cost`); the other kinds against the
    ``hard`` player's own decision, with the real cards (:func:`true_cost`)."""
    samples = min(hard_samples, TRUTH_SAMPLES)
    view = game.view(blunder.seat)
    if isinstance(blunder, Pass):
        out = _going_out(view)
        return out is not None and expected_cost(game, blunder, out, samples) >= TRUE_COST
    better = board_player("search", samples).act(view, random.Random("truth:better"))
    return better is not None and true_cost(game, blunder, better, samples) >= TRUE_COST


def _in_play(view: TichuView) -> bool:
    return view.phase is not Phase.GRAND and view.phase is not Phase.EXCHANGE


def _past_pass(view: TichuView) -> bool:
    """An opponent of every seat is out (in four-player deals: two seats of a team, or
    one of each)."""
    return _in_play(view) and len({s % 2 for s in view.out}) == 2


def _weak_grand(game: TichuGame, seat: int) -> bool:
    return bidding.grand_strength([int(c) for c in game.dealt[seat][:game.grand_packet]]) \
        < WEAK_GRAND


def _weak_tichu(game: TichuGame, seat: int) -> bool:
    return bidding.call_strength([int(c) for c in game.dealt[seat]]) < WEAK_TICHU


def _has_dragon(game: TichuGame, seat: int) -> bool:
    return DRAGON in game.dealt[seat]


BLUNDERS: dict[str, tuple[Blunder, Callable[[TichuGame, int], bool] | None,
                          Callable[[TichuView], bool]]] = {
    "grand": (_grand, _weak_grand, _in_play),
    "tichu": (_tichu, _weak_tichu, _in_play),
    "dragon": (_dragon, _has_dragon, _in_play),
    "pass": (_pass, None, _past_pass),
}
"""Per kind: the blunder, which seats may make it on a deal (None: any, the first to
meet it), and when it is too late in a deal to make it."""


@dataclass(frozen=True, slots=True)
class Case:
    kind: str
    seed: str
    seat: int
    index: int
    replay: dict[str, Any]
    turned_down: int = 0
    """Moments of the blunder turned down on the way (it truly cost too little)."""


def make_case(kind: str, number: int, seed: str, hard_samples: int) -> Case | None:
    """The ``number``-th deal with a ``kind`` blunder: the first seed (tried in order)
    whose deal lets one seat make it."""
    blunder, fits, too_late = BLUNDERS[kind]
    turned_down = 0
    for attempt in range(MAX_TRIES):
        deal_seed = f"review-quality:{seed}:{kind}:{number}:{attempt}"
        game = TichuGame(seed=deal_seed)
        seats = [s for s in range(4) if fits is None or fits(game, s)]
        if kind == "grand":
            seats = [s for s in seats if s % 2 == 0]  # its partner decides after it
        if not seats:
            continue
        seat = seats[0] if fits is not None else None
        hard = board_player("search", hard_samples)
        wrapper = Blundering(hard, seat, blunder, too_late,
                             lambda game, action: truly_costly(game, action, hard_samples))
        wrapper.game = game
        players: list[Player] = [wrapper if seat in (None, s) else hard for s in range(4)]
        try:
            play_deal(game, players, random.Random(deal_seed))
        except _TooLate:
            continue
        finally:
            turned_down += wrapper.rejected
        if wrapper.done is None:
            continue
        index, action = wrapper.done
        return Case(kind, deal_seed, action.seat, index, to_replay(game), turned_down)
    return None


HARD_LEVELS = ("search", "hard")
"""Who plays the deals of figure 2: the search player (as the cases) or today's ``hard``,
the learned player, deciding exactly as at a table (no field tolerance)."""


def hard_deal(number: int, seed: str, hard_samples: int, level: str = "search"
              ) -> dict[str, Any]:
    deal_seed = f"review-quality:{seed}:hard:{number}"
    game = TichuGame(seed=deal_seed)
    if level == "hard":
        from engine.tichu.ai.hard import HardPlayer

        players: list[Player] = [HardPlayer() for _ in range(4)]
    else:
        players = [board_player("search", hard_samples)] * 4
    play_deal(game, players, random.Random(deal_seed))
    return to_replay(game)


def timed_review(replay: dict[str, Any], seat: int) -> tuple[Review, float]:
    began = time.process_time()
    review = review_game(replay, [seat])
    return review, time.process_time() - began


def ranked_first(review: Review, index: int) -> tuple[bool, float, float]:
    """Whether the decision at ``index`` (deal 0) comes first, well ahead; its cost and
    the next one's."""
    listed = review.decisions
    if not listed or (listed[0].deal, listed[0].index) != (0, index):
        cost = next((d.cost for d in listed if (d.deal, d.index) == (0, index)), 0.0)
        return False, cost, listed[0].cost if listed else 0.0
    first = listed[0].cost
    second = listed[1].cost if len(listed) > 1 else 0.0
    return first >= 1.5 * second or first >= second + 30.0, first, second


def _stored(cases: str | None, name: str, make: Callable[[], Any]) -> Any:
    """``make()``, or what it gave when a run with ``--cases`` last made it."""
    if cases is None:
        return make()
    path = Path(cases) / f"{name}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        pass  # not made yet, or unreadable: made (again)
    made = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(f".{os.getpid()}.part")
    part.write_text(json.dumps(made))
    part.replace(path)  # whole or not at all, even if the run is stopped
    return made


def _stored_case(kind: str, number: int, seed: str, hard_samples: int, cases: str | None
                 ) -> Case | None:
    def make() -> dict[str, Any] | None:
        case = make_case(kind, number, seed, hard_samples)
        return None if case is None else dataclasses.asdict(case)
    found = _stored(cases, f"{seed}-{hard_samples}-{kind}-{number}", make)
    return None if found is None else Case(**found)


def _blunder_job(args: tuple[str, int, str, int, str | None]) -> dict[str, Any]:
    kind, number, seed, hard_samples, cases = args
    case = _stored_case(kind, number, seed, hard_samples, cases)
    if case is None:
        return {"kind": kind, "found": False}
    review, seconds = timed_review(case.replay, case.seat)
    ok, first, second = ranked_first(review, case.index)
    print(f"{kind} {number}: {'ok' if ok else 'missed'} {first:.1f} v {second:.1f} "
          f"({seconds:.1f} s)", file=sys.stderr, flush=True)
    return {"kind": kind, "found": True, "ok": ok, "cost": first, "next": second,
            "seconds": seconds, "seed": case.seed, "seat": case.seat, "index": case.index,
            "turned_down": case.turned_down}


def _hard_job(args: tuple[int, str, int, str | None, str]) -> dict[str, Any]:
    number, seed, hard_samples, cases, level = args
    name = f"{seed}-{hard_samples}-hard-{number}" if level == "search" else \
        f"{seed}-{level}-hard-{number}"
    replay = _stored(cases, name, lambda: hard_deal(number, seed, hard_samples, level))
    costly = 0
    seconds = []
    for seat in range(4):
        review, spent = timed_review(replay, seat)
        costly += sum(1 for d in review.decisions if d.cost >= 50.0)
        seconds.append(spent)
    print(f"hard {number}: {costly} at 50+", file=sys.stderr, flush=True)
    return {"costly": costly, "seconds": seconds}


def run(per_kind: int, hard_deals: int, hard_samples: int, seed: str,
        jobs: int, kinds: Sequence[str] = KINDS, cases: str | None = None,
        hard_level: str = "search") -> str:
    blunder_args = [(k, i, seed, hard_samples, cases)
                    for k in kinds for i in range(per_kind)]
    hard_args = [(i, seed, hard_samples, cases, hard_level) for i in range(hard_deals)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            blunders = pool.map(_blunder_job, blunder_args, chunksize=1)
            hards = pool.map(_hard_job, hard_args, chunksize=1)
    else:
        blunders = [_blunder_job(a) for a in blunder_args]
        hards = [_hard_job(a) for a in hard_args]
    lines = [f"review quality: the learned evaluator, hard players with {hard_samples} samples, "
             f"seed {seed!r}", "", "1. blunders ranked first (cost >= 1.5x the next, or +30):"]
    total_ok = total = 0
    seconds: list[float] = []
    for kind in kinds:
        rows = [r for r in blunders if r["kind"] == kind and r["found"]]
        ok = sum(r["ok"] for r in rows)
        total_ok += ok
        total += len(rows)
        seconds += [r["seconds"] for r in rows]
        costs = [r["cost"] for r in rows]
        median = statistics.median(costs) if costs else 0.0
        lines.append(f"   {kind:7} {ok:3}/{len(rows):<3} ({_pct(ok, len(rows))})  "
                     f"median cost {median:6.1f}")
        faint = sum(1 for r in rows if r["ok"] and r["cost"] < MIN_COST)
        if faint:
            lines.append(f"      ({faint} of them first at under {MIN_COST:.0f} points, which the "
                         f"bot does not show)")
        turned_down = sum(r["turned_down"] for r in rows)
        if turned_down:
            how = "from what the seat knew" if kind == "pass" else "with the real cards"
            lines.append(f"      ({turned_down} moments turned down on the way to these cases: "
                         f"{how} the blunder lost under {TRUE_COST:.0f} points)")
        missing = sum(1 for r in blunders if r["kind"] == kind and not r["found"])
        if missing:
            lines.append(f"      ({missing} cases not found: no deal of {MAX_TRIES} tried "
                         f"let a seat make the blunder)")
        for r in rows:
            if not r["ok"]:
                lines.append(f"      missed: {r['seed']} seat {r['seat']} action {r['index']}: "
                             f"cost {r['cost']:.1f}, top other {r['next']:.1f}")
    lines.append(f"   overall {total_ok:3}/{total:<3} ({_pct(total_ok, total)})")
    costly = [h["costly"] for h in hards]
    who = "hard (the search player)" if hard_level == "search" else "hard (the learned player)"
    lines += ["", f"2. {who} v itself: decisions listed at >= 50 points: "
              f"{sum(costly)} in {len(costly)} deals ({len(costly) * 4} seat reviews); "
              f"per deal {costly}"]
    for h in hards:
        seconds += h["seconds"]
    if seconds:
        lines += ["", f"3. CPU seconds per seat review of a deal: median "
                  f"{statistics.median(seconds):.1f}, max {max(seconds):.1f} "
                  f"({len(seconds)} reviews)"]
    return "\n".join(lines)


def _pct(ok: int, n: int) -> str:
    return f"{100.0 * ok / n:5.1f}%" if n else "  n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.review_quality",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--per-kind", type=int, default=20, help="blunder deals per kind")
    parser.add_argument("--kinds", default=",".join(KINDS), help="blunder kinds, comma-separated")
    parser.add_argument("--hard-deals", type=int, default=10, help="hard v hard deals reviewed")
    parser.add_argument("--hard-samples", type=int, default=DEFAULT_MAX_SAMPLES,
                        help="samples per search of the hard players who play the deals "
                             "(default: the hard player's own)")
    parser.add_argument("--hard-level", choices=HARD_LEVELS, default="search",
                        help="who plays the deals of figure 2: the search player, as the "
                             "blunder cases (default), or today's hard, the learned player")
    parser.add_argument("--seed", default="1", help="seed of the deals made")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--cases", metavar="DIR",
                        help="keep the deals made (blunder cases, hard v hard deals) in DIR "
                             "and take them from there next time: a change to the review is "
                             "measured again in minutes. They are the deals of the code that "
                             "made them: empty DIR after changing the hard player")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown kinds {sorted(unknown)} (known: {', '.join(KINDS)})")
    print(run(args.per_kind, args.hard_deals, args.hard_samples, args.seed,
              args.jobs, kinds, args.cases, args.hard_level))
    return 0


if __name__ == "__main__":
    sys.exit(main())

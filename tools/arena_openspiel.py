"""Chinois against OpenSpiel's IS-MCTS, on duplicate pairs of deals.

OpenSpiel's ``oh_hell`` with ``players`` 4, ``off_bid_penalty`` and ``points_per_trick`` 2
is Chinois for the rounds of 1 to 12 cards: the dealer bids last and may not make the bids
add up to the tricks ("tout sauf"), a seat must follow suit and need not trump, an exact
bid scores 10 + 2 a trick and a missed one -2 a trick of difference. Each pair deals one
round (``seeded_deal(f"{seed}:{k}", round)``, the rounds of ``--rounds`` in turn, the
schedule's dealer) and plays it twice: this engine's ``--level`` player in seats 0 and 2
against OpenSpiel's C++ IS-MCTS bot (``pyspiel.ISMCTSBot``: random rollouts, ``uct_c`` 2,
``--sims`` simulations, the most visited action) in seats 1 and 3, then the sides swapped
on the same cards. The deal is set up in both engines (oh_hell's chance nodes given the
number of tricks, the dealer, the cards one by one round the table from seat 0, then the
turned card), every decision is applied to both, and both must offer the same legal
actions at every step and end with the same scores: a disagreement stops the run.

A deal's margin is the mean score of this side's two seats less the mean of the other
side's two ("points a seat a deal"); a pair's value is the mean of its two deals' margins,
so the luck of the cards cancels. Printed: that value's mean with its 95% confidence
interval (Student's t over the pairs), each side's mean score a seat, the same per round
size, and each side's time per decision with a choice (p50, p99; a forced play is played
at once by both sides).

oh_hell cannot deal Chinois's rounds of 13 cards: it turns a trump card after every deal,
so it deals at most 12 tricks to four seats. Those rounds (13 to 16 of ``--rounds``) are
played in this engine only, against its ``--thirteen-vs`` player (``hard`` by default), and
reported apart.

With ``--fair`` IS-MCTS no longer sees which cards are out of play. oh_hell's
``ResampleFromInfostate``, which ``ISMCTSBot`` samples its worlds with, shuffles only the
cards dealt to the other seats and never deals them a card of the undealt pack, so searching
the true state tells IS-MCTS which cards nobody holds, which no player can know. With
``--fair`` each of its decisions searches instead a substitute oh_hell state: the same number
of tricks, dealer, own hand, turned card, bids and plays, but the cards that seat cannot see
(the other seats' unplayed cards and the pack) redealt at random among the other seats and
the pack, as this engine's ``hard`` samples them (:func:`~engine.chinois.ai.hidden_hands`:
uniform among the deals that keep every suit a seat showed void in), from a seed of the
pair's seed and the decision. Its simulations then resample the other hands within that
world, so the pack it believes in is a random consistent one. The search (``ISMCTSBot``, its
settings) is unchanged; its action must be legal in the true state (else the run stops).
Without ``--fair`` a run is played as before the option existed.

Run: ``python -m tools.arena_openspiel --level hard --pairs 120 --sims 1000 --jobs 2``
(``make arena-openspiel`` builds ``.venv-openspiel``, which holds ``open_spiel``, and runs
it there). The pairs, their deals and every seed do not depend on ``--jobs``, but a run does
not repeat exactly: IS-MCTS is not reproducible from its seed (OpenSpiel keeps a node's
children in a hash map whose order of iteration changes from one map to the next, and that
order breaks its ties), and ``hard``'s 30 ms budget makes its choices depend on the
machine's load (``hard-full`` has none). The confidence interval counts that noise.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from types import ModuleType
from typing import Any

from engine.cards import Card
from engine.chinois.actions import Action, Bid, Play
from engine.chinois.ai import HardPlayer, Player, PlayoutPlayer, hidden_hands, make_player
from engine.chinois.deal import Deal, seeded_deal
from engine.chinois.game import ChinoisGame
from engine.chinois.legal import legal_bids, legal_cards
from engine.chinois.rules import MAX_CARDS, N_SEATS, ROUNDS, cards_in_round
from engine.chinois.view import Phase
from tools.arena_tricks import percentile

GAME = "oh_hell"
GAME_PARAMETERS: dict[str, Any] = {"players": N_SEATS, "off_bid_penalty": True,
                                   "points_per_trick": 2}
UCT_C = 2.0
DECK_SIZE = 52
"""oh_hell's actions: 0..51 a card, 52 + n a bid of n."""
SPIEL_SUIT = (0, 1, 3, 2)
"""oh_hell's suit of each of ours: it numbers them C D S H, we c d h s. A card is
``rank * 4 + suit`` in both, the ranks from the 2."""
OURS_SUIT = tuple(SPIEL_SUIT.index(s) for s in range(4))
LEVELS = ("easy", "normal", "hard", "hard-full", "hard-learned", "hard-v1")
"""``hard-full`` is ``hard`` with its 32 samples whatever the time they take (no 30 ms
budget): its strength then does not depend on the machine's load, and a run repeats.
``hard-learned`` is ``hard`` playing its cards by the learned play values instead (no
sampling, no clock). ``hard-v1`` is ``hard`` before its learned bids (issue 54):
``normal``'s bids, the same sampled play (:class:`~engine.chinois.ai.PlayoutPlayer`)."""
NOT_INSTALLED = ("open_spiel is not installed in this Python: `make arena-openspiel` builds "
                 ".venv-openspiel with it (requirements-openspiel.lock), or run "
                 "`pip install open_spiel` in a separate virtualenv.")


class Disagreement(RuntimeError):
    """The two engines differ on a legal set, the player to move or a score: a bug."""


def load_pyspiel() -> ModuleType | None:
    """OpenSpiel's module, or None when it is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    module: ModuleType = pyspiel
    return module


# -------------------------------------------------------------- the mapping

def to_spiel(action: Action) -> int:
    """Our action as oh_hell's."""
    if isinstance(action, Bid):
        return DECK_SIZE + action.bid
    return spiel_card(action.card)


def spiel_card(card: Card) -> int:
    return (card >> 2) * 4 + SPIEL_SUIT[card & 3]


def our_card(spiel: int) -> Card:
    return Card((spiel >> 2) * 4 + OURS_SUIT[spiel & 3])


def from_spiel(spiel: int, seat: int, phase: Phase) -> Action:
    """oh_hell's action ``spiel`` as ours, for ``seat`` in ``phase``."""
    if phase is Phase.BID:
        return Bid(seat, spiel - DECK_SIZE)
    return Play(seat, our_card(spiel))


def chance_actions(deal: Deal) -> list[int]:
    """oh_hell's chance outcomes that deal ``deal``: the number of tricks, the dealer, then
    the cards one at a time, the k-th to seat k mod 4, then the turned card."""
    if deal.trump_card is None:
        raise ValueError(f"oh_hell turns a trump card after every deal; round {deal.round} "
                         "has none")
    n = len(deal.hands[0])
    cards = [spiel_card(deal.hands[s][i]) for i in range(n) for s in range(N_SEATS)]
    return [n, deal.dealer, *cards, spiel_card(deal.trump_card)]


def legal_actions(game: ChinoisGame) -> list[int]:
    """The legal actions of the seat to move in our engine, as oh_hell numbers them."""
    assert game.turn is not None
    view = game.view(game.turn)
    if game.phase is Phase.BID:
        return sorted(DECK_SIZE + b for b in legal_bids(view))
    return sorted(spiel_card(c) for c in legal_cards(view))


class Mirror:
    """The same deal in OpenSpiel's oh_hell, checked against ours at each step."""

    def __init__(self, spiel_game: Any, deal: Deal) -> None:
        self.state = spiel_game.new_initial_state()
        for outcome in chance_actions(deal):
            offered = {a for a, _ in self.state.chance_outcomes()}
            if not self.state.is_chance_node() or outcome not in offered:
                raise Disagreement(f"oh_hell would not deal {outcome} in round {deal.round}")
            self.state.apply_action(outcome)
        self.checked = 0

    def check(self, game: ChinoisGame) -> list[int]:
        """Both engines' legal actions of the seat to move, which must be the same."""
        if self.state.current_player() != game.turn:
            raise Disagreement(f"oh_hell has player {self.state.current_player()} to move, "
                               f"this engine seat {game.turn}")
        ours = legal_actions(game)
        theirs = sorted(self.state.legal_actions())
        if ours != theirs:
            raise Disagreement(f"seat {game.turn} in {game.phase.value}: legal here {ours}, "
                               f"in oh_hell {theirs}")
        self.checked += 1
        return ours

    def apply(self, action: Action) -> None:
        self.state.apply_action(to_spiel(action))

    def finish(self, game: ChinoisGame) -> None:
        scores = list(game.history[-1].scores)
        returns = [int(r) for r in self.state.returns()]
        if not self.state.is_terminal() or returns != scores:
            raise Disagreement(f"round {game.round}: scores {scores} here, {returns} in "
                               f"oh_hell (terminal: {self.state.is_terminal()})")


# ------------------------------------------------------------- the fair world

def fair_deal(game: ChinoisGame, actions: Sequence[Action], rng: random.Random) -> Deal:
    """A deal the seat to move in ``game`` cannot tell from the true one: its own hand, the
    round, dealer and turned card as dealt, each other seat's played cards (``actions``,
    this round's so far) as played, and the cards it has not seen redealt at random among
    the other seats' unplayed cards and the pack by :func:`~engine.chinois.ai.hidden_hands`
    (no seat gets a suit it has shown void in)."""
    seat = game.turn
    assert seat is not None
    now = hidden_hands(game.view(seat))(rng)
    played: list[list[Card]] = [[] for _ in range(N_SEATS)]
    for action in actions:
        if isinstance(action, Play):
            played[action.seat].append(action.card)
    hands = tuple(game.deal.hands[s] if s == seat else (*played[s], *now[s])
                  for s in range(N_SEATS))
    return replace(game.deal, hands=hands)


def fair_state(spiel_game: Any, game: ChinoisGame, actions: Sequence[Action],
               rng: random.Random) -> Any:
    """oh_hell's state of :func:`fair_deal`'s world after ``actions``: what the seat to move
    knows is the same as in the true state, the rest a random draw."""
    mirror = Mirror(spiel_game, fair_deal(game, actions, rng))
    for action in actions:
        mirror.apply(action)
    return mirror.state


def undealt(deal: Deal) -> set[Card]:
    """The cards of the pack: neither dealt nor turned."""
    out = {c for hand in deal.hands for c in hand}
    if deal.trump_card is not None:
        out.add(deal.trump_card)
    return {Card(c) for c in range(DECK_SIZE)} - out


# ------------------------------------------------------------------ the play

@dataclass(frozen=True)
class Settings:
    """What every pair of a run is played with."""

    seed: str
    level: str
    sims: int
    rounds: tuple[int, ...]
    thirteen_vs: str
    fair: bool = False
    """IS-MCTS searches a redealt world (:func:`fair_state`), not the true state."""


@dataclass
class DealResult:
    """One deal of a pair, as played."""

    ours: tuple[int, int]
    """This side's seats."""
    scores: tuple[int, ...]
    actions: list[Action]
    checked: int
    """Decisions whose legal sets both engines compared (0 without OpenSpiel)."""
    our_ms: list[float] = field(default_factory=list)
    their_ms: list[float] = field(default_factory=list)

    @property
    def margin(self) -> float:
        """This side's mean score a seat less the other side's."""
        ours = sum(self.scores[s] for s in self.ours) / 2
        theirs = (sum(self.scores) - 2 * ours) / 2
        return ours - theirs


@dataclass
class PairResult:
    k: int
    round: int
    opponent: str
    deals: tuple[DealResult, DealResult]

    @property
    def n_cards(self) -> int:
        return cards_in_round(self.round)

    @property
    def value(self) -> float:
        return (self.deals[0].margin + self.deals[1].margin) / 2

    def side_means(self) -> tuple[float, float]:
        """This side's and the other side's mean score a seat over the pair."""
        ours = sum(d.scores[s] for d in self.deals for s in d.ours) / 4
        return ours, sum(sum(d.scores) for d in self.deals) / 4 - ours


def our_player(level: str) -> Player:
    """This engine's player of ``level`` (:data:`LEVELS`)."""
    if level == "hard-full":
        return HardPlayer(budget_ms=None)
    if level == "hard-learned":
        return HardPlayer(learned_play=True)
    if level == "hard-v1":
        return PlayoutPlayer()
    return make_player(level)


def seed_int(text: str) -> int:
    """A 31-bit seed for OpenSpiel from a text."""
    return zlib.crc32(text.encode()) & 0x7FFFFFFF


_SPIEL: dict[str, Any] = {}


def spiel_game(pyspiel: ModuleType) -> Any:
    """oh_hell with Chinois's parameters, loaded once per process."""
    if "game" not in _SPIEL:
        _SPIEL["game"] = pyspiel.load_game(GAME, GAME_PARAMETERS)
    return _SPIEL["game"]


def ismcts_bot(pyspiel: ModuleType, sims: int, seed: int) -> Any:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.ISMCTSBot(seed, evaluator, UCT_C, sims, -1,
                             pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)


def play_deal(deal: Deal, ours: tuple[int, int], settings: Settings, name: str) -> DealResult:
    """Play ``deal`` with ``settings.level`` in ``ours`` and the opponent elsewhere: IS-MCTS
    mirrored in oh_hell, or (13 cards) this engine's ``thirteen_vs`` player."""
    game = ChinoisGame(deal=deal)
    rng = random.Random(f"{name}:ours")
    player = our_player(settings.level)
    mirror: Mirror | None = None
    bot: Any = None
    other: Player | None = None
    if cards_in_round(deal.round) < MAX_CARDS:
        pyspiel = load_pyspiel()
        if pyspiel is None:
            raise RuntimeError(NOT_INSTALLED)
        mirror = Mirror(spiel_game(pyspiel), deal)
        bot = ismcts_bot(pyspiel, settings.sims, seed_int(f"{name}:ismcts"))
    else:
        other = our_player(settings.thirteen_vs)
    other_rng = random.Random(f"{name}:theirs")
    result = DealResult(ours=ours, scores=(), actions=[], checked=0)
    while game.phase in (Phase.BID, Phase.PLAY):
        seat = game.turn
        assert seat is not None
        legal = mirror.check(game) if mirror is not None else legal_actions(game)
        start = time.perf_counter()
        if seat in ours:
            action = player.act(game.view(seat), rng)
            assert action is not None
            times = result.our_ms
        elif len(legal) == 1:
            action = from_spiel(legal[0], seat, game.phase)
            times = result.their_ms
        elif other is not None:
            action = other.act(game.view(seat), other_rng)
            assert action is not None
            times = result.their_ms
        else:
            assert mirror is not None
            state = mirror.state
            if settings.fair:
                world = random.Random(f"{name}:fair:{len(result.actions)}")
                state = fair_state(mirror.state.get_game(), game, result.actions, world)
                if sorted(state.legal_actions()) != legal:
                    raise Disagreement(f"seat {seat}'s redealt world offers "
                                       f"{sorted(state.legal_actions())}, the true state "
                                       f"{legal}")
            chosen = int(bot.step(state))
            if chosen not in legal:
                raise Disagreement(f"IS-MCTS chose {chosen} for seat {seat}, not legal in "
                                   f"the true state ({legal})")
            action = from_spiel(chosen, seat, game.phase)
            times = result.their_ms
        if len(legal) > 1:
            times.append((time.perf_counter() - start) * 1000)
        game.apply(action)
        if mirror is not None:
            mirror.apply(action)
        result.actions.append(action)
    if mirror is not None:
        mirror.finish(game)
        result.checked = mirror.checked
    result.scores = tuple(game.history[-1].scores)
    return result


def deal_of(settings: Settings, k: int) -> Deal:
    """Pair ``k``'s deal: the ``k``-th of ``settings.rounds`` in turn, from the seed."""
    return seeded_deal(f"{settings.seed}:{k}", settings.rounds[k % len(settings.rounds)])


def play_pair(task: tuple[Settings, int]) -> PairResult:
    """Pair ``k``: its deal with this side in seats 0 and 2, then in 1 and 3."""
    settings, k = task
    deal = deal_of(settings, k)
    opponent = "IS-MCTS" if cards_in_round(deal.round) < MAX_CARDS else settings.thirteen_vs
    first = play_deal(deal, (0, 2), settings, f"{settings.seed}:{k}:0")
    second = play_deal(deal, (1, 3), settings, f"{settings.seed}:{k}:1")
    return PairResult(k, deal.round, opponent, (first, second))


def play_pairs(pairs: int, settings: Settings, jobs: int = 1) -> Iterator[PairResult]:
    """The pairs in order of ``k``, whatever ``jobs``."""
    tasks = [(settings, k) for k in range(pairs)]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            yield from pool.imap(play_pair, tasks, chunksize=1)
    else:
        yield from map(play_pair, tasks)


# ----------------------------------------------------------------- the report

def t_quantile(p: float, df: int) -> float:
    """Student's t quantile (Cornish-Fisher expansion about the normal; within 0.1% from
    5 degrees of freedom on)."""
    z = NormalDist().inv_cdf(p)
    v = float(df)
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3))


T975_FEW = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776}
"""Student's 97.5% quantile below 5 degrees of freedom, where the expansion falls short."""


def t975(df: int) -> float:
    """Student's t quantile of a two-sided 95% interval with ``df`` degrees of freedom."""
    return T975_FEW.get(df) or t_quantile(0.975, df)


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% confidence interval (t over the values)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def describe(values: Sequence[float]) -> str:
    mean, low, high = interval(values)
    return f"{mean:+.2f} (95% CI {low:+.2f} to {high:+.2f})"


def block(results: Sequence[PairResult], level: str, opponent: str) -> list[str]:
    """The figures of the pairs against one opponent."""
    values = [r.value for r in results]
    ours = statistics.fmean(r.side_means()[0] for r in results)
    theirs = statistics.fmean(r.side_means()[1] for r in results)
    won = sum(v > 0 for v in values)
    tied = sum(v == 0 for v in values)
    lines = [f"  {level} over {opponent}: {describe(values)} points a seat a deal; "
             f"{level} {ours:.2f}, {opponent} {theirs:.2f} a seat a deal",
             f"  pairs won {won}, tied {tied}, lost {len(values) - won - tied}"]
    sizes = sorted({r.n_cards for r in results})
    parts = []
    for n in sizes:
        some = [r.value for r in results if r.n_cards == n]
        mean, low, high = interval(some)
        ci = f" ({low:+.1f} to {high:+.1f})" if len(some) > 1 else ""
        parts.append(f"{n}: {mean:+.2f}{ci} ×{len(some)}")
    lines.append("  by cards a seat: " + "; ".join(parts))
    deals = [d for r in results for d in r.deals]
    checked = sum(d.checked for d in deals)
    if checked:
        lines.append(f"  engines agreed: every legal set of {checked} decisions and every "
                     f"final score of {len(deals)} deals")
    our_ms = [t for d in deals for t in d.our_ms]
    their_ms = [t for d in deals for t in d.their_ms]
    lines.append(f"  ms a decision with a choice: {level} p50 {percentile(our_ms, 0.5):.1f} "
                 f"p99 {percentile(our_ms, 0.99):.1f} ({len(our_ms)}); {opponent} "
                 f"p50 {percentile(their_ms, 0.5):.1f} p99 {percentile(their_ms, 0.99):.1f} "
                 f"({len(their_ms)})")
    return lines


def report(results: Sequence[PairResult], settings: Settings, seconds: float, jobs: int) -> str:
    """The run's figures: against IS-MCTS, then the 13-card rounds apart."""
    ismcts = [r for r in results if r.opponent == "IS-MCTS"]
    thirteen = [r for r in results if r.opponent != "IS-MCTS"]
    name = f"IS-MCTS({settings.sims})"
    variant = ("fair: IS-MCTS searches a redealt world, not the pack" if settings.fair else
               "not fair: IS-MCTS searches the true state, knows the pack")
    lines = [f"{settings.level}, Chinois rounds {spec_of(settings.rounds)}: {len(results)} "
             f"pairs ({2 * len(results)} deals) in {seconds:.1f} s wall, {jobs} job(s)"
             + (f"; {variant}" if ismcts else "")]
    if ismcts:
        lines.append(f"against {name} on {GAME} (uct_c {UCT_C:g}, random rollouts, most "
                     f"visited): {len(ismcts)} pairs")
        lines += block(ismcts, settings.level, name)
    if thirteen:
        lines.append(f"13-card rounds (no trump; oh_hell cannot deal them), against this "
                     f"engine's {settings.thirteen_vs}: {len(thirteen)} pairs")
        lines += block(thirteen, settings.level, settings.thirteen_vs)
    return "\n".join(lines)


# ------------------------------------------------------------------ the command

def parse_rounds(text: str) -> tuple[int, ...]:
    """``1-12``, ``13-16`` or ``1,5,13``: Chinois round numbers (1..28)."""
    rounds: list[int] = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        try:
            first, last = int(low), int(high or low)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not rounds: {text!r}") from None
        if not 1 <= first <= last <= ROUNDS:
            raise argparse.ArgumentTypeError(f"rounds are 1 to {ROUNDS}, not {part!r}")
        rounds.extend(range(first, last + 1))
    return tuple(rounds)


def positive(text: str) -> int:
    """A whole number of 1 or more, for argparse."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {value}")
    return value


def spec_of(rounds: Sequence[int]) -> str:
    if list(rounds) == list(range(rounds[0], rounds[-1] + 1)):
        return f"{rounds[0]}-{rounds[-1]}" if len(rounds) > 1 else str(rounds[0])
    return ",".join(map(str, rounds))


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tools.arena_openspiel",
                                description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--level", choices=LEVELS, default="hard", help="this engine's player")
    p.add_argument("--pairs", type=positive, default=120, help="pairs of deals")
    p.add_argument("--sims", type=positive, default=1000, help="IS-MCTS simulations a decision")
    p.add_argument("--seed", default="openspiel", help="prefix of the deals' seeds")
    p.add_argument("--rounds", type=parse_rounds, default=parse_rounds("1-12"),
                   help="Chinois rounds dealt in turn (1-12: 1 to 12 cards; 13-16: the "
                   "13-card rounds, played against --thirteen-vs)")
    p.add_argument("--thirteen-vs", choices=LEVELS, default="hard",
                   help="this engine's opponent in the 13-card rounds")
    p.add_argument("--fair", action="store_true",
                   help="IS-MCTS searches a world redealt from what its seat knows instead of "
                   "the true state, which shows it the undealt cards")
    p.add_argument("--jobs", type=positive, default=1,
                   help="processes playing pairs side by side (results do not depend on it)")
    p.add_argument("--report-every", type=int, default=0,
                   help="print the figures so far every N pairs (0: only at the end)")
    p.add_argument("--quiet", action="store_true", help="no line per pair")
    return p


def main(argv: Sequence[str] | None = None) -> None:
    args = parser().parse_args(argv)
    settings = Settings(args.seed, args.level, args.sims, args.rounds, args.thirteen_vs,
                        args.fair)
    needs_spiel = any(cards_in_round(r) < MAX_CARDS for r in settings.rounds[:args.pairs])
    if needs_spiel and load_pyspiel() is None:
        print(f"arena_openspiel: {NOT_INSTALLED}", file=sys.stderr)
        raise SystemExit(2)
    start = time.perf_counter()
    results: list[PairResult] = []
    try:
        for result in play_pairs(args.pairs, settings, args.jobs):
            results.append(result)
            if not args.quiet:
                print(f"  pair {result.k} (round {result.round}): {result.value:+.1f} "
                      f"{[list(d.scores) for d in result.deals]}", file=sys.stderr, flush=True)
            if args.report_every and len(results) % args.report_every == 0 \
                    and len(results) < args.pairs:
                so_far = report(results, settings, time.perf_counter() - start, args.jobs)
                print(so_far.replace("\n", " (so far)\n", 1), flush=True)
    except Disagreement as exc:
        print(f"arena_openspiel: the engines disagree (a bug): {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    print(report(results, settings, time.perf_counter() - start, args.jobs), flush=True)


if __name__ == "__main__":
    main()

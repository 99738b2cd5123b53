"""The ``search`` player: the ``normal`` heuristics plus a determinized Monte Carlo search.

(It was the ``hard`` level before the learned evaluator, :mod:`~engine.tichu.ai.hard`;
the coach's hints still search with it, and the arenas measure against it.)

On its turn in the play phase, when the heuristics leave a real choice, the
player takes the few best candidate plays (and the pass), deals the unseen
cards many times consistently with what the seat knows
(:mod:`~engine.tichu.ai.sampling`), and for every such deal plays each
candidate out to the end of the deal on the engine with the ``normal`` policy
for every seat, four or six (:mod:`~engine.tichu.ai.search`). All candidates share the
same deals, so their difference is measured with far less noise than their
value. The candidate with the best mean deal score (ours minus theirs) wins;
ties keep the heuristic order.

The search stops at ``max_samples`` deals or when ``budget_ms`` is spent,
whichever comes first, keeping only complete deals. With ``budget_ms=None`` it
always plays ``max_samples`` deals, so its choices depend only on the
``random.Random`` it is given; with a time budget they are deterministic as
long as the cap is reached within it.

A borderline Tichu call (within :data:`TICHU_DOUBT` of the threshold) is also
checked by search: the seat calls if it finishes first in enough sampled
deals. Grand Tichu, the exchange, bombs out of turn and the Dragon gift are
the ``normal`` player's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from engine.tichu.actions import Action
from engine.tichu.ai import bidding, tactics
from engine.tichu.ai.choices import play_action
from engine.tichu.ai.knowledge import Knowledge
from engine.tichu.ai.normal import NormalPlayer
from engine.tichu.ai.sampling import sample_hands
from engine.tichu.ai.search import apply_candidate, game_at, rollout
from engine.tichu.cards import DOG, MAHJONG
from engine.tichu.combos import Combo
from engine.tichu.legal import can_pass, legal_plays
from engine.tichu.view import TichuView

DEFAULT_BUDGET_MS = 150.0
DEFAULT_MAX_SAMPLES = 96
DEFAULT_CANDIDATES = 4
MIN_GAIN = 8.0
"""Points a deal another candidate must gain over the heuristic's choice."""
CLEAR_MARGIN = 50.0
"""A heuristic score this far ahead (going out) needs no search."""
TICHU_DOUBT = 0.4
"""Hands within this of the Tichu threshold are checked by search."""
TICHU_FIRST_OUT = 0.5
"""Share of sampled deals the seat must finish first to call a borderline Tichu."""
PRUNE_BELOW = -2.5
"""Heuristic scores this low mark plays the heuristics rule out (see ``tactics``)."""


def tichu_by_heuristics(view: TichuView, threshold: float = bidding.TICHU_THRESHOLD
                        ) -> bool | None:
    """Whether the hard player calls Tichu on the hand by its heuristics alone: yes
    above ``threshold`` + :data:`TICHU_DOUBT`, no below ``threshold`` - it; None for a
    borderline hand between, which it settles by search."""
    if not bidding.wants_tichu(view, threshold - TICHU_DOUBT):
        return False
    if bidding.wants_tichu(view, threshold + TICHU_DOUBT):
        return True
    return None


def needs_search(ranked: Sequence[tuple[float, Combo | None]]) -> bool:
    """Whether the heuristics' ranking (:func:`~engine.tichu.ai.tactics.rank_plays`)
    leaves a choice to search: more than one play, and no favourite
    :data:`CLEAR_MARGIN` ahead (going out)."""
    return len(ranked) > 1 and ranked[0][0] < CLEAR_MARGIN


def search_candidates(ranked: Sequence[tuple[float, Combo | None]], may_pass: bool,
                      k: int = DEFAULT_CANDIDATES) -> list[Combo | None]:
    """The plays a search compares (None: the pass), the heuristics' favourite first:
    the ``k`` best, less the plays the heuristics rule out (taking the partner's
    trick, leading a bomb, going out before a calling partner: not worth rollouts),
    and the pass when it is allowed."""
    top_score = ranked[0][0]
    candidates = [c for score, c in ranked[:k]
                  if c is None or score == top_score or score > PRUNE_BELOW]
    if may_pass and None not in candidates:
        candidates.append(None)
    return candidates


class SearchPlayer(NormalPlayer):
    """Heuristics plus a determinized Monte Carlo search over the best few plays."""

    def __init__(self, *, budget_ms: float | None = DEFAULT_BUDGET_MS,
                 max_samples: int = DEFAULT_MAX_SAMPLES,
                 candidates: int = DEFAULT_CANDIDATES) -> None:
        super().__init__()
        self.budget_ms = budget_ms
        self.max_samples = max(1, max_samples)
        self.candidates = max(2, candidates)
        self.last_samples = 0
        """How many deals the last search played (for tests and the arena)."""
        self.last_search: tuple[tuple[Combo | None, float], ...] = ()
        """The last play search's candidates (None: the pass), each with its mean deal
        score over the sampled deals (the seat's team minus the other); empty when the
        last play needed no search. Read by the coach's hints."""
        self._deadline: float | None = None

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        # One budget per decision: a Tichu check and a play search in the same
        # call share it.
        if self.budget_ms is not None:
            self._deadline = time.perf_counter() + self.budget_ms / 1000.0
        return super().act(view, rng)

    def play(self, view: TichuView, know: Knowledge, rng: random.Random) -> Action:
        seat = view.seat
        assert seat is not None
        plays = legal_plays(view)
        may_pass = can_pass(view)
        ranked = tactics.rank_plays(view, know, plays, may_pass)
        self.last_samples = 0
        self.last_search = ()
        if not needs_search(ranked):
            return self._action(view, know, ranked[0][1])
        candidates = search_candidates(ranked, may_pass, self.candidates)
        if len(candidates) == 1:
            return self._action(view, know, candidates[0])
        best = self.search(view, know, candidates, rng)
        return self._action(view, know, best)

    def wants_tichu(self, view: TichuView, know: Knowledge, rng: random.Random) -> bool:
        """A clear Tichu hand calls at once; a borderline one calls only if the
        seat goes out first in enough sampled deals played out from here."""
        calls = tichu_by_heuristics(view, self.tichu_threshold)
        if calls is not None:
            return calls
        return self.first_out_chance(view, know, rng) >= TICHU_FIRST_OUT

    def first_out_chance(self, view: TichuView, know: Knowledge, rng: random.Random) -> float:
        """Share of sampled deals, played out by the rollout policy, that the seat
        finishes first."""
        seat = view.seat
        assert seat is not None
        deadline = self._deadline if self.budget_ms is not None else None
        first = samples = 0
        while samples < self.max_samples:
            game = game_at(view, sample_hands(view, know, rng))
            rollout(game, seat % 2)
            first += bool(game.history) and game.history[-1].out[:1] == (seat,)
            samples += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.last_samples = samples
        return first / samples

    def _action(self, view: TichuView, know: Knowledge, combo: Combo | None) -> Action:
        return play_action(view, know, combo)

    def search(self, view: TichuView, know: Knowledge, candidates: list[Combo | None],
               rng: random.Random) -> Combo | None:
        """The heuristic's choice, unless another candidate does clearly better over
        the sampled deals.

        ``candidates[0]`` is the heuristic's favourite. Rollouts are noisy and the
        rollout policy is simpler than the heuristics, so another candidate must
        beat it by :data:`MIN_GAIN` points a deal on average and by two standard
        errors of the paired differences.
        """
        seat = view.seat
        assert seat is not None
        team = seat % 2
        wish = tactics.choose_wish(view, know)
        dog_to = tactics.choose_dog_target(view)
        deadline = self._deadline if self.budget_ms is not None else None
        k = len(candidates)
        diffs: list[list[float]] = [[] for _ in range(k)]
        totals = [0] * k
        samples = 0
        while samples < self.max_samples:
            began = time.perf_counter()
            hands = sample_hands(view, know, rng)
            scores = []
            for combo in candidates:
                game = game_at(view, hands)
                to = dog_to if combo is not None and combo.cards == (DOG,) else None
                apply_candidate(game, seat, combo, wish if combo and MAHJONG in combo.cards else None,
                                to)
                scores.append(rollout(game, team))
            for i in range(k):
                diffs[i].append(scores[i] - scores[0])
                totals[i] += scores[i]
            samples += 1
            if deadline is not None:
                now = time.perf_counter()
                # Stop when the next deal would probably end past the deadline.
                if now + (now - began) > deadline:
                    break
        self.last_samples = samples
        self.last_search = tuple((c, t / samples) for c, t in zip(candidates, totals, strict=True))
        best, best_mean = 0, 0.0
        for i in range(1, k):
            mean, error = mean_error(diffs[i])
            if mean > max(MIN_GAIN, 2.0 * error) and mean > best_mean:
                best, best_mean = i, mean
        return candidates[best]


def mean_error(values: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the mean."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("inf")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, (var / n) ** 0.5

"""One sampler of hidden hands for every game: deal the cards a seat cannot see.

The hard players of all three games decide by playing the deal out on guesses at
the other hands. Each game turns what its view shows into the same small problem,
and this module, which knows no game, solves it:

- ``unseen``: the cards to share out (in the other hands, or in a pile a game adds
  as a pseudo-seat: Tichu's cards played unseen, Tysiacha's prikup);
- ``counts``: how many cards each seat (any ``int`` key) gets, exactly;
- ``held``: per seat, cards known to be in its hand (a card we gave it in an
  exchange and have not seen played; the other half of a marriage it declared);
- ``barred``: per seat, cards it cannot hold (a suit it showed void in, a rank it
  showed it lacks);
- ``likely``: per seat, cards believed, not known, to be with it (Tysiacha's
  prikup with the soloist): kept one by one as long as they fit the known facts.

Method: exact. Every deal that gives each seat its count and keeps every
constraint is equally likely. A card that only one seat may hold is placed there;
the rest fall into classes of cards with the same set of possible seats (a few:
voids go by suit or rank). A deal is then a table of how many cards of each class
each seat gets, and a table stands for the product of the classes' multinomial
coefficients in deals. The number of deals that complete a table from one class
on, given the room left in each seat, is counted by memoised recursion; the
classes are drawn one by one, each split chosen with probability proportional to
the deals it leaves, and each class's cards are shuffled into the chosen counts.
Deterministic for a given ``random.Random``.

What it does not do, honestly:

- It is uniform among the consistent deals; it does not weigh a deal by how
  likely the other seats' past choices were with it (a bid, a discard). Such
  constraints that are not about single cards (a Tysiacha bid above 120 needs a
  marriage; the hands a seat would have bid with) go to ``accept``: plain
  rejection on top of the exact sampler, exact when a deal is accepted within
  ``tries`` and otherwise the last deal drawn.
- When the known facts contradict each other (a seat's memory missed a play),
  it drops the barred cards, then the held ones, and says so in
  :attr:`DealSampler.relaxed`.
- When the counting would be large (more than :data:`WORK_LIMIT` steps: many
  seats each with their own constraints; no position of the three games comes
  near), it deals the most constrained cards first instead, each to a seat chosen
  in proportion to its room among the seats that keep the rest placeable. Every
  deal then keeps every constraint, but seats with much room are favoured a
  little for the constrained cards: not uniform. :attr:`DealSampler.exact` tells.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from itertools import accumulate, combinations
from math import comb, factorial, prod
from typing import Generic, TypeVar

C = TypeVar("C", bound=int)

WORK_LIMIT = 50_000
"""Past this many steps of counting (an upper bound worked out first), deal greedily."""

_Class = tuple[tuple[int, ...], int]
"""The seats (by index) that may hold a class of cards, and how many cards it has."""


def _multinomial(n: int, parts: Iterable[int]) -> int:
    ways = factorial(n)
    for k in parts:
        ways //= factorial(k)
    return ways


def _splits(n: int, allowed: tuple[int, ...], caps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to put ``n`` cards in the ``allowed`` seats within their room ``caps``,
    as a vector over all seats."""
    room_after = [sum(caps[s] for s in allowed[i + 1:]) for i in range(len(allowed))]
    split = [0] * len(caps)

    def fill(i: int, left: int) -> Iterator[tuple[int, ...]]:
        seat = allowed[i]
        if i == len(allowed) - 1:
            if left <= caps[seat]:
                split[seat] = left
                yield tuple(split)
                split[seat] = 0
            return
        for take in range(max(0, left - room_after[i]), min(left, caps[seat]) + 1):
            split[seat] = take
            yield from fill(i + 1, left - take)
        split[seat] = 0

    if n == 0:
        yield (0,) * len(caps)
    elif allowed:
        yield from fill(0, n)


@lru_cache(maxsize=1 << 15)
def _ways(classes: tuple[_Class, ...], caps: tuple[int, ...]) -> int:
    """How many deals place ``classes`` (card by card) to fill the room ``caps`` exactly."""
    if not classes:
        return 0 if any(caps) else 1
    (allowed, n), rest = classes[0], classes[1:]
    if not rest:
        if sum(caps) != n or any(caps[s] for s in range(len(caps)) if s not in allowed):
            return 0
        return _multinomial(n, caps)
    total = 0
    for split in _splits(n, allowed, caps):
        after = _ways(rest, tuple(c - x for c, x in zip(caps, split, strict=True)))
        if after:
            total += _multinomial(n, split) * after
    return total


def _work(classes: tuple[_Class, ...], caps: tuple[int, ...]) -> int:
    """An upper bound on the splits the counting looks at."""
    states, most, work = 1, prod(c + 1 for c in caps), 0
    for allowed, n in classes[:-1]:
        splits = comb(n + len(allowed) - 1, len(allowed) - 1) if allowed else 1
        work += states * splits
        states = min(states * splits, most)
    return work


def _placeable(classes: Iterable[_Class], caps: tuple[int, ...]) -> bool:
    """Whether the classes fit the room exactly (Hall's condition: for every set of
    seats, the cards that may go only there fit in their room)."""
    classes = list(classes)
    if sum(n for _, n in classes) != sum(caps) or min(caps, default=0) < 0:
        return False
    k = len(caps)
    for size in range(1, k):
        for seats in combinations(range(k), size):
            inside = set(seats)
            need = sum(n for allowed, n in classes if set(allowed) <= inside)
            if need > sum(caps[s] for s in seats):
                return False
    return all(allowed or not n for allowed, n in classes)


class _Plan(Generic[C]):
    """The cards placed for sure and the classes left to share, for one set of constraints."""

    def __init__(self, placed: list[list[C]], caps: tuple[int, ...],
                 classes: list[tuple[tuple[int, ...], list[C]]]) -> None:
        self.placed = placed
        self.caps = caps
        # The class with the most splits goes last, where its split is forced.
        classes.sort(key=lambda ac: (comb(len(ac[1]) + len(ac[0]) - 1, max(0, len(ac[0]) - 1)),
                                     ac[0]))
        self.cards = [cards for _, cards in classes]
        self.classes: tuple[_Class, ...] = tuple((allowed, len(cards))
                                                 for allowed, cards in classes)
        self.feasible = _placeable(self.classes, caps)
        self.exact = _work(self.classes, caps) <= WORK_LIMIT
        self._options: dict[tuple[int, tuple[int, ...]],
                            tuple[list[tuple[int, ...]], list[int]]] = {}

    def draw(self, rng: random.Random) -> list[list[C]]:
        hands = [list(h) for h in self.placed]
        if self.exact:
            self._draw_exact(hands, rng)
        else:
            self._draw_greedy(hands, rng)
        return hands

    def _draw_exact(self, hands: list[list[C]], rng: random.Random) -> None:
        caps = self.caps
        last = len(self.classes) - 1
        for i, (allowed, _) in enumerate(self.classes):
            if i == last:
                split = caps
            else:
                splits, bounds = self._choices(i, caps)
                split = splits[bisect_right(bounds, rng.randrange(bounds[-1]))]
            cards = list(self.cards[i])
            rng.shuffle(cards)
            at = 0
            for seat in allowed:
                hands[seat].extend(cards[at:at + split[seat]])
                at += split[seat]
            caps = tuple(c - x for c, x in zip(caps, split, strict=True))

    def _choices(self, i: int, caps: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        """The splits of class ``i`` that can be completed, with running totals of
        the deals each leaves."""
        key = (i, caps)
        found = self._options.get(key)
        if found is None:
            allowed, n = self.classes[i]
            rest = self.classes[i + 1:]
            splits, weights = [], []
            for split in _splits(n, allowed, caps):
                after = _ways(rest, tuple(c - x for c, x in zip(caps, split, strict=True)))
                if after:
                    splits.append(split)
                    weights.append(_multinomial(n, split) * after)
            found = self._options[key] = (splits, list(accumulate(weights)))
        return found

    def _draw_greedy(self, hands: list[list[C]], rng: random.Random) -> None:
        """The fallback: the most constrained cards first, each to a seat in proportion
        to its room among those that leave the rest placeable."""
        caps = list(self.caps)
        todo = [(allowed, c) for allowed, cards in zip((a for a, _ in self.classes), self.cards,
                                                        strict=True) for c in cards]
        rng.shuffle(todo)
        todo.sort(key=lambda ac: len(ac[0]))
        counts = {allowed: n for allowed, n in self.classes}
        for allowed, c in todo:
            counts[allowed] -= 1
            seats = []
            for s in allowed:
                if caps[s] <= 0:
                    continue
                caps[s] -= 1
                if _placeable(counts.items(), tuple(caps)):
                    seats.append(s)
                caps[s] += 1
            seat = rng.choices(seats, [caps[s] for s in seats])[0]
            caps[seat] -= 1
            hands[seat].append(c)


class DealSampler(Generic[C]):
    """Deals ``unseen`` among the seats of ``counts`` keeping to the constraints (see the
    module's notes); build it once per decision, then :meth:`deal` as often as needed.

    A held or barred card that is not among ``unseen`` (it was played) is ignored.
    Raises ``ValueError`` if the counts do not add up to the unseen cards.
    """

    def __init__(self, unseen: Iterable[C], counts: Mapping[int, int], *,
                 held: Mapping[int, Iterable[int]] | None = None,
                 barred: Mapping[int, Iterable[int]] | None = None,
                 likely: Mapping[int, Iterable[int]] | None = None) -> None:
        by_value: dict[int, C] = {int(c): c for c in unseen}
        self.seats: tuple[int, ...] = tuple(sorted(counts))
        if any(counts[s] < 0 for s in self.seats):
            raise ValueError(f"negative hand size in {dict(counts)}")
        if sum(counts.values()) != len(by_value):
            raise ValueError(f"{len(by_value)} unseen cards for hands of {dict(counts)}")
        self._cards = [by_value[v] for v in sorted(by_value)]
        self._counts = tuple(counts[s] for s in self.seats)

        def per_seat(given: Mapping[int, Iterable[int]] | None) -> dict[int, set[int]]:
            out: dict[int, set[int]] = {}
            for s, cards in (given or {}).items():
                if s in counts:
                    out[s] = {int(c) for c in cards if int(c) in by_value}
            return out

        hold, bar = per_seat(held), per_seat(barred)
        self.relaxed: tuple[str, ...] = ()
        """The constraints dropped because they contradicted each other: ``"barred"``,
        then also ``"held"``."""
        plan = self._plan(hold, bar)
        if not plan.feasible:
            self.relaxed = ("barred",)
            plan = self._plan(hold, {})
        if not plan.feasible:
            self.relaxed = ("barred", "held")
            plan = self._plan({}, {})
        kept = {} if "held" in self.relaxed else {s: set(cs) for s, cs in hold.items()}
        self.dropped: list[tuple[int, int]] = []
        """The ``likely`` (seat, card) pins left out as inconsistent with the facts."""
        for s, cards in sorted(per_seat(likely).items()):
            for c in sorted(cards):
                kept.setdefault(s, set()).add(c)
                trial = self._plan(kept, bar if "barred" not in self.relaxed else {})
                if trial.feasible:
                    plan = trial
                else:
                    kept[s].discard(c)
                    self.dropped.append((s, c))
        self._active = plan

    @property
    def exact(self) -> bool:
        """Whether deals are drawn uniformly (False: the greedy fallback, see the notes)."""
        return self._active.exact

    def _plan(self, hold: Mapping[int, set[int]], bar: Mapping[int, set[int]]) -> _Plan[C]:
        index = {s: i for i, s in enumerate(self.seats)}
        owner: dict[int, set[int]] = {}
        for s, cards in hold.items():
            for c in cards:
                owner.setdefault(c, set()).add(index[s])
        barred_from: dict[int, set[int]] = {}
        for s, cards in bar.items():
            for c in cards:
                barred_from.setdefault(c, set()).add(index[s])
        everyone = tuple(range(len(self.seats)))
        placed: list[list[C]] = [[] for _ in self.seats]
        groups: dict[tuple[int, ...], list[C]] = {}
        for c in self._cards:
            v = int(c)
            allowed = tuple(sorted(owner[v])) if v in owner else everyone
            if v in barred_from:
                allowed = tuple(s for s in allowed if s not in barred_from[v])
            if v in owner and len(owner[v]) > 1:
                allowed = ()  # held by two seats at once: contradiction
            if len(allowed) == 1:
                placed[allowed[0]].append(c)
            else:
                groups.setdefault(allowed, []).append(c)
        caps = tuple(n - len(p) for n, p in zip(self._counts, placed, strict=True))
        return _Plan(placed, caps, list(groups.items()))

    def deal(self, rng: random.Random, accept: Callable[[dict[int, list[C]]], bool] | None = None,
             tries: int = 1) -> dict[int, list[C]]:
        """One deal: each seat's cards, sorted. With ``accept``, up to ``tries`` deals are
        drawn and the first accepted (else the last) is returned."""
        hands: dict[int, list[C]] = {}
        for _ in range(max(1, tries)):
            drawn = self._active.draw(rng)
            hands = {s: sorted(h) for s, h in zip(self.seats, drawn, strict=True)}
            if accept is None or accept(hands):
                break
        return hands


def deal_hidden(unseen: Iterable[C], counts: Mapping[int, int], rng: random.Random, *,
                held: Mapping[int, Iterable[int]] | None = None,
                barred: Mapping[int, Iterable[int]] | None = None,
                likely: Mapping[int, Iterable[int]] | None = None) -> dict[int, list[C]]:
    """One deal of :class:`DealSampler` (for a single draw; build the sampler to draw many)."""
    return DealSampler(unseen, counts, held=held, barred=barred, likely=likely).deal(rng)

"""The shared sampler of hidden hands: constraints kept, hand sizes, determinism, uniformity."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import sampling
from engine.sampling import DealSampler, deal_hidden


@st.composite
def problems(draw: st.DrawFn) -> tuple[list[int], dict[int, int], dict[int, set[int]],
                                       dict[int, set[int]], dict[int, list[int]]]:
    """A true deal of some cards among 1..6 seats (a pile at -1 sometimes), and constraints
    read off it: cards each seat holds, cards it does not."""
    n_seats = draw(st.integers(1, 6))
    seats = list(range(n_seats)) + ([-1] if draw(st.booleans()) else [])
    cards = draw(st.lists(st.integers(0, 55), unique=True, max_size=40))
    truth: dict[int, list[int]] = {s: [] for s in seats}
    for c in cards:
        truth[draw(st.sampled_from(seats))].append(c)
    held: dict[int, set[int]] = {}
    barred: dict[int, set[int]] = {}
    for s in seats:
        held[s] = {c for c in truth[s] if draw(st.integers(0, 4)) == 0}
        # Voids come by "suit" here, as in the games: a few suits a seat lacks.
        lacking = draw(st.sets(st.integers(0, 3), max_size=3))
        barred[s] = {c for c in cards if c % 4 in lacking and c not in truth[s]}
        barred[s] |= {c for c in cards if c not in truth[s] and draw(st.integers(0, 9)) == 0}
    counts = {s: len(h) for s, h in truth.items()}
    return cards, counts, held, barred, truth


@settings(max_examples=150)
@given(problems(), st.integers(0, 2**32 - 1))
def test_every_deal_keeps_the_sizes_and_every_constraint(
        problem: tuple[list[int], dict[int, int], dict[int, set[int]], dict[int, set[int]],
                       dict[int, list[int]]], seed: int) -> None:
    cards, counts, held, barred, _ = problem
    sampler = DealSampler(cards, counts, held=held, barred=barred)
    assert sampler.relaxed == ()  # the true deal keeps them all: nothing is dropped
    rng = random.Random(seed)
    for _ in range(5):
        hands = sampler.deal(rng)
        assert {s: len(h) for s, h in hands.items()} == counts
        assert sorted(c for h in hands.values() for c in h) == sorted(cards)
        for s, h in hands.items():
            assert held[s] <= set(h)
            assert not barred[s] & set(h)
            assert h == sorted(h)


@settings(max_examples=60)
@given(problems(), st.integers(0, 2**32 - 1))
def test_the_greedy_fallback_keeps_every_constraint_too(
        problem: tuple[list[int], dict[int, int], dict[int, set[int]], dict[int, set[int]],
                       dict[int, list[int]]], seed: int) -> None:
    cards, counts, held, barred, _ = problem
    old = sampling.WORK_LIMIT
    sampling.WORK_LIMIT = -1  # count nothing: every draw is greedy
    try:
        sampler = DealSampler(cards, counts, held=held, barred=barred)
    finally:
        sampling.WORK_LIMIT = old
    rng = random.Random(seed)
    for _ in range(3):
        hands = sampler.deal(rng)
        assert {s: len(h) for s, h in hands.items()} == counts
        assert sorted(c for h in hands.values() for c in h) == sorted(cards)
        for s, h in hands.items():
            assert held[s] <= set(h) and not barred[s] & set(h)


@settings(max_examples=40)
@given(problems(), st.integers(0, 2**32 - 1))
def test_the_same_seed_deals_the_same(
        problem: tuple[list[int], dict[int, int], dict[int, set[int]], dict[int, set[int]],
                       dict[int, list[int]]], seed: int) -> None:
    cards, counts, held, barred, _ = problem
    first = [DealSampler(cards, counts, held=held, barred=barred).deal(random.Random(seed))
             for _ in range(2)]
    again = deal_hidden(list(reversed(cards)), counts, random.Random(seed), held=held,
                        barred=barred)
    assert first[0] == first[1] == again


def test_each_card_lands_in_each_seat_in_proportion_to_its_size() -> None:
    counts = {0: 3, 1: 5, 2: 8, -1: 4}
    cards = list(range(20))
    sampler = DealSampler(cards, counts)
    rng = random.Random(2024)
    n = 4000
    seen = Counter((s, c) for _ in range(n) for s, h in sampler.deal(rng).items() for c in h)
    for s, k in counts.items():
        p = k / len(cards)
        sd = math.sqrt(n * p * (1 - p))
        for c in cards:
            assert abs(seen[(s, c)] - n * p) < 5 * sd, (s, c, seen[(s, c)], n * p)


def test_constrained_deals_are_uniform_among_the_consistent_ones() -> None:
    # Seat 0 lacks 0..2, seat 1 lacks 3..5, seat 2 holds 8: 8 cards in hands of 3, 3, 2.
    cards = list(range(8))
    counts = {0: 3, 1: 3, 2: 2}
    held = {2: [7]}
    barred = {0: [0, 1, 2], 1: [3, 4, 5]}
    consistent = []
    for where in itertools.product(counts, repeat=len(cards)):
        hands = {s: [c for c, w in zip(cards, where, strict=True) if w == s] for s in counts}
        if all(len(hands[s]) == k for s, k in counts.items()) and 7 in hands[2] and \
                not {0, 1, 2} & set(hands[0]) and not {3, 4, 5} & set(hands[1]):
            consistent.append(tuple(tuple(hands[s]) for s in counts))
    sampler = DealSampler(cards, counts, held=held, barred=barred)
    assert sampler.exact
    rng = random.Random(7)
    n = 200 * len(consistent)
    seen = Counter(tuple(tuple(h) for h in sampler.deal(rng).values()) for _ in range(n))
    assert set(seen) == set(consistent)
    # 200 expected draws each: a binomial's 5 standard deviations are about 71.
    assert all(abs(k - 200) < 71 for k in seen.values()), seen


def test_contradictions_drop_the_voids_then_the_held_cards() -> None:
    cards = list(range(6))
    # Seat 0 cannot hold 0..3 but must take 3 of the 6 cards, seat 1 only 1: impossible.
    sampler = DealSampler(cards, {0: 3, 1: 1, 2: 2}, barred={0: [0, 1, 2, 3], 1: [4, 5]})
    assert sampler.relaxed == ("barred",)
    # Card 5 held by two seats at once.
    both = DealSampler(cards, {0: 3, 1: 3}, held={0: [5], 1: [5]})
    assert both.relaxed == ("barred", "held")
    for s in (sampler, both):
        hands = s.deal(random.Random(1))
        assert sorted(c for h in hands.values() for c in h) == cards


def test_likely_cards_are_kept_where_they_fit() -> None:
    cards = list(range(8))
    # Seat 0 lacks suit 3 (cards 3 and 7); cards 5 and 7 are thought to be with seat 0.
    sampler = DealSampler(cards, {0: 4, 1: 4}, barred={0: [3, 7]}, likely={0: [5, 7]})
    assert sampler.dropped == [(0, 7)]
    rng = random.Random(5)
    for _ in range(50):
        hands = sampler.deal(rng)
        assert 5 in hands[0] and 7 in hands[1] and 3 in hands[1]


def test_accept_draws_again_and_keeps_the_last_when_none_fits() -> None:
    cards = list(range(10))
    sampler = DealSampler(cards, {0: 5, 1: 5})
    rng = random.Random(3)
    for _ in range(20):
        assert 0 in sampler.deal(rng, lambda h: 0 in h[0], tries=50)[0]
    hands = sampler.deal(rng, lambda h: False, tries=3)
    assert sorted(hands[0] + hands[1]) == cards


def test_played_cards_in_the_constraints_are_ignored_and_counts_must_add_up() -> None:
    hands = deal_hidden([1, 2, 3, 4], {0: 2, 1: 2}, random.Random(0), held={0: [99, 1]},
                        barred={1: [98]})
    assert 1 in hands[0]
    with pytest.raises(ValueError):
        DealSampler([1, 2, 3], {0: 2, 1: 2})
    with pytest.raises(ValueError):
        DealSampler([1, 2, 3], {0: 4, 1: -1})

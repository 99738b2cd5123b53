"""Hand evaluation: the cheapest plan to go out."""

from __future__ import annotations

from engine.tichu.ai.hand import BOMB, STRAIGHT, evaluate
from tests.engine.tichu.ai.tables import cards


def kinds(text: str) -> list[str]:
    return sorted(p.kind for p in evaluate(cards(text)).parts)


def test_a_straight_is_one_part() -> None:
    assert kinds("3c 4d 5h 6s 7c") == [STRAIGHT]
    assert kinds("MAHJONG 2d 3h 4s 5c") == [STRAIGHT]


def test_the_phoenix_fills_a_gap() -> None:
    assert kinds("3c 4d PHOENIX 6s 7c") == [STRAIGHT]


def test_bombs_stay_whole() -> None:
    plan = evaluate(cards("7c 7d 7h 7s 3c"))
    assert [p.kind for p in plan.parts if p.kind == BOMB] == [BOMB]
    plan = evaluate(cards("3h 4h 5h 6h 7h 7c"))
    assert any(p.kind == BOMB and len(p.cards) == 5 for p in plan.parts)


def test_fewer_combinations_cost_less() -> None:
    assert evaluate(cards("3c 3d 4h 4s")).combos == 1  # stairs
    assert evaluate(cards("9c 9d 9h Ks Kc")).combos == 1  # full house
    assert evaluate(cards("2c 5d 9h Js")).cost > evaluate(cards("2c 2d 3h 3s")).cost


def test_strong_hand_has_few_losers() -> None:
    strong = evaluate(cards("DRAGON Ac Ad Ah Kc Kd Ks Qc Jd Th 9s 8c 7d 6h"))
    weak = evaluate(cards("2c 3d 4h 6s 7c 8d 9h Jc Qd Ks 5d DOG Tc 2h"))
    assert strong.losers <= 1 < weak.losers
    assert strong.cost < weak.cost


def test_plans_are_pinned() -> None:
    """The plans (costs and parts, in order) of seeded hands, many with bombs,
    hashed: the search may get faster, its answers may not change."""
    import hashlib
    import random

    from engine.tichu.ai.hand import clear_caches

    clear_caches()
    rng = random.Random("plans")
    sha = hashlib.sha256()
    for i in range(600):
        if i % 3 == 0:  # fours of a kind likely
            ranks = rng.sample(range(13), 6)
        elif i % 3 == 1:  # straight flushes likely
            low = rng.randint(0, 7)
            ranks = list(range(low, low + 6))
        else:
            ranks = list(range(13))
        pool = [c for c in range(52) if c // 4 in ranks] + [52, 53, 54, 55]
        hand = rng.sample(pool, rng.randint(1, min(14, len(pool))))
        plan = evaluate(hand)
        sha.update(repr((plan.cost, plan.parts)).encode())
    assert sha.hexdigest()[:16] == "49a428051888ece8"

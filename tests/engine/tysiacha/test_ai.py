"""The computer players: legal at every step; normal bids, gives, concedes and declares."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.cards import card, parse_cards
from engine.tysiacha.actions import Bid, Concede, Give, Pass, Play, Raise, Redeal
from engine.tysiacha.ai import EasyPlayer, NormalPlayer, estimate, make_player, pending_seats
from engine.tysiacha.selfplay import play_game
from engine.tysiacha.view import Phase
from tests.engine.tysiacha.helpers import play_position, played_deal, position, run
from tests.engine.tysiacha.positions import DEFENCE, DEFENCE_TRICKS


def test_make_player_levels() -> None:
    assert isinstance(make_player("easy"), EasyPlayer)
    assert isinstance(make_player("normal"), NormalPlayer)
    hard = make_player("hard")
    assert isinstance(hard, NormalPlayer) and type(hard).__name__ == "HardPlayer"
    with pytest.raises(ValueError):
        make_player("expert")


@pytest.mark.parametrize("players", [3, 4])
def test_whole_games_between_computer_players(players: int) -> None:
    mix = [make_player(level) for level in ("normal", "easy", "normal", "easy")[:players]]
    game = play_game(mix, seed=6, n_players=players)
    assert game.winner is not None and game.phase is Phase.GAME_OVER


def test_normal_beats_easy() -> None:
    wins = sum(play_game([NormalPlayer(), EasyPlayer(), EasyPlayer()], seed=s,
                         max_deals=150).winner == 0 for s in range(6))
    assert wins >= 5


@pytest.mark.parametrize(
    ("hand", "low", "high"),
    [
        ("9c 9d 9h 9s Jc Jd Jh Js", 0, 10),
        ("Ac Tc Kc Qc Ad Td Ah Th", 150, 230),  # a clubs marriage and four masters
        ("Kh Qh 9c 9d 9s Jc Jd Js", 30, 60),  # a marriage but no master to win the lead
    ],
)
def test_estimate(hand: str, low: float, high: float) -> None:
    assert low <= estimate(parse_cards(hand.split())) <= high


def test_normal_passes_a_weak_hand_and_opens_when_it_must() -> None:
    game = position(["9c 9d Jc Jd 9h Jh Js", "", ""])
    assert NormalPlayer().act(game.view(0), random.Random(0)) == Bid(0, 100)
    game = position(["", "9c 9d Jc Jd 9h Jh Js", ""])
    run(game, "0 bid 100")
    assert NormalPlayer().act(game.view(1), random.Random(0)) == Pass(1)


def test_normal_concedes_a_hopeless_contract_while_it_is_free() -> None:
    game = run(position(["9c 9d Jc Jd 9h Jh Js", "", ""], "9s Qc Qd"), "0 bid 100", "1 pass",
               "2 pass")
    assert NormalPlayer().act(game.view(0), random.Random(0)) == Concede(0)
    game.concessions[0] = 2
    action = NormalPlayer().act(game.view(0), random.Random(0))
    assert isinstance(action, Give)


def test_normal_gives_its_worst_cards_and_raises_a_strong_hand() -> None:
    strong = "Ac Tc Kc Qc Ad Td Ah"
    game = run(position([strong, "", ""], "Th 9s Js"), "0 bid 100", "1 pass", "2 pass")
    action = NormalPlayer().act(game.view(0), random.Random(0))
    assert isinstance(action, Raise) and action.bid > 100
    game.apply(action)
    give = NormalPlayer().act(game.view(0), random.Random(0))
    assert isinstance(give, Give)
    assert {str(c) for _, c in give.give} == {"9s", "Js"}


def test_normal_declares_its_marriage_as_soon_as_it_leads() -> None:
    game = run(play_position(DEFENCE), *DEFENCE_TRICKS[0], *DEFENCE_TRICKS[1])
    action = NormalPlayer().act(game.view(1), random.Random(0))
    assert isinstance(action, Play) and action.marriage and str(action.card) == "Qs"


def test_four_nines_and_pending_seats() -> None:
    game = run(position(["", "9c 9d 9h 9s", ""]), "0 bid 100", "1 pass", "2 pass")
    run(game, f"0 give 1={game.hands[0][0]} 2={game.hands[0][1]}")
    assert pending_seats(game.view(None)) == (1, 2, 0)
    assert NormalPlayer().act(game.view(1), random.Random(0)) == Redeal(1)
    assert NormalPlayer().act(game.view(2), random.Random(0)) is None


def test_hard_plays_legal_cards_and_is_deterministic_without_a_budget() -> None:
    from engine.tysiacha.ai import HardPlayer
    from engine.tysiacha.legal import legal_cards

    hard = HardPlayer(samples=4, budget_ms=None)
    kinds: dict[str, int] = {}
    for seed in range(12):
        rng = random.Random(seed)
        for _, _, view, action in played_deal(f"legal:{seed}", rng, hard):
            if isinstance(action, Play):
                assert action.card in legal_cards(view)
            # Asked again, the same view gets the same answer.
            assert hard.act(view, rng) == action
            kinds[type(action).__name__] = kinds.get(type(action).__name__, 0) + 1
    assert kinds.get("Play", 0) >= 16 and kinds.get("Bid", 0) + kinds.get("Pass", 0) >= 24
    assert kinds.get("Give", 0) >= 1 and kinds.get("Concede", 0) >= 1


def test_hard_beats_normal_over_a_few_games() -> None:
    from engine.tysiacha.ai import HardPlayer

    hard = normal = 0.0
    for s in range(6):  # each seat twice, up to 30 deals a game (the arena plays 200 games)
        seat = s % 3
        players = [HardPlayer(samples=12, budget_ms=None) if i == seat else NormalPlayer()
                   for i in range(3)]
        scores = play_game(players, seed=f"hard:{s}", max_deals=30).scores
        hard += scores[seat]
        normal += (sum(scores) - scores[seat]) / 2
    assert hard > normal


def test_the_playouts_play_as_normal_does() -> None:
    from engine.tysiacha.ai import _normal_move
    from engine.tysiacha.cards import DECK

    compared = 0
    for seed in range(8):
        for _, seat, view, action in played_deal(f"same:{seed}", random.Random(seed)):
            if not isinstance(action, Play):
                continue
            gone = {*view.hand, *view.played, *view.trick.cards}
            others = [c for c in DECK if c not in gone]
            trick = [(p.seat, p.card) for p in view.trick.plays]
            may_marry = not trick and view.tricks_taken[seat] > 0
            assert view.soloist is not None
            assert _normal_move(list(view.hand), others, trick, view.trump, seat,
                                view.soloist, may_marry) == (action.card, action.marriage)
            compared += 1
    assert compared >= 60


def test_what_the_play_shows_a_void_stays_out_of_the_sampled_hands() -> None:
    from engine.tysiacha.ai import _deal_unseen, _knowledge

    # Seat 0 (the soloist) discards on spades in tricks 2 and 3; seat 1 makes spades trump
    # leading the Queen, so its King of spades is still in its hand.
    # Seat 0's last card, the Jack of diamonds, came from the prikup and is still in its hand.
    hands = ["Ac Tc Kc 9c Ah 9h 9d Jd", *DEFENCE[1:]]
    game = run(play_position(hands), *DEFENCE_TRICKS[0], *DEFENCE_TRICKS[1],
               *DEFENCE_TRICKS[2])
    view = game.view(2)
    voids, held, likely = _knowledge(view)
    assert voids[0] == {3} and not voids[1]
    assert {s: {str(c) for c in cs} for s, cs in held.items()} == {1: {"Ks"}}
    assert {s: {str(c) for c in cs} for s, cs in likely.items()} == {0: {"Jd"}}
    rng = random.Random(3)
    for _ in range(200):
        hands = _deal_unseen(view, rng)
        assert [len(hands[s]) for s in (0, 1)] == [view.hand_counts[0], view.hand_counts[1]]
        assert not any(c & 3 == 3 for c in hands[0])
        assert "Jd" in {str(c) for c in hands[0]} and "Ks" in {str(c) for c in hands[1]}


def test_hard_bids_on_a_strong_hand_and_passes_a_weak_one() -> None:
    from engine.tysiacha.ai import HardPlayer

    hard = HardPlayer(samples=24, budget_ms=None)
    strong = run(position(["", "Ah Th Kh Qh As Ts Ad", ""]), "0 bid 100")
    assert hard.act(strong.view(1), random.Random(0)) == Bid(1, 105)
    weak = run(position(["", "9c 9d Jc Jd 9h Jh Js", ""]), "0 bid 100")
    assert hard.act(weak.view(1), random.Random(0)) == Pass(1)
    opener = position(["9c 9d Jc Jd 9h Jh Js", "", ""])
    assert hard.act(opener.view(0), random.Random(0)) == Bid(0, 100)


def test_hard_concedes_a_hopeless_contract_and_raises_a_sure_one() -> None:
    from engine.tysiacha.ai import HardPlayer

    hard = HardPlayer(samples=24, budget_ms=None)
    game = run(position(["9c 9d Jc Jd 9h Jh Js", "", ""], "9s Qc Qd"), "0 bid 100", "1 pass",
               "2 pass")
    assert hard.act(game.view(0), random.Random(0)) == Concede(0)
    # Eight sure tricks (clubs drawn by the Ace, then the clubs marriage as trump) and 60:
    # every card point and the marriage make 180.
    game = run(position(["Ac Tc Kc Qc Ad Td Ah", "", ""], "Th 9s Js"), "0 bid 100", "1 pass",
               "2 pass")
    action = hard.act(game.view(0), random.Random(0))
    assert action == Raise(0, 180)
    game.apply(action)
    give = hard.act(game.view(0), random.Random(0))
    assert isinstance(give, Give) and {str(c) for _, c in give.give} == {"9s", "Js"}


def _plain_minimax(d: Any, leaf: Callable[[Any], float]) -> float:
    """Every line searched on copies, the tricks taken by the shared trick rules."""
    from engine.trick import TrickPlay, winning_play
    from engine.tysiacha.ai import _moves
    from engine.tysiacha.cards import MARRIAGE_VALUES, ORDER, POINTS

    if not d.trick and not d.hands[d.turn]:
        return leaf(d)
    values = []
    for c, declare in _moves(d):
        e = d.copy()
        e.hands[e.turn].remove(c)
        if declare:
            e.trump = c & 3
            e.marr[e.turn] += MARRIAGE_VALUES[c & 3]
        e.trick.append((e.turn, c))
        if len(e.trick) == 3:
            w = winning_play([TrickPlay(s, x) for s, x in e.trick], ORDER, e.trump).seat
            e.tricks[w] += 1
            e.points[w] += sum(POINTS[x] for _, x in e.trick)
            e.trick = []
            e.turn = w
        else:
            e.turn = e.nxt[e.turn]
        values.append(_plain_minimax(e, leaf))
    return max(values) if d.turn == d.soloist else min(values)


def test_the_endgame_search_agrees_with_plain_minimax() -> None:
    from engine.tysiacha.ai import _Deal, _search
    from engine.tysiacha.cards import DECK, KING, QUEEN

    rng = random.Random(11)
    for trial in range(40):
        marriage = [card(KING, 2), card(QUEEN, 2)] if trial % 4 == 0 else []
        cards = [c for c in DECK if c not in marriage]
        rng.shuffle(cards)
        size = 2 + trial % 2
        cards = marriage + cards  # the seat on lead holds the hearts marriage, if any
        lead = trial % 3
        order = [lead, (lead + 1) % 3, (lead + 2) % 3]
        hands: list[list[int]] = [[], [], []]
        for i, s in enumerate(order):
            hands[s] = cards[i * size:(i + 1) * size]
        trump = rng.choice([None, 0, 1, 2, 3])
        d = _Deal(hands, [1, 2, 0], lead, [], trump, [40, 20, 10], [2, 1, 1], [0, 0, 0], 0)

        def leaf(e: _Deal) -> float:
            return float(3 * (e.points[0] + e.marr[0]) - e.points[1] - 2 * e.points[2]
                         + e.tricks[0])

        before = [sorted(h) for h in d.hands]
        assert _search(d, leaf, -math.inf, math.inf) == _plain_minimax(d, leaf)
        assert [sorted(h) for h in d.hands] == before and d.trick == []


def test_a_playout_stops_at_the_end_of_a_trick_when_told() -> None:
    from engine.tysiacha.ai import _Deal, _finish
    from engine.tysiacha.cards import DECK

    cards = list(DECK)
    random.Random(3).shuffle(cards)
    hands = [cards[0:6], cards[6:12], cards[12:18]]
    whole = _Deal([list(h) for h in hands], [1, 2, 0], 1, [], None, [0] * 3, [0] * 3, [0] * 3, 0)
    _finish(whole)
    part = _Deal([list(h) for h in hands], [1, 2, 0], 1, [], None, [0] * 3, [0] * 3, [0] * 3, 0)
    _finish(part, None, 4)  # two tricks
    assert [len(h) for h in part.hands] == [4, 4, 4] and part.trick == []
    assert sum(part.tricks) == 2 and sum(whole.tricks) == 6
    _finish(part)  # and on from there, as the whole playout went
    assert part.points == whole.points and part.tricks == whole.tricks


def test_hard_decides_the_prikup_from_the_values_it_weighs() -> None:
    from engine.tysiacha.ai import HardPlayer, _Sheet

    hard = HardPlayer(samples=8, budget_ms=None)
    game = run(position(["Ac Tc Kd Qd 9h Jh Js", "", ""], "9s Qc Jc"), "0 bid 100", "1 pass",
               "2 pass")
    view = game.view(0)
    sums, n = hard.prikup_values(view)
    assert n == 8 and {b for _, b in sums} >= {100}
    assert hard.prikup_plan(view, (sums, n)) == hard.prikup_plan(view)
    conceded = _Sheet(view, 0).conceded(0)
    # Every choice worth the same: a point below conceding, it concedes; a point above, it
    # plays on, at the contract held (a raise must be worth more) and the first gifts.
    for above, concedes in ((-1.0, True), (1.0, False)):
        weighed = {key: (conceded + above) * n for key in sums}
        gifts, contract, concede = hard.prikup_plan(view, (weighed, n))
        assert (gifts, contract, concede) == (tuple(sorted(next(iter(sums))[0])), 100, concedes)

"""The computer players at a six-player table: legal play at every level, partners
helped, opponents watched, the exchange to partners and the Dog's partner."""

from __future__ import annotations

import copy
import random

import pytest

from engine.tichu.actions import Action, Exchange, Gift, Pass, Play
from engine.tichu.ai import LEVELS, make_player
from engine.tichu.ai.base import Player
from engine.tichu.ai.normal import NormalPlayer
from engine.tichu.ai.searcher import SearchPlayer
from engine.tichu.ai.selfplay import play_deal, play_game
from engine.tichu.ai.tactics import choose_dog_target
from engine.tichu.cards import DOG, DRAGON, PHOENIX, RANK
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase
from tests.engine.tichu.ai.tables import cards, exchange_game, view_of

SIX = (10, 10, 9, 9, 9, 9)


def _player(level: str) -> Player:
    return SearchPlayer(budget_ms=None, max_samples=2) if level == "search" else make_player(level)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_six_player_deals(level: str) -> None:
    seen: list[Action] = []

    def observe(game: TichuGame, seat: int, action: Action, spent: float) -> None:
        seen.append(action)

    other = "easy" if level != "easy" else "normal"
    a, b = _player(level), _player(other)
    for seed in range(2):
        game = TichuGame(seed=f"six:{level}:{seed}", players=6)
        play_deal(game, [a, b] * 3, random.Random(seed), observe)
        assert game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
    assert any(isinstance(x, Exchange) for x in seen)


def test_players_are_deterministic_at_six() -> None:
    for level in LEVELS:
        games = [play_game([_player(level) for _ in range(6)], seed=3, max_deals=1)
                 for _ in range(2)]
        assert games[0].actions == games[1].actions, level


def test_normal_beats_easy_at_six() -> None:
    # Duplicate deals: each seed once with normal on the even seats, once on the odd.
    margin = 0
    for seed in range(3):
        for normal_team in (0, 1):
            seats = [make_player("normal") if s % 2 == normal_team else make_player("easy")
                     for s in range(6)]
            game = play_game(seats, seed=seed, max_deals=2)
            margin += game.scores[normal_team] - game.scores[1 - normal_team]
    assert margin > 0


# ----------------------------------------------------------------- exchange
def test_exchange_goes_to_the_two_partners_only() -> None:
    game = exchange_game([""] * 6, players=6)
    for seat in range(6):
        action = NormalPlayer().act(game.view(seat), random.Random(0))
        assert isinstance(action, Exchange)
        assert sorted(t for t, _ in action.give) == sorted(game.view(seat).partners(seat))
        game.apply(action)
    assert game.phase is Phase.PLAY


def test_exchange_gives_the_best_card_to_a_calling_partner() -> None:
    game = exchange_game(["PHOENIX 3c 4d 9h", "", "", "", "", ""], grand=(4,), players=6)
    action = NormalPlayer().act(game.view(0), random.Random(0))
    assert isinstance(action, Exchange)
    gifts = dict(action.give)
    assert gifts[4] == cards("PHOENIX")[0] or gifts[4] == cards("DRAGON")[0]
    assert RANK[gifts[2]] < 10


def test_a_weak_hand_helps_both_partners_with_winners() -> None:
    weak = "2c 3d 4h 6s 7c 8d 9h Jc Ah Ad"
    game = exchange_game([weak, "", "", "", "", ""], players=6)
    action = NormalPlayer().act(game.view(0), random.Random(0))
    assert isinstance(action, Exchange)
    given = sorted(RANK[c] for _, c in action.give)
    assert given == [14, 14]


# ---------------------------------------------------------------- the play
def test_does_not_overtake_either_partner() -> None:
    for owner in (2, 4):
        view = view_of("Jc 3d 5h 8s Kd Qc", counts=(6, 10, 9, 9, 9, 9), trick=[(owner, "9c")],
                       turn=0, passed=(False, True, False, True, False, True))
        assert NormalPlayer().act(view, random.Random(0)) == Pass(0)


def test_stops_an_opponent_about_to_go_out() -> None:
    view = view_of("Ac 3d 5h 8s 9d", counts=(5, 9, 9, 1, 9, 9), trick=[(3, "Kc")],
                   turn=0, passed=(False, False, False, False, True, True))
    action = NormalPlayer().act(view, random.Random(0))
    assert isinstance(action, Play) and action.cards == cards("Ac")


def test_dragon_trick_goes_to_one_of_three_opponents() -> None:
    view = view_of("3c 4d", counts=(2, 8, 9, 3, 9, 7), phase=Phase.GIFT, turn=0)
    action = NormalPlayer().act(view, random.Random(0))
    assert isinstance(action, Gift) and action.to in (1, 3, 5)
    assert action.to == 1  # the opponent with most cards: likely last, its tricks come to us


def test_dog_goes_to_the_partner_more_likely_to_win() -> None:
    fewer = view_of("DOG 3c 5h 9d", counts=(4, 9, 8, 9, 3, 9))
    assert choose_dog_target(fewer) == 4
    caller = view_of("DOG 3c 5h 9d", counts=(4, 9, 8, 9, 3, 9), calls={2: "tichu"})
    assert choose_dog_target(caller) == 2
    one_left = view_of("DOG 3c 5h 9d", counts=(4, 9, 0, 9, 3, 9), out=(2,))
    assert choose_dog_target(one_left) is None  # the engine gives it to seat 4


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_dog_lead_names_a_partner(level: str) -> None:
    view = view_of("DOG 3c 5h 9d 4s", counts=(5, 9, 8, 9, 2, 9), calls={4: "tichu"})
    action = _player(level).act(view, random.Random(0))
    assert isinstance(action, Play)
    if action.cards == (DOG,):
        assert action.to == 4


def test_hard_search_runs_at_six() -> None:
    player = SearchPlayer(budget_ms=None, max_samples=4)
    view = view_of("3c 5h 9d Ks Kd 7s", counts=(6, 9, 8, 9, 7, 9), trick=[(1, "8c")],
                   turn=0, passed=(False, False, False, False, False, False))
    action = player.act(view, random.Random(0))
    assert isinstance(action, (Pass, Play))
    assert player.last_samples in (0, 4)


def test_same_view_same_decision_at_six() -> None:
    game = TichuGame(seed=12, players=6)
    normal = [make_player("normal")] * 6
    positions: list[tuple[TichuGame, int]] = []

    def observe(g: TichuGame, seat: int, action: Action, spent: float) -> None:
        if g.phase is Phase.PLAY and g.turn is not None and len(positions) < 40:
            positions.append((copy.deepcopy(g), g.turn))

    play_deal(game, normal, random.Random(12), observe)
    rng = random.Random(1)
    for g, seat in positions[::5]:
        twin = copy.deepcopy(g)
        fixed = {int(c) for c in (g.gives[seat] or {}).values()}
        others = [s for s in range(6) if s != seat]
        pool = [c for s in others for c in twin.hands[s] if int(c) not in fixed]
        rng.shuffle(pool)
        for s in others:
            keep = [c for c in twin.hands[s] if int(c) in fixed]
            take = len(twin.hands[s]) - len(keep)
            twin.hands[s] = keep + pool[:take]
            del pool[:take]
        assert g.view(seat) == twin.view(seat)
        for level in LEVELS:
            a = _player(level).act(g.view(seat), random.Random(3))
            b = _player(level).act(twin.view(seat), random.Random(3))
            assert a == b, level


def test_special_cards_stay_out_of_the_loser_pile() -> None:
    game = exchange_game(["DRAGON PHOENIX 2c 3d", "", "", "", "", ""], players=6)
    action = NormalPlayer().act(game.view(0), random.Random(0))
    assert isinstance(action, Exchange)
    assert DRAGON not in dict(action.give).values()
    assert PHOENIX not in [c for t, c in action.give if t != 2]

"""A game of several boards at one table, and the stateless computer decision the bot
asks at duplicate tables."""

from __future__ import annotations

import random
from datetime import date
from typing import Any

import pytest

from engine.duplicate.boards import Board, daily_boards, make_boards
from engine.duplicate.play import BoardsGame, decide
from engine.errors import BadActionError, GameOverError
from engine.tichu.actions import Action
from engine.tichu.ai import make_player, pending_seats
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.view import Phase

BOARDS = make_boards("boards-game", 3)


def test_each_board_is_dealt_in_turn_from_nil_all_and_the_last_ends_the_game() -> None:
    game = BoardsGame(BOARDS)
    players = [make_player("easy")] * 4
    rng = random.Random(1)
    for number, board in enumerate(BOARDS):
        assert game.board is board and game.scores == [0, 0]
        assert [tuple(h) for h in game.dealt] == [tuple(h) for h in board.hands]
        play_deal(game, players, rng)
        result = game.history[-1]
        assert game.scores == list(result.scores)  # this board's score only
        if number < len(BOARDS) - 1:
            assert game.phase is Phase.DEAL_OVER and game.winner is None
            with pytest.raises(BadActionError):
                game.next_deal(BOARDS[0].hands if number else BOARDS[2].hands)
            game.next_deal()
    assert game.phase is Phase.GAME_OVER
    total = sum(game.diffs(0))
    assert total == -sum(game.diffs(1)) and len(game.diffs(0)) == 3
    assert game.winner == (None if total == 0 else 0 if total > 0 else 1)
    with pytest.raises(GameOverError):
        game.next_deal()


def test_a_game_of_boards_needs_a_board() -> None:
    with pytest.raises(BadActionError):
        BoardsGame([])


def test_the_computer_decision_depends_on_the_board_and_the_actions_only() -> None:
    board = BOARDS[0]
    game = BoardsGame([board])
    asked = 0
    while game.phase is not Phase.DEAL_OVER and game.phase is not Phase.GAME_OVER:
        seat = pending_seats(game.view(None))[0]
        action = decide(board, game.actions, seat, "hard", samples=4)
        assert action is not None and game.can(action)
        if asked % 7 == 0:  # asked again, from nothing kept: the same decision
            assert decide(board, list(game.actions), seat, "hard", samples=4) == action
        game.apply(action)
        asked += 1
    assert asked > 20
    # Another salt (a computer field's table) may play otherwise, but always legally.
    other = decide(board, [], 0, "hard", salt="field:1", samples=4)
    assert other is not None and BoardsGame([board]).can(other)


def test_under_a_key_the_computers_play_what_only_the_key_tells() -> None:
    """The same board and actions: the same decision under one key, every time; but the
    play without the key (what anyone can compute) is not the play under it."""
    board = BOARDS[1]
    plays: dict[bytes, list[Any]] = {}
    for key in (b"", b"deployment", b"deployment"):
        game = BoardsGame([board])
        while game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
            seat = pending_seats(game.view(None))[0]
            action = decide(board, game.actions, seat, "hard", key=key)
            assert action is not None and game.can(action)
            game.apply(action)
        if key in plays:
            assert list(game.actions) == plays[key]
        plays[key] = list(game.actions)
    assert plays[b""] != plays[b"deployment"]


def play_at_pace(board: Board, computers_first: int, salt: str = "") -> list[Action]:
    """``board`` played by a stand-in for a person at seat 0 (an easy player drawing from
    its own seeded rng) and computers asked as the bot asks them, the person making each
    choice that every seat makes at once (Grand Tichu, the exchange) after
    ``computers_first`` computers made theirs."""
    game = BoardsGame([board])
    person, rng = make_player("easy"), random.Random(7)
    made: dict[Phase, int] = {}
    while game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        due = pending_seats(game.view(None))
        computers = [s for s in due if s != 0]
        action: Action | None
        if 0 in due and (not computers or made.get(game.phase, 0) >= computers_first):
            action = person.act(game.view(0), rng)
        else:
            made[game.phase] = made.get(game.phase, 0) + 1
            action = decide(board, game.actions, computers[0], "hard", samples=4, salt=salt)
        assert action is not None
        game.apply(action)
    return list(game.actions)


def test_the_same_choices_made_sooner_or_later_meet_the_same_computers() -> None:
    board = daily_boards(date(2026, 11, 23), 1, seed="2026-11-23")[0]
    first, last = play_at_pace(board, 0), play_at_pace(board, 3)
    assert first != last  # the person chose before the computers, then after them

    def by_seat(actions: list[Action]) -> list[list[Action]]:
        return [[a for a in actions if a.seat == seat] for seat in range(4)]

    assert by_seat(first) == by_seat(last)
    # Not for want of chance: the computers' rng does decide things on this board.
    assert by_seat(play_at_pace(board, 0, salt="elsewhere")) != by_seat(first)

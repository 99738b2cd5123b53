"""Playing duplicate boards: one deal from 0–0, fair computer seeds (the same choices
meet the same computer play), and a computer field that is deterministic."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from datetime import date

import pytest

from engine.duplicate.boards import Board, daily_boards, make_boards
from engine.duplicate.play import (
    FieldTable,
    board_diff,
    board_game,
    board_over,
    board_player,
    board_replay,
    board_scores,
    computer_seed,
    direction_of,
    field_results,
    play_board,
    play_field,
    play_field_table,
    seed_order,
)
from engine.duplicate.scoring import score
from engine.errors import BadActionError, WrongPhaseError
from engine.replay import run_replay
from engine.tichu.actions import Action, DeclineGrand, Exchange, GrandTichu
from engine.tichu.ai import make_player
from engine.tichu.ai.base import Player
from engine.tichu.view import Phase, TichuView

BOARDS = make_boards("tests", 3)
HARD_SAMPLES = 4
"""Enough samples that the hard search (and so the rng) decides things, few enough to be quick."""


class Scripted:
    """A stand-in for a person: plays as an easy player from its own seeded choices,
    never from the rng the table hands it."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.player = make_player("easy")

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        return self.player.act(view, self.rng)


class Recording:
    """Remembers, per decision, the actions so far and a draw of the rng it was given."""

    def __init__(self, inner: Player, actions: list[Action]) -> None:
        self.inner = inner
        self.actions = actions
        self.seen: list[tuple[int, int, float]] = []

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        probe = random.Random()
        probe.setstate(rng.getstate())
        assert view.seat is not None
        self.seen.append((len(self.actions), view.seat, probe.random()))
        return self.inner.act(view, rng)


def test_a_board_starts_from_nothing_and_ends_after_one_deal() -> None:
    for board in BOARDS:
        game = board_game(board)
        assert game.scores == [0, 0] and game.phase is Phase.GRAND and not board_over(game)
        with pytest.raises(WrongPhaseError):
            board_scores(game)
        play_board(game, board.id, [make_player("normal")] * 4)
        assert board_over(game) and game.view(None).phase is Phase.DEAL_OVER
        assert game.deal_number == 0 and len(game.history) == 1
        first, second = board_scores(game)
        assert (first, second) == tuple(game.scores)
        assert board_diff(game, 0) == first - second == -board_diff(game, 1)
        assert board_diff(game, 0) % 5 == 0


def test_the_deal_score_counts_the_bonuses() -> None:
    # Seat 0 calls Grand Tichu at once; the others play as the normal player does.
    board = BOARDS[0]
    game = board_game(board)
    game.apply(GrandTichu(0))
    play_board(game, board.id, [make_player("normal")] * 4)
    result = game.history[0]
    assert result.calls[0] == "grand_tichu"
    values = {"tichu": 100, "grand_tichu": 200}
    calls = [0, 0]
    for seat, call in enumerate(result.calls):
        if call is not None:
            calls[seat % 2] += values[call] if seat == result.out[0] else -values[call]
    cards = result.card_points
    assert board_diff(game, 0) == cards[0] + calls[0] - cards[1] - calls[1]
    assert board_scores(game) == (cards[0] + calls[0], cards[1] + calls[1])


def test_direction_of_seats() -> None:
    assert [direction_of(s) for s in range(4)] == [0, 1, 0, 1]
    game = board_game(BOARDS[0])
    play_board(game, BOARDS[0].id, [make_player("easy")] * 4)
    for bad in (2, -1, True):
        with pytest.raises(BadActionError):
            board_diff(game, bad)


def test_computer_seed_is_a_hash_of_board_salt_and_actions() -> None:
    actions: list[Action] = [DeclineGrand(0), DeclineGrand(1), DeclineGrand(2), DeclineGrand(3)]
    seed = computer_seed("2026-11-23/1", actions, 0)
    assert seed == computer_seed("2026-11-23/1", list(actions), 0)
    assert len(seed) == 64 and int(seed, 16) >= 0
    others = {computer_seed("2026-11-23/2", actions, 0),
              computer_seed("2026-11-23/1", actions[:3], 0),
              computer_seed("2026-11-23/1", [*actions[:3], GrandTichu(3)], 0),
              computer_seed("2026-11-23/1", actions, 0, salt="field:1"),
              computer_seed("2026-11-23/1", [], 0),
              computer_seed("2026-11-23/1", actions, 0, key=b"k"),
              computer_seed("2026-11-23/1", actions, 0, key=b"other")}
    assert seed not in others and len(others) == 7
    assert computer_seed("2026-11-23/1", actions, 0, key=b"k") == \
        computer_seed("2026-11-23/1", list(actions), 0, key=b"k")
    with pytest.raises(BadActionError):
        computer_seed("2026-11-23/1", actions, 0, key="k")  # type: ignore[arg-type]


def test_choices_made_at_once_count_seat_by_seat_and_others_not_while_they_last() -> None:
    grand: list[Action] = [DeclineGrand(2), GrandTichu(0), DeclineGrand(3), DeclineGrand(1)]
    assert seed_order(grand, 1) == [GrandTichu(0), DeclineGrand(1), DeclineGrand(2),
                                    DeclineGrand(3)]
    # While the phase lasts, a seat's seed holds its own choices only.
    assert seed_order(grand[:3], 1) == [] and seed_order(grand[:3], 2) == [DeclineGrand(2)]
    assert computer_seed("b", grand[:2], 1) == computer_seed("b", [], 1) == \
        computer_seed("b", grand[:1], 3)
    # So the order the choices came in does not count, and the play does.
    board = BOARDS[0]
    game = board_game(board)
    play_board(game, board.id, [make_player("normal")] * 4)
    actions = list(game.actions)
    grand = [i for i, a in enumerate(actions) if isinstance(a, DeclineGrand | GrandTichu)][-1] + 1
    begins = [i for i, a in enumerate(actions) if isinstance(a, Exchange)][-1] + 1
    shuffled = [*sorted(actions[:grand], key=lambda a: -a.seat),
                *sorted(actions[grand:begins], key=lambda a: -a.seat), *actions[begins:]]
    assert shuffled[:grand] != actions[:grand] and shuffled[grand:begins] != actions[grand:begins]
    for count in (begins, begins + 3, len(actions)):
        seeds = {computer_seed(board.id, order[:count], seat)
                 for order in (actions, shuffled) for seat in range(4)}
        assert len(seeds) == 1
    swapped = [*actions[:begins], actions[begins + 1], actions[begins], *actions[begins + 2:]]
    assert computer_seed(board.id, swapped[:begins + 2], 0) != \
        computer_seed(board.id, actions[:begins + 2], 0)


def test_each_decision_is_seeded_by_the_actions_before_it() -> None:
    board = BOARDS[1]
    game = board_game(board)
    recording = Recording(make_player("normal"), game.actions)
    play_board(game, board.id, [recording] * 4, salt="s")
    assert recording.seen
    for count, seat, draw in recording.seen:
        expected = random.Random(computer_seed(board.id, game.actions[:count], seat, "s"))
        assert draw == expected.random()


def play_with_person(board: Board, person_seed: int, seat: int = 0,
                     salt: str = "", key: bytes = b"") -> list[Action]:
    """The board with a scripted person at ``seat`` and hard computers (one fresh player
    object per table, as the bot must) elsewhere; the actions of the whole deal."""
    game = board_game(board)
    computer = board_player("hard", HARD_SAMPLES)
    players: list[Player] = [computer] * 4
    players[seat] = Scripted(person_seed)
    play_board(game, board.id, players, salt, key)
    assert board_over(game)
    return list(game.actions)


def test_the_same_choices_meet_the_same_computer_play() -> None:
    board = daily_boards(date(2026, 11, 23), 1, seed="2026-11-23")[0]
    first = play_with_person(board, person_seed=7)
    assert play_with_person(board, person_seed=7) == first
    # Not for want of chance: the computers' rng does decide things on this board.
    assert play_with_person(board, person_seed=7, salt="elsewhere") != first
    # Under a deployment's key: the same play for the same choices, but not the play
    # anyone computes without the key.
    keyed = play_with_person(board, person_seed=7, key=b"secret")
    assert play_with_person(board, person_seed=7, key=b"secret") == keyed != first


def test_other_choices_still_give_a_valid_board() -> None:
    board = daily_boards(date(2026, 11, 23), 1, seed="2026-11-23")[0]
    plays = [play_with_person(board, person_seed=s, seat=1) for s in (1, 2)]
    assert plays[0] != plays[1]
    for actions in plays:
        out = run_replay(board_replay(board, actions))
        assert out["ok"] and out["phase"] == "deal_over"


def test_a_field_table_is_deterministic_and_replays() -> None:
    board = BOARDS[2]
    table = play_field_table(board, "hard", "3", samples=HARD_SAMPLES)
    again = play_field_table(board, "hard", "3", samples=HARD_SAMPLES)
    assert table == again and table.to_json() == again.to_json()
    assert table.diff(0) == -table.diff(1) == table.scores[0] - table.scores[1]
    out = run_replay(table.replay())
    assert out["ok"] and out["phase"] == "deal_over" and out["deal_scores"] == list(table.scores)
    data = json.loads(json.dumps(table.to_json()))
    assert data["board"] == board.id and data["diffs"] == [table.diff(0), table.diff(1)]
    assert len(data["actions"]) == len(table.actions)


def test_field_tables_have_their_own_seeds() -> None:
    field = play_field(BOARDS[0], tables=4, level="normal")
    assert [t.table_seed for t in field] == ["1", "2", "3", "4"]
    assert field == play_field(BOARDS[0], tables=4, level="normal")
    hard = [play_field_table(BOARDS[0], "hard", s, samples=HARD_SAMPLES) for s in "12"]
    assert hard[0].actions != hard[1].actions
    assert play_field(BOARDS[0], tables=0) == []
    with pytest.raises(BadActionError):
        play_field(BOARDS[0], tables=-1)


def test_field_results_are_scored_beside_people() -> None:
    field = play_field(BOARDS[0], tables=3, level="normal")
    rows = field_results(field)
    assert [(x.player, x.direction) for x in rows] == [
        (f"field:{t}/{d}", d) for t in "123" for d in (0, 1)]
    assert all(rows[i].diff == -rows[i + 1].diff for i in range(0, len(rows), 2))
    scored, table = score(rows)
    assert len(scored) == 6 and len(table) == 6


def test_the_field_is_the_same_in_another_process() -> None:
    # Hash randomisation (PYTHONHASHSEED) or anything else of the process must not leak in.
    code = ("import json; from engine.duplicate.boards import make_boards\n"
            "from engine.duplicate.play import play_field_table\n"
            f"t = play_field_table(make_boards('tests', 3)[2], 'hard', '3', samples={HARD_SAMPLES})\n"
            "print(json.dumps(t.to_json()))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONHASHSEED": "12345"})
    local: FieldTable = play_field_table(BOARDS[2], "hard", "3", samples=HARD_SAMPLES)
    assert json.loads(done.stdout) == json.loads(json.dumps(local.to_json()))

"""The coach's review (issue 25): ``python -m engine review``, its shape, its refusals,
its determinism, a blunder found, and a review that reads nothing the seat could not see.

Deals are played by ``normal`` players (fast); the learned evaluator values the options
(issue 39)."""

from __future__ import annotations

import io
import json
import random
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.__main__ import main as engine_main
from engine.review import Hidden, Review, review_game
from engine.review.moment import DealWatch
from engine.review.options import Abstain, choice_kind, options, silent_call
from engine.review.review import main as review_main
from engine.review.value import option_values
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrand,
    Exchange,
    GrandTichu,
    Play,
)
from engine.tichu.ai import bidding
from engine.tichu.ai.choices import choices
from engine.tichu.ai.hard import HardPlayer
from engine.tichu.ai.knowledge import knowledge_of
from engine.tichu.ai.normal import NormalPlayer
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.cards import DRAGON
from engine.tichu.game import TichuGame
from engine.tichu.legal import legal_plays
from engine.tichu.replay import read_file, to_replay
from engine.tichu.replay import replay as run_tichu_replay
from engine.tichu.view import Phase, TichuView


class _Once:
    """A normal player, except that one seat answers ``blunder`` once when it has one."""

    def __init__(self, seat: int, blunder: Callable[[TichuView], Action | None]) -> None:
        self.normal = NormalPlayer()
        self.seat = seat
        self.blunder = blunder
        self.done = False

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        if not self.done and view.seat == self.seat:
            action = self.blunder(view)
            if action is not None:
                self.done = True
                return action
        return self.normal.act(view, rng)


def played(seed: str, players: int = 4, player: Any = None) -> dict[str, Any]:
    game = TichuGame(seed=seed, players=players)
    who = player if player is not None else NormalPlayer()
    play_deal(game, [who] * players, random.Random(seed))
    return to_replay(game)


@pytest.fixture(scope="module")
def deal4() -> dict[str, Any]:
    return played("review-4")


def run_cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    path = args[0]
    seat = None
    rest = args[1:]
    while rest:
        flag, value, *rest = rest
        if flag == "--seat":
            seat = int(value)
    code = review_main(path, seat, out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_command_refuses_a_bad_model_file_with_exit_2(
        tmp_path: Path, deal4: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    from engine.tichu.ai import model

    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal4))
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / model.file_name(4)).write_bytes(b"PK\x03\x04 not really a model")
    (folder / model.file_name(6)).write_bytes(model.path_of(6).read_bytes())
    try:
        code = engine_main(["review", str(path), "--model-dir", str(folder)])
    finally:
        model.use_directory(model.SHIPPED)
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err == f"error: The model file {folder / model.file_name(4)} is " \
        "truncated or corrupt (File is not a zip file).\n"


def test_the_command_prints_one_object_of_sorted_costly_decisions(
        tmp_path: Path, deal4: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal4))
    code = engine_main(["review", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"decisions", "error"} and data["error"] is None
    decisions = data["decisions"]
    assert decisions, "a normal player's deal has some decision the review prefers otherwise"
    actions = deal4["deals"][0]["actions"]
    for d in decisions:
        assert set(d) == {"deal", "index", "seat", "kind", "chosen", "best", "cost"}
        assert d["deal"] == 0 and d["chosen"] == actions[d["index"]]
        assert d["seat"] == actions[d["index"]]["seat"] == d["best"]["seat"]
        assert d["cost"] > 0 and round(d["cost"], 1) == d["cost"]
        assert d["best"] != d["chosen"]
    keys = [(-d["cost"], d["deal"], d["index"]) for d in decisions]
    assert keys == sorted(keys)


def test_the_same_file_gives_the_same_review_and_seats_are_reviewed_apart(
        deal4: dict[str, Any]) -> None:
    a = review_game(deal4, None).to_json()
    assert a == review_game(deal4, None).to_json()
    by_seat: list[dict[str, Any]] = []
    for seat in range(4):
        one = review_game(deal4, [seat]).to_json()
        assert all(d["seat"] == seat for d in one["decisions"])
        by_seat += one["decisions"]
    by_seat.sort(key=lambda d: (-d["cost"], d["deal"], d["index"]))
    assert by_seat == a["decisions"]


def test_a_six_player_replay_is_reviewed(tmp_path: Path) -> None:
    data = played("review-6", players=6)
    path = tmp_path / "six.json"
    path.write_text(json.dumps(data))
    code, out, err = run_cli([str(path), "--seat", "4"])
    assert code == 0 and err == ""
    result = json.loads(out)
    assert all(d["seat"] == 4 for d in result["decisions"])


@pytest.mark.parametrize("content, message", [
    ("{not json", "bad JSON"),
    ('{"game": "chinois", "deals": []}', "Tichu"),
    ('{"game": "tichu", "deals": [{"hands": [["2c"], [], [], []]}]}', "deal 0"),
    ('{"game": "tichu", "deals": [{"hands": [["XX"]]}]}', "hands"),
])
def test_a_malformed_file_exits_2_with_one_line(tmp_path: Path, content: str,
                                                message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = run_cli([str(path)])
    assert code == 2 and out == ""
    assert err.endswith("\n") and err.count("\n") == 1 and message in err


def test_a_missing_file_and_a_seat_not_at_the_table_exit_2(tmp_path: Path,
                                                           deal4: dict[str, Any]) -> None:
    code, _, err = run_cli([str(tmp_path / "none.json")])
    assert code == 2 and err.count("\n") == 1
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal4))
    code, _, err = run_cli([str(path), "--seat", "4"])
    assert code == 2 and "no seat 4" in err and err.count("\n") == 1


def test_a_refused_action_ends_the_review_there(deal4: dict[str, Any]) -> None:
    data = json.loads(json.dumps(deal4))
    actions = data["deals"][0]["actions"]
    stop = 20
    actions[stop] = {"seat": actions[stop]["seat"], "do": "gift", "to": 1}
    review = review_game(data, None)
    assert review.error is not None and review.error["index"] == stop
    assert review.error == run_tichu_replay(data)["error"]
    assert all(d.index < stop for d in review.decisions)
    prefix = json.loads(json.dumps(deal4))
    del prefix["deals"][0]["actions"][stop:]
    assert review_game(prefix, None).to_json()["decisions"] == \
        review.to_json()["decisions"]


def test_a_deal_that_stops_part_way_is_reviewed_up_to_there(deal4: dict[str, Any]) -> None:
    data = json.loads(json.dumps(deal4))
    del data["deals"][0]["actions"][12:]
    review = review_game(data, None)
    assert review.error is None and review.reviewed > 0
    assert all(d.index < 12 for d in review.decisions)


def _weak_packet_seed() -> str:
    for i in range(200):
        seed = f"weak-{i}"
        packet = TichuGame(seed=seed).dealt[0][:8]
        if bidding.grand_strength([int(c) for c in packet]) < 0.5:
            return seed
    raise AssertionError("no weak packet")


def test_a_grand_tichu_on_weak_cards_is_ranked_first() -> None:
    seed = _weak_packet_seed()
    player = _Once(0, lambda v: GrandTichu(0) if v.phase is Phase.GRAND else None)
    data = played(seed, player=player)
    actions = data["deals"][0]["actions"]
    assert actions[0] == {"seat": 0, "do": "grand_tichu"}
    # Up to the first card: the seat's Grand Tichu and its exchange. (Later, the call
    # raises the stakes of every play, and a normal player's plays are far from best.)
    del actions[next(i for i, a in enumerate(actions) if a["do"] == "play"):]
    review = review_game(data, [0])
    first = review.decisions[0]
    assert (first.index, first.kind) == (0, "grand") and first.cost > 50
    assert first.best == DeclineGrand(0)
    assert len(review.decisions) == 1 or first.cost >= 1.5 * review.decisions[1].cost


def test_the_options_of_a_dragon_gift_in_the_exchange_include_the_hard_exchange() -> None:
    for i in range(50):
        game = TichuGame(seed=f"dragon-{i}")
        holder = next(s for s in range(4) if DRAGON in game.dealt[s])
        for s in range(4):
            game.apply(DeclineGrand(s))
        watch = DealWatch(game)
        moment = watch.moment(holder)
        hard = bidding.choose_exchange(moment.view, False)
        give = dict(hard.give)
        if DRAGON in give.values():
            continue
        give[(holder + 1) % 4] = DRAGON
        blunder = Exchange(holder, tuple(give.items()))
        found = options(moment, blunder)
        assert found[0] == blunder and hard in found
        return
    raise AssertionError("no deal found")


def test_a_moment_hides_the_other_seats_exchanges(deal4: dict[str, Any]) -> None:
    read = read_file(deal4)
    game = TichuGame(hands=read.deals[0].hands)
    watch = DealWatch(game)
    actions = read.deals[0].actions
    first_play = next(i for i, a in enumerate(actions) if isinstance(a, Play))
    for action in actions[:first_play]:
        game.apply(action)
        watch.after(action)
    moment = watch.moment(1)
    hidden = [a for a in moment.seen if isinstance(a, Hidden)]
    mine = [a for a in moment.seen if isinstance(a, Exchange)]
    assert sorted(h.seat for h in hidden) == [0, 2, 3] and [a.seat for a in mine] == [1]
    assert moment.know.unseen.isdisjoint(int(c) for c in moment.view.hand)


def _swap_hidden(data: dict[str, Any], seat: int) -> dict[str, Any]:
    """The same file with two cards swapped between two other seats: cards the seat
    never saw (not played, not exchanged, not in its hand), in hands it never saw."""
    deal = data["deals"][0]
    touched = set()
    for a in deal["actions"]:
        if a["do"] == "play":
            touched.update(a["cards"])
        if a["do"] == "exchange":
            touched.update(a["give"].values())
    others = [s for s in range(4) if s != seat]
    for x in others:
        for y in others:
            if x >= y:
                continue
            for i, a in enumerate(deal["hands"][x]):
                for j, b in enumerate(deal["hands"][y]):
                    if a in touched or b in touched:
                        continue
                    swapped = json.loads(json.dumps(data))
                    hands = swapped["deals"][0]["hands"]
                    hands[x][i], hands[y][j] = b, a
                    if run_tichu_replay(swapped)["ok"]:
                        return swapped
    raise AssertionError("no swap keeps the file legal")


@pytest.mark.parametrize("stop", [3, 6, 30])
def test_the_review_reads_nothing_the_seat_could_not_see(deal4: dict[str, Any], stop: int) -> None:
    seat = 1
    data = json.loads(json.dumps(deal4))
    del data["deals"][0]["actions"][stop:]
    swapped = _swap_hidden(data, seat)
    assert swapped["deals"][0]["hands"] != data["deals"][0]["hands"]
    mine: Review = review_game(data, [seat])
    theirs = review_game(swapped, [seat])
    assert mine.reviewed > 0
    assert [d.values for d in mine.decisions] == [d.values for d in theirs.decisions]
    assert mine.to_json() == theirs.to_json()


def test_only_the_deals_asked_for_are_valued() -> None:
    game = TichuGame(seed="review-deals")
    player = NormalPlayer()
    rng = random.Random("review-deals")
    for d in range(2):
        if d:
            game.next_deal()
        play_deal(game, [player] * 4, rng)
    data = to_replay(game)
    assert len(data["deals"]) == 2
    whole = review_game(data, [2])
    second = review_game(data, [2], deals=[1])
    assert second.reviewed > 0 and all(d.deal == 1 for d in second.decisions)
    # A decision's figures do not depend on which deals are valued.
    assert second.to_json()["decisions"] == [d for d in whole.to_json()["decisions"]
                                             if d["deal"] == 1]
    first = review_game(data, [2], deals=[0])
    assert first.reviewed + second.reviewed == whole.reviewed
    assert review_game(data, [2], deals=[]).reviewed == 0


class _Silent:
    """Normal players, seat 0 never calling (neither Grand Tichu nor Tichu)."""

    def __init__(self) -> None:
        self.normal = NormalPlayer()
        self.silent = NormalPlayer(grand_threshold=99.0, tichu_threshold=99.0)

    def act(self, view: TichuView, rng: random.Random) -> Action | None:
        return (self.silent if view.seat == 0 else self.normal).act(view, rng)


def _strong_hand_seed() -> str:
    """A deal whose seat 0 holds a hand to call Tichu on, dealt whole (14 cards)."""
    for i in range(400):
        seed = f"strong-{i}"
        if bidding.call_strength([int(c) for c in TichuGame(seed=seed).dealt[0]]) > 3.0:
            return seed
    raise AssertionError("no strong hand")


def test_a_tichu_not_called_on_a_strong_hand_is_reviewed_at_the_first_card() -> None:
    data = played(_strong_hand_seed(), player=_Silent())
    actions = data["deals"][0]["actions"]
    first = next(i for i, a in enumerate(actions) if a["do"] == "play" and a["seat"] == 0)
    del actions[first + 1:]
    assert not any(a["do"] in ("tichu", "grand_tichu") and a["seat"] == 0 for a in actions)
    review = review_game(data, [0])
    silence = [d for d in review.decisions if d.kind == "tichu"]
    assert len(silence) == 1
    assert silence[0].index == first and silence[0].cost >= 10  # (what the bot shows)
    assert silence[0].to_json()["chosen"] == {"seat": 0, "do": "no_tichu"}
    assert silence[0].to_json()["best"] == {"seat": 0, "do": "tichu"}


def _silent_call_points(data: dict[str, Any], seat: int) -> list[int]:
    """The action indexes at which ``seat``'s review weighs a Tichu it did not call."""
    deal = read_file(data).deals[0]
    game = TichuGame(hands=deal.hands)
    watch = DealWatch(game)
    points = []
    for i, action in enumerate(deal.actions):
        if action.seat == seat and silent_call(watch.moment(seat), action):
            points.append(i)
        game.apply(action)
        watch.after(action)
    return points


def test_a_silent_call_is_weighed_once_at_the_first_card_and_costs_nothing_on_a_weak_hand(
        ) -> None:
    strong = played(_strong_hand_seed(), player=_Silent())
    first = next(i for i, a in enumerate(strong["deals"][0]["actions"])
                 if a["do"] == "play" and a["seat"] == 0)
    assert _silent_call_points(strong, 0) == [first]
    weak = played(next(s for s in (f"weak-hand-{i}" for i in range(400)) if bidding.call_strength(
        [int(c) for c in TichuGame(seed=s).dealt[0]]) < -2.0), player=_Silent())
    assert len(_silent_call_points(weak, 0)) == 1
    assert not [d for d in review_game(weak, [0]).decisions if d.kind == "tichu"]


def test_the_hard_players_own_choices_cost_nothing_against_its_own_candidates() -> None:
    """The reference is the ``hard`` player: every decision it makes is the option the
    evaluator values most among its candidates, so in a deal it plays a decision is
    listed only when ``best`` is one of the few options the review weighs beyond them
    (a Mahjong without its wish, the exchange meaning to call or not)."""
    listed = 0
    for seed in ("review-hard-1", "review-hard-2", "review-hard-3", "review-hard-4"):
        data = played(seed, player=HardPlayer())
        review = review_game(data)
        assert review.reviewed > 20
        deal = read_file(data).deals[0]
        game = TichuGame(hands=deal.hands)
        for i, action in enumerate(deal.actions):
            for d in (d for d in review.decisions if d.index == i):
                view = game.view(action.seat)
                candidates = choices(view, knowledge_of(view)).actions
                assert d.best not in candidates and d.kind in ("exchange", "wish"), d
                listed += 1
            game.apply(action)
    assert listed > 0, "the review's extra options were never preferred: nothing checked"


def test_the_best_option_is_the_one_valued_most_and_a_tie_keeps_the_choice(
        deal4: dict[str, Any]) -> None:
    deal = read_file(deal4).deals[0]
    game = TichuGame(hands=deal.hands)
    watch = DealWatch(game)
    checked = 0
    for i, action in enumerate(deal.actions):
        moment = watch.moment(action.seat)
        found = options(moment, action)
        if len(found) > 1:
            values = option_values(moment, found, choice_kind(moment, action))
            review = review_game(deal4, [action.seat])
            listed = [d for d in review.decisions if d.index == i and d.kind != "tichu"]
            top = max(values)
            if values[0] >= top:
                assert listed == []
            else:
                assert len(listed) == 1 and listed[0].cost == round(top - values[0], 1)
                assert listed[0].best == found[values.index(top)]
            checked += 1
            if checked >= 6:
                return
        game.apply(action)
        watch.after(action)
    raise AssertionError("too few decisions")


def test_a_grand_tichu_on_weak_cards_is_measured_against_declining() -> None:
    game = TichuGame(seed=_weak_packet_seed())
    moment = DealWatch(game).moment(0)
    found = options(moment, GrandTichu(0))
    assert found == [GrandTichu(0), DeclineGrand(0)]
    values = option_values(moment, found, "grand")
    assert values[1] > values[0] + 50


def test_a_bomb_out_of_turn_is_weighed_against_waiting() -> None:
    for i in range(300):
        game = TichuGame(seed=f"bomb-options-{i}")
        player = NormalPlayer()
        rng = random.Random(i)
        watch = DealWatch(game)
        while game.phase is not Phase.DEAL_OVER:
            for seat in range(4):
                view = game.view(seat)
                if view.phase is Phase.PLAY and view.turn != seat and view.trick:
                    bombs = legal_plays(view)
                    if bombs:
                        chosen = Play(seat, bombs[0].cards)
                        found = options(watch.moment(seat), chosen)
                        assert found[0] == chosen and Abstain(seat, "bomb") in found
                        assert choice_kind(watch.moment(seat), chosen) == "bomb"
                        return
            action = next(a for a in (player.act(game.view(s), rng) for s in range(4))
                          if a is not None)
            game.apply(action)
            watch.after(action)
    raise AssertionError("no bomb out of turn met")


def _call_tichu(view: TichuView) -> Action | None:
    if view.phase is Phase.EXCHANGE and not view.exchanged[0]:
        return CallTichu(0)
    return None


def _dragon_away(view: TichuView) -> Action | None:
    """Seat 0's exchange with its Dragon to the next seat, an opponent (no call)."""
    if view.phase is not Phase.EXCHANGE or view.exchanged[0] or DRAGON not in view.hand:
        return None
    give = dict(bidding.choose_exchange(view, False).give)
    if DRAGON in give.values():
        return None
    give[1] = DRAGON
    return Exchange(0, tuple(give.items()))


@pytest.mark.parametrize("blunder", [_call_tichu, _dragon_away], ids=["call", "dragon"])
def test_a_costly_decision_is_checked_by_play_outs_but_calls_and_the_exchange_before_one(
        blunder: Callable[[TichuView], Action | None]) -> None:
    """The evaluator picks ``best``; a costly decision's cost is the smaller of the
    evaluator's and the play-outs' (seeded by the deal and the index: their mean after
    the seat's own call, before it the most they do not rule out), except for a call and
    for the exchange before the seat's own call, whose evaluator figure stands."""
    from engine.review.playout import option_scores
    from engine.review.review import CHECK_FROM, CHECK_SAMPLES, checked_cost

    player = _Once(0, blunder)
    seen = {"lowered after the call": 0, "lowered without a call": 0,
            "an exchange without a call, not checked": 0, "above the mean": 0}
    for k in range(24):
        data = played(f"review-check-{k}", player=player)
        if not player.done:
            continue  # no Dragon in seat 0's hand
        player.done = False
        deal = read_file(data).deals[0]
        game = TichuGame(hands=deal.hands)
        watch = DealWatch(game)
        review = {d.index: d for d in review_game(data, [0]).decisions if d.kind != "tichu"}
        for i, action in enumerate(deal.actions):
            moment = watch.moment(action.seat)
            if action.seat == 0 and i in review:
                found = options(moment, action)
                values = option_values(moment, found, choice_kind(moment, action))
                by_model = round(max(values) - values[0], 1)
                decision = review[i]
                called = moment.view.calls[0] is not None
                if by_model < CHECK_FROM or decision.kind == "grand":
                    assert decision.cost == by_model
                elif decision.kind == "exchange" and not called:
                    assert decision.cost == by_model
                    seen["an exchange without a call, not checked"] += 1
                else:
                    by_play_outs = checked_cost(moment, action, decision.best, 0, i)
                    assert decision.cost == min(by_model, by_play_outs)
                    scores = option_scores(moment, [action, decision.best], CHECK_SAMPLES,
                                           random.Random(f"review:0:{i}"))
                    mean = statistics.fmean(b - a for a, b in zip(*scores, strict=True))
                    if called:  # the play-outs' mean
                        assert by_play_outs == round(max(0.0, mean), 1)
                    else:  # what they do not rule out, more than their mean
                        assert by_play_outs >= round(max(0.0, mean), 1)
                        seen["above the mean"] += by_play_outs > round(max(0.0, mean), 1)
                    if by_play_outs < by_model:  # the check made a difference
                        seen["lowered after the call" if called else "lowered without a call"] += 1
            game.apply(action)
            watch.after(action)
        if blunder is _call_tichu and seen["lowered after the call"] >= 2:
            return
        if blunder is _dragon_away and seen["lowered without a call"] >= 1 and \
                seen["above the mean"] >= 1 and \
                seen["an exchange without a call, not checked"] >= 2:
            return
    raise AssertionError(f"decisions met: {seen}")


def test_the_example_of_the_docs_is_what_the_command_prints() -> None:
    """docs/review.md shows a review of its example file: the command's output as it is
    today, figure for figure (the page is read by people judging the coach)."""
    root = Path(__file__).resolve().parents[3]
    page = (root / "docs" / "review.md").read_text()
    command = "$ python -m engine review docs/examples/review-grand.json --seat 0\n"
    assert command in page
    shown = page.split(command, 1)[1].split("\n```", 1)[0]
    code, out, err = run_cli([str(root / "docs/examples/review-grand.json"), "--seat", "0"])
    assert (code, err) == (0, "")
    assert json.loads(shown) == json.loads(out)

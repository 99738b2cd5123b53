"""The training pipeline end to end on a tiny data set (never the shipped model)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from engine.tichu.ai.evaluator import from_bytes
from engine.tichu.ai.learned import LearnedPlayer
from engine.tichu.ai.selfplay import play_game
from tools import train
from tools.selfplay_data import generate


def test_data_is_the_same_for_a_seed_and_any_job_count() -> None:
    one = generate("t", 2, jobs=1)
    two = generate("t", 2, jobs=2)
    assert len(one) > 100
    assert np.array_equal(one.x, two.x) and np.array_equal(one.diff, two.diff)
    # Outcomes are the deal's: each row's difference is a multiple of 5 and a seat out
    # first is named relative to the row's seat.
    assert (one.diff % 5 == 0).all() and set(np.unique(one.first)) <= {-1, 0, 1, 2, 3}


@pytest.mark.filterwarnings("ignore:Stochastic Optimizer")  # a tiny fit does not converge
def test_one_command_makes_a_model_that_loads_and_plays(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tichu4.npz"
    code = train.main(["--seed", "3", "--games", "6", "--out", str(out), "--hidden", "16",
                       "--epochs", "3", "--quiet"])
    assert code == 0
    model = from_bytes(out.read_bytes(), str(out))
    card = out.with_suffix(".md").read_text()
    assert "--games 6" in card and "brier_first" in card
    figures = model.meta["figures"]
    assert figures["rows"] > 0 and 0.0 <= figures["brier_first"] <= 2.0
    game = play_game([LearnedPlayer(model)] * 4, seed=1, max_deals=1)
    assert len(game.history) == 1
    printed = capsys.readouterr().out
    assert "round 0" in printed and json.loads(printed.split("round 0: ", 1)[1])["rows"] > 0


def test_a_run_stopped_while_writing_keeps_the_last_complete_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "m.npz"
    train.write_whole(path, b"complete")

    def stopped(fd: int) -> None:
        raise KeyboardInterrupt  # Ctrl-C after the bytes went out, before the rename

    monkeypatch.setattr(train.os, "fsync", stopped)
    with pytest.raises(KeyboardInterrupt):
        train.write_whole(path, b"half")
    assert path.read_bytes() == b"complete"
    assert [p.name for p in tmp_path.iterdir()] == ["m.npz"]


def test_calls_far_from_the_bar_are_tried_at_the_wide_rate() -> None:
    from engine.tichu.ai import bidding
    from engine.tichu.ai.choices import choices
    from engine.tichu.ai.knowledge import knowledge_of
    from engine.tichu.game import TichuGame
    from tools.selfplay_data import Explorer, Records

    seed = next(f"wide-{i}" for i in range(500) if bidding.grand_strength(
        [int(c) for c in TichuGame(seed=f"wide-{i}").dealt[0][:8]]) < bidding.GRAND_THRESHOLD - 3)
    view = TichuGame(seed=seed).view(0)
    found = choices(view, knowledge_of(view))
    assert found.kind == "grand" and found.heuristic == 0  # the heuristics decline

    def calls(wide: float) -> int:
        explorer = Explorer(None, Records(), wide=wide)
        rng = random.Random(1)
        return sum(explorer.pick(view, knowledge_of(view), found, rng) for _ in range(400))

    assert calls(0.0) == 0
    # Tried at 0.5, a random candidate of two: about one call in four.
    assert 60 < calls(0.5) < 140


def test_an_ensemble_is_one_network_giving_its_members_mean() -> None:
    from engine.tichu.ai import features
    from engine.tichu.ai.evaluator import Evaluator

    rng = np.random.default_rng(5)
    width = features.width(4)

    def network(seed: int) -> train.Layers:
        r = np.random.default_rng(seed)
        shapes = [(width, 6), (6, 4), (4, 5)]
        return [(r.normal(size=s).astype(np.float32), r.normal(size=s[1]).astype(np.float32))
                for s in shapes]

    members = [network(1), network(2), network(3)]
    meta = {"n_seats": 4, "diff_scale": 100.0}
    merged = Evaluator(train.ensemble(members), meta)
    assert [w.shape for w, _ in merged.layers] == [(width, 18), (18, 12), (12, 5)]
    x = rng.random((7, width)).astype(np.float32)
    mean = sum(Evaluator(m, meta).raw(x) for m in members) / 3
    assert np.allclose(merged.raw(x), mean, atol=1e-4)
    assert not np.allclose(Evaluator(members[0], meta).raw(x), mean, atol=1e-2)
    assert train.ensemble(members[:1]) == members[0]


@pytest.mark.filterwarnings("ignore:Stochastic Optimizer")  # a tiny fit does not converge
@pytest.mark.filterwarnings("ignore:Got `batch_size`")  # of a few hundred rows
def test_a_fit_of_two_members_names_them_on_its_card(tmp_path: Path) -> None:
    data = tmp_path / "d.npz"
    assert train.main(["data", "--seed", "4", "--games", "3", "--out", str(data)]) == 0
    out = tmp_path / "m.npz"
    assert train.main(["fit", str(data), "--seed", "2", "--members", "2", "--hidden", "8",
                       "--epochs", "2", "--out", str(out), "--quiet"]) == 0
    model = from_bytes(out.read_bytes(), str(out))
    assert model.meta["members"] == 2 and model.layers[0][0].shape[1] == 16
    assert "An ensemble of 2 such networks (seeds 2 onwards)" in out.with_suffix(".md").read_text()


@pytest.mark.filterwarnings("ignore:Stochastic Optimizer")  # a tiny fit does not converge
@pytest.mark.filterwarnings("ignore:Got `batch_size`")  # of a few hundred rows
def test_models_fitted_apart_merge_into_one_with_their_cards(tmp_path: Path) -> None:
    data = [tmp_path / "a.npz", tmp_path / "b.npz"]
    for seed, path in enumerate(data, start=5):
        assert train.main(["data", "--seed", str(seed), "--games", "4", "--out", str(path)]) == 0
    models = [tmp_path / "ma.npz", tmp_path / "mb.npz"]
    for path, model in zip(data, models, strict=True):
        assert train.main(["fit", str(path), "--hidden", "8", "--epochs", "1", "--out",
                           str(model), "--quiet"]) == 0
    out = tmp_path / "m.npz"
    assert train.main(["merge", *map(str, models), "--out", str(out)]) == 0
    merged = from_bytes(out.read_bytes(), str(out))
    members = [from_bytes(m.read_bytes(), str(m)) for m in models]
    x = np.random.default_rng(1).random((4, merged.layers[0][0].shape[0])).astype(np.float32)
    assert np.allclose(merged.raw(x), (members[0].raw(x) + members[1].raw(x)) / 2, atol=1e-4)
    text = out.with_suffix(".md").read_text()
    assert "fitted apart, below" in text and "Time:" not in text and "## Member 2" in text and str(data[1]) in text
    assert merged.meta["members"] == 2


def test_models_of_other_shapes_are_not_merged(tmp_path: Path) -> None:
    from engine.tichu.ai import features
    from engine.tichu.ai.evaluator import Evaluator

    width = features.width(4)
    meta = {"n_seats": 4, "diff_scale": 100.0, "first_weight": 1.0, "hidden": [4]}
    small = Evaluator([(np.zeros((width, 4), np.float32), np.zeros(4, np.float32)),
                       (np.zeros((4, 5), np.float32), np.zeros(5, np.float32))], meta)
    wide = Evaluator([(np.zeros((width, 6), np.float32), np.zeros(6, np.float32)),
                      (np.zeros((6, 5), np.float32), np.zeros(5, np.float32))], meta)
    with pytest.raises(SystemExit, match="differ"):
        train.merge([small, wide], tmp_path / "m.npz", "merge")
    assert not (tmp_path / "m.npz").exists()


@pytest.mark.filterwarnings("ignore:Stochastic Optimizer")  # a tiny fit does not converge
@pytest.mark.filterwarnings("ignore:Got `batch_size`")  # of a few hundred rows
def test_the_shipped_recipe_in_one_command_goes_on_after_a_stop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work, out = tmp_path / "work", tmp_path / "tichu4.npz"
    command = ["ensemble", "--seed", "2", "--games", "4", "--parts", "2", "--members", "2",
               "--base-games", "4", "--hidden", "8", "--work", str(work), "--out", str(out),
               "--quiet"]
    assert train.main(command) == 0
    model = from_bytes(out.read_bytes(), str(out))
    assert model.meta["members"] == 3 and model.layers[0][0].shape[1] == 24
    assert sorted(p.name for p in work.glob("*.npz")) == [
        "member0.npz", "member1.npz", "member2.npz", "part0.npz", "part1.npz", "part2.npz"]
    # The learned player's data: the first member's player, games from 200000 on.
    own = train.load_data(work / "part2.npz")
    assert own.game.min() >= 2 * train.PART_GAMES
    card = out.with_suffix(".md").read_text()
    assert card.count("## Member") == 3 and "part2.npz" in card
    # Stopped after the data: the members are made again from the files, the same bytes.
    first = out.read_bytes()
    for name in ("member0.npz", "member1.npz", "member2.npz"):
        (work / name).unlink()

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("data kept in the work folder were made again")

    monkeypatch.setattr(train, "generate", never)
    assert train.main(command) == 0
    assert out.read_bytes() == first

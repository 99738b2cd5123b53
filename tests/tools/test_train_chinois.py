"""Chinois's training command end to end on a tiny data set (never the shipped models)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.chinois import values
from engine.chinois.ai import HardPlayer
from engine.chinois.selfplay import play_game
from tools import train_chinois


def test_data_is_the_same_for_a_seed_and_any_job_count() -> None:
    one = train_chinois.generate("t", 60, jobs=1, log=False)
    two = train_chinois.generate("t", 60, jobs=2, log=False)
    for kind in values.KINDS:
        assert len(one[kind]) > 0
        assert np.array_equal(one[kind].x, two[kind].x)
        assert np.array_equal(one[kind].y, two[kind].y)
    # Four bids a deal; a deal's scores are its outcome: 10 + 2 a trick, or -2 a trick off.
    assert len(one["bid"]) == 4 * 60
    own = np.rint(one["bid"].y[:, 0] * train_chinois.SCALE).astype(int)
    assert ((own >= 10) & (own % 2 == 0) | (own <= 0) & (own % 2 == 0)).all()


@pytest.mark.filterwarnings("ignore:Stochastic Optimizer")  # a tiny fit does not converge
@pytest.mark.filterwarnings("ignore:Got `batch_size`")  # nor fill a batch
def test_one_command_makes_models_that_load_and_play(tmp_path: Path) -> None:
    code = train_chinois.main(["--seed", "2", "--deals", "80", "--hidden", "8", "--epochs",
                               "2", "--out", str(tmp_path), "--quiet"])
    assert code == 0
    for kind in values.KINDS:
        path = tmp_path / values.file_name(kind)
        network = values.from_bytes(path.read_bytes(), str(path), kind)
        assert network.meta["figures"]["rows"] > 0
        card = path.with_suffix(".md").read_text()
        assert "--deals 80" in card and network.meta["features"] in card
    values.use_directory(tmp_path)
    try:
        game = play_game([HardPlayer()] * 4, seed=1, max_rounds=3)
    finally:
        values.use_directory(values.SHIPPED)
    assert len(game.history) == 3

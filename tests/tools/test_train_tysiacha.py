"""tools.train_tysiacha on a tiny run (issue 54): seeded records (the same for any job
count), and model files, with their cards, that read back checked and are rebuilt to the
same weights by the same command."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.tysiacha import features, values
from engine.tysiacha.features import THRESHOLDS
from tools import train_tysiacha


def test_the_records_are_seeded() -> None:
    x, y = train_tysiacha.generate("t", 40)
    assert x.shape == (120, features.INPUTS) and y.shape == (120, features.OUTPUTS)
    again_x, again_y = train_tysiacha.generate("t", 40, jobs=2)
    assert np.array_equal(x, again_x) and np.array_equal(y, again_y)
    reach = y[:, :len(THRESHOLDS)]
    assert set(np.unique(reach)) <= {0.0, 1.0} and (np.diff(reach, axis=1) <= 0).all()
    assert (x[:, :24].sum(axis=1) == 10).all()  # the soloist's ten cards


def test_a_tiny_model_is_rebuilt_to_the_same_weights(tmp_path: Path) -> None:
    def build(out: Path) -> values.Values:
        assert train_tysiacha.main(["--seed", "3", "--deals", "300", "--hidden", "8",
                                    "--epochs", "2", "--hard-deals", "4", "--quiet",
                                    "--out", str(out)]) == 0
        return values.from_bytes(out.read_bytes(), str(out))

    model = build(tmp_path / "a" / values.FILE_NAME)
    again = build(tmp_path / "b" / values.FILE_NAME)
    # (the times taken and the paths named differ; the weights and figures do not)
    assert model.meta["digest"] == again.meta["digest"]
    assert model.meta["figures"] == again.meta["figures"]
    assert model.meta["deals"] == 300 and model.meta["hidden"] == 8
    card = (tmp_path / "a" / "tysiacha.md").read_text()
    assert card.startswith("# Model card: tysiacha.npz") and features.DIGEST in card
    assert "recalibrated" in card and "held-out hard deals" in card


def test_the_hard_records_are_seeded() -> None:
    x, y = train_tysiacha.generate("t", 3, kind="hard")
    again = train_tysiacha.generate("t", 3, kind="hard")
    assert len(x) == len(y) >= 2 and np.array_equal(x, again[0]) and np.array_equal(y, again[1])
    assert (x[:, :24].sum(axis=1) == 10).all()


def test_the_play_records_are_each_trick_start_of_a_hard_deal() -> None:
    x, y = train_tysiacha.generate("t", 2, kind="play")
    again = train_tysiacha.generate("t", 2, jobs=2, kind="play")
    assert np.array_equal(x, again[0]) and np.array_equal(y, again[1])
    assert x.shape[1] == features.PLAY_INPUTS and len(x) == len(y) == 10  # 8 to 4 cards, twice
    held = x[:, :72].reshape(len(x), 3, 24).sum(axis=2)
    assert (held == held[:, :1]).all()  # the three seats hold as many cards
    assert list(held[:5, 0]) == [8, 7, 6, 5, 4] == list(held[5:, 0])
    at = features.PLAY_LAYOUT.index
    assert (x[:, at("leads:soloist"):at("leads:other") + 1].sum(axis=1) == 1).all()
    first = x[0]
    assert first[at("leads:soloist")] == 1 and first[at("points:soloist")] == 0
    assert first[at("trump:0"):at("trump:3") + 1].sum() == 0  # no marriage before a trick
    points = x[:, at("points:soloist"):at("points:other") + 1].sum(axis=1) * 120
    assert (np.diff(points[:5]) >= 0).all() and (np.diff(points[5:]) >= 0).all()
    assert (y[:5] == y[0]).all() and (y[5:] == y[5]).all()  # a deal's end, for each start


def test_a_tiny_play_model_is_rebuilt_to_the_same_weights(tmp_path: Path) -> None:
    def build(out: Path) -> values.Values:
        assert train_tysiacha.main(["--play", "--seed", "3", "--deals", "4", "--hidden", "8",
                                    "--epochs", "2", "--quiet", "--out", str(out)]) == 0
        return values.from_bytes(out.read_bytes(), str(out), "play")

    model = build(tmp_path / "a" / values.PLAY_FILE_NAME)
    again = build(tmp_path / "b" / values.PLAY_FILE_NAME)
    assert model.meta["digest"] == again.meta["digest"] and model.meta["play"] is True
    card = (tmp_path / "a" / "tysiacha-play.md").read_text()
    assert card.startswith("# Model card: tysiacha-play.npz") and features.PLAY_DIGEST in card

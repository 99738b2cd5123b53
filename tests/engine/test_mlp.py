"""The shared model file of the learned players: written, read back to the same numbers,
and refused in one sentence naming it when it was built for another format or layout."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine import mlp

FORMAT = "test-values/1"


def layers(inputs: int = 5) -> mlp.Layers:
    rng = np.random.default_rng(3)
    return [(rng.normal(0, 0.5, (inputs, 4)).astype(np.float32),
             rng.normal(0, 0.1, 4).astype(np.float32)),
            (rng.normal(0, 0.5, (4, 2)).astype(np.float32), np.zeros(2, np.float32))]


def read(blob: bytes, features: str = "abc", inputs: int = 5) -> mlp.Network:
    arrays, meta = mlp.unpack(blob, "values.npz", FORMAT)
    mlp.check_features(meta, "values.npz", features, inputs)
    return mlp.Network(mlp.checked_layers(arrays, meta, "values.npz", inputs, 2),
                       mlp.members_of(meta, "values.npz"))


def test_a_network_reads_back_and_computes_its_layers() -> None:
    blob = mlp.to_bytes(layers(), {"note": 1}, format=FORMAT, features="abc", inputs=5)
    x = np.arange(10, dtype=np.float32).reshape(2, 5) / 10
    (w0, b0), (w1, b1) = layers()
    expected = np.maximum(x @ w0 + b0, 0) @ w1 + b1
    assert np.allclose(read(blob).raw(x), expected, atol=1e-6)


@pytest.mark.parametrize(("blob", "words"), [
    (mlp.to_bytes(layers(), {}, format="other/1", features="abc", inputs=5), "not a test-values"),
    (mlp.to_bytes(layers(), {}, format=FORMAT, features="xyz", inputs=5), "other features"),
    (mlp.to_bytes(layers(6), {}, format=FORMAT, features="abc", inputs=5), "wrong shape"),
    (mlp.to_bytes(layers(), {"members": 0}, format=FORMAT, features="abc", inputs=5),
     "count of members"),
])
def test_a_file_for_something_else_is_refused(blob: bytes, words: str) -> None:
    with pytest.raises(mlp.ModelError) as caught:
        read(blob)
    assert "values.npz" in str(caught.value) and words in str(caught.value)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(mlp.ModelError, match=r"missing\.npz cannot be read"):
        mlp.read_file(tmp_path / "missing.npz")


def test_one_folder_for_every_game_then_each_its_own_again(tmp_path: Path) -> None:
    def load(key: str, data: bytes, name: str) -> bytes:
        return data

    shipped, chosen = tmp_path / "shipped", tmp_path / "chosen"
    for folder, text in ((shipped, b"shipped"), (chosen, b"chosen")):
        folder.mkdir()
        (folder / "a.npz").write_bytes(text)
    before = mlp.Shelf(shipped, lambda key: f"{key}.npz", load)
    assert before.get("a") == b"shipped"
    try:
        mlp.use_directory(chosen)
        after = mlp.Shelf(tmp_path / "elsewhere", lambda key: f"{key}.npz", load)
        assert before.get("a") == after.get("a") == b"chosen"  # read anew, from the choice
        assert mlp.chosen_directory() == chosen
    finally:
        mlp.use_directory(None)
    assert before.get("a") == b"shipped" and mlp.chosen_directory() is None

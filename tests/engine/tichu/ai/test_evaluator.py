"""The model file: read back as written, and refused, in one sentence naming it, when
missing, truncated, corrupt or built for other features."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest

from engine.tichu.ai import features
from engine.tichu.ai.evaluator import ModelError, from_bytes, to_bytes


def layers(n: int = 4, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    w = features.width(n)
    return [(rng.normal(0, 0.1, (w, 8)).astype(np.float32), np.zeros(8, np.float32)),
            (rng.normal(0, 0.1, (8, 1 + n)).astype(np.float32), np.zeros(1 + n, np.float32))]


META = {"n_seats": 4, "diff_scale": 100.0}


def test_a_model_reads_back_and_predicts_the_same_numbers() -> None:
    blob = to_bytes(layers(), META)
    model = from_bytes(blob, "m.npz")
    x = np.random.default_rng(1).random((3, features.width(4))).astype(np.float32)
    again = from_bytes(blob, "m.npz").predict(x)
    first = model.predict(x)
    assert np.array_equal(first.diff, again.diff)
    assert np.allclose(first.first.sum(axis=1), 1.0)
    assert first.first.shape == (3, 4) and first.diff.shape == (3,)


def _rewrite(blob: bytes, change: dict[str, object]) -> bytes:
    with np.load(io.BytesIO(blob), allow_pickle=False) as archive:
        arrays = {k: archive[k] for k in archive.files}
    meta = json.loads(str(arrays["meta"]))
    meta.update(change)
    arrays["meta"] = np.array(json.dumps(meta))
    out = io.BytesIO()
    np.savez(out, **arrays)  # type: ignore[arg-type]
    return out.getvalue()


def _tampered_weights(blob: bytes) -> bytes:
    with np.load(io.BytesIO(blob), allow_pickle=False) as archive:
        arrays = {k: archive[k] for k in archive.files}
    arrays["w0"] = arrays["w0"] + np.float32(0.5)
    out = io.BytesIO()
    np.savez(out, **arrays)  # type: ignore[arg-type]
    return out.getvalue()


GOOD = to_bytes(layers(), META)


@pytest.mark.parametrize(("blob", "words"), [
    (b"", "truncated or corrupt"),
    (GOOD[: len(GOOD) // 2], "truncated or corrupt"),
    (b"not a zip at all" * 10, "truncated or corrupt"),
    (_rewrite(GOOD, {"features": "0123456789abcdef"}), "other features"),
    (_rewrite(GOOD, {"format": "something/2"}), "not a tichu-evaluator"),
    (_rewrite(GOOD, {"n_seats": 5}), "table size"),
    (_tampered_weights(GOOD), "checksum"),
    (to_bytes(layers(6), {"n_seats": 4, "diff_scale": 1.0}), "wrong shape"),
    (_rewrite(GOOD, {"members": ["a.npz", "b.npz"]}), "count of members"),
    (_rewrite(GOOD, {"members": 0}), "count of members"),
])
def test_a_bad_model_file_is_refused_in_one_sentence_naming_it(blob: bytes, words: str) -> None:
    with pytest.raises(ModelError) as caught:
        from_bytes(blob, "models/tichu4.npz")
    message = str(caught.value)
    assert "models/tichu4.npz" in message and words in message
    assert message.endswith(".") and "\n" not in message


def test_a_zip_without_the_arrays_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("readme.txt", "hello")
    with pytest.raises(ModelError, match="no description"):
        from_bytes(out.getvalue(), "x.npz")


def deep(seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    shapes = [(features.width(4), 6), (6, 3), (3, 5)]
    return [(rng.normal(0, 0.3, s).astype(np.float32), rng.normal(0, 0.1, s[1]).astype(np.float32))
            for s in shapes]


def test_an_ensemble_is_multiplied_block_by_block_to_the_same_numbers() -> None:
    from tools.train import ensemble

    members = [deep(1), deep(2), deep(3)]
    model = from_bytes(to_bytes(ensemble(members), dict(META, members=3)), "e.npz")
    assert [None if b is None else b.shape for b in model.blocks] == [None, (3, 6, 3), None]
    dense = from_bytes(to_bytes(ensemble(members), META), "d.npz")  # (no members named)
    assert dense.blocks == [None, None, None]
    x = np.random.default_rng(4).random((5, features.width(4))).astype(np.float32)
    assert np.allclose(model.raw(x), dense.raw(x), atol=1e-5)
    mean = sum(from_bytes(to_bytes(m, META), "m.npz").raw(x) for m in members) / 3
    assert np.allclose(model.raw(x), mean, atol=1e-5)


def test_a_hidden_layer_that_is_not_block_diagonal_is_multiplied_whole() -> None:
    from tools.train import ensemble

    merged = ensemble([deep(1), deep(2)])
    w, b = merged[1]
    w = w.copy()
    w[0, -1] = 0.25  # off the diagonal blocks
    merged[1] = (w, b)
    model = from_bytes(to_bytes(merged, dict(META, members=2)), "e.npz")
    assert model.blocks == [None, None, None]
    x = np.random.default_rng(5).random((2, features.width(4))).astype(np.float32)
    h = np.maximum(x @ merged[0][0] + merged[0][1], 0)
    h = np.maximum(h @ merged[1][0] + merged[1][1], 0)
    assert np.allclose(model.raw(x), h @ merged[2][0] + merged[2][1], atol=1e-5)

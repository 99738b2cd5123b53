"""Snapshot tests: new renders must stay close to the reference images.

The references (``<name>.webp``, or ``<name>.jpg`` for a live panel's picture: the bytes
the bot would upload, named as :func:`~bot.render.encoding.filename` names them) live in
``tests/render/snapshots/`` and come from
``bot.render.examples.gallery()`` (the names in ``examples.SNAPSHOTS``). The
comparison tolerates small changes (font hinting, one moved pixel): it fails
when the mean absolute difference over all pixels and channels exceeds
``MEAN_TOLERANCE`` (0..255 scale) or when more than ``CHANGED_TOLERANCE`` of
the pixels changed by more than 48 levels.

After an intended change of the images, regenerate the references with either::

    python -m tools.make_art --snapshots      # cards, docs and snapshots
    UPDATE_SNAPSHOTS=1 pytest tests/render    # snapshots only

and look at the new images before committing them.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.render import examples as ex
from bot.render.encoding import IMAGE_EXT, PANEL_EXT, filename

SNAPSHOT_DIR = Path(__file__).parent / "snapshots"
MEAN_TOLERANCE = 1.5
CHANGED_TOLERANCE = 0.01
UPDATE = os.environ.get("UPDATE_SNAPSHOTS", "") not in ("", "0")


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute difference, share of pixels that changed a lot)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    mean = sum(ImageStat.Stat(diff).mean) / 3
    strong = diff.convert("L").point(lambda v: 255 if v > 48 else 0)
    share = ImageStat.Stat(strong).mean[0] / 255
    return mean, share


def test_difference_is_sensitive() -> None:
    a = Image.new("RGB", (100, 100), (0, 0, 0))
    b = a.copy()
    assert difference(a, b) == (0.0, 0.0)
    b.paste((255, 255, 255), (0, 0, 50, 100))
    mean, share = difference(a, b)
    assert mean > 100 and share == pytest.approx(0.5)


def test_no_stale_snapshot() -> None:
    stored = [p for p in SNAPSHOT_DIR.iterdir() if p.is_file()]
    assert {p.suffix for p in stored} <= {f".{IMAGE_EXT}", f".{PANEL_EXT}"}
    stems = sorted(p.stem for p in stored)
    assert set(stems) <= set(ex.SNAPSHOTS) and len(stems) == len(set(stems))


@pytest.mark.parametrize("name", ex.SNAPSHOTS)
def test_snapshot(name: str) -> None:
    data = ex.gallery()[name]()
    path = SNAPSHOT_DIR / filename(name, data)
    if UPDATE:
        SNAPSHOT_DIR.mkdir(parents=True, exist_ok=True)
        for old in SNAPSHOT_DIR.glob(f"{name}.*"):
            old.unlink()  # a picture whose format changed leaves no stale reference
        path.write_bytes(data)
        pytest.skip(f"snapshot {name} rewritten")
    if not path.exists():
        pytest.fail(f"missing snapshot {path}: run UPDATE_SNAPSHOTS=1 pytest tests/render")
    new = Image.open(io.BytesIO(data))
    with Image.open(path) as ref:
        assert new.size == ref.size, f"{name}: size {new.size} != {ref.size}"
        mean, share = difference(new, ref)
    assert mean <= MEAN_TOLERANCE and share <= CHANGED_TOLERANCE, (
        f"{name} drifted from its snapshot (mean {mean:.2f}, changed {share:.2%}); "
        "if intended, regenerate with UPDATE_SNAPSHOTS=1")

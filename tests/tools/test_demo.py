"""``make demo``: a whole game through the real bot and the local Discord, its log printed
once line by line, and the images a newcomer looks at saved: the mid-deal table and
hand, every posted image, the final table."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bot.render import filename
from tools.demo import demo


async def test_the_demo_prints_one_clean_log_and_saves_the_images(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo-output"
    await demo(out, target=100, delay=0.0, locale="fr")
    printed = capsys.readouterr().out
    log = [line for line in printed.splitlines() if line.startswith("• ")]
    assert sum("Partie terminée" in line for line in log) == 1, printed
    assert log[-1].startswith("• Partie terminée"), printed
    assert len(log) > 20  # every line, not the table message's last few
    saved = {path.name for path in out.iterdir()}
    for name in ("mid-deal-table", "mid-deal-hand", "final-table"):
        assert filename(name) in saved, saved
    assert any("game-over" in name for name in saved), saved
    for path in out.iterdir():
        with Image.open(path) as image:
            assert image.width > 300 and image.height > 200

"""``make demo``: a whole game through the real bot and the local Discord, its log printed
once line by line, and the images a newcomer looks at saved: the mid-deal table and
hand, every posted image, the final table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from bot.render import filename
from tools import demo as demo_module
from tools.demo import demo

ROOT = Path(__file__).resolve().parents[2]


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


def test_make_run_plays_the_demo_after_the_bot_only_without_a_token(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recipe = re.search(r"^run: \$\(STAMP\)\n((?:\t.*\n)+)",
                       (ROOT / "Makefile").read_text(encoding="utf-8"), re.MULTILINE)
    assert recipe is not None
    assert [line.strip() for line in recipe.group(1).splitlines()] == [
        "$(BIN)/python -m bot", "$(BIN)/python -m tools.demo --unless-token"]
    played: list[Path] = []

    async def fake_demo(out: Path, *args: object) -> None:
        played.append(out)

    monkeypatch.setattr(demo_module, "demo", fake_demo)
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    demo_module.main(["--unless-token"])
    assert played == []
    monkeypatch.setenv("DISCORD_TOKEN", "")  # as the bot reads it: no token
    demo_module.main(["--unless-token"])
    monkeypatch.delenv("DISCORD_TOKEN")
    (tmp_path / ".env").write_text("LOG_LEVEL=INFO\n", encoding="utf-8")
    demo_module.main(["--unless-token", "--out", "x"])
    assert played == [Path("demo-output"), Path("x")]
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-the-file\n", encoding="utf-8")
    demo_module.main(["--unless-token"])
    assert len(played) == 2
    # Settings the bot could not read: it said so and stopped; no demo instead.
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    (tmp_path / ".env").unlink()
    demo_module.main(["--unless-token"])
    assert len(played) == 2
    demo_module.main([])  # without the option it plays whatever the settings
    assert len(played) == 3

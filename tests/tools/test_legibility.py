"""The legibility measure: texts by their font's cap height, face-up cards by their corner
index, backs and shadows left out, and the scale Discord shows an image at."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.art.card import INDEX_CAP
from bot.render.cards import back_sprite, card_sprite, shadowed_sprite
from bot.render.display import display_scale
from bot.render.draw import canvas, draw_text, paste
from bot.render.encoding import encode
from bot.render.examples import cards as parse_cards
from bot.render.fonts import font
from tools.legibility import SHADOW, cap_height, kinds, measure, table


def test_display_scale_fits_the_box_and_never_enlarges() -> None:
    assert display_scale(1100, 700) == pytest.approx(0.5)
    assert display_scale(1000, 1000) == pytest.approx(0.35)
    assert display_scale(1000, 1000, device="phone") == pytest.approx(0.32)
    assert display_scale(800, 600, kind="embed") == pytest.approx(0.5)
    assert display_scale(200, 100) == 1.0


def drawing() -> bytes:
    img, d = canvas((1100, 700))
    draw_text(d, (10, 50), "Alice", 40, "bold", (255, 255, 255), "ls")
    d.text((10, 120), "hidden under", font=font(12), fill=SHADOW)
    ace, back = parse_cards("Ah")[0], back_sprite(50)
    paste(img, card_sprite(ace, 120), (200, 200))
    paste(img, shadowed_sprite(ace, 90), (400, 200))
    paste(img, back, (600, 200))
    return encode(img)


def test_measure_reads_cap_heights_and_card_indices() -> None:
    m = measure("test", drawing)
    heights = sorted(g.height for g in m.glyphs)
    cap = cap_height(str(font(40, "bold").path), 40)
    assert 27 <= cap <= 31  # DejaVu Sans Bold: about 0.73 of the size
    assert heights == pytest.approx(sorted([cap, INDEX_CAP * 120, INDEX_CAP * 90]))
    assert m.smallest.what == "card Ah" and m.smallest.height == pytest.approx(INDEX_CAP * 90)
    assert m.shown("desktop") == pytest.approx(INDEX_CAP * 90 * 0.5)
    assert m.shown("phone") == pytest.approx(INDEX_CAP * 90 * 320 / 1100)
    assert not m.legible()  # a 90 px card in an 1100 px image is 2.8 px tall on a phone
    with Image.open(io.BytesIO(drawing())) as img:
        assert (m.width, m.height) == img.size


def test_every_kind_is_measured_and_reported() -> None:
    every = kinds()
    assert {"table", "table-six", "hand", "hand-ten", "exchange", "deal-summary",
            "game-over", "leaderboard", "standings", "trick-table", "score-grid"} <= set(every)
    report = table([measure("prikup", *every["prikup"])])
    assert report.splitlines()[2].startswith("prikup")


def test_an_image_without_text_is_refused() -> None:
    with pytest.raises(ValueError, match="nothing to read"):
        measure("blank", lambda: encode(canvas((100, 100))[0]))


def test_the_bot_draws_for_the_boxes_the_emulator_shows() -> None:
    """bot.render.display and the emulator's display rules say the same of Discord."""
    from bot.render.display import BOXES
    from tests.emulator import display as discord_display

    for (kind, device), box in BOXES.items():
        assert discord_display.BOXES[(device, kind)] == box, (kind, device)

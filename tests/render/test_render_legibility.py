"""Every image kind is legible at the size Discord shows it: its smallest glyph that carries
game information (cap heights of texts, corner indices of cards; see :mod:`tools.legibility`)
is at least 11 px on desktop and 8 px on a phone, and it keeps to its budget in bytes."""

from __future__ import annotations

import pytest

from bot.render.display import SMALLEST_GLYPH
from tools.legibility import kinds, measure

LEGIBLE: dict[str, int] = {
    "table": 65_000,
    "table-six": 65_000,
    "table-long-names": 70_000,
    "hand": 80_000,
    "hand-ten": 75_000,
    "hand-six": 75_000,
    "exchange": 140_000,
    "exchange-six": 130_000,
    "position": 185_000,
    "position-full": 195_000,
    "deal-summary": 56_000,
    "deal-summary-six": 60_000,
    "game-over": 63_000,
    "game-over-six": 58_000,
    "game-over-long": 85_000,
    "trick-table": 50_000,
    "trick-table-3": 40_000,
    "trick-table-max": 70_000,
    "french-hand": 48_000,
    "french-hand-max": 54_000,
    "prikup": 34_000,
    "leaderboard": 63_000,
    "standings": 35_000,
    "rating-chart": 22_000,
    "score-grid": 60_000,
    "score-grid-long": 125_000,
    "score-grid-tysiacha": 104_000,
}
"""The image kinds drawn for Discord's size, and each one's budget in bytes (WebP; the live
panels' pictures, ``exchange*`` and ``position*``, JPEG: 2.6 times the bytes, for a fifth of
the CPU, :mod:`bot.render.encoding`)."""
LEGIBLE |= {f"{kind}-{lang}": LEGIBLE[kind] + 8_000 for lang in ("de", "el") for kind in (
    "table", "hand", "exchange", "deal-summary", "game-over", "trick-table", "trick-table-3")}
"""The same in German and Greek, whose words are longer."""


@pytest.mark.parametrize("name", sorted(LEGIBLE))
def test_the_smallest_glyph_is_legible_as_shown(name: str) -> None:
    m = measure(name, *kinds()[name])
    for device, least in SMALLEST_GLYPH.items():
        assert m.shown(device) >= least, (name, device, m.smallest, m.scale(device))
    assert m.size <= LEGIBLE[name], (name, m.size)


def test_every_legible_kind_is_measured() -> None:
    assert set(LEGIBLE) <= set(kinds())

"""Every image kind is legible at the size Discord shows it: its smallest glyph that carries
game information (cap heights of texts, corner indices of cards; see :mod:`tools.legibility`)
is at least 11 px on desktop and 8 px on a phone, and it keeps to its budget in bytes."""

from __future__ import annotations

import pytest

from bot.render.display import SMALLEST_GLYPH
from tools.legibility import kinds, measure

LEGIBLE: dict[str, int] = {
    "prikup": 20_000,
    "leaderboard": 63_000,
    "standings": 35_000,
    "rating-chart": 22_000,
    "score-grid": 60_000,
    "score-grid-long": 125_000,
    "score-grid-tysiacha": 104_000,
}
"""The image kinds drawn for Discord's size, and each one's budget in bytes (WebP)."""


@pytest.mark.parametrize("name", sorted(LEGIBLE))
def test_the_smallest_glyph_is_legible_as_shown(name: str) -> None:
    m = measure(name, *kinds()[name])
    for device, least in SMALLEST_GLYPH.items():
        assert m.shown(device) >= least, (name, device, m.smallest, m.scale(device))
    assert m.size <= LEGIBLE[name], (name, m.size)


def test_every_legible_kind_is_measured() -> None:
    assert set(LEGIBLE) <= set(kinds())

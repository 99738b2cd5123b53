"""The shipped DejaVu fonts, loaded once per size and thread. No system font is ever used.

FreeType faces are not safe to share between threads, and the bot renders in
worker threads (``asyncio.to_thread``), so each thread keeps its own faces.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Literal

from PIL import ImageFont

ASSETS_DIR = Path(os.environ.get("TICHU_ASSETS_DIR")
                  or Path(__file__).resolve().parents[2] / "assets")
"""The repository's ``assets/`` folder (fonts and card art); ``TICHU_ASSETS_DIR``
overrides it for an install outside the checkout."""

FONTS_DIR = ASSETS_DIR / "fonts"

Weight = Literal["regular", "bold", "condensed", "condensed-bold"]

_FILES: dict[str, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
}


_local = threading.local()


def font(size: int, weight: Weight = "regular") -> ImageFont.FreeTypeFont:
    """The shipped DejaVu face of ``weight`` at ``size`` pixels (cached per thread)."""
    cache: dict[tuple[int, str], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    found = cache.get((size, weight))
    if found is None:
        path = FONTS_DIR / _FILES[weight]
        found = ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
        cache[(size, weight)] = found
    return found

"""The one file format of every image the bot uploads, and its encoder.

Every ``render_*`` function returns bytes in :data:`IMAGE_FORMAT`. Callers name
their attachments with :func:`filename` (``filename("table")`` is
``"table.webp"``) and never hard-code an extension.

Lossy WebP (Discord shows it inline, like PNG) at quality 80: a table image
weighs about a third of the palette PNG it replaces, text and card indices stay
crisp, and the felt's gradient needs no noise against colour banding (a
256-colour palette could not hold it). Encoding is deterministic for a given
libwebp, so equal views still give equal bytes.
"""

from __future__ import annotations

import io

from PIL import Image

IMAGE_FORMAT = "WEBP"
"""Pillow's name of the format."""
IMAGE_EXT = "webp"
"""The file extension of every rendered image (no dot)."""
IMAGE_MIME = "image/webp"
WEBP_QUALITY = 80
WEBP_METHOD = 2
"""libwebp's effort (0..6): 2 is three times faster than 4 for 2% more bytes."""


def filename(stem: str) -> str:
    """The attachment name of an image called ``stem``: ``"table"`` -> ``"table.webp"``."""
    return f"{stem}.{IMAGE_EXT}"


def encode(img: Image.Image) -> bytes:
    """``img`` (RGB or RGBA, drawn opaque) encoded as :data:`IMAGE_FORMAT` bytes."""
    rgb = img.convert("RGB") if img.mode != "RGB" else img
    buf = io.BytesIO()
    rgb.save(buf, IMAGE_FORMAT, quality=WEBP_QUALITY, method=WEBP_METHOD)
    return buf.getvalue()

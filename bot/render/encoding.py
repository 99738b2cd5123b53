"""The one file format of every image the bot uploads, and its encoder.

Every ``render_*`` function returns bytes in :data:`IMAGE_FORMAT`. Callers name
their attachments with :func:`filename` (``filename("table")`` is
``"table.webp"``) and never hard-code an extension.

Lossy WebP (Discord shows it inline, like PNG) at quality 80: a table image
weighs about a third of the palette PNG it replaces, text and card indices stay
crisp, and the felt's gradient needs no noise against colour banding (a
256-colour palette could not hold it). Encoding is deterministic for a given
libwebp, so equal views still give equal bytes.

Many pictures are drawn again unchanged (a table whose change shows only in the
text; hands are kept by :func:`bot.render.hand.render_hand` itself, by what they
show, and encoded with ``kept=False``): :func:`encode` keeps the most recent
encodings, up to :data:`CACHE_BYTES`, keyed on the picture itself (its size,
mode and a SHA-256 of its pixels, with the encoder's settings), so an equal picture is never encoded twice
and a changed one never finds a stale encoding. Hashing the pixels costs a
small fraction of encoding them.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections import OrderedDict

from PIL import Image

IMAGE_FORMAT = "WEBP"
"""Pillow's name of the format."""
IMAGE_EXT = "webp"
"""The file extension of every rendered image (no dot)."""
IMAGE_MIME = "image/webp"
WEBP_QUALITY = 80
WEBP_METHOD = 2
"""libwebp's effort (0..6): 2 is three times faster than 4 for 2% more bytes."""
PANEL_METHOD = 0
"""libwebp's effort for a live panel's picture (a table with a hand under it, drawn at each
click on a panel in DMs and for each seat at each move): 0 takes 30% less CPU than 2 for
about 19% more bytes, at the same quality and as close to the drawing (1100 × 884: mean
difference 2.19 against 2.20 levels of 255). With a hundred tables in DMs these
encodings were three quarters of shard 0's drawing (``python -m tools.bench_direct``)."""


def filename(stem: str) -> str:
    """The attachment name of an image called ``stem``: ``"table"`` -> ``"table.webp"``."""
    return f"{stem}.{IMAGE_EXT}"


CACHE_BYTES = 24 * 1024 * 1024
"""The most encoded bytes :func:`encode` keeps (per process), least recently used first out."""


class EncodingCache:
    """Encoded images by the pictures they show, up to ``limit`` bytes (thread-safe)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(img: Image.Image, method: int) -> tuple[object, ...]:
        """What the picture shows (its size, mode and a digest of every pixel) and how
        it is encoded."""
        return (img.size, img.mode, hashlib.sha256(img.tobytes()).digest(),
                IMAGE_FORMAT, WEBP_QUALITY, method)

    def get(self, key: tuple[object, ...]) -> bytes | None:
        with self._lock:
            data = self._entries.get(key)
            if data is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return data

    def put(self, key: tuple[object, ...], data: bytes) -> None:
        if len(data) > self.limit:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            self.size -= len(old) if old is not None else 0
            self._entries[key] = data
            self.size += len(data)
            while self.size > self.limit:
                _, dropped = self._entries.popitem(last=False)
                self.size -= len(dropped)

    def __len__(self) -> int:
        return len(self._entries)


cache = EncodingCache(CACHE_BYTES)
"""The process's cache of :func:`encode`."""


def encode(img: Image.Image, *, kept: bool = True, method: int | None = None) -> bytes:
    """``img`` (RGB or RGBA, drawn opaque) encoded as :data:`IMAGE_FORMAT` bytes, with
    libwebp's effort ``method`` (:data:`WEBP_METHOD` when None); with ``kept=False``
    neither looked up in :data:`cache` nor kept there (for a caller that keeps its
    pictures by what they show, and draws only new ones: hashing the pixels would cost it
    a tenth of the encoding for nothing)."""
    effort = WEBP_METHOD if method is None else method
    rgb = img.convert("RGB") if img.mode != "RGB" else img
    key = cache.key(rgb, effort) if kept else None
    data = cache.get(key) if key is not None else None
    if data is None:
        buf = io.BytesIO()
        rgb.save(buf, IMAGE_FORMAT, quality=WEBP_QUALITY, method=effort)
        data = buf.getvalue()
        if key is not None:
            cache.put(key, data)
    return data

"""The file formats of the images the bot uploads, and their encoders.

Every ``render_*`` function returns bytes in :data:`IMAGE_FORMAT`, but for the live
panels' pictures (:func:`encode_panel`, :data:`PANEL_FORMAT`). Callers name their
attachments with :func:`filename`, which reads the format from the bytes
(``filename("table")`` is ``"table.webp"``, ``filename("hand", data)`` is
``"hand.jpg"`` for a panel's JPEG), and never hard-code an extension.

Lossy WebP (Discord shows it inline, like PNG) at quality 80: a table image
weighs about a third of the palette PNG it replaces, text and card indices stay
crisp, and the felt's gradient needs no noise against colour banding (a
256-colour palette could not hold it). Encoding is deterministic for a given
libwebp, so equal views still give equal bytes.

A live panel's picture (the table with a seat's hand under it, 1100 × 884, drawn anew at
each click on a panel in DMs and for each seat at each move; the exchange's picture,
drawn at each pick) is JPEG instead: libjpeg-turbo encodes it in a fifth of libwebp's
least effort (3.7 against 17 ms), closer to the drawing (mean difference 1.67 against
2.21 levels of 255, and a quarter as many pixels off by more than 24), for about 2.6 times
the bytes (165 against 63 KB). With a hundred tables in DMs, their encodings were most of
shard 0's drawing (``python -m tools.bench_direct``, docs/developers/benchmarks.md).

Many pictures are drawn again unchanged (a table whose change shows only in the
text; hands are kept by :func:`bot.render.hand.render_hand` itself, by what they
show, and encoded with ``kept=False``): :func:`encode` keeps the most recent
encodings, up to :data:`CACHE_BYTES`, keyed on the picture itself (its size,
mode and a SHA-256 of its pixels, with the encoder's settings), so an equal picture is never encoded twice
and a changed one never finds a stale encoding. Hashing the pixels costs a
small fraction of encoding them. A live panel is never the same picture twice, and is
not kept.
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
PANEL_FORMAT = "JPEG"
"""Pillow's name of a live panel's format (:func:`encode_panel`)."""
PANEL_EXT = "jpg"
PANEL_QUALITY = 80
"""libjpeg's quality of a live panel, its colours not subsampled (4:4:4): the red and
blue of card ranks on cream stay as sharp as the black."""


def extension(data: bytes | None) -> str:
    """The file extension (no dot) of encoded image bytes: :data:`PANEL_EXT` for a JPEG,
    else :data:`IMAGE_EXT` (also when ``data`` is None)."""
    return PANEL_EXT if data is not None and data[:3] == b"\xff\xd8\xff" else IMAGE_EXT


def filename(stem: str, data: bytes | None = None) -> str:
    """The attachment name of an image called ``stem``, in the format of ``data`` (else
    :data:`IMAGE_FORMAT`'s): ``"table"`` -> ``"table.webp"``."""
    return f"{stem}.{extension(data)}"


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
    def key(img: Image.Image) -> tuple[object, ...]:
        """What the picture shows (its size, mode and a digest of every pixel) and how
        it is encoded."""
        return (img.size, img.mode, hashlib.sha256(img.tobytes()).digest(),
                IMAGE_FORMAT, WEBP_QUALITY, WEBP_METHOD)

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


def encode(img: Image.Image, *, kept: bool = True) -> bytes:
    """``img`` (RGB or RGBA, drawn opaque) encoded as :data:`IMAGE_FORMAT` bytes; with ``kept=False``
    neither looked up in :data:`cache` nor kept there (for a caller that keeps its
    pictures by what they show, and draws only new ones: hashing the pixels would cost it
    a tenth of the encoding for nothing)."""
    rgb = img.convert("RGB") if img.mode != "RGB" else img
    key = cache.key(rgb) if kept else None
    data = cache.get(key) if key is not None else None
    if data is None:
        buf = io.BytesIO()
        rgb.save(buf, IMAGE_FORMAT, quality=WEBP_QUALITY, method=WEBP_METHOD)
        data = buf.getvalue()
        if key is not None:
            cache.put(key, data)
    return data


def encode_panel(img: Image.Image) -> bytes:
    """A live panel's picture ``img`` (RGB or RGBA, drawn opaque) encoded as
    :data:`PANEL_FORMAT`: never looked up nor kept (it is drawn anew for each change)."""
    rgb = img.convert("RGB") if img.mode != "RGB" else img
    buf = io.BytesIO()
    rgb.save(buf, PANEL_FORMAT, quality=PANEL_QUALITY, subsampling=0)
    return buf.getvalue()

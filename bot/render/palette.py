"""A fixed palette for the Tichu images, so that encoding them is fast.

Mapping an image onto a palette is cheap once Pillow's colour cache of that
palette is warm, and costly for a fresh palette. So the table, hand and
exchange images share one palette, learnt once per process from the felt,
every Tichu card and example renders of those images (about 0.1 s), plus the
fine ramps of :data:`bot.render.draw.FIXED_COLORS`. Each thread keeps its own
palette object, so its cache is never shared between threads.
"""

from __future__ import annotations

import io
import threading
from functools import lru_cache

from PIL import Image

from bot.render.cards import CARD_W, back_sprite, card_height, card_sprite
from bot.render.draw import FIXED_COLORS, felt

_local = threading.local()


def _training_image() -> Image.Image:
    """The felt, all 56 Tichu cards at two sizes, and example table and hand images."""
    from bot.render import examples
    from bot.render.hand import draw_exchange, draw_hand
    from bot.render.table import draw_table
    from engine.tichu.cards import DECK

    parts = [draw_table(view, examples.NAMES) for view in examples.table_views().values()]
    parts.append(draw_hand(examples.hand_view(), selected=examples.HAND_SELECTED))
    left, partner, right = examples.EXCHANGE_CHOICE
    parts.append(draw_exchange(examples.exchange_view(), left, partner, right, examples.NAMES))
    for width in (CARD_W, 100):
        h = card_height(width)
        mosaic = felt((14 * width, 4 * h), rim=False).copy()
        for i, card in enumerate(DECK):
            sprite = card_sprite(card, width)
            mosaic.paste(sprite, ((i % 14) * width, (i // 14) * h), sprite)
        parts.append(mosaic)
    back = back_sprite(100)
    strip = felt((100, back.height), rim=False).copy()
    strip.paste(back, (0, 0), back)
    parts.append(strip)
    width = max(p.width for p in parts)
    train = Image.new("RGB", (width, sum(p.height for p in parts)))
    y = 0
    for part in parts:
        train.paste(part, (0, y))
        y += part.height
    return train


@lru_cache(maxsize=1)
def tichu_palette() -> tuple[int, ...]:
    """The palette entries (768 ints) shared by the Tichu images (learnt once)."""
    n = 256 - len(FIXED_COLORS)
    octree = _training_image().reduce(2).quantize(n, method=Image.Quantize.FASTOCTREE)
    entries = list((octree.getpalette() or [])[: 3 * n])
    entries += [0] * (3 * n - len(entries))
    entries += [v for color in FIXED_COLORS for v in color]
    return tuple(entries)


def _thread_palette() -> Image.Image:
    palette = getattr(_local, "palette", None)
    if palette is None:
        palette = Image.new("P", (1, 1))
        palette.putpalette(list(tichu_palette()))
        _local.palette = palette
    return palette


def encode_tichu(img: Image.Image, compress_level: int = 1) -> bytes:
    """PNG bytes of a Tichu image mapped (without dithering) onto the shared palette."""
    rgb = img.convert("RGB") if img.mode != "RGB" else img
    q = rgb.quantize(palette=_thread_palette(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    q.save(buf, "PNG", compress_level=compress_level)
    return buf.getvalue()


def warm_up() -> None:
    """Learn the palette and warm this thread's colour cache (optional, at start-up)."""
    encode_tichu(felt((64, 64)))

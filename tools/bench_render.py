"""Time and weigh the images drawn most often: the public table (four and six seats), a
seat's hand, the deal summary and a live panel (the table with a hand under it, as a DM
table draws it at each click and move).

``python -m tools.bench_render [RUNS]`` prints, for each image, the median over RUNS
runs (default 30, after a warm-up) of the time to draw it and to encode it, as the
bot uploads it (:data:`bot.render.encoding.IMAGE_FORMAT`, WebP; a live panel in
:data:`~bot.render.encoding.PANEL_FORMAT`, JPEG, and WebP beside it), each time encoded
anew (not from the encoder's cache) and, for comparison, as a 256-colour palette PNG (the
format used before; its fast-octree palette learnt per image). Times are wall clock and the thread's CPU time, which other busy
processes do not inflate. Targets (draw + upload encoding, CPU): table 40 ms, hand
30 ms.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from PIL import Image

from bot.render import examples as ex
from bot.render.encoding import IMAGE_EXT, PANEL_EXT, encode, encode_panel
from bot.render.hand import draw_hand
from bot.render.position import draw_position
from bot.render.summary import draw_deal_summary
from bot.render.table import draw_table

T = TypeVar("T")
TARGETS_MS = {"table": 40.0, "table-six": 40.0, "hand": 30.0}


def palette_png(img: Image.Image) -> bytes:
    """The comparison format: a palette PNG (octree palette of a half-size copy, mapped
    without dithering, zlib level 1), as the images were encoded before WebP."""
    rgb = img.convert("RGB")
    palette = rgb.reduce(2).quantize(256, method=Image.Quantize.FASTOCTREE)
    q = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    q.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def timed(fn: Callable[[], T], runs: int) -> tuple[T, float, float]:
    """(last result, median wall ms, median CPU ms) of ``fn`` over ``runs`` after warm-up."""
    result = fn()
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        result = fn()
        cpu.append((time.thread_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return result, statistics.median(wall), statistics.median(cpu)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_render",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", type=int, nargs="?", default=30,
                        help="timed runs of each image, after a warm-up (default 30)")
    runs: int = parser.parse_args(argv).runs
    cases: dict[str, Callable[[], Image.Image]] = {
        "table": lambda: draw_table(ex.table_view(), ex.NAMES),
        "table-six": lambda: draw_table(ex.six_table_view(), ex.NAMES6),
        "hand": lambda: draw_hand(ex.hand_view(), selected=ex.HAND_SELECTED),
        "summary": lambda: draw_deal_summary(ex.deal_over_view(), ex.NAMES),
        "panel": lambda: draw_position(ex.table_view(), ex.position_view(), ex.NAMES,
                                       selected=ex.HAND_SELECTED),
    }
    print(f"median of {runs} runs, CPU ms (wall ms); upload format {IMAGE_EXT} (a live "
          f"panel {PANEL_EXT}) vs palette PNG")
    for name, draw in cases.items():
        img, draw_wall, draw_cpu = timed(draw, runs)
        if name == "panel":
            _, webp_wall, webp_cpu = timed(partial(encode, img, kept=False), runs)
            data, enc_wall, enc_cpu = timed(partial(encode_panel, img), runs)
            webp = len(encode(img, kept=False))
            print(f"{name:9s} {IMAGE_EXT} {webp_cpu:5.1f} ({webp_wall:5.1f}) "
                  f"{webp / 1024:6.1f} KB, as uploaded:")
        else:
            data, enc_wall, enc_cpu = timed(partial(encode, img, kept=False), runs)
        ext = PANEL_EXT if name == "panel" else IMAGE_EXT
        png, png_wall, png_cpu = timed(partial(palette_png, img), runs)
        total = draw_cpu + enc_cpu
        target = TARGETS_MS.get(name)
        verdict = "" if target is None else (
            f"  target {target:.0f} ms {'ok' if total <= target else 'SLOW'}")
        print(f"{name:9s} draw {draw_cpu:5.1f} ({draw_wall:5.1f})  "
              f"{ext} {enc_cpu:5.1f} ({enc_wall:5.1f}) {len(data) / 1024:6.1f} KB  "
              f"png {png_cpu:5.1f} ({png_wall:5.1f}) {len(png) / 1024:6.1f} KB  "
              f"-> {len(data) / len(png):4.0%} of the PNG; "
              f"draw+{ext} {total:5.1f} ms{verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

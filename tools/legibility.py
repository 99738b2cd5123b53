"""How large every image's smallest glyph is as Discord shows it, on desktop and on a phone.

``python -m tools.legibility [--kind NAME ...]`` draws each kind of image the bot posts
from the fixed examples of :mod:`bot.render.examples`, records every glyph that carries
game information, and prints, per image kind: its size, its bytes (WebP, as uploaded),
the scale Discord shows it at (:mod:`bot.render.display`), and its smallest glyph in
pixels as drawn, on desktop and on a phone, with the text it belongs to.

What counts as a glyph's height:
- a text drawn with ``ImageDraw.text``: the cap height of its font (the ink of ``H``:
  a capital letter or a digit), whatever the text;
- a face-up card: the height of its corner index (the rank, or a special card's corner
  figure), which is :data:`bot.render.art.card.INDEX_CAP` of the card's width.
Card backs carry nothing to read and are left out; so is the text of drop shadows.

The goal (:data:`bot.render.display.SMALLEST_GLYPH`): at least 11 px on desktop and 8 px
on a phone. ``tests/render/test_render_legibility.py`` holds every image kind to it.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw, ImageFont

from bot.render import cards as card_module
from bot.render import examples as ex
from bot.render import hand as hand_module
from bot.render.art import card as card_art

if TYPE_CHECKING:
    from bot.render.display import Device, Kind

BASELINE = "159e36d"
"""The commit measured as "before": main before the images were drawn for Discord's size.
``--baseline REF`` measures the images of REF with this tool (in a git worktree)."""

SHADOW = (0, 0, 0, 150)
"""The fill of drop shadows under texts (the same text is drawn again on top)."""


@dataclass(frozen=True, slots=True)
class Glyph:
    """One text or card index drawn on an image, and its height in pixels as drawn."""

    what: str
    height: float


@dataclass(slots=True)
class Measure:
    """An image kind as drawn: its size, bytes, how it is shown, and its glyphs."""

    name: str
    width: int
    height: int
    size: int
    kind: Kind
    glyphs: list[Glyph] = field(default_factory=list)

    def scale(self, device: Device) -> float:
        from bot.render.display import display_scale

        return display_scale(self.width, self.height, device=device, kind=self.kind)

    @property
    def smallest(self) -> Glyph:
        return min(self.glyphs, key=lambda g: g.height)

    def shown(self, device: Device) -> float:
        """The smallest glyph's height in pixels as Discord shows the image on ``device``."""
        return self.smallest.height * self.scale(device)

    def legible(self) -> bool:
        from bot.render.display import SMALLEST_GLYPH

        return all(self.shown(d) >= SMALLEST_GLYPH[d] for d in ("desktop", "phone"))


def index_cap() -> float:
    """How tall a card's corner index is, as a share of the card's width (the art's
    :data:`~bot.render.art.card.INDEX_CAP`; for a tree from before it was named, the same
    measure of its index font, 50 px condensed bold on a 360 px wide drawing)."""
    cap = getattr(card_art, "INDEX_CAP", None)
    if cap is None:
        from bot.render.fonts import font

        _, top, _, bottom = font(50, "condensed-bold").getbbox("10", anchor="ls")
        cap = (bottom - top) / card_art.W
    return float(cap)


@cache
def cap_height(path: str, size: int) -> float:
    """The cap height of the font at ``path`` and ``size`` (the ink of ``H``)."""
    face = ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
    _, top, _, bottom = face.getbbox("H", anchor="ls")
    return bottom - top


@contextmanager
def recording() -> Iterator[list[Glyph]]:
    """Every text and face-up card drawn inside the block, as glyphs."""
    glyphs: list[Glyph] = []
    ratio = index_cap()
    text = ImageDraw.ImageDraw.text
    scaled = card_module._scaled
    shadowed = card_module._shadowed

    def spy_text(self: ImageDraw.ImageDraw, xy: Any, what: Any, *args: Any,
                 **kwargs: Any) -> Any:
        fill = kwargs.get("fill", args[0] if args else None)
        face = kwargs.get("font")
        if fill != SHADOW and not inside[0] and str(what).strip() and isinstance(face, ImageFont.FreeTypeFont):
            glyphs.append(Glyph(str(what), cap_height(str(face.path), int(face.size))))
        return text(self, xy, what, *args, **kwargs)

    inside = [False]  # a shadowed sprite draws its card through _scaled: count it once
    try:
        from bot.render import tiles
    except ImportError:  # a baseline tree from before tiles
        tiles = None  # type: ignore[assignment]
    tile = tiles._tile if tiles is not None else None

    def card(token: str, width: int) -> None:
        if token != "back" and not inside[0]:
            glyphs.append(Glyph(f"card {token}", ratio * width))

    def spy_scaled(deck: Any, token: str, width: int) -> Image.Image:
        card(token, width)
        return scaled(deck, token, width)

    def spy_shadowed(deck: Any, token: str, width: int) -> Image.Image:
        card(token, width)
        inside[0] = True
        try:
            return shadowed(deck, token, width)
        finally:
            inside[0] = False

    def spy_tile(card: int, width: int, deck: Any) -> Image.Image:
        if not inside[0]:
            glyphs.append(Glyph(f"tile {card}", tiles.index_height(width)))
        inside[0] = True
        try:
            assert tile is not None
            return tile(card, width, deck)
        finally:
            inside[0] = False

    # The hand pictures render_hand keeps (none in older trees): none while recording, so
    # that every hand is drawn.
    hands = getattr(hand_module, "_hands", None)
    if hands is not None:
        hand_module._hands = type(hands)(0)
    if tiles is not None:
        tiles._tile = spy_tile  # type: ignore[assignment]
    ImageDraw.ImageDraw.text = spy_text  # type: ignore[method-assign,assignment]
    card_module._scaled = spy_scaled  # type: ignore[assignment]
    card_module._shadowed = spy_shadowed  # type: ignore[assignment]
    try:
        yield glyphs
    finally:
        ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
        card_module._scaled = scaled
        card_module._shadowed = shadowed
        if tiles is not None:
            tiles._tile = tile
        if hands is not None:
            hand_module._hands = hands


def measure(name: str, draw: Callable[[], bytes], kind: Kind = "attachment") -> Measure:
    """Draw one image and record its glyphs (a card seen twice in the drawing counts once
    per time it is drawn)."""
    with recording() as glyphs:
        data = draw()
    with Image.open(io.BytesIO(data)) as img:
        width, height = img.size
    if not glyphs:
        raise ValueError(f"{name}: nothing to read was drawn")
    return Measure(name, width, height, len(data), kind, glyphs)


def kinds() -> dict[str, tuple[Callable[[], bytes], Kind]]:
    """Every kind of image the bot posts, drawn from a fixed example, and how it is sent."""
    from bot.games.tysiacha.images import render_prikup
    from bot.render.french import render_french_hand
    from bot.render.ratings import render_rating_chart
    from engine.trick import strength
    from engine.tysiacha.cards import ORDER

    gallery = ex.gallery()
    ten = replace(ex.hand_view(), hand=ex.cards("DOG 3h 5c 5d 5h 7s 9s Ts PHOENIX Ac"),
                  hand_counts=(10, 12, 10, 13))
    french = ex.cards("Ac Kc 9d Td Jh Qh 7s 8s As")
    out: dict[str, tuple[Callable[[], bytes], Kind]] = {
        name: (gallery[name], "attachment") for name in (
            "table", "table-six", "table-long-names", "hand", "hand-six", "exchange",
            "exchange-six", "deal-summary", "deal-summary-six", "game-over", "game-over-six",
            "game-over-long", "trick-table", "trick-table-3", "score-grid", "position",
            "position-full")
        if name in gallery}  # a baseline from before an example was added lacks it
    from bot.render import render_hand

    out["hand-ten"] = (lambda: render_hand(ten), "attachment")
    out["french-hand"] = (lambda: render_french_hand(
        french, key=lambda c: (int(c) & 3, -strength(c, ORDER)), playable=french[:3],
        title="Round 5"), "attachment")
    out["prikup"] = (lambda: render_prikup(tuple(ex.cards("Ah Ts Qd")), "Prikup"),
                     "attachment")
    for name in gallery:  # the examples in German and Greek
        if name.endswith(("-de", "-el")):
            out[name] = (gallery[name], "attachment")
    for name in ("trick-table-max", "french-hand-max"):  # the largest cases (a tree from
        if name in gallery:  # before them has none)
            out[name] = (gallery[name], "attachment")
    out["leaderboard"] = (gallery["leaderboard"], "embed")
    out["standings"] = (gallery["daily-standings"], "embed")
    out["rating-chart"] = (gallery.get("rating-chart") or (lambda: render_rating_chart(
        "Rating", [0.0, 1.2, 2.5, 2.1, 3.4, 4.0, 3.8], "Last 7 games")), "embed")
    for name in ("score-grid-long", "score-grid-tysiacha"):
        if name in gallery:  # not in a tree from before them (see --baseline)
            out[name] = (gallery[name], "attachment")
    return out


def measure_all(names: list[str] | None = None, known: bool = False) -> list[Measure]:
    """Measure the kinds ``names`` (all by default); with ``known``, leave out the names
    this tree does not draw (a baseline from before they were added)."""
    every = kinds()
    chosen = [n for n in names or list(every) if n in every or not known]
    return [measure(name, *every[name]) for name in chosen]


def to_json(measures: list[Measure]) -> str:
    return json.dumps([{"name": m.name, "width": m.width, "height": m.height, "size": m.size,
                        "kind": m.kind, "glyphs": [[g.what, g.height] for g in m.glyphs]}
                       for m in measures])


def from_json(text: str) -> list[Measure]:
    return [Measure(d["name"], d["width"], d["height"], d["size"], d["kind"],
                    [Glyph(w, h) for w, h in d["glyphs"]]) for d in json.loads(text)]


def baseline(ref: str, names: list[str] | None) -> list[Measure]:
    """The images of commit ``ref`` measured by this tool: a detached git worktree of it
    (made once under the system's temp directory) imports its own ``bot``."""
    root = Path(__file__).resolve().parents[1]
    sha = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", ref], check=True,
                         capture_output=True, text=True).stdout.strip()
    tree = Path(tempfile.gettempdir()) / f"legibility-{sha}"
    if not (tree / "bot").is_dir():
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "--force",
                        str(tree), sha], check=True, capture_output=True)
    args = [sys.executable, str(Path(__file__).resolve()), "--json"]
    for name in names or []:
        args += ["--kind", name]
    env = {**os.environ, "PYTHONPATH": str(tree), "TICHU_ASSETS_DIR": str(tree / "assets")}
    out = subprocess.run(args, check=True, capture_output=True, text=True, env=env,
                         cwd=tree).stdout
    return from_json(out)


def table(measures: list[Measure], before: list[Measure] | None = None) -> str:
    """The report: one line per image kind (and its figures at the baseline, if given)."""
    head = (f"{'image':<18} {'size':>10} {'bytes':>7} {'kind':<10} {'drawn':>6} "
            f"{'desktop':>8} {'phone':>6}  smallest")
    lines = [head, "-" * len(head)]
    old = {m.name: m for m in before or []}
    for m in measures:
        ok = "" if m.legible() else "  (under the goal)"
        lines.append(
            f"{m.name:<18} {f'{m.width}x{m.height}':>10} {m.size:>7} {m.kind:<10} "
            f"{m.smallest.height:>6.1f} {m.shown('desktop'):>8.1f} {m.shown('phone'):>6.1f}"
            f"  {m.smallest.what[:24]}{ok}")
        if m.name in old:
            b = old[m.name]
            lines.append(
                f"{'  before':<18} {f'{b.width}x{b.height}':>10} {b.size:>7} {b.kind:<10} "
                f"{b.smallest.height:>6.1f} {b.shown('desktop'):>8.1f} "
                f"{b.shown('phone'):>6.1f}  {b.smallest.what[:24]}")
    from bot.render.display import SMALLEST_GLYPH

    goal = SMALLEST_GLYPH
    lines.append(f"goal: at least {goal['desktop']:g} px on desktop and {goal['phone']:g} px "
                 "on a phone (cap height, as shown)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.legibility", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", action="append", help="only this image kind (repeatable)")
    parser.add_argument("--baseline", metavar="REF", nargs="?", const=BASELINE,
                        help=f"also measure commit REF (default {BASELINE}), line by line")
    parser.add_argument("--json", action="store_true", help="print the raw measures as JSON")
    args = parser.parse_args(argv)
    if args.json:
        print(to_json(measure_all(args.kind, known=True)))
        return 0
    before = baseline(args.baseline, args.kind) if args.baseline else None
    print(table(measure_all(args.kind), before))
    return 0


if __name__ == "__main__":
    sys.exit(main())

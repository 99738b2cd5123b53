"""Shared drawing helpers: the felt background, text, pills, sprites and the encoder.

Images are drawn on an opaque RGB canvas (so they look the same in Discord's
dark and light themes) through an ``ImageDraw`` in RGBA mode, which blends
translucent fills. Static layers are cached; :func:`encode` (from
:mod:`bot.render.encoding`) turns a finished image into upload bytes.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from bot.render.encoding import encode as encode  # re-exported for every image
from bot.render.fonts import Weight, font

RGB = tuple[int, int, int]
Color = tuple[int, int, int] | tuple[int, int, int, int]
Box = tuple[float, float, float, float]

FELT_LIGHT: RGB = (34, 116, 72)
FELT_DARK: RGB = (10, 52, 32)
RIM: RGB = (60, 34, 20)
TEXT: RGB = (248, 244, 232)
MUTED: RGB = (186, 212, 194)
DIM: RGB = (140, 170, 150)
GOLD: RGB = (250, 200, 70)
RED: RGB = (236, 84, 70)
GREEN: RGB = (110, 214, 120)
INK: RGB = (24, 24, 28)
PANEL: Color = (0, 0, 0, 105)
PANEL_STRONG: Color = (0, 0, 0, 150)
TEAM_COLORS: tuple[RGB, RGB] = ((250, 168, 60), (96, 196, 246))
"""Team 0 (seats 0 and 2) is amber, team 1 (seats 1 and 3) is sky blue."""

MIN_TEXT = 18
"""No text is drawn smaller than this many pixels."""


def team_color(team: int) -> RGB:
    """The colour of team 0 or 1."""
    return TEAM_COLORS[team % 2]


@lru_cache(maxsize=16)
def felt(size: tuple[int, int], rim: bool = True) -> Image.Image:
    """The table: green felt with a vignette and a dark rim (cached)."""
    w, h = size
    ramp = Image.radial_gradient("L").resize((w, h), Image.Resampling.BILINEAR)
    ramp = ramp.point(lambda v: min(255, int(v * 1.25)))
    base = Image.composite(Image.new("RGB", size, FELT_DARK), Image.new("RGB", size, FELT_LIGHT),
                           ramp)
    if rim:
        d = ImageDraw.Draw(base, "RGBA")
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=26, outline=RIM, width=8)
        d.rounded_rectangle((8, 8, w - 9, h - 9), radius=20, outline=(255, 255, 255, 28), width=2)
        corner = Image.new("RGB", size, (24, 24, 24))
        mask = Image.new("L", size, 255)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=26, fill=0)
        base.paste(corner, (0, 0), mask)
    return base


def canvas(size: tuple[int, int], rim: bool = True) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A fresh copy of the felt and a blending ``ImageDraw`` on it."""
    img = felt(size, rim).copy()
    return img, ImageDraw.Draw(img, "RGBA")


def drawn(text: str) -> str:
    """What a picture draws of ``text``: every character but the format characters
    (Unicode's category Cf: zero-width spaces and joiners, soft hyphens, bidirectional
    marks, embeddings, overrides and isolates), which show nothing and which the basic
    layout does not apply (it draws an isolate as a box). Names are drawn as written
    otherwise; every text function here measures and draws this."""
    if text.isascii():
        return text
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def text_width(text: str, size: int, weight: Weight = "regular") -> float:
    """Rendered width of ``text`` in pixels."""
    return font(size, weight).getlength(drawn(text))


def fit(text: str, max_width: float, size: int, weight: Weight = "regular") -> str:
    """``text``, cut with an ellipsis so that it fits in ``max_width`` pixels."""
    text = drawn(text)
    if text_width(text, size, weight) <= max_width:
        return text
    cut = text
    while cut and text_width(cut + "…", size, weight) > max_width:
        cut = cut[:-1]
    return cut.rstrip() + "…"


def fit_size(text: str, max_width: float, size: int, weight: Weight = "regular",
             min_size: int = MIN_TEXT) -> tuple[str, int]:
    """``text`` and the size to draw it at so that it fits in ``max_width`` pixels: the
    largest size from ``size`` down to ``min_size`` (never below :data:`MIN_TEXT`) at
    which it fits whole; at ``min_size``, cut with an ellipsis."""
    text = drawn(text)
    low = max(min(min_size, size), MIN_TEXT)
    for s in range(max(size, low), low - 1, -1):
        if text_width(text, s, weight) <= max_width:
            return text, s
    return fit(text, max_width, low, weight), low


def wrap(text: str, width: float, size: int, weight: Weight, lines: int) -> list[str]:
    """``text`` broken into at most ``lines`` lines of ``width`` pixels at the words; what
    does not fit the last line is cut with an ellipsis."""
    out: list[str] = []
    words = drawn(text).split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}", size, weight) <= width:
            line += f" {words.pop(0)}"
        if len(out) == lines - 1 and words:
            line = fit(f"{line} {' '.join(words)}", width, size, weight)
            words = []
        out.append(fit(line, width, size, weight))
    return out


def fit_names(text: str, names: Collection[str], max_width: float, size: int,
              weight: Weight = "regular", min_size: int = MIN_TEXT) -> tuple[str, int]:
    """:func:`fit_size` for a text of the catalogues that holds players' names (a header,
    a title): when it does not fit whole at ``min_size``, the names in it are cut with an
    ellipsis, the longest first, and the words around them stay whole; only a text that
    still does not fit is cut itself."""
    fitted, s = fit_size(text, max_width, size, weight, min_size)
    if fitted == text:
        return text, s
    present = sorted({n for n in names if len(n) > 1 and n in text}, key=len, reverse=True)
    least = text_width("Ab…", s, weight)
    for name in present:
        over = text_width(text, s, weight) - max_width
        if over <= 0:
            break
        room = max(text_width(name, s, weight) - over, least)
        text = text.replace(name, fit(name, room, s, weight))
    return fit(text, max_width, s, weight), s


def wrap_names(text: str, names: Collection[str], width: float, size: int, weight: Weight,
               lines: int) -> tuple[list[str], bool]:
    """:func:`wrap` for a text of the catalogues that holds players' names: when it does not
    fit ``lines`` lines whole, its names are cut (each to the same width, no narrower than
    needed) before the text's last line is. Also whether all of it shows (names aside)."""
    out = wrap(text, width, size, weight, lines)
    if " ".join(out) == " ".join(text.split()):
        return out, True
    present = sorted({n for n in names if len(n) > 1 and n in text}, key=len, reverse=True)
    least = text_width("Ab…", size, weight)
    room = max((text_width(n, size, weight) for n in present), default=least)
    while present and room > least:
        room = max(room - size, least)
        shorter = text
        for name in present:
            shorter = shorter.replace(name, fit(name, room, size, weight))
        out = wrap(shorter, width, size, weight, lines)
        if " ".join(out) == " ".join(shorter.split()):
            return out, True
    return out, False


def share(needs: Sequence[float], total: float) -> list[float]:
    """Widths for items that would like ``needs`` pixels out of ``total``: each its need
    when all fit; otherwise the smaller needs in full and the larger ones an equal share
    of what is left (so a long name takes the room a short one leaves)."""
    out = [0.0] * len(needs)
    if sum(needs) <= total:
        return [float(n) for n in needs]
    left = max(total, 0.0)
    order = sorted(range(len(needs)), key=lambda i: needs[i])
    for k, i in enumerate(order):
        out[i] = min(float(needs[i]), left / (len(needs) - k))
        left -= out[i]
    return out


def text_box(xy: tuple[float, float], text: str, size: int, weight: Weight = "regular",
             anchor: str = "la") -> Box:
    """The box of the ink of ``text`` drawn at ``xy`` with ``anchor`` (as :func:`draw_text`
    draws it, without its shadow)."""
    left, top, right, bottom = font(max(size, MIN_TEXT), weight).getbbox(drawn(text),
                                                                          anchor=anchor)
    return (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom)


def draw_fitted(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, max_width: float,
                size: int, weight: Weight = "regular", fill: Color = TEXT, anchor: str = "la",
                min_size: int | None = None, shadow: bool = True) -> Box:
    """:func:`draw_text` of ``text`` made to fit in ``max_width`` pixels (see
    :func:`fit_size`; ``min_size`` None keeps ``size`` and only cuts). Returns the text's box."""
    text, size = fit_size(text, max_width, size, weight, size if min_size is None else min_size)
    draw_text(d, xy, text, size, weight, fill, anchor, shadow)
    return text_box(xy, text, size, weight, anchor)


def signed(n: int) -> str:
    """``+45``, ``−100`` (with a true minus sign), ``0``."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def number(n: float, digits: int = 0) -> str:
    """A number with a true minus sign (``digits`` decimals)."""
    text = f"{abs(n):.{digits}f}"
    return f"−{text}" if n < 0 and text.strip("0.") else text


def draw_text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
              weight: Weight = "regular", fill: Color = TEXT, anchor: str = "la",
              shadow: bool = True) -> None:
    """Text with an optional soft drop shadow (readable on felt and on panels)."""
    size = max(size, MIN_TEXT)
    f = font(size, weight)
    text = drawn(text)
    if shadow:
        d.text((xy[0] + 1, xy[1] + 2), text, font=f, fill=(0, 0, 0, 150), anchor=anchor)
    d.text(xy, text, font=f, fill=fill, anchor=anchor)


def pill(d: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int = 18,
         bg: Color = (255, 255, 255, 40), fg: Color = TEXT, weight: Weight = "bold",
         pad: int = 9, height: int | None = None, align: str = "left",
         outline: Color | None = None) -> Box:
    """A rounded label; (x, y) is its top-left (or top-centre/right per ``align``).

    Returns its box.
    """
    size = max(size, MIN_TEXT)
    text = drawn(text)
    h = height or size + 12
    w = text_width(text, size, weight) + 2 * pad
    if align == "center":
        x -= w / 2
    elif align == "right":
        x -= w
    box = (x, y, x + w, y + h)
    d.rounded_rectangle(box, radius=h / 2, fill=bg, outline=outline, width=2 if outline else 0)
    d.text((x + w / 2, y + h / 2 + 1), text, font=font(size, weight), fill=fg, anchor="mm")
    return box


def panel(d: ImageDraw.ImageDraw, box: Box, fill: Color = PANEL, radius: int = 16,
          outline: Color | None = None, width: int = 2) -> None:
    """A translucent rounded panel."""
    d.rounded_rectangle(box, radius=radius, fill=fill, outline=outline,
                        width=width if outline else 0)


def paste(img: Image.Image, sprite: Image.Image, xy: tuple[float, float]) -> None:
    """Alpha-blend an RGBA sprite onto the canvas at ``xy`` (top-left)."""
    img.paste(sprite, (round(xy[0]), round(xy[1])), sprite)


def _ramp(a: RGB, b: RGB, n: int) -> list[RGB]:
    return [(round(a[0] + (b[0] - a[0]) * i / (n - 1)), round(a[1] + (b[1] - a[1]) * i / (n - 1)),
             round(a[2] + (b[2] - a[2]) * i / (n - 1))) for i in range(n)]


FIXED_COLORS: tuple[RGB, ...] = (
    *_ramp((255, 251, 240), (240, 228, 204), 20),
    *_ramp((255, 255, 255), (234, 238, 245), 12),
)
"""Palette entries always kept in the stored card PNGs (``tools/make_art.py``): the fine
ramps of the card faces' backgrounds, which a coarse octree palette would otherwise
turn into visible bands."""


@lru_cache(maxsize=16)
def glow(size: tuple[int, int], color: RGB, opacity: int = 70) -> Image.Image:
    """A soft elliptic glow of ``size`` (cached)."""
    w, h = size
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).ellipse((w * 0.2, h * 0.2, w * 0.8, h * 0.8), fill=opacity)
    mask = mask.filter(ImageFilter.GaussianBlur(min(w, h) / 10))
    sprite = Image.new("RGBA", size, (*color, 255))
    sprite.putalpha(mask)
    return sprite

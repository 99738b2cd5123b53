"""Suit symbols of both decks, drawn as shapes in a unit square.

French: clubs, diamonds, hearts, spades (suit indices 0..3, letters c d h s).
Tichu: jade (a green cash coin), pagoda (a red pagoda), star (a gold star) and
sword (a blue-black sword), on the same indices.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.art.geometry import (
    RGB,
    Linear,
    Pen,
    Point,
    Radial,
    bezier,
    downsample,
    quad,
    star_points,
)


class Deck(StrEnum):
    TICHU = "tichu"
    FRENCH = "french"


@dataclass(frozen=True, slots=True)
class SuitStyle:
    """Colours of one suit: ``ink`` for indices and text, ``light``/``dark`` for shading."""

    name: str
    ink: RGB
    light: RGB
    dark: RGB
    tint: RGB
    """A pale background tint for face-card panels."""


FRENCH_STYLES = (
    SuitStyle("clubs", (22, 22, 28), (70, 72, 82), (6, 6, 10), (226, 230, 240)),
    SuitStyle("diamonds", (196, 18, 40), (236, 62, 78), (160, 8, 28), (250, 226, 228)),
    SuitStyle("hearts", (196, 18, 40), (236, 62, 78), (160, 8, 28), (250, 226, 228)),
    SuitStyle("spades", (22, 22, 28), (70, 72, 82), (6, 6, 10), (226, 230, 240)),
)

TICHU_STYLES = (
    SuitStyle("jade", (10, 112, 70), (70, 196, 130), (6, 84, 52), (214, 240, 224)),
    SuitStyle("pagoda", (178, 34, 30), (232, 84, 62), (132, 20, 20), (248, 222, 214)),
    SuitStyle("star", (176, 112, 0), (255, 214, 64), (196, 124, 0), (252, 238, 196)),
    SuitStyle("sword", (26, 40, 76), (92, 124, 184), (14, 22, 46), (218, 226, 242)),
)


def style(deck: Deck, suit: int) -> SuitStyle:
    """The colours of ``suit`` in ``deck``."""
    return (TICHU_STYLES if deck is Deck.TICHU else FRENCH_STYLES)[suit]


class Frame:
    """Maps unit coordinates (0..1) into a square of side ``size`` centred on (cx, cy),
    optionally turned by 180 degrees (the lower pips of a card)."""

    def __init__(self, cx: float, cy: float, size: float, flip: bool = False) -> None:
        self.cx, self.cy, self.size, self.flip = cx, cy, size, flip

    def p(self, u: float, v: float) -> Point:
        if self.flip:
            u, v = 1 - u, 1 - v
        return (self.cx + (u - 0.5) * self.size, self.cy + (v - 0.5) * self.size)

    def pts(self, points: list[Point]) -> list[Point]:
        return [self.p(u, v) for u, v in points]

    def d(self, length: float) -> float:
        return length * self.size

    def box(self, u0: float, v0: float, u1: float, v1: float) -> tuple[float, float, float, float]:
        a = self.p(u0, v0)
        b = self.p(u1, v1)
        return (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))

    def circle(self, u: float, v: float, r: float) -> tuple[float, float, float, float]:
        return self.box(u - r, v - r, u + r, v + r)

    def grad(self, light: RGB, dark: RGB) -> Linear:
        """A top-left to bottom-right shading that follows the flip."""
        return Linear(dark, light, -45) if self.flip else Linear(light, dark, 45)


def _heart_unit(n: int = 96, tip_up: bool = False) -> list[Point]:
    raw = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        raw.append((x, y))
    xs = [p[0] for p in raw]
    ys = [p[1] for p in raw]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    scale = 0.9 / max(w, h)
    out = []
    for x, y in raw:
        u = 0.5 + x * scale
        v = 0.5 + (y - (min(ys) + h / 2)) * scale
        out.append((u, 1 - v if tip_up else v))
    return out


_HEART = _heart_unit()
_SPADE_TOP = [(u, v * 0.8 - 0.01) for u, v in _heart_unit(tip_up=True)]


def _stem(f: Frame, top: float) -> list[Point]:
    left = bezier((0.5, top), (0.49, 0.8), (0.42, 0.92), (0.3, 0.97), 10)
    right = bezier((0.7, 0.97), (0.58, 0.92), (0.51, 0.8), (0.5, top), 10)
    return f.pts(left + right)


def _french(pen: Pen, suit: int, f: Frame) -> None:
    st = FRENCH_STYLES[suit]
    fill = f.grad(st.light, st.dark)
    if suit == 0:  # clubs: three leaves, a heart of the clover and a flared stem

        def club(d: ImageDraw.ImageDraw) -> None:
            d.polygon(_stem(f, 0.5), fill=255)
            for u, v in ((0.5, 0.28), (0.27, 0.57), (0.73, 0.57)):
                d.ellipse(f.circle(u, v, 0.215), fill=255)
            d.ellipse(f.circle(0.5, 0.52, 0.13), fill=255)

        pen.paint(pen.mask(club), fill)
    elif suit == 1:  # diamonds: a rhombus with gently concave sides
        top, right, bottom, left = (0.5, 0.02), (0.86, 0.5), (0.5, 0.98), (0.14, 0.5)
        pts = (quad(top, (0.64, 0.3), right) + quad(right, (0.64, 0.7), bottom)
               + quad(bottom, (0.36, 0.7), left) + quad(left, (0.36, 0.3), top))
        pen.polygon(f.pts(pts), fill)
    elif suit == 2:  # hearts
        pen.polygon(f.pts(_HEART), fill)
    else:  # spades: an upturned heart on a flared stem

        def spade(d: ImageDraw.ImageDraw) -> None:
            d.polygon(_stem(f, 0.55), fill=255)
            d.polygon(f.pts(_SPADE_TOP), fill=255)

        pen.paint(pen.mask(spade), fill)
    # a soft highlight on the upper left
    pen.ellipse(f.box(0.3, 0.2, 0.42, 0.34) if suit != 0 else f.box(0.38, 0.12, 0.48, 0.22),
                (255, 255, 255, 70))


def _jade(pen: Pen, f: Frame) -> None:
    st = TICHU_STYLES[0]
    outer = pen.mask(lambda d: d.ellipse(f.circle(0.5, 0.5, 0.47), fill=255))
    hole = f.box(0.4, 0.4, 0.6, 0.6)
    outer_draw = outer.copy()
    ImageDraw.Draw(outer_draw).rectangle(hole, fill=0)
    pen.paint(outer_draw, Radial(st.light, st.dark, (0.35, 0.3), 0.75))
    w = max(1, int(f.d(0.035)))
    pen.ellipse(f.circle(0.5, 0.5, 0.47), None, st.dark, w)
    pen.ellipse(f.circle(0.5, 0.5, 0.37), None, (200, 245, 220), max(1, w // 2 + 1))
    pen.polygon([f.p(0.4, 0.4), f.p(0.6, 0.4), f.p(0.6, 0.6), f.p(0.4, 0.6)],
                None, st.dark, w)
    # four stylised glyphs around the hole, like a cash coin's characters
    ink = (8, 80, 50)
    gw = max(1, int(f.d(0.04)))
    pen.line([f.p(0.44, 0.2), f.p(0.56, 0.2)], ink, gw)
    pen.line([f.p(0.5, 0.15), f.p(0.5, 0.29)], ink, gw)
    pen.line([f.p(0.44, 0.8), f.p(0.56, 0.8)], ink, gw)
    pen.line([f.p(0.46, 0.73), f.p(0.54, 0.73)], ink, gw)
    pen.line([f.p(0.2, 0.44), f.p(0.2, 0.56)], ink, gw)
    pen.line([f.p(0.15, 0.5), f.p(0.27, 0.5)], ink, gw)
    pen.line([f.p(0.76, 0.44), f.p(0.84, 0.56)], ink, gw)
    pen.line([f.p(0.84, 0.44), f.p(0.76, 0.56)], ink, gw)


def _pagoda(pen: Pen, f: Frame) -> None:
    st = TICHU_STYLES[1]
    gold = (236, 184, 60)
    wall = Linear((120, 28, 24), (78, 14, 14))
    w = max(1, int(f.d(0.02)))
    # spire and finial
    pen.line([f.p(0.5, 0.03), f.p(0.5, 0.16)], gold, max(1, int(f.d(0.035))))
    pen.ellipse(f.circle(0.5, 0.05, 0.035), gold)
    tiers = ((0.15, 0.28, 0.27, 0.16), (0.35, 0.52, 0.37, 0.23), (0.58, 0.8, 0.48, 0.31))
    for top, bottom, half_roof, half_wall in tiers:
        # wall of the storey with a lit window
        pen.polygon([f.p(0.5 - half_wall, top + 0.05), f.p(0.5 + half_wall, top + 0.05),
                     f.p(0.5 + half_wall, bottom), f.p(0.5 - half_wall, bottom)], wall)
        ww = half_wall * 0.35
        pen.polygon([f.p(0.5 - ww, top + 0.09), f.p(0.5 + ww, top + 0.09),
                     f.p(0.5 + ww, bottom - 0.02), f.p(0.5 - ww, bottom - 0.02)], gold)
        # roof with upturned eaves
        eave = top + 0.09
        left_tip, right_tip = (0.5 - half_roof, eave - 0.04), (0.5 + half_roof, eave - 0.04)
        roof = [
            *quad(left_tip, (0.5 - half_roof * 0.7, eave + 0.02), (0.5 - half_wall * 0.9, eave)),
            (0.5 + half_wall * 0.9, eave),
            *quad((0.5 + half_wall * 0.9, eave), (0.5 + half_roof * 0.7, eave + 0.02), right_tip),
            *quad(right_tip, (0.5 + half_wall * 0.6, eave - 0.05), (0.5, top - 0.02)),
            *quad((0.5, top - 0.02), (0.5 - half_wall * 0.6, eave - 0.05), left_tip),
        ]
        pen.polygon(f.pts(roof), f.grad(st.light, st.dark), st.dark, w)
    # base steps
    pen.polygon([f.p(0.14, 0.8), f.p(0.86, 0.8), f.p(0.9, 0.9), f.p(0.1, 0.9)],
                Linear(st.light, st.dark), st.dark, w)
    pen.polygon([f.p(0.06, 0.9), f.p(0.94, 0.9), f.p(0.94, 0.97), f.p(0.06, 0.97)],
                Linear((150, 40, 30), (100, 20, 20)))


def _star(pen: Pen, f: Frame) -> None:
    pts = star_points(0.5, 0.53, 0.48, 0.2)
    pen.polygon(f.pts(pts), None, (150, 92, 0), max(2, int(f.d(0.05))))
    centre = (0.5, 0.53)
    for i in range(10):
        a = pts[i]
        b = pts[(i + 1) % 10]
        light = i % 2 == 0
        shade = (255, 226, 110) if light else (226, 150, 10)
        pen.polygon(f.pts([centre, a, b]), shade)
    pen.ellipse(f.circle(0.5, 0.53, 0.05), (255, 246, 200))


def _sword(pen: Pen, f: Frame) -> None:
    st = TICHU_STYLES[3]
    w = max(1, int(f.d(0.02)))
    # blade: left half lit, right half shaded, with a fuller line
    pen.polygon(f.pts([(0.5, 0.01), (0.41, 0.13), (0.41, 0.66), (0.5, 0.66)]),
                Linear((210, 222, 242), (150, 170, 206)))
    pen.polygon(f.pts([(0.5, 0.01), (0.59, 0.13), (0.59, 0.66), (0.5, 0.66)]),
                Linear((92, 114, 160), (48, 64, 104)))
    pen.outline(f.pts([(0.5, 0.01), (0.59, 0.13), (0.59, 0.66), (0.41, 0.66), (0.41, 0.13)]),
                st.dark, w)
    pen.line([f.p(0.5, 0.15), f.p(0.5, 0.62)], (34, 48, 86), max(1, int(f.d(0.014))))
    # guard with curled ends
    guard = (quad((0.16, 0.63), (0.5, 0.7), (0.84, 0.63))
             + quad((0.84, 0.63), (0.9, 0.7), (0.82, 0.77))
             + quad((0.82, 0.77), (0.5, 0.73), (0.18, 0.77))
             + quad((0.18, 0.77), (0.1, 0.7), (0.16, 0.63)))
    pen.polygon(f.pts(guard), f.grad(st.light, st.dark), st.dark, w)
    # grip with wraps, and the pommel
    pen.polygon(f.pts([(0.44, 0.75), (0.56, 0.75), (0.56, 0.89), (0.44, 0.89)]),
                Linear((40, 56, 96), (14, 22, 46)), st.dark, w)
    for v in (0.78, 0.82, 0.86):
        pen.line([f.p(0.44, v), f.p(0.56, v + 0.02)], (130, 160, 220), max(1, w))
    pen.ellipse(f.circle(0.5, 0.93, 0.06), Radial(st.light, st.dark, (0.35, 0.3)),
                st.dark, w)


def draw_symbol(pen: Pen, deck: Deck, suit: int, cx: float, cy: float, size: float,
                flip: bool = False) -> None:
    """Draw the symbol of ``suit`` centred on (cx, cy) in a square of side ``size``."""
    f = Frame(cx, cy, size, flip)
    if deck is Deck.FRENCH:
        _french(pen, suit, f)
    else:
        (_jade, _pagoda, _star, _sword)[suit](pen, f)


@lru_cache(maxsize=64)
def suit_icon(deck: Deck, suit: int, size: int) -> Image.Image:
    """An anti-aliased RGBA icon of a suit symbol, ``size`` pixels square (cached)."""
    big = Image.new("RGBA", (size * 4, size * 4), (0, 0, 0, 0))
    draw_symbol(Pen(big), deck, suit, size * 2, size * 2, size * 4)
    return downsample(big, 4)

"""The four Tichu specials: Mahjong (a sparrow on bamboo, the 1), Dog, Phoenix, Dragon.

Each figure is drawn in unit coordinates of an :class:`Area`, so the same code
draws the full card and the small corner icons.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from bot.render.art.geometry import (
    RGB,
    Linear,
    Pen,
    Point,
    Radial,
    bezier,
    quad,
    rotate,
)
from bot.render.fonts import font

CornerDrawer = Callable[[Pen, float, float, float], None]


class Area:
    """Unit coordinates mapped onto a rectangle (x, y, width, height)."""

    def __init__(self, x: float, y: float, w: float, h: float) -> None:
        self.x, self.y, self.w, self.h = x, y, w, h

    @classmethod
    def square(cls, cx: float, cy: float, size: float) -> Area:
        return cls(cx - size / 2, cy - size / 2, size, size)

    def p(self, u: float, v: float) -> Point:
        return (self.x + u * self.w, self.y + v * self.h)

    def pts(self, points: list[Point]) -> list[Point]:
        return [self.p(u, v) for u, v in points]

    def box(self, u0: float, v0: float, u1: float, v1: float) -> tuple[float, float, float, float]:
        return (self.x + u0 * self.w, self.y + v0 * self.h,
                self.x + u1 * self.w, self.y + v1 * self.h)

    def circle(self, u: float, v: float, r: float) -> tuple[float, float, float, float]:
        """A circle of radius ``r`` (in widths) around (u, v)."""
        cx, cy = self.p(u, v)
        rr = r * self.w
        return (cx - rr, cy - rr, cx + rr, cy + rr)

    def d(self, length: float) -> int:
        return max(1, round(length * self.w))


def _leaf(base: Point, angle: float, length: float, width: float) -> list[Point]:
    """A pointed leaf/feather/flame shape from ``base`` towards ``angle`` degrees."""
    bx, by = base
    tip = (bx + length, by)
    side1 = bezier(base, (bx + length * 0.3, by - width), (bx + length * 0.7, by - width * 0.8),
                   tip, 12)
    side2 = bezier(tip, (bx + length * 0.7, by + width * 0.6), (bx + length * 0.3, by + width),
                   base, 12)
    return rotate(side1 + side2, angle, base)


# --- Mahjong --------------------------------------------------------------------------

def _bamboo(pen: Pen, a: Area, u0: float, u1: float, v: float, thick: float) -> None:
    pen.rounded(a.box(u0, v - thick / 2, u1, v + thick / 2), a.w * thick / 2,
                Linear((150, 210, 110), (46, 120, 50)), (30, 90, 40), a.d(0.008))
    u = u0 + 0.18
    while u < u1 - 0.05:
        pen.line([a.p(u, v - thick / 2), a.p(u, v + thick / 2)], (30, 90, 40), a.d(0.012))
        u += 0.24


def draw_sparrow(pen: Pen, a: Area, branch: bool = True) -> None:
    """A house sparrow facing left, perched on a bamboo stalk."""
    brown = Linear((190, 130, 76), (120, 74, 40))
    dark = (60, 40, 26)
    w = a.d(0.008)
    if branch:
        _bamboo(pen, a, 0.02, 0.98, 0.86, 0.07)
        for base, ang in (((0.78, 0.84), -40.0), ((0.2, 0.84), 200.0), ((0.84, 0.86), 20.0)):
            pen.polygon(_leaf(a.p(*base), ang, a.w * 0.2, a.w * 0.05),
                        Linear((120, 200, 100), (40, 120, 50)), (30, 90, 40), w)
        for u in (0.44, 0.52):
            pen.line(a.pts([(u, 0.7), (u - 0.01, 0.83)]), (150, 90, 50), a.d(0.014))
            for du in (-0.025, 0.0, 0.025):
                pen.line(a.pts([(u - 0.01, 0.83), (u - 0.01 + du, 0.845)]), (150, 90, 50),
                         a.d(0.01))
    tail = [(0.62, 0.54), (0.95, 0.74), (0.9, 0.82), (0.58, 0.64)]
    pen.polygon(a.pts(tail), Linear((120, 80, 50), (70, 46, 28)), dark, w)
    body = (bezier((0.26, 0.42), (0.24, 0.72), (0.56, 0.8), (0.72, 0.6))
            + bezier((0.72, 0.6), (0.66, 0.44), (0.5, 0.34), (0.34, 0.32)))
    pen.polygon(a.pts(body), brown, dark, w)
    belly = (bezier((0.28, 0.5), (0.3, 0.72), (0.52, 0.78), (0.64, 0.68))
             + quad((0.64, 0.68), (0.46, 0.64), (0.3, 0.46)))
    pen.polygon(a.pts(belly), Linear((246, 236, 220), (210, 196, 176)))
    wing = (bezier((0.4, 0.44), (0.56, 0.38), (0.72, 0.5), (0.84, 0.68))
            + bezier((0.84, 0.68), (0.66, 0.66), (0.5, 0.62), (0.4, 0.44)))
    pen.polygon(a.pts(wing), Linear((150, 96, 52), (86, 54, 30), 20), dark, w)
    for t in (0.35, 0.55, 0.75):
        pen.line(a.pts([(0.44 + t * 0.34, 0.46 + t * 0.14), (0.48 + t * 0.3, 0.56 + t * 0.1)]),
                 (246, 232, 210), a.d(0.012))
    pen.circle(*a.p(0.3, 0.32), a.w * 0.13, Linear((170, 110, 64), (130, 80, 44)), dark, w)
    cap = [*bezier((0.2, 0.27), (0.22, 0.17), (0.38, 0.16), (0.42, 0.26)), (0.3, 0.25)]
    pen.polygon(a.pts(cap), (150, 150, 160))
    pen.ellipse(a.box(0.2, 0.31, 0.33, 0.41), (240, 236, 228))
    pen.polygon(a.pts([(0.19, 0.36), (0.29, 0.39), (0.28, 0.5), (0.2, 0.44)]), (30, 26, 24))
    pen.polygon(a.pts([(0.19, 0.29), (0.07, 0.335), (0.19, 0.37)]),
                Linear((90, 86, 80), (40, 36, 34)))
    pen.ellipse(a.circle(0.255, 0.3, 0.026), (20, 16, 14))
    pen.ellipse(a.circle(0.248, 0.292, 0.009), (255, 255, 255))


def _mahjong(img: Image.Image, pen: Pen, a: Area) -> None:
    pen.rounded(a.box(0.08, 0.04, 0.92, 0.96), a.w * 0.04,
                Linear((238, 248, 238), (196, 228, 204)), (206, 164, 84), a.d(0.008))
    for u in (0.16, 0.84):
        pen.rounded(a.box(u - 0.025, 0.08, u + 0.025, 0.92), a.w * 0.02,
                    Linear((170, 220, 140, 150), (60, 140, 70, 150), 0))
    draw_sparrow(pen, Area(a.x + a.w * 0.12, a.y + a.h * 0.22, a.w * 0.8, a.w * 0.8))
    d = ImageDraw.Draw(img)
    cx, cy = a.p(0.5, 0.15)
    pen.circle(cx, cy, a.w * 0.085, Radial((236, 60, 60), (170, 20, 30)), (120, 10, 20),
               a.d(0.008))
    d.text((cx, cy + 2), "1", font=font(int(a.w * 0.12), "bold"), fill=(255, 246, 220),
           anchor="mm")


def _mahjong_corner(pen: Pen, cx: float, cy: float, size: float) -> None:
    ImageDraw.Draw(pen.img).text((cx, cy - 6), "1", font=font(int(size * 1.1), "bold"),
                                 fill=(190, 24, 36), anchor="mm")
    draw_sparrow(pen, Area.square(cx, cy + size * 1.05, size * 0.9), branch=False)


# --- Dog ------------------------------------------------------------------------------

def draw_dog(pen: Pen, a: Area, collar: bool = True) -> None:
    """A friendly dog's head, front view, with floppy ears."""
    fur = Linear((236, 190, 130), (196, 136, 78))
    ear = Linear((130, 84, 48), (74, 46, 26))
    edge = (90, 56, 30)
    w = a.d(0.01)
    if collar:
        shoulders = bezier((0.12, 1.0), (0.16, 0.74), (0.3, 0.66), (0.5, 0.66)) + bezier(
            (0.5, 0.66), (0.7, 0.66), (0.84, 0.74), (0.88, 1.0))
        pen.polygon(a.pts(shoulders), fur, edge, w)
        pen.polygon(a.pts(bezier((0.4, 1.0), (0.42, 0.8), (0.58, 0.8), (0.6, 1.0))),
                    (250, 240, 226))
    pen.ellipse(a.box(0.24, 0.16, 0.76, 0.74), fur, edge, w)
    blaze = (bezier((0.47, 0.2), (0.46, 0.34), (0.4, 0.46), (0.36, 0.6))
             + bezier((0.64, 0.6), (0.6, 0.46), (0.54, 0.34), (0.53, 0.2)))
    pen.polygon(a.pts(blaze), (252, 244, 230))
    for side in (-1, 1):
        flap = (bezier((0.5 + side * 0.14, 0.2), (0.5 + side * 0.34, 0.14),
                       (0.5 + side * 0.4, 0.4), (0.5 + side * 0.36, 0.6))
                + bezier((0.5 + side * 0.36, 0.6), (0.5 + side * 0.3, 0.66),
                         (0.5 + side * 0.24, 0.5), (0.5 + side * 0.2, 0.34)))
        pen.polygon(a.pts(flap), ear, edge, w)
        u = 0.5 + side * 0.11
        pen.ellipse(a.circle(u, 0.4, 0.045), (34, 24, 18))
        pen.ellipse(a.circle(u - 0.012, 0.388, 0.014), (255, 255, 255))
        pen.ellipse(a.box(u - 0.03, 0.32, u + 0.03, 0.345), (250, 224, 180))
    pen.ellipse(a.box(0.34, 0.48, 0.66, 0.74), Linear((255, 248, 236), (226, 212, 190)),
                (190, 160, 130), a.d(0.006))
    nose = [*bezier((0.5, 0.6), (0.44, 0.6), (0.42, 0.53), (0.44, 0.51)), (0.56, 0.51),
            *bezier((0.56, 0.51), (0.58, 0.53), (0.56, 0.6), (0.5, 0.6))]
    pen.polygon(a.pts(nose), Linear((70, 60, 60), (10, 8, 8)))
    pen.ellipse(a.box(0.465, 0.52, 0.495, 0.54), (200, 200, 210))
    pen.polygon(a.pts(bezier((0.46, 0.66), (0.45, 0.76), (0.55, 0.76), (0.54, 0.66))),
                Linear((250, 130, 150), (214, 70, 100)), (170, 50, 70), a.d(0.006))
    pen.line(a.pts([(0.5, 0.6), (0.5, 0.66)]), (60, 40, 30), a.d(0.01))
    pen.line(a.pts(quad((0.5, 0.66), (0.45, 0.69), (0.41, 0.65))), (60, 40, 30), a.d(0.01))
    pen.line(a.pts(quad((0.5, 0.66), (0.55, 0.69), (0.59, 0.65))), (60, 40, 30), a.d(0.01))
    if collar:
        pen.polygon(a.pts(quad((0.3, 0.76), (0.5, 0.84), (0.7, 0.76))
                          + quad((0.7, 0.82), (0.5, 0.9), (0.3, 0.82))),
                    Linear((220, 50, 50), (150, 20, 30)), (110, 10, 20), w)
        pen.circle(*a.p(0.5, 0.9), a.w * 0.04, Radial((255, 236, 140), (200, 150, 30)),
                   (140, 100, 20), w)


def draw_paw(pen: Pen, a: Area, color: RGB = (96, 62, 36)) -> None:
    """A paw print."""
    pen.ellipse(a.box(0.28, 0.48, 0.72, 0.88), color)
    for u, v, r in ((0.2, 0.42, 0.09), (0.38, 0.22, 0.1), (0.62, 0.22, 0.1), (0.8, 0.42, 0.09)):
        pen.ellipse(a.circle(u, v, r), color)


def _dog(img: Image.Image, pen: Pen, a: Area) -> None:
    pen.rounded(a.box(0.08, 0.04, 0.92, 0.96), a.w * 0.04,
                Radial((244, 248, 255), (188, 204, 230), (0.5, 0.4), 0.9), (120, 140, 180),
                a.d(0.008))
    for i in range(5):
        u, v = 0.22 + (i % 2) * 0.56, 0.1 + i * 0.2
        draw_paw(pen, Area.square(*a.p(u, v), a.w * 0.08), (150, 166, 200))
    draw_dog(pen, Area(a.x + a.w * 0.1, a.y + a.h * 0.16, a.w * 0.8, a.w * 0.96))


def _dog_corner(pen: Pen, cx: float, cy: float, size: float) -> None:
    draw_paw(pen, Area.square(cx, cy, size * 0.9))
    draw_dog(pen, Area.square(cx, cy + size * 1.05, size * 0.95), collar=False)


# --- Phoenix --------------------------------------------------------------------------

FLAME = (Linear((255, 244, 150), (236, 70, 20), 0))


def draw_flame(pen: Pen, a: Area) -> None:
    """A single flame tongue (used in the Phoenix's corner)."""
    outer = (bezier((0.5, 0.98), (0.1, 0.96), (0.12, 0.55), (0.46, 0.04))
             + bezier((0.46, 0.04), (0.56, 0.32), (0.9, 0.46), (0.5, 0.98)))
    pen.polygon(a.pts(outer), Linear((250, 80, 20), (255, 200, 60), -90), (170, 40, 10),
                a.d(0.03))
    inner = (bezier((0.5, 0.94), (0.3, 0.92), (0.32, 0.66), (0.5, 0.42))
             + bezier((0.5, 0.42), (0.56, 0.6), (0.72, 0.7), (0.5, 0.94)))
    pen.polygon(a.pts(inner), Linear((255, 250, 200), (255, 200, 60), -90))


def _plume(pen: Pen, a: Area, start: Point, c1: Point, c2: Point, end: Point,
           width: float) -> None:
    """A flame-like tail plume: thin at the body, full in the middle, pointed at the end."""
    curve = bezier(start, c1, c2, end, 24)
    widths = [a.w * (0.008 + width * math.sin(math.pi * min(i / 24, 0.97)) ** 0.8)
              for i in range(25)]
    pen.stroke(a.pts(curve), widths, Linear((220, 40, 20), (255, 214, 80)), (140, 20, 10),
               a.d(0.006))
    inner = [wd * 0.35 for wd in widths]
    pen.stroke(a.pts(curve), inner, Linear((255, 170, 60), (255, 246, 180)))


def draw_phoenix(pen: Pen, a: Area) -> None:
    """A fiery bird with spread wings and long flame-like tail plumes."""
    for end, c1, c2, width in (((0.1, 0.9), (0.4, 0.8), (0.1, 0.7), 0.05),
                               ((0.9, 0.9), (0.6, 0.8), (0.9, 0.7), 0.05),
                               ((0.3, 1.0), (0.46, 0.8), (0.22, 0.84), 0.055),
                               ((0.7, 1.0), (0.54, 0.8), (0.78, 0.84), 0.055),
                               ((0.5, 1.0), (0.56, 0.78), (0.44, 0.86), 0.06)):
        _plume(pen, a, (0.5, 0.6), c1, c2, end, width)
    # spread wings: long flight feathers, then a layer of short coverts
    lengths = (0.3, 0.4, 0.46, 0.45, 0.41, 0.35, 0.28)
    for side in (-1, 1):
        shoulder = a.p(0.5 + side * 0.05, 0.43)
        for i, length in enumerate(lengths):
            angle = -172 + i * 12.5
            if side > 0:
                angle = -180 - angle
            pen.polygon(_leaf(shoulder, angle, a.w * length, a.w * 0.07),
                        Linear((255, 226, 110), (214, 34, 20), angle % 360),
                        (140, 24, 10), a.d(0.006))
        for i in range(5):
            angle = -165 + i * 16
            if side > 0:
                angle = -180 - angle
            pen.polygon(_leaf(shoulder, angle, a.w * 0.19, a.w * 0.06),
                        Linear((255, 246, 170), (250, 140, 40), angle % 360),
                        (170, 60, 10), a.d(0.005))
    # body, neck and head
    body = (bezier((0.5, 0.3), (0.4, 0.36), (0.4, 0.58), (0.5, 0.66))
            + bezier((0.5, 0.66), (0.6, 0.58), (0.6, 0.36), (0.5, 0.3)))
    pen.polygon(a.pts(body), Linear((255, 170, 50), (210, 40, 20)), (140, 20, 10), a.d(0.008))
    pen.polygon(a.pts(bezier((0.5, 0.4), (0.45, 0.46), (0.46, 0.58), (0.5, 0.62))
                      + bezier((0.5, 0.62), (0.54, 0.58), (0.55, 0.46), (0.5, 0.4))),
                Linear((255, 236, 150), (255, 160, 60)))
    for i, ln in enumerate((0.14, 0.18, 0.15)):
        base = a.p(0.49, 0.22)
        pen.polygon(_leaf(base, -150 + i * 25, a.w * ln, a.w * 0.035),
                    Linear((255, 230, 120), (230, 60, 20), 270), (150, 30, 10), a.d(0.005))
    pen.circle(*a.p(0.5, 0.25), a.w * 0.06, Radial((255, 210, 90), (230, 80, 20), (0.4, 0.4)),
               (140, 20, 10), a.d(0.008))
    pen.polygon(a.pts([(0.54, 0.23), (0.63, 0.27), (0.54, 0.285)]),
                Linear((255, 230, 120), (200, 140, 30)), (120, 70, 10), a.d(0.005))
    pen.ellipse(a.circle(0.515, 0.24, 0.014), (40, 10, 10))
    pen.ellipse(a.circle(0.511, 0.236, 0.005), (255, 255, 255))


def _phoenix(img: Image.Image, pen: Pen, a: Area) -> None:
    pen.rounded(a.box(0.0, 0.0, 1.0, 1.0), a.w * 0.06,
                Radial((255, 214, 110), (150, 20, 24), (0.5, 0.42), 0.8))
    for i in range(9):
        ang = -90 + (i - 4) * 20
        base = a.p(0.5, 0.46)
        pen.polygon(_leaf(base, ang, a.w * 0.7, a.w * 0.08), (255, 240, 190, 40))
    pen.rounded(a.box(0.06, 0.035, 0.94, 0.965), a.w * 0.04, None, (255, 220, 140), a.d(0.008))
    draw_phoenix(pen, Area(a.x + a.w * 0.06, a.y + a.h * 0.1, a.w * 0.88, a.h * 0.82))


def _phoenix_corner(pen: Pen, cx: float, cy: float, size: float) -> None:
    draw_flame(pen, Area.square(cx, cy, size))
    draw_flame(pen, Area.square(cx, cy + size * 1.05, size * 0.7))


# --- Dragon ---------------------------------------------------------------------------

def _dragon_path() -> list[Point]:
    return (bezier((0.9, 0.98), (0.5, 1.0), (0.06, 0.94), (0.16, 0.82), 16)[:-1]
            + bezier((0.16, 0.82), (0.26, 0.68), (0.88, 0.76), (0.84, 0.58), 16)[:-1]
            + bezier((0.84, 0.58), (0.8, 0.42), (0.16, 0.5), (0.2, 0.36), 16)[:-1]
            + bezier((0.2, 0.36), (0.24, 0.24), (0.62, 0.34), (0.66, 0.17), 14))


def draw_dragon_head(pen: Pen, a: Area, red: Linear, edge: RGB) -> None:
    """A Chinese dragon's head in profile, facing left, mouth open."""
    w = a.d(0.01)
    gold = Linear((255, 226, 110), (214, 150, 30))
    # mane flames behind the head
    for i in range(5):
        pen.polygon(_leaf(a.p(0.6, 0.22 + i * 0.03), -10 + i * 22, a.w * 0.22, a.w * 0.05),
                    Linear((120, 190, 90), (30, 110, 60), 0), (20, 70, 40), a.d(0.006))
    # horns
    for dv, tip in ((0.0, (0.86, 0.05)), (0.03, (0.9, 0.12))):
        curve = bezier((0.56, 0.16 + dv), (0.66, 0.1 + dv), (0.76, 0.1 + dv), tip, 12)
        pen.stroke(a.pts(curve), [a.w * (0.045 * (1 - i / 13) + 0.006) for i in range(13)],
                   gold, (150, 100, 20), a.d(0.005))
    lower = [(0.6, 0.3), (0.5, 0.33), (0.3, 0.37), (0.2, 0.36), (0.22, 0.31), (0.36, 0.28),
             (0.5, 0.26)]
    pen.polygon(a.pts(lower), red, edge, w)
    pen.polygon(a.pts([(0.26, 0.32), (0.5, 0.27), (0.36, 0.3)]), (220, 70, 90))
    for u in (0.25, 0.31, 0.37):
        pen.polygon(a.pts([(u, 0.34), (u + 0.02, 0.31), (u + 0.04, 0.335)]), (255, 255, 250))
    upper = [(0.64, 0.27), (0.5, 0.25), (0.3, 0.26), (0.16, 0.27),
             *quad((0.16, 0.27), (0.1, 0.22), (0.15, 0.19)),
             (0.24, 0.17), (0.32, 0.13), (0.44, 0.12),
             *quad((0.44, 0.12), (0.54, 0.06), (0.64, 0.12)), (0.68, 0.22)]
    pen.polygon(a.pts(upper), red, edge, w)
    for u in (0.2, 0.27, 0.34):
        pen.polygon(a.pts([(u, 0.255), (u + 0.02, 0.29), (u + 0.04, 0.255)]), (255, 255, 250))
    pen.polygon(a.pts([(0.36, 0.13), (0.5, 0.1), (0.52, 0.14), (0.4, 0.16)]), gold)
    pen.ellipse(a.box(0.42, 0.15, 0.5, 0.2), (255, 230, 80), edge, a.d(0.006))
    pen.ellipse(a.box(0.455, 0.152, 0.47, 0.198), (20, 10, 10))
    pen.ellipse(a.circle(0.17, 0.205, 0.012), (60, 10, 10))
    # whiskers
    for start, c1, c2, end in (((0.15, 0.21), (0.04, 0.16), (0.08, 0.34), (0.0, 0.42)),
                               ((0.2, 0.2), (0.2, 0.06), (0.0, 0.1), (0.02, 0.0))):
        pen.line(a.pts(bezier(start, c1, c2, end, 16)), gold, a.d(0.014))


def draw_dragon(pen: Pen, a: Area) -> None:
    """A red Chinese dragon: serpentine scaled body, spines, claw and head."""
    red = Linear((236, 60, 48), (150, 14, 24), 60)
    edge = (90, 8, 14)
    path = _dragon_path()
    n = len(path)
    widths = [a.w * (0.035 + 0.105 * (i / (n - 1)) ** 0.7) for i in range(n)]
    pts = a.pts(path)
    # dorsal spines along the outer side of the body
    for i in range(2, n - 3, 3):
        (x0, y0), (x1, y1) = pts[i - 1], pts[i + 1]
        length = math.hypot(x1 - x0, y1 - y0) or 1
        nx, ny = (y1 - y0) / length, -(x1 - x0) / length
        x, y = pts[i]
        r = widths[i] / 2
        tip = (x + nx * (r + widths[i] * 0.45), y + ny * (r + widths[i] * 0.45))
        pen.polygon([(x - (x1 - x0) * 0.6, y - (y1 - y0) * 0.6), tip,
                     (x + (x1 - x0) * 0.6, y + (y1 - y0) * 0.6)],
                    Linear((130, 200, 100), (30, 110, 60)), (20, 70, 40), a.d(0.004))
    pen.stroke(pts, widths, red, edge, a.d(0.01))
    # belly plates along the inner side
    belly_w = [wd * 0.42 for wd in widths]
    shifted = []
    for i, (x, y) in enumerate(pts):
        (x0, y0), (x1, y1) = pts[max(i - 1, 0)], pts[min(i + 1, n - 1)]
        length = math.hypot(x1 - x0, y1 - y0) or 1
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        off = widths[i] * 0.26
        shifted.append((x + nx * off, y + ny * off))
    pen.stroke(shifted, belly_w, Linear((255, 226, 130), (226, 160, 50)), (160, 100, 20),
               a.d(0.004))
    for i in range(1, n - 1, 2):
        (x0, y0), (x1, y1) = shifted[i - 1], shifted[i + 1]
        length = math.hypot(x1 - x0, y1 - y0) or 1
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        x, y = shifted[i]
        r = belly_w[i] / 2
        pen.line([(x - nx * r, y - ny * r), (x + nx * r, y + ny * r)], (190, 120, 30),
                 a.d(0.006))
    # scale arcs on the back
    for i in range(3, n - 4, 2):
        x, y = pts[i]
        r = widths[i] * 0.18
        pen.ellipse((x - r, y - r, x + r, y + r), None, (120, 10, 20), a.d(0.005))
    # the flaming pearl the dragon chases
    px, py = a.p(0.13, 0.27)
    for ang in range(0, 360, 45):
        pen.polygon(_leaf((px, py), ang, a.w * 0.1, a.w * 0.03),
                    Linear((255, 250, 200), (255, 140, 40), ang), None)
    pen.circle(px, py, a.w * 0.055, Radial((255, 255, 245), (110, 190, 250), (0.35, 0.3)),
               (40, 90, 160), a.d(0.006))
    head = Area(a.x + a.w * 0.1, a.y - a.w * 0.02, a.w * 0.9, a.w * 0.9)
    draw_dragon_head(pen, head, red, edge)


def _dragon(img: Image.Image, pen: Pen, a: Area) -> None:
    pen.rounded(a.box(0.0, 0.0, 1.0, 1.0), a.w * 0.06,
                Radial((255, 236, 170), (214, 140, 30), (0.5, 0.4), 0.85))
    for u, v, r in ((0.18, 0.62, 0.12), (0.84, 0.86, 0.1), (0.82, 0.14, 0.09)):
        for k in range(3):
            pen.ellipse(a.circle(u, v, r - k * 0.03), None, (255, 246, 220, 90), a.d(0.008))
    pen.rounded(a.box(0.06, 0.035, 0.94, 0.965), a.w * 0.04, None, (150, 20, 24), a.d(0.008))
    draw_dragon(pen, Area(a.x + a.w * 0.08, a.y + a.h * 0.08, a.w * 0.84, a.h * 0.88))


def _dragon_corner(pen: Pen, cx: float, cy: float, size: float) -> None:
    red = Linear((236, 60, 48), (150, 14, 24), 60)
    hs = size * 1.3
    draw_dragon_head(pen, Area(cx - 0.45 * hs, cy - 0.2 * hs, hs, hs), red, (90, 8, 14))
    pen.circle(cx, cy + size * 0.95, size * 0.22, Radial((255, 255, 245), (110, 190, 250),
                                                        (0.35, 0.3)), (40, 90, 160), 2)


SPECIAL_CORNERS: dict[str, CornerDrawer] = {
    "MAHJONG": _mahjong_corner,
    "DOG": _dog_corner,
    "PHOENIX": _phoenix_corner,
    "DRAGON": _dragon_corner,
}

_FULL: dict[str, Callable[[Image.Image, Pen, Area], None]] = {
    "MAHJONG": _mahjong,
    "DOG": _dog,
    "PHOENIX": _phoenix,
    "DRAGON": _dragon,
}


def draw_special(img: Image.Image, pen: Pen, name: str,
                 box: tuple[float, float, float, float]) -> None:
    """Draw the full art of special card ``name`` inside ``box`` (the whole card)."""
    x0, y0, x1, y1 = box
    inset = (x1 - x0) * 0.035
    area = Area(x0 + inset, y0 + inset, x1 - x0 - 2 * inset, y1 - y0 - 2 * inset)
    _FULL[name](img, pen, area)

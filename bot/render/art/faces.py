"""Court figures (Jack, Queen, King): a bust drawn in the upper half of the face panel.

The card composer mirrors the half into a double-headed court card. French
courts wear a feathered cap, a pearl tiara or a crown; Tichu courts are a
warrior with a plumed helmet and spear, an empress with hairpins and a fan,
and an emperor with a beaded crown board.
"""

from __future__ import annotations

from bot.render.art.geometry import RGB, Linear, Pen, Point, Radial, bezier, mix, quad
from bot.render.art.suits import Deck, SuitStyle, draw_symbol, style

SKIN = Radial((255, 230, 204), (228, 178, 136), (0.45, 0.38), 0.9)
SKIN_EDGE = (150, 98, 62)
INK = (48, 30, 22)
GOLD = Linear((255, 226, 120), (196, 140, 30))
GOLD_EDGE = (140, 96, 20)


class Box:
    """Maps unit coordinates onto the half panel."""

    def __init__(self, w: float, h: float, k: float = 1.0, anchor: float = 0.66) -> None:
        self.w, self.h, self.k, self.anchor = w, h, k, anchor

    @property
    def body(self) -> Box:
        """The same panel without the head's enlargement."""
        return Box(self.w, self.h)

    def p(self, u: float, v: float) -> Point:
        return ((0.5 + (u - 0.5) * self.k) * self.w,
                (self.anchor + (v - self.anchor) * self.k) * self.h)

    def pts(self, points: list[Point]) -> list[Point]:
        return [self.p(u, v) for u, v in points]

    def box(self, u0: float, v0: float, u1: float, v1: float) -> tuple[float, float, float, float]:
        x0, y0 = self.p(u0, v0)
        x1, y1 = self.p(u1, v1)
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    def d(self, length: float) -> int:
        return max(1, round(length * self.w * self.k))


def _robe(pen: Pen, b: Box, st: SuitStyle, trim: RGB) -> None:
    shape = [(0.1, 1.02),
             *bezier((0.1, 0.9), (0.1, 0.74), (0.26, 0.69), (0.4, 0.66)),
             *bezier((0.6, 0.66), (0.74, 0.69), (0.9, 0.74), (0.9, 0.9)),
             (0.9, 1.02)]
    pen.polygon(b.pts(shape), Linear(st.light, st.dark, 70), st.dark, b.d(0.015))
    for side in (1, -1):
        curve = bezier((0.5 + side * 0.36, 0.96), (0.5 + side * 0.34, 0.8),
                       (0.5 + side * 0.24, 0.74), (0.5 + side * 0.1, 0.72), 12)
        pen.line(b.pts(curve), trim, b.d(0.03))
        for t in (0.3, 0.6):
            u, v = curve[int(t * 12)]
            pen.ellipse(b.box(u - 0.018, v + 0.05, u + 0.018, v + 0.082), trim)
    collar = [(0.38, 0.655), (0.5, 0.92), (0.62, 0.655), (0.57, 0.655), (0.5, 0.8),
              (0.43, 0.655)]
    pen.polygon(b.pts(collar), trim, mix(trim, (0, 0, 0), 0.4), b.d(0.008))


def _head(pen: Pen, b: Box) -> None:
    pen.polygon(b.pts([(0.445, 0.55), (0.555, 0.55), (0.56, 0.68), (0.44, 0.68)]),
                Linear((236, 190, 150), (206, 154, 112)))
    pen.ellipse(b.box(0.36, 0.27, 0.64, 0.6), SKIN, SKIN_EDGE, b.d(0.012))


def _face(pen: Pen, b: Box, fierce: bool = False, lashes: bool = False,
          lips: RGB = (190, 60, 60)) -> None:
    for u in (0.445, 0.555):
        pen.ellipse(b.box(u - 0.022, 0.41, u + 0.022, 0.44), (255, 255, 255))
        pen.ellipse(b.box(u - 0.013, 0.408, u + 0.013, 0.442), (56, 40, 30))
        pen.ellipse(b.box(u - 0.004, 0.414, u + 0.004, 0.422), (255, 255, 255))
        tilt = 0.02 if fierce else -0.006
        side = -1 if u < 0.5 else 1
        pen.line(b.pts([(u - 0.03 * side, 0.385 - tilt), (u + 0.03 * side, 0.38 + tilt)]),
                 INK, b.d(0.012))
        if lashes:
            pen.line(b.pts([(u + 0.022 * side, 0.418), (u + 0.036 * side, 0.405)]),
                     INK, b.d(0.007))
    pen.line(b.pts([(0.5, 0.44), (0.488, 0.495), (0.508, 0.5)]), SKIN_EDGE, b.d(0.009))
    pen.polygon(b.pts(quad((0.465, 0.535), (0.5, 0.555), (0.535, 0.535))
                      + quad((0.535, 0.535), (0.5, 0.53), (0.465, 0.535))),
                lips, mix(lips, (0, 0, 0), 0.3), b.d(0.005))
    for u in (0.41, 0.59):
        pen.ellipse(b.box(u - 0.03, 0.47, u + 0.03, 0.5), (236, 120, 110, 70))


def _emblem(pen: Pen, b: Box, deck: Deck, suit: int) -> None:
    """The suit symbol in a roundel on the chest."""
    cx, cy = b.p(0.26, 0.87)
    r = b.w * 0.085
    pen.circle(cx, cy, r, (255, 252, 242), GOLD_EDGE, b.d(0.01))
    draw_symbol(pen, deck, suit, cx, cy, r * 1.5)


def _crown(pen: Pen, b: Box, st: SuitStyle) -> None:
    pen.ellipse(b.box(0.37, 0.16, 0.63, 0.32), Linear(st.light, st.dark))
    points = [(0.33, 0.3), (0.33, 0.13), (0.39, 0.21), (0.44, 0.08), (0.5, 0.18),
              (0.56, 0.08), (0.61, 0.21), (0.67, 0.13), (0.67, 0.3)]
    pen.polygon(b.pts(points), GOLD, GOLD_EDGE, b.d(0.01))
    pen.polygon(b.pts([(0.32, 0.25), (0.68, 0.25), (0.68, 0.31), (0.32, 0.31)]), GOLD,
                GOLD_EDGE, b.d(0.01))
    for u, v in ((0.33, 0.12), (0.44, 0.07), (0.56, 0.07), (0.67, 0.12)):
        pen.ellipse(b.box(u - 0.018, v - 0.018, u + 0.018, v + 0.018), (255, 240, 190),
                    GOLD_EDGE, b.d(0.006))
    for u, color in ((0.4, (200, 30, 40)), (0.5, (30, 90, 200)), (0.6, (200, 30, 40))):
        pen.ellipse(b.box(u - 0.02, 0.262, u + 0.02, 0.298), color)


def _french_king(pen: Pen, b: Box, st: SuitStyle) -> None:
    hair = (206, 202, 196)
    pen.ellipse(b.box(0.31, 0.28, 0.69, 0.6), hair, (140, 136, 130), b.d(0.01))
    _robe(pen, b.body, st, (236, 192, 80))
    # sceptre
    pen.line(b.body.pts([(0.86, 0.22), (0.86, 1.0)]), GOLD, b.body.d(0.028))
    pen.ellipse(b.body.box(0.82, 0.14, 0.9, 0.22), GOLD, GOLD_EDGE, b.body.d(0.008))
    pen.polygon(b.body.pts([(0.86, 0.04), (0.88, 0.13), (0.84, 0.13)]), GOLD)
    _head(pen, b)
    _face(pen, b)
    beard = (bezier((0.37, 0.47), (0.37, 0.64), (0.45, 0.71), (0.5, 0.73))
             + bezier((0.5, 0.73), (0.55, 0.71), (0.63, 0.64), (0.63, 0.47))
             + quad((0.63, 0.47), (0.6, 0.56), (0.5, 0.57)) + quad((0.5, 0.57), (0.4, 0.56),
                                                                    (0.37, 0.47)))
    pen.polygon(b.pts(beard), Linear((232, 230, 226), (176, 172, 166)), (130, 126, 120),
                b.d(0.01))
    for side in (-1, 1):
        moustache = quad((0.5, 0.505), (0.5 + side * 0.05, 0.5), (0.5 + side * 0.1, 0.535))
        pen.stroke(b.pts(moustache), [b.w * (0.03 * (1 - i / 17) + 0.002) for i in range(17)],
                   (196, 192, 186))
    _crown(pen, b, st)


def _french_queen(pen: Pen, b: Box, st: SuitStyle) -> None:
    hair = Linear((236, 186, 84), (176, 116, 36))
    flow = [*bezier((0.5, 0.22), (0.28, 0.22), (0.26, 0.5), (0.22, 0.74)),
            (0.36, 0.7), (0.64, 0.7),
            *bezier((0.78, 0.74), (0.74, 0.5), (0.72, 0.22), (0.5, 0.22))]
    pen.polygon(b.pts(flow), hair, (150, 96, 30), b.d(0.01))
    _robe(pen, b.body, st, (250, 236, 236))
    # a rose held up
    pen.line(b.body.pts(quad((0.14, 1.0), (0.1, 0.8), (0.16, 0.62))), (60, 130, 60), b.body.d(0.02))
    pen.polygon(b.body.pts([(0.12, 0.8), (0.04, 0.76), (0.11, 0.74)]), (70, 150, 70))
    for i, (du, dv) in enumerate(((0, -0.04), (0.035, -0.01), (0.02, 0.03), (-0.02, 0.03),
                                  (-0.035, -0.01))):
        pen.ellipse(b.body.box(0.16 + du - 0.035, 0.6 + dv - 0.03, 0.16 + du + 0.035,
                          0.6 + dv + 0.03), (214, 40, 70) if i % 2 else (236, 70, 96))
    pen.ellipse(b.body.box(0.14, 0.58, 0.18, 0.62), (150, 16, 40))
    _head(pen, b)
    _face(pen, b, lashes=True, lips=(214, 50, 70))
    fringe = [*bezier((0.36, 0.4), (0.36, 0.24), (0.64, 0.24), (0.64, 0.4)),
              (0.58, 0.33), (0.5, 0.31), (0.42, 0.33)]
    pen.polygon(b.pts(fringe), hair)
    pen.polygon(b.pts([(0.36, 0.27), (0.64, 0.27), (0.64, 0.3), (0.36, 0.3)]), GOLD,
                GOLD_EDGE, b.d(0.008))
    for i, u in enumerate((0.38, 0.44, 0.5, 0.56, 0.62)):
        top = 0.14 if i == 2 else 0.17 if i in (1, 3) else 0.2
        pen.line(b.pts([(u, 0.27), (u, top + 0.02)]), GOLD, b.d(0.014))
        pen.ellipse(b.box(u - 0.02, top - 0.02, u + 0.02, top + 0.02), (255, 250, 240),
                    (170, 160, 150), b.d(0.006))
    pen.ellipse(b.box(0.48, 0.276, 0.52, 0.298), (200, 30, 60))


def _french_jack(pen: Pen, b: Box, st: SuitStyle) -> None:
    hair = (120, 74, 36)
    _robe(pen, b.body, st, (236, 192, 80))
    # halberd
    pen.line(b.body.pts([(0.86, 0.06), (0.86, 1.0)]), Linear((150, 100, 60), (96, 60, 30)),
             b.body.d(0.026))
    pen.polygon(b.body.pts([(0.86, 0.0), (0.88, 0.08), (0.84, 0.08)]), (200, 208, 220))
    axe = [*quad((0.86, 0.1), (0.98, 0.1), (0.97, 0.24)), (0.86, 0.2)]
    pen.polygon(b.body.pts(axe), Linear((236, 240, 248), (140, 150, 170)), (70, 80, 100),
                b.body.d(0.008))
    pen.ellipse(b.box(0.32, 0.3, 0.68, 0.56), hair)
    _head(pen, b)
    _face(pen, b)
    for side in (-1, 1):
        pen.line(b.pts(quad((0.5, 0.508), (0.5 + side * 0.04, 0.5), (0.5 + side * 0.07, 0.52))),
                 hair, b.d(0.012))
    pen.polygon(b.pts([*bezier((0.35, 0.36), (0.36, 0.25), (0.64, 0.25), (0.65, 0.36)),
                       (0.6, 0.31), (0.4, 0.31)]), hair)
    # feathered cap
    pen.ellipse(b.box(0.28, 0.14, 0.72, 0.3), Linear(st.light, st.dark), st.dark, b.d(0.01))
    pen.polygon(b.pts([(0.33, 0.25), (0.67, 0.25), (0.67, 0.3), (0.33, 0.3)]), GOLD,
                GOLD_EDGE, b.d(0.008))
    feather = bezier((0.62, 0.22), (0.74, 0.1), (0.82, 0.04), (0.96, 0.02), 20)
    widths = [b.w * (0.05 * (1 - i / 21) + 0.006) for i in range(21)]
    pen.stroke(b.pts(feather), widths, Linear((255, 255, 255), (226, 220, 200), 0),
               (150, 140, 120), b.d(0.006))


def _tichu_king(pen: Pen, b: Box, st: SuitStyle) -> None:
    _robe(pen, b.body, st, (240, 196, 70))
    pen.ellipse(b.box(0.33, 0.26, 0.67, 0.56), (30, 26, 30))
    _head(pen, b)
    _face(pen, b)
    for side in (-1, 1):
        curve = bezier((0.5 + side * 0.02, 0.505), (0.5 + side * 0.08, 0.5),
                       (0.5 + side * 0.11, 0.56), (0.5 + side * 0.12, 0.66), 14)
        pen.stroke(b.pts(curve), [b.w * (0.022 * (1 - i / 15) + 0.004) for i in range(15)],
                   (36, 30, 30))
    goatee = [(0.485, 0.56), (0.515, 0.56), (0.5, 0.68)]
    pen.polygon(b.pts(goatee), (36, 30, 30))
    # crown cap and the flat board with bead strings
    pen.polygon(b.pts([(0.38, 0.3), (0.39, 0.18), (0.61, 0.18), (0.62, 0.3)]),
                Linear((50, 44, 50), (16, 14, 18)), GOLD_EDGE, b.d(0.008))
    pen.polygon(b.pts([(0.37, 0.27), (0.63, 0.27), (0.63, 0.31), (0.37, 0.31)]), GOLD)
    pen.polygon(b.pts([(0.22, 0.13), (0.78, 0.13), (0.8, 0.18), (0.2, 0.18)]),
                Linear((40, 36, 44), (10, 8, 12)), (220, 170, 60), b.d(0.012))
    for u in (0.26, 0.32, 0.68, 0.74):
        v = 0.2
        while v < 0.34:
            color = (220, 40, 40) if round(v * 100) % 2 else (250, 210, 90)
            pen.ellipse(b.box(u - 0.014, v - 0.012, u + 0.014, v + 0.012), color)
            v += 0.028


def _tichu_queen(pen: Pen, b: Box, st: SuitStyle) -> None:
    hair = Linear((50, 44, 54), (12, 10, 16))
    _robe(pen, b.body, st, (250, 220, 120))
    # round fan
    pen.line(b.body.pts([(0.16, 1.0), (0.16, 0.78)]), (120, 70, 30), b.body.d(0.02))
    pen.circle(*b.body.p(0.16, 0.7), b.body.w * 0.1, Radial((255, 250, 236), st.tint),
               st.dark, b.body.d(0.01))
    draw_symbol(pen, Deck.TICHU, _suit_of(st), *b.body.p(0.16, 0.7), b.body.w * 0.12)
    pen.ellipse(b.box(0.32, 0.24, 0.68, 0.56), hair)
    pen.ellipse(b.box(0.36, 0.06, 0.64, 0.26), hair)
    _head(pen, b)
    _face(pen, b, lashes=True, lips=(200, 30, 50))
    pen.polygon(b.pts([*bezier((0.355, 0.4), (0.35, 0.25), (0.65, 0.25), (0.645, 0.4)),
                       (0.58, 0.32), (0.5, 0.3), (0.42, 0.32)]), hair)
    # hairpins with dangling beads and a flower
    for start, end in (((0.26, 0.2), (0.72, 0.12)), ((0.3, 0.1), (0.76, 0.2))):
        pen.line(b.pts([start, end]), GOLD, b.d(0.016))
        u, v = end
        pen.line(b.pts([(u, v), (u, v + 0.1)]), (220, 180, 80), b.d(0.006))
        pen.ellipse(b.box(u - 0.018, v + 0.1, u + 0.018, v + 0.132), (220, 40, 60))
    for du, dv in ((0, -0.03), (0.03, 0), (0, 0.03), (-0.03, 0)):
        pen.ellipse(b.box(0.38 + du - 0.028, 0.22 + dv - 0.024, 0.38 + du + 0.028,
                          0.22 + dv + 0.024), st.light)
    pen.ellipse(b.box(0.365, 0.207, 0.395, 0.233), (255, 220, 90))
    for u in (0.355, 0.645):
        pen.ellipse(b.box(u - 0.014, 0.48, u + 0.014, 0.51), (240, 210, 90))


def _tichu_jack(pen: Pen, b: Box, st: SuitStyle) -> None:
    _robe(pen, b.body, st, (200, 206, 220))
    # spear with a red tassel
    pen.line(b.body.pts([(0.86, 0.12), (0.86, 1.0)]), Linear((150, 100, 60), (96, 60, 30)),
             b.body.d(0.026))
    pen.polygon(b.body.pts([(0.86, 0.0), (0.9, 0.1), (0.86, 0.13), (0.82, 0.1)]),
                Linear((240, 244, 250), (130, 140, 160)), (60, 70, 90), b.body.d(0.008))
    for du in (-0.04, -0.02, 0.0, 0.02, 0.04):
        pen.line(b.body.pts([(0.86, 0.14), (0.86 + du, 0.24)]), (210, 30, 30), b.body.d(0.014))
    _head(pen, b)
    _face(pen, b, fierce=True)
    # helmet with neck guards and a plume
    for side in (-1, 1):
        pen.polygon(b.pts([(0.5 + side * 0.15, 0.3), (0.5 + side * 0.17, 0.3),
                           (0.5 + side * 0.18, 0.55), (0.5 + side * 0.13, 0.52)]),
                    Linear(st.light, st.dark), st.dark, b.d(0.008))
    dome = [*bezier((0.32, 0.33), (0.3, 0.1), (0.7, 0.1), (0.68, 0.33)), (0.5, 0.31)]
    pen.polygon(b.pts(dome), Linear(st.light, st.dark, 60), st.dark, b.d(0.01))
    pen.polygon(b.pts([(0.31, 0.3), (0.69, 0.3), (0.69, 0.345), (0.31, 0.345)]), GOLD,
                GOLD_EDGE, b.d(0.008))
    pen.line(b.pts([(0.5, 0.17), (0.5, 0.08)]), GOLD, b.d(0.02))
    for du in (-0.09, -0.05, 0.0, 0.05, 0.09):
        pen.stroke(b.pts(quad((0.5, 0.09), (0.5 + du * 0.6, 0.0), (0.5 + du * 1.6, 0.02), 8)),
                   [b.w * (0.03 - i * 0.003) for i in range(9)], (214, 34, 34))


_DRAWERS = {
    (Deck.FRENCH, 11): _french_jack,
    (Deck.FRENCH, 12): _french_queen,
    (Deck.FRENCH, 13): _french_king,
    (Deck.TICHU, 11): _tichu_jack,
    (Deck.TICHU, 12): _tichu_queen,
    (Deck.TICHU, 13): _tichu_king,
}


def _suit_of(st: SuitStyle) -> int:
    return ("jade", "pagoda", "star", "sword").index(st.name)


def draw_court(pen: Pen, deck: Deck, suit: int, rank: int) -> None:
    """Draw the upper half of the court card of ``rank`` (11..13) on ``pen``'s image."""
    w, h = pen.size
    b = Box(w, h, k=1.12)
    st = style(deck, suit)
    _DRAWERS[(deck, rank)](pen, b, st)
    if (deck, rank) != (Deck.TICHU, 12):  # the empress shows hers on her fan
        _emblem(pen, b.body, deck, suit)
    # the suit pip in the panel's upper left
    draw_symbol(pen, deck, suit, *b.body.p(0.11, 0.09), b.w * 0.15)

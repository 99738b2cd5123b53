"""Vector-ish drawing on top of Pillow: paths, gradients, masks and shadows.

Shapes are drawn as 8-bit masks and painted with a flat colour or a gradient;
the card art is drawn at twice its stored size and downsampled, which gives
the anti-aliasing that ImageDraw's polygons lack.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFilter

Point = tuple[float, float]
RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Color = RGB | RGBA


@dataclass(frozen=True, slots=True)
class Linear:
    """A linear gradient across a shape's bounding box; ``angle`` 90 runs top to bottom."""

    start: Color
    end: Color
    angle: float = 90.0


@dataclass(frozen=True, slots=True)
class Radial:
    """A radial gradient from ``inner`` at ``center`` (relative to the box) to ``outer``."""

    inner: Color
    outer: Color
    center: Point = (0.5, 0.5)
    spread: float = 1.0


Fill = Color | Linear | Radial


def rgba(color: Color) -> RGBA:
    """A colour with an alpha channel."""
    if len(color) == 4:
        return color
    return (color[0], color[1], color[2], 255)


def mix(a: Color, b: Color, t: float) -> RGB:
    """Linear blend of two colours (t=0: a, t=1: b)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def bezier(p0: Point, p1: Point, p2: Point, p3: Point, n: int = 24) -> list[Point]:
    """Points along a cubic Bezier curve, both ends included."""
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append((
            u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
            u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
        ))
    return out


def quad(p0: Point, p1: Point, p2: Point, n: int = 16) -> list[Point]:
    """Points along a quadratic Bezier curve, both ends included."""
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append((
            u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0],
            u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1],
        ))
    return out


def arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float,
        n: int = 24) -> list[Point]:
    """Points on an elliptic arc from angle ``a0`` to ``a1`` (degrees, y down)."""
    return [
        (cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
         cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / n)))
        for i in range(n + 1)
    ]


def star_points(cx: float, cy: float, outer: float, inner: float, points: int = 5,
                rotation: float = -90.0) -> list[Point]:
    """A star polygon with ``points`` tips, the first one at ``rotation`` degrees."""
    out = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = math.radians(rotation + i * 180.0 / points)
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def rotate(points: Iterable[Point], angle: float, center: Point) -> list[Point]:
    """Rotate points by ``angle`` degrees (clockwise on screen) around ``center``."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    cx, cy = center
    return [(cx + (x - cx) * ca - (y - cy) * sa, cy + (x - cx) * sa + (y - cy) * ca)
            for x, y in points]


def offset_polyline(points: Sequence[Point], widths: Sequence[float]) -> list[Point]:
    """The outline of a stroke of varying width along ``points`` (a closed polygon)."""
    left: list[Point] = []
    right: list[Point] = []
    n = len(points)
    for i, (x, y) in enumerate(points):
        x0, y0 = points[max(i - 1, 0)]
        x1, y1 = points[min(i + 1, n - 1)]
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        w = widths[i] / 2
        left.append((x + nx * w, y + ny * w))
        right.append((x - nx * w, y - ny * w))
    return left + right[::-1]


def _gradient_l(size: tuple[int, int], angle: float) -> Image.Image:
    """An 'L' ramp 0..255 of ``size`` running along ``angle`` degrees."""
    w, h = size
    side = int(math.hypot(w, h)) + 2
    ramp = Image.linear_gradient("L").resize((side, side), Image.Resampling.BILINEAR)
    ramp = ramp.rotate(90 - angle, resample=Image.Resampling.BILINEAR)
    left = (side - w) // 2
    top = (side - h) // 2
    return ramp.crop((left, top, left + w, top + h))


def _radial_l(size: tuple[int, int], center: Point, spread: float) -> Image.Image:
    w, h = size
    big = (max(2, int(2 * w * spread)), max(2, int(2 * h * spread)))
    ramp = Image.radial_gradient("L").resize(big, Image.Resampling.BILINEAR)
    left = int(big[0] / 2 - center[0] * w)
    top = int(big[1] / 2 - center[1] * h)
    return ramp.crop((left, top, left + w, top + h))


def gradient_image(size: tuple[int, int], fill: Fill) -> Image.Image:
    """An RGBA image of ``size`` painted with ``fill``."""
    if isinstance(fill, Linear):
        ramp = _gradient_l(size, fill.angle)
        a, b = rgba(fill.start), rgba(fill.end)
    elif isinstance(fill, Radial):
        ramp = _radial_l(size, fill.center, fill.spread)
        a, b = rgba(fill.inner), rgba(fill.outer)
    else:
        return Image.new("RGBA", size, rgba(fill))
    return Image.composite(Image.new("RGBA", size, b), Image.new("RGBA", size, a), ramp)


class Pen:
    """Paints masked shapes on an RGBA image."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img

    @property
    def size(self) -> tuple[int, int]:
        return self.img.size

    def mask(self, draw: Callable[[ImageDraw.ImageDraw], None]) -> Image.Image:
        """A fresh full-size mask with ``draw`` applied (draw with fill=255)."""
        m = Image.new("L", self.img.size, 0)
        draw(ImageDraw.Draw(m))
        return m

    def paint(self, mask: Image.Image, fill: Fill, opacity: float = 1.0) -> None:
        """Paint ``fill`` through ``mask`` (255 = opaque)."""
        box = mask.getbbox()
        if box is None:
            return
        w, h = box[2] - box[0], box[3] - box[1]
        layer = gradient_image((w, h), fill)
        alpha = mask.crop(box)
        if opacity < 1.0:
            alpha = alpha.point(lambda v: int(v * opacity))
        layer_alpha = layer.getchannel("A")
        layer.putalpha(ImageChops.multiply(alpha, layer_alpha))
        self.img.alpha_composite(layer, dest=(box[0], box[1]))

    def shadow(self, mask: Image.Image, offset: Point = (4, 6), blur: float = 6,
               color: Color = (0, 0, 0), opacity: float = 0.35) -> None:
        """A soft drop shadow of ``mask``."""
        shifted = ImageChops.offset(mask, int(offset[0]), int(offset[1]))
        self.paint(shifted.filter(ImageFilter.GaussianBlur(blur)), color, opacity)

    def polygon(self, points: Sequence[Point], fill: Fill | None = None,
                outline: Color | None = None, width: int = 0) -> Image.Image:
        """Fill and/or outline a polygon; returns its mask."""
        pts = [(float(x), float(y)) for x, y in points]
        m = self.mask(lambda d: d.polygon(pts, fill=255))
        if fill is not None:
            self.paint(m, fill)
        if outline is not None and width > 0:
            self.outline(pts, outline, width)
        return m

    def outline(self, points: Sequence[Point], color: Color, width: int) -> None:
        pts = [(float(x), float(y)) for x, y in points]
        self.paint(self.mask(lambda d: d.line([*pts, pts[0]], fill=255, width=width,
                                              joint="curve")), color)

    def ellipse(self, box: Sequence[float], fill: Fill | None = None,
                outline: Color | None = None, width: int = 0) -> Image.Image:
        """Fill and/or outline an ellipse; returns its mask."""
        b = _box(box)
        m = self.mask(lambda d: d.ellipse(b, fill=255))
        if fill is not None:
            self.paint(m, fill)
        if outline is not None and width > 0:
            self.paint(self.mask(lambda d: d.ellipse(b, outline=255, width=width)), outline)
        return m

    def circle(self, cx: float, cy: float, r: float, fill: Fill | None = None,
               outline: Color | None = None, width: int = 0) -> Image.Image:
        return self.ellipse((cx - r, cy - r, cx + r, cy + r), fill, outline, width)

    def rounded(self, box: Sequence[float], radius: float, fill: Fill | None = None,
                outline: Color | None = None, width: int = 0) -> Image.Image:
        """Fill and/or outline a rounded rectangle; returns its mask."""
        b = _box(box)
        m = self.mask(lambda d: d.rounded_rectangle(b, radius=radius, fill=255))
        if fill is not None:
            self.paint(m, fill)
        if outline is not None and width > 0:
            self.paint(self.mask(lambda d: d.rounded_rectangle(
                b, radius=radius, outline=255, width=width)), outline)
        return m

    def line(self, points: Sequence[Point], color: Fill, width: int) -> Image.Image:
        """A stroked polyline with round joints and caps."""
        pts = [(float(x), float(y)) for x, y in points]

        def draw(d: ImageDraw.ImageDraw) -> None:
            d.line(pts, fill=255, width=width, joint="curve")
            r = width / 2
            for x, y in (pts[0], pts[-1]):
                d.ellipse((x - r, y - r, x + r, y + r), fill=255)

        m = self.mask(draw)
        self.paint(m, color)
        return m

    def stroke(self, points: Sequence[Point], widths: Sequence[float], fill: Fill,
               outline: Color | None = None, width: int = 0) -> Image.Image:
        """A stroke whose width varies along the path (tapered brush)."""
        return self.polygon(offset_polyline(points, widths), fill, outline, width)


def _box(box: Sequence[float]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = box
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def downsample(img: Image.Image, factor: int = 2) -> Image.Image:
    """Shrink an image drawn at ``factor`` times its final size (LANCZOS)."""
    w, h = img.size
    return img.resize((w // factor, h // factor), Image.Resampling.LANCZOS)

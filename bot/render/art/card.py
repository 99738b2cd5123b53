"""Composes whole cards: frame, corner indices, pips, aces, courts, specials, backs.

Everything is drawn at ``SCALE`` times the stored size (:data:`CARD_SIZE`) and
downsampled with LANCZOS by :func:`render_card`. Drawing is deterministic.
"""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw

from bot.render.art.faces import draw_court
from bot.render.art.geometry import Linear, Pen, Radial, downsample, mix, star_points
from bot.render.art.specials import SPECIAL_CORNERS, CornerDrawer, draw_special
from bot.render.art.suits import Deck, draw_symbol, style
from bot.render.fonts import font

CARD_SIZE = (180, 252)
"""Stored card size in pixels (width, height)."""
SCALE = 2
W, H = CARD_SIZE[0] * SCALE, CARD_SIZE[1] * SCALE
RADIUS = 22
INDEX_X = 38
"""Centre of the corner index column, at drawing scale."""
INDEX_SIZE, INDEX_SIZE_WIDE = 60, 50
"""The font size of a one-character corner index (bold) and of ``10`` (condensed bold),
at drawing scale."""

RANK_LABELS = {11: "J", 12: "Q", 13: "K", 14: "A"}

# Pip positions: (column 0..2, row 0..1); rows past the middle are drawn upside down.
PIPS: dict[int, list[tuple[int, float]]] = {
    2: [(1, 0), (1, 1)],
    3: [(1, 0), (1, 0.5), (1, 1)],
    4: [(0, 0), (2, 0), (0, 1), (2, 1)],
    5: [(0, 0), (2, 0), (1, 0.5), (0, 1), (2, 1)],
    6: [(0, 0), (2, 0), (0, 0.5), (2, 0.5), (0, 1), (2, 1)],
    7: [(0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (0, 1), (2, 1)],
    8: [(0, 0), (2, 0), (1, 0.25), (0, 0.5), (2, 0.5), (1, 0.75), (0, 1), (2, 1)],
    9: [(0, 0), (2, 0), (0, 1 / 3), (2, 1 / 3), (1, 0.5), (0, 2 / 3), (2, 2 / 3),
        (0, 1), (2, 1)],
    10: [(0, 0), (2, 0), (1, 1 / 6), (0, 1 / 3), (2, 1 / 3), (0, 2 / 3), (2, 2 / 3),
         (1, 5 / 6), (0, 1), (2, 1)],
}
PIP_COLUMNS = (126, 180, 234)
PIP_TOP, PIP_BOTTOM = 92, 412

BACKGROUNDS = {
    Deck.TICHU: Linear((255, 251, 240), (240, 228, 204)),
    Deck.FRENCH: Linear((255, 255, 255), (234, 238, 245)),
}
EDGES = {Deck.TICHU: (74, 50, 28), Deck.FRENCH: (44, 46, 58)}
FRAME_LINES = {Deck.TICHU: (206, 164, 84), Deck.FRENCH: (196, 202, 216)}


def _index_cap() -> float:
    """The cap height of the smallest corner index (``10``), as a share of the card's width."""
    _, top, _, bottom = font(INDEX_SIZE_WIDE, "condensed-bold").getbbox("10", anchor="ls")
    return (bottom - top) / W


INDEX_CAP = _index_cap()
"""How tall a card's corner index is, as a share of the card's width: a card drawn ``w``
pixels wide shows its rank ``INDEX_CAP * w`` pixels tall."""


def rank_label(rank: int) -> str:
    """The corner index of a natural rank: 2..10, J, Q, K, A."""
    return RANK_LABELS.get(rank, str(rank))


def blank(deck: Deck, background: Linear | Radial | None = None) -> tuple[Image.Image, Pen]:
    """A card-shaped canvas: rounded corners, gradient face, outer edge."""
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    pen = Pen(img)
    pen.rounded((0, 0, W - 1, H - 1), RADIUS, background or BACKGROUNDS[deck])
    return img, pen


def edge(pen: Pen, deck: Deck, color: tuple[int, int, int] | None = None) -> None:
    """The dark outer border, drawn last so it sits on top of full-bleed art."""
    pen.rounded((0, 0, W - 1, H - 1), RADIUS, None, color or EDGES[deck], 5)


def inner_frame(pen: Pen, deck: Deck, box: tuple[float, float, float, float] = (
        74, 16, W - 74, H - 16)) -> None:
    pen.rounded(box, 12, None, FRAME_LINES[deck], 3)


def corner_index(img: Image.Image, deck: Deck, text: str, color: tuple[int, int, int],
                 suit: int | None = None) -> None:
    """Rank and small suit symbol in the top-left corner, and turned in the bottom-right."""
    layer = Image.new("RGBA", (76, 150), (0, 0, 0, 0))
    lpen = Pen(layer)
    d = ImageDraw.Draw(layer)
    f = (font(INDEX_SIZE, "bold") if len(text) == 1
         else font(INDEX_SIZE_WIDE, "condensed-bold"))
    cx = INDEX_X
    d.text((cx, 46), text, font=f, fill=color, anchor="mm")
    if suit is not None:
        draw_symbol(lpen, deck, suit, cx, 110, 44)
    img.alpha_composite(layer, (0, 6))
    img.alpha_composite(layer.rotate(180), (W - 76, H - 156))


def special_corner(img: Image.Image, draw: CornerDrawer) -> None:
    """Corner icons of a special card: a small figure drawn by ``draw``."""
    layer = Image.new("RGBA", (76, 150), (0, 0, 0, 0))
    draw(Pen(layer), INDEX_X, 48, 56)
    img.alpha_composite(layer, (0, 6))
    img.alpha_composite(layer.rotate(180), (W - 76, H - 156))


def _pips(pen: Pen, deck: Deck, suit: int, rank: int) -> None:
    size = 84 if rank <= 3 else 72 if rank <= 8 else 66
    if deck is Deck.TICHU and suit == 3 and rank <= 8:  # the slender sword needs more room
        size = int(size * 1.15)
    for col, row in PIPS[rank]:
        y = PIP_TOP + row * (PIP_BOTTOM - PIP_TOP)
        draw_symbol(pen, deck, suit, PIP_COLUMNS[col], y, size, flip=row > 0.5)


def _ace(pen: Pen, deck: Deck, suit: int) -> None:
    st = style(deck, suit)
    cx, cy = W / 2, H / 2
    if deck is Deck.TICHU:
        # a sunburst medallion
        rays = star_points(cx, cy, 150, 96, 16, -90)
        pen.polygon(rays, Radial(st.tint, mix(st.tint, st.light, 0.45), (0.5, 0.5), 0.8))
        pen.circle(cx, cy, 112, Radial((255, 253, 246), st.tint, (0.5, 0.45), 0.9),
                   FRAME_LINES[deck], 4)
    else:
        pen.circle(cx, cy, 116, None, mix(st.tint, st.ink, 0.25), 3)
        pen.circle(cx, cy, 104, None, mix(st.tint, st.ink, 0.15), 2)
    draw_symbol(pen, deck, suit, cx, cy, 170)


def _court(img: Image.Image, pen: Pen, deck: Deck, suit: int, rank: int) -> None:
    st = style(deck, suit)
    x0, y0, x1, y1 = 80, 26, W - 80, H - 26
    pen.rounded((x0, y0, x1, y1), 14, Linear(mix(st.tint, (255, 255, 255), 0.5), st.tint))
    half_w, half_h = int(x1 - x0), int((y1 - y0) / 2)
    half = Image.new("RGBA", (half_w, half_h), (0, 0, 0, 0))
    draw_court(Pen(half), deck, suit, rank)
    img.alpha_composite(half, (int(x0), int(y0)))
    img.alpha_composite(half.rotate(180), (int(x0), int(y0) + half_h))
    pen.line([(x0 + 6, y0 + half_h), (x1 - 6, y0 + half_h)], mix(st.ink, st.tint, 0.3), 3)
    pen.rounded((x0, y0, x1, y1), 14, None, mix(st.ink, (255, 255, 255), 0.2), 4)


def draw_natural(deck: Deck, rank: int, suit: int) -> Image.Image:
    """A natural card (rank 2..14, suit 0..3) at drawing scale."""
    st = style(deck, suit)
    img, pen = blank(deck)
    if rank <= 10:
        inner_frame(pen, deck)
        _pips(pen, deck, suit, rank)
    elif rank == 14:
        inner_frame(pen, deck)
        _ace(pen, deck, suit)
    else:
        _court(img, pen, deck, suit, rank)
    corner_index(img, deck, rank_label(rank), st.ink, suit)
    edge(pen, deck)
    return img


def draw_special_card(name: str) -> Image.Image:
    """One of the four Tichu specials (MAHJONG, DOG, PHOENIX, DRAGON) at drawing scale."""
    img, pen = blank(Deck.TICHU)
    draw_special(img, pen, name, (0, 0, W, H))
    corner = SPECIAL_CORNERS[name]
    special_corner(img, corner)
    edge(pen, Deck.TICHU)
    return img


def draw_back(deck: Deck) -> Image.Image:
    """The back of a deck at drawing scale."""
    if deck is Deck.TICHU:
        base, line, accent = (150, 24, 30), (236, 186, 84), (92, 10, 18)
    else:
        base, line, accent = (30, 62, 140), (226, 234, 250), (16, 34, 86)
    img, pen = blank(deck, Radial(mix(base, (255, 255, 255), 0.12), accent, (0.5, 0.5), 0.9))
    # a fine diamond lattice inside a double border
    inner = pen.mask(lambda d: d.rounded_rectangle((22, 22, W - 23, H - 23), radius=14,
                                                   fill=255))
    lattice = pen.mask(lambda d: _lattice(d))
    pen.paint(ImageChops.multiply(lattice, inner), line, 0.35)
    pen.rounded((14, 14, W - 15, H - 15), 16, None, line, 4)
    pen.rounded((24, 24, W - 25, H - 25), 12, None, line, 2)
    cx, cy = W / 2, H / 2
    if deck is Deck.TICHU:
        pen.circle(cx, cy, 104, Radial((176, 36, 40), (110, 14, 22), (0.5, 0.4)), line, 5)
        pen.circle(cx, cy, 90, None, line, 2)
        for i, (dx, dy) in enumerate(((0, -46), (46, 0), (0, 46), (-46, 0))):
            pen.circle(cx + dx, cy + dy, 30, (255, 248, 232))
            draw_symbol(pen, deck, i, cx + dx, cy + dy, 44)
    else:
        pen.ellipse((cx - 96, cy - 130, cx + 96, cy + 130), Radial((46, 84, 170), accent),
                    line, 5)
        pen.ellipse((cx - 82, cy - 116, cx + 82, cy + 116), None, line, 2)
        for i, (dx, dy) in enumerate(((0, -58), (44, 0), (0, 58), (-44, 0))):
            pen.circle(cx + dx, cy + dy, 28, (250, 252, 255))
            draw_symbol(pen, deck, i, cx + dx, cy + dy, 40)
    edge(pen, deck, (20, 20, 26))
    return img


def _lattice(d: ImageDraw.ImageDraw) -> None:
    step = 22
    for k in range(-H, W + H, step):
        d.line([(k, 0), (k + H, H)], fill=255, width=2)
        d.line([(k, H), (k + H, 0)], fill=255, width=2)


def finish(img: Image.Image) -> Image.Image:
    """Downsample a card drawn at ``SCALE`` to its stored size."""
    return downsample(img, SCALE)

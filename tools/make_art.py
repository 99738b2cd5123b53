"""Regenerate every card PNG, the docs example images and (optionally) the snapshots.

Snapshots are the exact bytes the bot uploads (``tests/render/snapshots/<name>.webp``, a live
panel's ``.jpg``);
the docs examples are those images decoded and stored as dithered palette PNGs
(``docs/images/<name>.png``), so that any Markdown viewer shows them.

Usage::

    python -m tools.make_art               # cards + docs/images
    python -m tools.make_art --snapshots   # ... and tests/render/snapshots
    python -m tools.make_art --cards       # cards only
    python -m tools.make_art --docs        # docs/images only
    python -m tools.make_art --snapshots-only

Everything is drawn by code (``bot.render.art``) and is deterministic: the same
Pillow gives byte-identical files. Cards are drawn at twice their stored size,
downsampled with LANCZOS, and stored as dithered palette PNGs with alpha:
``assets/cards/tichu/<TOKEN>.png``, ``assets/cards/french/<TOKEN>.png``
(``TOKEN`` is ``str(card)``, e.g. ``Ah``, ``Tc``, ``MAHJONG``) and ``back.png``
in each folder.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterable
from pathlib import Path

from PIL import Image

from bot.render.art import CARD_SIZE, Deck, back_image, card_image
from bot.render.cards import CARDS_DIR
from bot.render.draw import FIXED_COLORS, canvas, draw_text
from bot.render.encoding import filename
from bot.render.examples import SNAPSHOTS, gallery
from engine.cards import ALL
from engine.tichu.cards import DECK

ROOT = Path(__file__).resolve().parents[1]

DOCS_DIR = ROOT / "docs" / "images"
SNAPSHOT_DIR = ROOT / "tests" / "render" / "snapshots"


EDGE_LEVELS = (32, 64, 96, 128, 160, 192, 224)
"""Alpha levels kept for the anti-aliased rounded corners."""


def card_png(img: Image.Image) -> Image.Image:
    """The stored form of a card: a 256-colour palette image with alpha.

    Opaque pixels are mapped, with Floyd-Steinberg dithering, onto a fast-octree
    palette of the card plus the fine ramps of the card backgrounds; the few
    corner pixels keep one of :data:`EDGE_LEVELS` alpha levels (in the card's
    edge colour), the outside is fully transparent.
    """
    alpha = img.getchannel("A")
    rgb = Image.new("RGB", img.size, (255, 255, 255))
    rgb.paste(img, mask=alpha)
    n = 256 - len(FIXED_COLORS) - len(EDGE_LEVELS) - 1
    octree = rgb.quantize(n, method=Image.Quantize.FASTOCTREE)
    entries = (octree.getpalette() or [])[: 3 * n]
    entries += [0] * (3 * n - len(entries))
    entries += [v for color in FIXED_COLORS for v in color]
    edge = _edge_color(img)
    entries += list(edge) * len(EDGE_LEVELS) + [0, 0, 0]
    palette = Image.new("P", (1, 1))
    palette.putpalette(entries)
    q = rgb.quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG)
    first_edge = 256 - len(EDGE_LEVELS) - 1
    for i, level in enumerate(EDGE_LEVELS):
        low = level - 16
        band = alpha.point(lambda v, lo=low: 255 if lo <= v < lo + 32 else 0)
        q.paste(first_edge + i, mask=band)
    q.paste(255, mask=alpha.point(lambda v: 255 if v < 16 else 0))
    q.info["transparency"] = bytes([255] * first_edge + list(EDGE_LEVELS) + [0])
    return q


def _edge_color(img: Image.Image) -> tuple[int, int, int]:
    """The colour of the card's border, read on the middle of its left edge."""
    pixel = img.getpixel((1, img.height // 2))
    assert isinstance(pixel, tuple), f"a card image is RGBA, not {img.mode}"
    r, g, b, _ = pixel
    return (r, g, b)


def save_card(img: Image.Image, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    q = card_png(img)
    q.save(path, "PNG", optimize=True, transparency=q.info["transparency"])


def tokens(deck: Deck) -> list[str]:
    """Every card token of ``deck``, in deck order."""
    cards: Iterable[int] = DECK if deck is Deck.TICHU else ALL[:52]
    return [str(ALL[int(c)]) for c in cards]


def make_cards(out_dir: Path = CARDS_DIR) -> int:
    """Write every card and both backs; returns the number of files."""
    count = 0
    for deck in (Deck.TICHU, Deck.FRENCH):
        folder = out_dir / deck.value
        for token in tokens(deck):
            save_card(card_image(deck, token), folder / f"{token}.png")
            count += 1
        save_card(back_image(deck), folder / "back.png")
        count += 1
    return count


def docs_png(image: bytes | Image.Image) -> bytes:
    """A docs copy of an image (the uploaded bytes, or a drawn image): a 256-colour
    PNG, its fast-octree palette applied with Floyd-Steinberg dithering so that the
    felt's gradient shows no bands."""
    if isinstance(image, bytes):
        with Image.open(io.BytesIO(image)) as decoded:
            rgb = decoded.convert("RGB")
    else:
        rgb = image.convert("RGB")
    palette = rgb.quantize(256, method=Image.Quantize.FASTOCTREE)
    q = rgb.quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG)
    buf = io.BytesIO()
    q.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def contact_sheet(deck: Deck, title: str, scale: float = 0.6) -> bytes:
    """All cards of ``deck`` (suits in rows, specials and the back last) on the felt."""
    w, h = (round(CARD_SIZE[0] * scale), round(CARD_SIZE[1] * scale))
    gap = 12
    cols = 13
    suits = [[t for t in tokens(deck) if len(t) == 2 and t[1] == s] for s in "cdhs"]
    extra = [t for t in tokens(deck) if len(t) > 2] + ["back"]
    rows = [*suits, extra]
    width = 40 + cols * (w + gap)
    height = 90 + len(rows) * (h + gap) + 20
    img, d = canvas((width, height))
    draw_text(d, (32, 46), title, 30, "bold", anchor="lm")
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            card = back_image(deck) if token == "back" else _stored(deck, token)
            card = card.resize((w, h), Image.Resampling.LANCZOS)
            img.paste(card, (26 + c * (w + gap), 86 + r * (h + gap)), card)
    return docs_png(img)


def _stored(deck: Deck, token: str) -> Image.Image:
    path = CARDS_DIR / deck.value / f"{token}.png"
    if path.exists():
        with Image.open(path) as stored:
            return stored.convert("RGBA")
    return card_image(deck, token)


def make_docs(out_dir: Path = DOCS_DIR) -> list[Path]:
    """Write an example of every image and the two contact sheets."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, render in gallery().items():
        path = out_dir / f"{name}.png"
        path.write_bytes(docs_png(render()))
        written.append(path)
    for deck, title in ((Deck.TICHU, "Tichu · 56 cards"), (Deck.FRENCH, "French · 52 cards")):
        path = out_dir / f"cards-{deck.value}.png"
        path.write_bytes(contact_sheet(deck, title))
        written.append(path)
    return written


def make_snapshots(out_dir: Path = SNAPSHOT_DIR) -> list[Path]:
    """Write the reference images the snapshot tests compare against (the uploaded bytes)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    images = gallery()
    for name in SNAPSHOTS:
        data = images[name]()
        path = out_dir / filename(name, data)
        for old in out_dir.glob(f"{name}.*"):
            old.unlink()  # a picture whose format changed leaves no stale reference
        path.write_bytes(data)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.make_art",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", action="store_true", help="only the card PNGs")
    parser.add_argument("--docs", action="store_true", help="only docs/images")
    parser.add_argument("--snapshots", action="store_true",
                        help="also rewrite tests/render/snapshots")
    parser.add_argument("--snapshots-only", action="store_true",
                        help="only rewrite tests/render/snapshots")
    args = parser.parse_args(argv)
    everything = not (args.cards or args.docs or args.snapshots_only)
    if everything or args.cards:
        n = make_cards()
        print(f"{n} card images in {CARDS_DIR.relative_to(ROOT)}")
    if everything or args.docs:
        docs = make_docs()
        print(f"{len(docs)} example images in {DOCS_DIR.relative_to(ROOT)}")
    if args.snapshots or args.snapshots_only:
        snaps = make_snapshots()
        print(f"{len(snaps)} snapshots in {SNAPSHOT_DIR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How the Discord client shows a message's images: pure functions, usable by any test.

Discord's API limits say what a message may hold; these rules say what a person then
sees (README, "Display rules"):

- A lone image attachment is shown whole, inline, scaled down (never up, keeping its
  aspect) to fit about 550 × 350 px on desktop; an embed's image fits 400 × 300; an embed
  thumbnail 80 × 80. On a phone everything fits about 320 px wide: the emulator's phone
  box is 320 × 350 (an embed's image 320 × 300).
- Two or more image attachments in one (non components-v2) message are shown as a
  mosaic of tiles, each image cropped to fill its tile (two images side by side become
  about 1:1 squares): such a message crops its images. Embeds that share one ``url`` are
  merged into one embed whose images form such a mosaic too. An image an embed shows
  (``attachment://name``) is not shown again among the attachments.
- In a components-v2 message attachments are not shown by themselves: a media gallery
  of one item shows that image whole (like a lone image), a gallery of 2+ items is a
  mosaic and crops; a thumbnail fits 80 × 80; a file component shows a file, not a picture.

Image attachments are those with an image content type (PNG, WebP, JPEG, GIF).
Everything here reads plain Discord message objects (``dict``), as the REST API returns
them or :meth:`~tests.emulator.state.World.message_payload` renders them.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Device = Literal["desktop", "phone"]
Kind = Literal["attachment", "embed", "thumbnail"]
ShownAs = Literal["inline", "mosaic", "embed", "thumbnail", "file", "hidden"]

IMAGE_TYPES = frozenset({"image/png", "image/webp", "image/jpeg", "image/gif"})
"""Content types the Discord client shows as pictures."""

BOXES: dict[tuple[Device, Kind], tuple[int, int]] = {
    ("desktop", "attachment"): (550, 350),
    ("desktop", "embed"): (400, 300),
    ("desktop", "thumbnail"): (80, 80),
    ("phone", "attachment"): (320, 350),
    ("phone", "embed"): (320, 300),
    ("phone", "thumbnail"): (80, 80),
}
"""The box (width, height in CSS px) an image is scaled down to fit, by device and kind."""

IS_COMPONENTS_V2 = 1 << 15

_MEDIA_GALLERY, _THUMBNAIL, _FILE = 12, 11, 13


def display_scale(
    width: int, height: int, *, device: Device = "desktop", kind: Kind = "attachment"
) -> float:
    """The factor an image of ``width`` × ``height`` px is shown at: ``<= 1``, never more.

    The image is scaled down, keeping its aspect, to fit the box of ``device`` and ``kind``
    (:data:`BOXES`); an image that already fits is shown at its own size (1.0).
    """
    if width <= 0 or height <= 0:
        raise ValueError(f"an image has a positive size, not {width} × {height}")
    box_w, box_h = BOXES[device, kind]
    return min(1.0, box_w / width, box_h / height)


def displayed_size(
    width: int, height: int, *, device: Device = "desktop", kind: Kind = "attachment"
) -> tuple[int, int]:
    """The size in px a whole image is shown at (see :func:`display_scale`)."""
    scale = display_scale(width, height, device=device, kind=kind)
    return max(1, round(width * scale)), max(1, round(height * scale))


def mosaic_tile(count: int, device: Device = "desktop") -> int:
    """The side of the (square, approximately) tile of each image in a mosaic of ``count``.

    The mosaic spans the attachment box's width: two columns for 2 and 4 images, three
    otherwise. Users report two images side by side squeezed to about 1:1; the exact
    layout of 3 or 5+ images (one larger tile) is not modelled.
    """
    columns = 2 if count in (2, 4) else 3
    return BOXES[device, "attachment"][0] // columns


def _cover(width: int, height: int, side: int) -> tuple[float, float]:
    """Scale that makes the image cover a ``side`` square, and the share of it left visible."""
    scale = max(side / width, side / height)
    visible = min(1.0, side / (width * scale)) * min(1.0, side / (height * scale))
    return scale, visible


@dataclass(frozen=True)
class ImageDisplay:
    """How one image of a message is shown.

    ``shown_as``: ``inline`` (whole, alone), ``mosaic`` (cropped to a tile), ``embed``
    (whole, in an embed), ``thumbnail`` (whole, small), ``file`` (a file card, no
    picture: a components-v2 file component) or ``hidden`` (an attachment a components-v2
    message does not show). ``scale_desktop``/``scale_phone``: the factor the image is
    drawn at (a mosaic's tile may scale a small image up to cover it); None when the
    image is not drawn or its size is unknown. ``visible``: the share of the image's area
    left after cropping (1.0 when whole). ``alt_text``: the attachment's ``description``,
    or in components v2 the gallery item's or thumbnail's ``description``.
    """

    filename: str
    width: int | None
    height: int | None
    shown_as: ShownAs
    scale_desktop: float | None
    scale_phone: float | None
    cropped: bool
    visible: float
    alt_text: str | None
    url: str = ""

    @property
    def drawn(self) -> bool:
        """Whether the image is drawn as a picture (not a file card, not hidden)."""
        return self.shown_as not in ("file", "hidden")


@dataclass
class DisplayBreach:
    """A message that breaks a display rule (see :func:`display_breaches`).

    ``kind``: ``"cropped"`` (the images are shown as a mosaic, each cropped) or
    ``"no_alt_text"`` (image attachments without a ``description``).
    """

    kind: Literal["cropped", "no_alt_text"]
    message_id: int
    channel_id: int
    filenames: tuple[str, ...]
    why: str
    ephemeral: bool = False

    def __str__(self) -> str:
        scope = " (ephemeral)" if self.ephemeral else ""
        return (
            f"{self.kind}: message {self.message_id} in channel {self.channel_id}{scope} "
            f"{list(self.filenames)}: {self.why}"
        )


def is_image(attachment: Mapping[str, Any]) -> bool:
    """Whether an attachment object is an image the client shows (by content type, else name)."""
    content_type = str(attachment.get("content_type") or "").partition(";")[0].strip().lower()
    if not content_type:
        content_type = mimetypes.guess_type(str(attachment.get("filename") or ""))[0] or ""
    return content_type in IMAGE_TYPES


def _size(obj: Mapping[str, Any] | None) -> tuple[int | None, int | None]:
    if not obj:
        return None, None
    width, height = obj.get("width"), obj.get("height")
    if isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0:
        return width, height
    return None, None


def _whole(
    name: str,
    size: tuple[int | None, int | None],
    shown_as: ShownAs,
    kind: Kind,
    alt: str | None,
    url: str,
) -> ImageDisplay:
    width, height = size
    desktop = phone = None
    if width and height:
        desktop = display_scale(width, height, device="desktop", kind=kind)
        phone = display_scale(width, height, device="phone", kind=kind)
    return ImageDisplay(name, width, height, shown_as, desktop, phone, False, 1.0, alt, url)


def _tiled(
    name: str, size: tuple[int | None, int | None], count: int, alt: str | None, url: str
) -> ImageDisplay:
    width, height = size
    desktop = phone = None
    visible = 1.0
    if width and height:
        desktop, visible = _cover(width, height, mosaic_tile(count, "desktop"))
        phone, _ = _cover(width, height, mosaic_tile(count, "phone"))
    return ImageDisplay(name, width, height, "mosaic", desktop, phone, True, visible, alt, url)


def _not_drawn(
    name: str, size: tuple[int | None, int | None], shown_as: ShownAs, alt: str | None, url: str
) -> ImageDisplay:
    return ImageDisplay(name, size[0], size[1], shown_as, None, None, False, 1.0, alt, url)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


class _Attachments:
    """The message's attachments, found by ``attachment://name`` or by their URL."""

    def __init__(self, attachments: Sequence[Mapping[str, Any]]) -> None:
        self.items = list(attachments)
        self.by_name = {str(a.get("filename")): a for a in self.items}
        self.by_url: dict[str, Mapping[str, Any]] = {}
        for a in self.items:
            for key in ("url", "proxy_url"):
                if a.get(key):
                    self.by_url[str(a[key])] = a

    def find(self, url: str) -> Mapping[str, Any] | None:
        if url.startswith("attachment://"):
            return self.by_name.get(url[len("attachment://") :])
        return self.by_url.get(url)


def _media_name(url: str, attachment: Mapping[str, Any] | None) -> str:
    if attachment is not None:
        return str(attachment.get("filename") or "")
    return url.rsplit("/", 1)[-1].partition("?")[0] if url else ""


def image_displays(message: Mapping[str, Any]) -> list[ImageDisplay]:
    """How each image of a Discord message object is shown, in display order.

    Embed images come first, then the attachments' area (non components-v2); in a
    components-v2 message, the gallery items, thumbnails and file components in component
    order, then the image attachments nothing shows (``hidden``).
    """
    attachments = _Attachments(message.get("attachments") or [])
    if int(message.get("flags") or 0) & IS_COMPONENTS_V2:
        return _v2_displays(message.get("components") or [], attachments)
    out: list[ImageDisplay] = []
    used: set[int] = set()
    groups: dict[str, int] = {}
    for embed in message.get("embeds") or []:
        if (embed.get("image") or {}).get("url") and embed.get("url"):
            groups[str(embed["url"])] = groups.get(str(embed["url"]), 0) + 1
    for embed in message.get("embeds") or []:
        merged = groups.get(str(embed.get("url") or ""), 0)
        parts: tuple[tuple[str, Kind], ...] = (("image", "embed"), ("thumbnail", "thumbnail"))
        for key, kind in parts:
            media = embed.get(key) or {}
            url = str(media.get("url") or "")
            if not url:
                continue
            found = attachments.find(url)
            if found is not None:
                used.add(id(found))
            size = _size(found)
            if size == (None, None):
                size = _size(media)
            name = _media_name(url, found)
            alt = _text(found.get("description")) if found is not None else None
            if kind == "embed" and merged >= 2:
                out.append(_tiled(name, size, merged, alt, url))
            else:
                out.append(_whole(name, size, "embed" if kind == "embed" else "thumbnail",
                                  kind, alt, url))
    shown = [a for a in attachments.items if is_image(a) and id(a) not in used]
    for a in shown:
        name, url, alt = str(a.get("filename") or ""), str(a.get("url") or ""), _text(
            a.get("description")
        )
        if len(shown) == 1:
            out.append(_whole(name, _size(a), "inline", "attachment", alt, url))
        else:
            out.append(_tiled(name, _size(a), len(shown), alt, url))
    return out


def _v2_displays(
    components: Sequence[Mapping[str, Any]], attachments: _Attachments
) -> list[ImageDisplay]:
    out: list[ImageDisplay] = []
    used: set[int] = set()

    def media(ref: Mapping[str, Any] | None) -> tuple[str, Mapping[str, Any] | None]:
        url = str((ref or {}).get("url") or "")
        found = attachments.find(url)
        if found is not None:
            used.add(id(found))
        return url, found

    def alt_of(own: Any, found: Mapping[str, Any] | None) -> str | None:
        return _text(own) or (_text(found.get("description")) if found is not None else None)

    def visit(items: Sequence[Mapping[str, Any]]) -> None:
        for component in items:
            ctype = component.get("type")
            if ctype == _MEDIA_GALLERY:
                entries = list(component.get("items") or [])
                for entry in entries:
                    url, found = media(entry.get("media"))
                    size = _size(found) if found is not None else _size(entry.get("media"))
                    name, alt = _media_name(url, found), alt_of(entry.get("description"), found)
                    if len(entries) == 1:
                        out.append(_whole(name, size, "inline", "attachment", alt, url))
                    else:
                        out.append(_tiled(name, size, len(entries), alt, url))
            elif ctype == _THUMBNAIL:
                url, found = media(component.get("media"))
                size = _size(found) if found is not None else _size(component.get("media"))
                out.append(_whole(_media_name(url, found), size, "thumbnail", "thumbnail",
                                  alt_of(component.get("description"), found), url))
            elif ctype == _FILE:
                url, found = media(component.get("file"))
                if found is not None and is_image(found):
                    out.append(_not_drawn(_media_name(url, found), _size(found), "file",
                                          alt_of(None, found), url))
            children = list(component.get("components") or [])
            accessory = component.get("accessory")
            if isinstance(accessory, Mapping):
                children.append(accessory)
            visit(children)

    visit(components)
    for a in attachments.items:
        if is_image(a) and id(a) not in used:
            out.append(_not_drawn(str(a.get("filename") or ""), _size(a), "hidden",
                                  _text(a.get("description")), str(a.get("url") or "")))
    return out


def cropped(message: Mapping[str, Any]) -> bool:
    """Whether the Discord client shows any image of this message cropped (in a mosaic)."""
    return any(d.cropped for d in image_displays(message))


def described(message: Mapping[str, Any]) -> dict[str, bool]:
    """For each image attachment (by filename): whether it has alt text.

    An attachment's ``description`` is its alt text; in a components-v2 message the
    ``description`` of a gallery item or thumbnail that shows it counts too.
    """
    out = {
        str(a.get("filename") or ""): _text(a.get("description")) is not None
        for a in message.get("attachments") or []
        if is_image(a)
    }
    for shown in image_displays(message):
        if shown.filename in out and shown.alt_text:
            out[shown.filename] = True
    return out


def display_breaches(message: Mapping[str, Any]) -> list[DisplayBreach]:
    """The display rules a message object breaks: cropped images, images without alt text."""
    mid = int(message.get("id") or 0)
    cid = int(message.get("channel_id") or 0)
    ephemeral = bool(int(message.get("flags") or 0) & (1 << 6))
    out: list[DisplayBreach] = []
    tiles = [d for d in image_displays(message) if d.cropped]
    if tiles:
        names = tuple(d.filename for d in tiles)
        seen = [f"{d.filename} shows {d.visible:.0%}" for d in tiles if d.width]
        out.append(
            DisplayBreach(
                "cropped",
                mid,
                cid,
                names,
                f"{len(tiles)} images in one message are shown as a mosaic, each cropped to "
                "fill its tile" + (f" ({', '.join(seen)})" if seen else "")
                + ": send one image per message, or one image per media gallery",
                ephemeral,
            )
        )
    missing = tuple(name for name, ok in described(message).items() if not ok)
    if missing:
        out.append(
            DisplayBreach(
                "no_alt_text",
                mid,
                cid,
                missing,
                "image attachment without a description (alt text): a screen reader "
                "announces only its file name",
                ephemeral,
            )
        )
    return out


# -- image sizes -------------------------------------------------------------------------

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_JPEG_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG, GIF, WebP or JPEG file, read from its header (else None).

    Discord fills ``width``/``height`` of an image attachment the same way.
    """
    if data[:8] == _PNG_MAGIC and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        return _webp_size(data)
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        width = int.from_bytes(data[26:28], "little") & 0x3FFF
        height = int.from_bytes(data[28:30], "little") & 0x3FFF
        return width, height
    if chunk == b"VP8L" and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD9)):  # standalone markers
            i += 2
            continue
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if marker in _JPEG_SOF and i + 9 <= len(data):
            height = int.from_bytes(data[i + 5 : i + 7], "big")
            width = int.from_bytes(data[i + 7 : i + 9], "big")
            return width, height
        i += 2 + length
    return None

"""The display rules (``tests.emulator.display``) on hand-made Discord message objects."""

from __future__ import annotations

import io
import zlib
from typing import Any

import pytest
from PIL import Image

from tests.emulator.display import (
    IS_COMPONENTS_V2,
    cropped,
    described,
    display_breaches,
    display_scale,
    displayed_size,
    image_displays,
    image_size,
    is_image,
)


def attachment(name: str, width: int = 1100, height: int = 700, **extra: Any) -> dict[str, Any]:
    kind = {"webp": "image/webp", "png": "image/png", "txt": "text/plain",
            "json": "application/json"}[name.rsplit(".", 1)[1]]
    out = {"id": str(zlib.crc32(name.encode())), "filename": name, "content_type": kind,
           "url": f"https://cdn.example/attachments/1/2/{name}", "size": 1000}
    if kind.startswith("image/"):
        out |= {"width": width, "height": height}
    return out | extra


def message(*attachments: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"id": "11", "channel_id": "22", "flags": 0, "attachments": list(attachments),
            "embeds": [], "components": []} | fields


def gallery(*names: str, description: str | None = None) -> dict[str, Any]:
    items: list[dict[str, Any]] = []
    for name in names:
        item: dict[str, Any] = {"media": {"url": f"attachment://{name}"}}
        if description is not None:
            item["description"] = description
        items.append(item)
    return {"type": 12, "items": items}


# -- scale ----------------------------------------------------------------------------


def test_images_are_scaled_down_to_their_box_never_up() -> None:
    assert display_scale(1100, 700) == 0.5  # width bound: 550 / 1100
    assert display_scale(500, 1400) == 0.25  # height bound: 350 / 1400
    assert display_scale(200, 100) == 1.0  # fits: shown at its own size
    assert display_scale(800, 300, kind="embed") == 0.5  # 400 × 300
    assert display_scale(640, 200, device="phone") == 0.5  # 320 wide
    assert display_scale(640, 1400, device="phone") == 0.25  # 350 high
    assert display_scale(800, 600, device="phone", kind="embed") == 0.4  # 320 × 300
    assert displayed_size(1100, 700) == (550, 350)
    assert displayed_size(960, 540, device="phone") == (320, 180)
    with pytest.raises(ValueError):
        display_scale(0, 10)


def test_image_attachments_are_known_by_content_type_or_name() -> None:
    assert is_image({"filename": "a.bin", "content_type": "image/webp"})
    assert is_image({"filename": "a.jpg"})
    assert is_image({"filename": "a.gif", "content_type": "image/gif; charset=binary"})
    assert not is_image({"filename": "a.webp", "content_type": "application/json"})
    assert not is_image({"filename": "replay.json"})


# -- plain messages ---------------------------------------------------------------------


def test_a_lone_image_is_shown_whole() -> None:
    msg = message(attachment("table.webp", 1100, 700, description="the table"),
                  attachment("replay.json"))
    [shown] = image_displays(msg)
    assert (shown.filename, shown.shown_as, shown.cropped, shown.visible) == (
        "table.webp", "inline", False, 1.0)
    assert (shown.scale_desktop, shown.scale_phone) == (0.5, 320 / 1100)
    assert not cropped(msg)
    assert display_breaches(msg) == []


def test_two_images_in_one_message_are_a_cropped_mosaic() -> None:
    msg = message(attachment("table.webp", 1000, 500, description="table"),
                  attachment("hand.webp", 800, 200, description="hand"))
    shown = image_displays(msg)
    assert [d.shown_as for d in shown] == ["mosaic", "mosaic"]
    assert all(d.cropped for d in shown)
    # Square tiles of 275 px: a 2:1 table keeps half of its area, a 4:1 hand a quarter.
    assert [round(d.visible, 3) for d in shown] == [0.5, 0.25]
    assert cropped(msg)
    [breach] = display_breaches(msg)
    assert (breach.kind, breach.message_id, breach.channel_id, breach.filenames) == (
        "cropped", 11, 22, ("table.webp", "hand.webp"))
    assert "mosaic" in breach.why and "table.webp shows 50%" in breach.why


def test_an_image_an_embed_shows_is_not_shown_again_among_the_attachments() -> None:
    embed = {"title": "Standings", "image": {"url": "attachment://standings.webp"}}
    msg = message(attachment("standings.webp", 800, 600, description="standings"),
                  attachment("chart.webp", description="chart"), embeds=[embed])
    shown = image_displays(msg)
    assert [(d.filename, d.shown_as) for d in shown] == [
        ("standings.webp", "embed"), ("chart.webp", "inline")]
    assert shown[0].scale_desktop == 0.5  # 400 × 300 box
    assert not cropped(msg)
    # Once stored, Discord rewrites the embed's URL to the attachment's: still matched.
    resolved = {"image": {"url": msg["attachments"][0]["url"]}}
    assert not cropped(message(*msg["attachments"], embeds=[resolved]))


def test_embeds_sharing_a_url_merge_their_images_into_a_mosaic() -> None:
    embeds = [{"url": "https://example.org/t", "image": {"url": "attachment://a.png"}},
              {"url": "https://example.org/t", "image": {"url": "attachment://b.png"}}]
    msg = message(attachment("a.png", description="a"), attachment("b.png", description="b"),
                  embeds=embeds)
    assert [d.shown_as for d in image_displays(msg)] == ["mosaic", "mosaic"]
    assert cropped(msg)
    embeds[1]["url"] = "https://example.org/other"
    assert not cropped(msg)


def test_an_image_without_description_breaches_alt_text() -> None:
    msg = message(attachment("table.webp"), attachment("replay.json"))
    [breach] = display_breaches(msg)
    assert (breach.kind, breach.filenames) == ("no_alt_text", ("table.webp",))
    assert described(msg) == {"table.webp": False}
    blank = message(attachment("table.webp", description="  "))
    assert [b.kind for b in display_breaches(blank)] == ["no_alt_text"]
    both = message(attachment("table.webp"), attachment("hand.webp"), flags=64)
    breaches = display_breaches(both)
    assert [b.kind for b in breaches] == ["cropped", "no_alt_text"]
    assert all(b.ephemeral for b in breaches)


# -- components v2 ------------------------------------------------------------------------


def test_v2_single_item_galleries_show_their_images_whole() -> None:
    msg = message(attachment("table.webp", description="table"),
                  attachment("hand.webp", description="hand"), flags=IS_COMPONENTS_V2,
                  components=[{"type": 17, "components": [gallery("table.webp")]},
                              gallery("hand.webp")])
    shown = image_displays(msg)
    assert [(d.filename, d.shown_as, d.cropped) for d in shown] == [
        ("table.webp", "inline", False), ("hand.webp", "inline", False)]
    assert not cropped(msg)
    assert display_breaches(msg) == []


def test_a_v2_gallery_of_two_items_crops() -> None:
    msg = message(attachment("table.webp", description="t"), attachment("hand.webp",
                  description="h"), flags=IS_COMPONENTS_V2,
                  components=[gallery("table.webp", "hand.webp")])
    assert [d.shown_as for d in image_displays(msg)] == ["mosaic", "mosaic"]
    assert [b.kind for b in display_breaches(msg)] == ["cropped"]


def test_v2_shows_no_attachment_by_itself_and_gallery_descriptions_are_alt_text() -> None:
    components = [
        {"type": 9, "components": [{"type": 10, "content": "hi"}],
         "accessory": {"type": 11, "media": {"url": "attachment://seat.png"},
                       "description": "your seat"}},
        gallery("table.webp", description="the table"),
        {"type": 13, "file": {"url": "attachment://board.png"}},
    ]
    msg = message(attachment("table.webp"), attachment("seat.png", 160, 160),
                  attachment("board.png"), attachment("spare.png"),
                  flags=IS_COMPONENTS_V2, components=components)
    shown = {d.filename: d for d in image_displays(msg)}
    assert {name: d.shown_as for name, d in shown.items()} == {
        "seat.png": "thumbnail", "table.webp": "inline", "board.png": "file",
        "spare.png": "hidden"}
    assert shown["seat.png"].scale_desktop == 0.5  # 80 × 80
    assert shown["board.png"].scale_desktop is None and not shown["board.png"].drawn
    assert described(msg) == {"table.webp": True, "seat.png": True, "board.png": False,
                              "spare.png": False}
    [breach] = display_breaches(msg)
    assert breach.filenames == ("board.png", "spare.png")


def test_unknown_sizes_give_no_scale() -> None:
    bare = {"filename": "x.webp", "content_type": "image/webp", "url": "u"}
    [shown] = image_displays(message(bare))
    assert (shown.width, shown.scale_desktop, shown.cropped) == (None, None, False)
    assert all(d.scale_desktop is None for d in image_displays(message(bare, dict(bare,
               filename="y.webp", url="v"))))


# -- image sizes ------------------------------------------------------------------------------


def encoded(fmt: str, size: tuple[int, int], mode: str = "RGB", **options: Any) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, "red").save(out, fmt, **options)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "size"),
    [
        (encoded("PNG", (300, 20)), (300, 20)),
        (encoded("GIF", (17, 33)), (17, 33)),
        (encoded("JPEG", (641, 480)), (641, 480)),
        (encoded("JPEG", (64, 48), progressive=True), (64, 48)),
        (encoded("WEBP", (1000, 600), quality=60), (1000, 600)),  # VP8 (lossy)
        (encoded("WEBP", (999, 601), lossless=True), (999, 601)),  # VP8L
        (encoded("WEBP", (1001, 3), "RGBA", quality=60), (1001, 3)),  # VP8X (alpha)
    ],
    ids=["png", "gif", "jpeg", "jpeg-progressive", "webp-lossy", "webp-lossless", "webp-alpha"],
)
def test_image_sizes_are_read_from_the_header(data: bytes, size: tuple[int, int]) -> None:
    assert image_size(data) == size


def test_other_bytes_have_no_image_size() -> None:
    assert image_size(b'{"replay": []}') is None
    assert image_size(b"") is None
    assert image_size(b"\xff\xd8\x00garbage") is None

"""The size Discord really shows an image at, which every image is drawn for.

Discord shows a lone image attachment inline within about 550 × 350 pixels on
desktop, an embed's image within about 400 × 300, and on a phone either within
about 320 pixels of width (the phone box is taken as 320 × 350, an embed's image's as
320 × 300; ``tests/emulator/display.py`` models the same boxes). An image is
scaled down to fit its box, keeping its aspect, and never scaled up. A person
who opens the image sees it at its full size.

Several image attachments of one message are shown as a mosaic of cropped tiles:
the bot sends one image per message (``tests/emulator`` records any other as a
breach).
"""

from __future__ import annotations

from typing import Literal

Device = Literal["desktop", "phone"]
Kind = Literal["attachment", "embed"]

BOXES: dict[tuple[Kind, Device], tuple[int, int]] = {
    ("attachment", "desktop"): (550, 350),
    ("embed", "desktop"): (400, 300),
    ("attachment", "phone"): (320, 350),
    ("embed", "phone"): (320, 300),
}
"""The box an image is fitted into, by how it is sent and where it is seen."""

SMALLEST_GLYPH: dict[Device, float] = {"desktop": 11.0, "phone": 8.0}
"""The smallest height, in pixels as shown, of a glyph that carries game information
(a capital letter or a digit: its cap height, a card's corner index)."""


def display_scale(width: int, height: int, *, device: Device = "desktop",
                  kind: Kind = "attachment") -> float:
    """How much an image of ``width`` × ``height`` is scaled when Discord shows it inline."""
    box_w, box_h = BOXES[(kind, device)]
    return min(1.0, box_w / width, box_h / height)

"""The encoder's cache: an equal picture is encoded once, a changed one never gets a
stale encoding, and the cache keeps to its byte budget."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import encoding
from bot.render.encoding import EncodingCache, encode, encode_panel


def picture(colour: tuple[int, int, int], size: tuple[int, int] = (120, 80)) -> Image.Image:
    img = Image.new("RGB", size, colour)
    for x in range(0, size[0], 7):  # some detail, so the encoding is not trivial
        img.putpixel((x, x % size[1]), (255, 255, 255))
    return img


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> EncodingCache:
    cache = EncodingCache(encoding.CACHE_BYTES)
    monkeypatch.setattr(encoding, "cache", cache)
    return cache


def test_an_equal_picture_is_encoded_once(fresh: EncodingCache) -> None:
    first = encode(picture((10, 90, 40)))
    again = encode(picture((10, 90, 40)))  # another image object, the same pixels
    assert again == first
    assert (fresh.hits, fresh.misses, len(fresh)) == (1, 1, 1)
    # RGBA is encoded as the RGB picture it shows.
    assert encode(picture((10, 90, 40)).convert("RGBA")) == first
    assert fresh.hits == 2


def test_a_picture_not_kept_is_encoded_alike_and_leaves_the_cache_as_it_was(
    fresh: EncodingCache,
) -> None:
    img = picture((200, 30, 30))
    assert encode(img, kept=False) == encode(img)
    assert (fresh.hits, fresh.misses, len(fresh)) == (0, 1, 1)
    encode(img, kept=False)
    assert (fresh.hits, fresh.misses, len(fresh)) == (0, 1, 1)


def test_a_changed_picture_is_a_new_encoding(fresh: EncodingCache) -> None:
    img = picture((10, 90, 40))
    before = encode(img)
    img.putpixel((3, 3), (11, 90, 40))  # one pixel, one unit of red: encoded anew
    encode(img)
    assert (fresh.hits, fresh.misses) == (0, 2)
    img.paste((200, 30, 30), (48, 24, 72, 56))  # the same image object, drawn on
    after = encode(img)
    assert after != before
    assert (fresh.hits, fresh.misses) == (0, 3)
    shown = Image.open(io.BytesIO(after)).convert("RGB")
    red, green, _ = shown.getpixel((60, 40))  # type: ignore[misc]
    assert red > 150 and green < 80  # what it shows now, not the old encoding


def test_other_encoder_settings_are_another_encoding(
        fresh: EncodingCache, monkeypatch: pytest.MonkeyPatch) -> None:
    encode(picture((10, 90, 40)))
    monkeypatch.setattr(encoding, "WEBP_QUALITY", 30)
    encode(picture((10, 90, 40)))
    assert (fresh.hits, fresh.misses) == (0, 2)


def test_the_cache_keeps_to_its_budget_least_recently_used_out() -> None:
    cache = EncodingCache(limit=250)
    keys = [("k", i) for i in range(4)]
    for key in keys[:2]:
        cache.put(key, b"x" * 100)
    assert cache.get(keys[0]) is not None  # now the most recently used
    cache.put(keys[2], b"y" * 100)  # 300 > 250: the least recently used goes
    assert cache.get(keys[1]) is None
    assert cache.get(keys[0]) == b"x" * 100 and cache.get(keys[2]) == b"y" * 100
    assert cache.size == 200
    cache.put(keys[3], b"z" * 300)  # larger than the whole budget: not kept
    assert cache.get(keys[3]) is None and cache.size == 200


def test_a_hand_drawn_again_is_the_kept_picture_and_any_change_draws_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.render import hand
    from engine.tichu.game import TichuGame
    from engine.tichu.view import Call

    kept = EncodingCache(hand.HANDS_KEPT)
    monkeypatch.setattr(hand, "_hands", kept)
    view = TichuGame(seed=4).view(1)
    first = hand.render_hand(view)
    assert first == encode(hand.draw_hand(view))  # the picture it always was
    assert hand.render_hand(view) == first and (kept.hits, kept.misses) == (1, 1)
    called = view.__class__(**{**{f: getattr(view, f) for f in view.__dataclass_fields__},
                               "calls": (None, Call.TICHU, None, None)})
    changes = [hand.render_hand(view, locale="fr"),
               hand.render_hand(view, selected=[view.hand[0]]),
               hand.render_hand(called),
               hand.render_hand(TichuGame(seed=4).view(2))]
    assert kept.misses == 5 and first not in changes and len(set(changes)) == 4
    assert changes[2] == encode(hand.draw_hand(called))
    with pytest.raises(ValueError):
        hand.render_hand(TichuGame(seed=4).view(None))


def test_a_live_panel_is_a_jpeg_never_kept(fresh: EncodingCache) -> None:
    """A live panel's picture is a JPEG (:func:`encode_panel`), never looked up nor kept
    in the cache, as close to the drawing as the WebP of every other picture."""
    img = picture((10, 90, 40), (240, 160))
    panel = encode_panel(img)
    usual = encode(img)
    assert panel[:3] == b"\xff\xd8\xff" and usual[8:12] == b"WEBP"
    assert encode_panel(img) == panel  # deterministic
    assert (fresh.hits, fresh.misses, len(fresh)) == (0, 1, 1)  # only the WebP was kept
    shown = [Image.open(io.BytesIO(data)).convert("RGB") for data in (panel, usual)]
    assert [s.format for s in (Image.open(io.BytesIO(panel)), Image.open(io.BytesIO(usual)))] \
        == ["JPEG", "WEBP"]
    assert all(s.size == img.size for s in shown)
    for x, y in ((60, 40), (200, 120)):
        assert shown[0].getpixel((x, y)) == pytest.approx(img.getpixel((x, y)), abs=6)


def test_the_live_panels_are_jpeg(fresh: EncodingCache) -> None:
    """The exchange's picture, drawn at each pick, and a table with a hand under it, drawn
    at each click and each move in DMs, are encoded as live panels (issue 53: their WebP
    encodings, every seat at once, were what the clicks waited for in ``python -m
    tools.bench_direct``)."""
    from bot.render import examples as ex
    from bot.render import hand, position
    view = ex.exchange_view()
    left, partner, right = ex.EXCHANGE_CHOICE
    drawn = hand.draw_exchange(view, left, partner, right, ex.NAMES, "en")
    assert hand.render_exchange(view, left, partner, right, ex.NAMES) == encode_panel(drawn)
    public, seat = ex.table_view(), ex.position_view()
    assert position.render_position(public, seat, ex.NAMES) == \
        encode_panel(position.draw_position(public, seat, ex.NAMES))
    table = encode(position.draw_position(public, seat, ex.NAMES))
    assert position.render_stacked(table, table)[:3] == b"\xff\xd8\xff"

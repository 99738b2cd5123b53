"""The coach's words and pictures (bot/games/tichu/coach.py), without Discord."""

from __future__ import annotations

import random

import pytest

from bot.games.tichu.alt import HAND_SHARE, hand_alt, position_alt
from bot.games.tichu.coach import (
    MIN_COST,
    SHOWN,
    WORDS,
    deal_replay,
    hint_text,
    one_deal,
    option_text,
    position_picture,
    shown_decisions,
)
from bot.i18n import LANGUAGES, t
from bot.render import render_position
from engine.cards import parse_card
from engine.tichu.actions import Exchange, Gift, Play, action_to_json
from engine.tichu.ai import make_player
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.cards import DRAGON, MAHJONG
from engine.tichu.game import TichuGame
from engine.tichu.replay import read_file, to_replay

NAMES = ["Alice", "Bob", "Carol", "Dave"]


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_option_is_said_in_words(locale: str) -> None:
    for do in WORDS:
        assert option_text(locale, {"seat": 0, "do": do}, NAMES) == t(locale, f"coach.do.{do}")
    seven, eight = parse_card("7s"), parse_card("7h")
    pair = option_text(locale, action_to_json(Play(0, (seven, eight))), NAMES)
    assert pair.startswith(t(locale, "kind.pair", count=1).split(" ")[0]) or "7" in pair
    wish = option_text(locale, action_to_json(Play(0, (MAHJONG,), wish=8)), NAMES)
    assert wish.endswith(t(locale, "coach.do.wish", rank=wish.split()[-1]))
    plain = option_text(locale, action_to_json(Play(0, (MAHJONG,))), NAMES)
    assert plain.endswith(t(locale, "coach.do.no_wish"))
    gift = option_text(locale, action_to_json(Gift(0, 3)), NAMES)
    assert gift == t(locale, "coach.do.gift", name="Dave")
    exchange = option_text(locale, action_to_json(Exchange(0, ((1, seven), (2, eight),
                                                               (3, DRAGON)))), NAMES)
    assert all(name in exchange for name in NAMES[1:])
    # Something the engine never writes is shown as it is, not a crash.
    assert option_text(locale, {"seat": 0, "do": "juggle"}, NAMES) == "juggle"


def test_a_hint_in_words() -> None:
    found = {"seat": 0, "kind": "grand", "best": {"seat": 0, "do": "decline_grand"},
             "options": [{"option": {"seat": 0, "do": "decline_grand"}, "value": 12.46},
                         {"option": {"seat": 0, "do": "grand_tichu"}, "value": -140.0}],
             "reason": "best_value"}
    text = hint_text("en", found, NAMES)
    assert text.splitlines() == [
        t("en", "coach.hint_title"),
        t("en", "coach.hint_best", option=t("en", "coach.do.decline_grand")),
        t("en", "coach.hint_option", option=t("en", "coach.do.decline_grand"), value="+12"),
        t("en", "coach.hint_option", option=t("en", "coach.do.grand_tichu"), value="-140"),
        t("en", "coach.reason.best_value")]


def test_only_costly_decisions_are_shown_costliest_first() -> None:
    costs = [4.0, MIN_COST, 55.5, 12.0, 80.0, 9.9]
    review = {"decisions": [{"index": i, "cost": c} for i, c in enumerate(costs)]}
    shown = shown_decisions(review)
    assert [d["cost"] for d in shown] == [80.0, 55.5, 12.0][:SHOWN]
    assert all(d["cost"] >= MIN_COST for d in shown)
    assert shown_decisions({"decisions": []}) == []


def played_game(seed: int) -> TichuGame:
    game = TichuGame(seed=seed, target=1000)
    play_deal(game, [make_player("easy") for _ in range(4)],
              random.Random(seed))
    return game


def test_one_deal_of_a_game_and_the_positions_of_its_seat() -> None:
    game = played_game(5)
    game.next_deal()
    data = deal_replay(game, 0)
    assert data["deals"] == [to_replay(game)["deals"][0]]
    assert one_deal(to_replay(game), 1)["deals"] == [to_replay(game)["deals"][1]]
    read = read_file(data)
    # The position before the tenth action: the public table and seat 2's own hand.
    again = TichuGame(target=read.target, hands=read.deals[0].hands, dealer=read.deals[0].dealer)
    for action in read.deals[0].actions[:10]:
        again.apply(action)
    picture, words = position_picture(data, 10, 2, NAMES, "en")
    assert picture == render_position(again.view(None), again.view(2), NAMES, locale="en")
    # The picture in words: seat 2's own cards, then the public table.
    assert words == position_alt(again.view(None), again.view(2), NAMES, "en")
    assert words.startswith(hand_alt(again.view(2), NAMES, "en", limit=HAND_SHARE))

"""The play menu of the hand panel: every legal play within two choices, never hidden."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games.shared import names_of
from bot.games.tichu import hand
from bot.games.tichu.hand import MAX_OPTIONS, grouped_plays, menu_pages, new_draft
from bot.games.tichu.spec import TICHU
from bot.render import render_position, sorted_hand
from bot.store.models import SeatRecord, TableRecord, TableStatus
from bot.tables import Table
from engine.tichu.actions import DeclineGrand, Exchange, Gift, Pass, Play
from engine.tichu.ai import pending_seats
from engine.tichu.cards import MAHJONG
from engine.tichu.combos import Combo, Kind
from engine.tichu.game import TichuGame
from engine.tichu.legal import can_pass, gift_targets, legal_plays
from engine.tichu.view import Phase


def positions(seed: int, players: int = 4) -> list[list[Combo]]:
    """Every decision of a seeded deal played at random: (who, the legal plays)."""
    rng = random.Random(seed)
    game = TichuGame(seed=f"menu-{seed}", players=players)
    seen: list[list[Combo]] = []
    while game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
        view = game.view(None)
        if game.phase is Phase.GRAND:
            game.apply(DeclineGrand(pending_seats(view)[0]))
        elif game.phase is Phase.EXCHANGE:
            seat = pending_seats(view)[0]
            mine = game.view(seat)
            cards = rng.sample(list(mine.hand), len(mine.exchange_targets(seat)))
            game.apply(Exchange(seat, tuple(zip(mine.exchange_targets(seat), cards,
                                                strict=True))))
        elif game.phase is Phase.GIFT:
            seat = game.turn
            game.apply(Gift(seat, rng.choice(gift_targets(game.view(seat)))))
        else:
            seat = game.turn
            mine = game.view(seat)
            plays = legal_plays(mine)
            seen.append(plays)
            if can_pass(mine) and (not plays or rng.random() < 0.4):
                game.apply(Pass(seat))
                continue
            play = rng.choice(plays)
            wish = rng.choice([None, *range(2, 15)]) if MAHJONG in play.cards else None
            dog = mine.dog_targets(seat) if play.kind is Kind.DOG else ()
            game.apply(Play(seat, play.cards, phoenix=play.phoenix, wish=wish,
                            to=dog[0] if len(dog) > 1 else None))
    return seen


def reachable(plays: list[Combo]) -> set[tuple[object, object]]:
    """The plays a person reaches through the menu: the first select's plays, or for each
    kind in the first select, every page of that kind."""
    kinds, _, _pages = menu_pages(plays, None)
    found: set[tuple[object, object]] = set()
    for kind in kinds or [None]:
        _, _shown, kind_pages = menu_pages(plays, kind)
        for page in kind_pages:
            assert len(page) <= MAX_OPTIONS
            found |= {(p.cards, p.phoenix) for p in page}
    return found


@pytest.mark.parametrize("players", [4, 6])
def test_every_legal_play_is_reachable(players: int) -> None:
    long_menus = 0
    for seed in range(60):
        for plays in positions(seed, players):
            assert reachable(plays) == {(p.cards, p.phoenix) for p in plays}
            kinds, shown, _pages = menu_pages(plays, None)
            assert len(kinds) <= MAX_OPTIONS
            groups = grouped_plays(plays)
            if kinds:
                long_menus += 1
                # Singles are shown first, in one choice; pairs take one choice more.
                if "single" in groups:
                    assert shown == "single"
            for kind in ("single", "pair"):
                if kind in groups:
                    _, shown_kind, kind_pages = menu_pages(plays, kind)
                    assert shown_kind == kind or not kinds
                    assert {p.cards for page in kind_pages for p in page} >= \
                        {p.cards for p in groups[kind]}
    assert long_menus > 0  # the grouped menu was exercised, not only short lists


@pytest.mark.parametrize("surface", ["direct", None])
async def test_a_panel_in_dms_draws_one_picture_of_its_exchange(
        surface: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a table in DMs the panel is one picture, the table with the hand under it, its
    exchange picks raised in the hand: the exchange's own picture (a thread's panel) is
    not drawn for it as well. Each picture drawn is counted."""
    game = TichuGame(seed="exchange-picture")
    for seat in range(4):
        game.apply(DeclineGrand(seat))
    assert game.phase is Phase.EXCHANGE
    record = TableRecord(id=7, guild_id=1, channel_id=1, host_id=100, game="tichu",
                         status=TableStatus.PLAYING, seed="fixed",
                         options={"surface": surface} if surface else {},
                         seats=[SeatRecord(seat=s, user_id=100 + s, name=f"p{s}")
                                for s in range(4)])
    table = Table(record, TICHU, game)
    view = game.view(1)
    pick = sorted_hand(view.hand)[0]
    table.drafts[1] = new_draft(table, 1, {}, ex=[int(pick), None, None])
    drawn: list[str] = []

    def counted(fn: Any) -> Any:
        def draw(*args: Any, **kwargs: Any) -> bytes:
            drawn.append(fn.__name__)
            return bytes(fn(*args, **kwargs))
        return draw

    for name in ("render_exchange", "render_hand", "render_position"):
        monkeypatch.setattr(hand, name, counted(getattr(hand, name)))
    message = await hand.hand_message(table, 1, "en")
    if surface == "direct":
        assert drawn == ["render_position"]
        assert message.image == render_position(
            game.view(None), view, names_of(table, "en"), locale="en", selected=[pick])
    else:
        assert drawn == ["render_exchange"]

"""The play menu of the hand panel: every legal play within two choices, never hidden."""

from __future__ import annotations

import random

import pytest

from bot.games.tichu.hand import MAX_OPTIONS, grouped_plays, menu_pages
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

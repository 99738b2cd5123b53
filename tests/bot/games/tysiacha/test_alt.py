"""Tysiacha's pictures in words (their alt text): seeded games played by computers, the
public table described after every action in every language — whose turn, the contract,
the trump, the trick, every seat — never naming a card still in a hand (nor the prikup
before it is shown), each description within Discord's 1,024 characters with the
longest names; the hands, the prikup and the score sheets too."""

from __future__ import annotations

import pytest

from bot.games.shared import ALT_LIMIT
from bot.games.tysiacha.alt import hand_alt, prikup_alt, sheet_alt, table_alt
from bot.games.tysiacha.images import hand_key
from bot.i18n import t
from bot.i18n.names import card_label
from bot.render.french import ordered
from bot.tables.computer import computer_move
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.legal import legal_cards
from engine.tysiacha.view import Phase
from tests.bot.games.tichu.test_alt import LONGEST


@pytest.mark.parametrize("players", [3, 4])
def test_a_whole_game_in_words(players: int, spoken: tuple[str, ...]) -> None:
    names = list(LONGEST[:players])
    game = TysiachaGame(players=players, seed=f"alt-{players}")
    counted = {"tables": 0, "sheets": 0, "contracts": 0}
    step = 0
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.DEAL_OVER:
            for locale in spoken:
                words = sheet_alt(game.history, names, players, locale, shown=14)
                assert len(words) <= ALT_LIMIT
                assert words.startswith(t(locale, "alt.tysiacha.sheet",
                                          number=len(game.history)))
                counted["sheets"] += 1
            game.next_deal()
            continue
        public = game.view(None)
        hidden = [card for hand in game.hands for card in hand]
        if not public.prikup:
            hidden += list(game.deal.prikup)
        turn = public.turn
        assert turn is not None
        for locale in spoken:
            words = table_alt(public, names, locale)
            assert len(words) <= ALT_LIMIT
            assert names[turn] in words.split(".")[0]
            assert all(name in words for name in names)
            assert not [c for c in hidden if card_label(locale, c) in words], words
            assert all(card_label(locale, p.card) in words for p in public.trick.plays)
            if public.contract is not None and public.phase is Phase.PLAY:
                assert t(locale, "alt.tysiacha.contract", name=names[public.soloist],
                         contract=public.contract) in words
                counted["contracts"] += 1
            counted["tables"] += 1
        own = game.view(turn)
        playable = legal_cards(own) if own.phase is Phase.PLAY else None
        words = hand_alt(ordered(own.hand, hand_key), "en", playable=playable,
                         contract=own.contract if own.soloist == turn else None)
        assert all(card_label("en", c) in words for c in own.hand)
        game.apply(computer_move("tysiacha", "normal", own, f"alt:{step}"))
        step += 1
    for locale in spoken:
        final = sheet_alt(game.history, names, players, locale, winner=game.view(None).winner,
                          final=True)
        assert len(final) <= ALT_LIMIT
        words = prikup_alt(locale, 0, names[0], 120, game.deal_log[0][0].prikup)
        assert all(card_label(locale, c) in words for c in game.deal_log[0][0].prikup)
    assert counted["tables"] > 400 and counted["sheets"] > 5 and counted["contracts"] > 100

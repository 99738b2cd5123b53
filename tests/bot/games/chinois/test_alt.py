"""Chinois's pictures in words (their alt text): a whole seeded game played by computers,
the public table described after every action in every language — whose turn, the
trump, every seat — never naming a card still in a hand, each description within
Discord's 1,024 characters with the longest names; the hands and the score sheets too."""

from __future__ import annotations

from bot.games.chinois.alt import hand_alt, sheet_alt, table_alt
from bot.games.chinois.hand import sorted_cards
from bot.games.shared import ALT_LIMIT
from bot.i18n import t
from bot.i18n.names import card_label
from bot.tables.computer import computer_move
from engine.chinois.game import ChinoisGame
from engine.chinois.legal import legal_cards
from engine.chinois.rules import ROUNDS
from engine.chinois.view import Phase
from tests.bot.games.tichu.test_alt import LONGEST

NAMES = list(LONGEST[:4])


def test_a_whole_game_in_words(spoken: tuple[str, ...]) -> None:
    game = ChinoisGame(seed="alt-1")
    counted = {"tables": 0, "hands": 0, "sheets": 0}
    step = 0
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.DEAL_OVER:
            for locale in spoken:
                trumps = [t(locale, "chinois.no_trump")] * len(game.history)
                words = sheet_alt(game.history, trumps, NAMES, locale, final=False, shown=10)
                assert len(words) <= ALT_LIMIT
                assert words.startswith(t(locale, "alt.chinois.sheet",
                                          round=len(game.history), rounds=ROUNDS))
                counted["sheets"] += 1
            game.next_deal()
            continue
        public = game.view(None)
        hidden = [card for hand in game.hands for card in hand]
        trick = [(p.seat, p.card) for p in public.trick.plays]
        turn = public.turn
        assert turn is not None
        for locale in spoken:
            words = table_alt(public, NAMES, locale, trick=trick, winner=None)
            assert len(words) <= ALT_LIMIT
            key = "alt.chinois.to_bid" if public.phase is Phase.BID else \
                "alt.to_play" if trick else "alt.to_lead"
            assert words.startswith(t(locale, key, name=NAMES[turn]))
            assert all(name in words for name in NAMES)
            assert not [c for c in hidden if card_label(locale, c) in words], words
            assert all(card_label(locale, c) in words for _, c in trick)
            counted["tables"] += 1
        own = game.view(turn)
        playable = legal_cards(own) if own.phase is Phase.PLAY else None
        words = hand_alt(own, sorted_cards(own.hand), "en", playable=playable)
        assert words.startswith(t("en", "alt.hand", count="", cards="").split(",")[0])
        assert all(card_label("en", c) in words for c in own.hand)
        counted["hands"] += 1
        game.apply(computer_move("chinois", "easy", own, f"alt-1:{step}"))
        step += 1
    for locale in spoken:
        trumps = [t(locale, "chinois.no_trump")] * len(game.history)
        final = sheet_alt(game.history, trumps, NAMES, locale, final=True)
        assert len(final) <= ALT_LIMIT
        best = max(sum(r.scores[s] for r in game.history) for s in range(4))
        assert str(best) in final
    assert counted["tables"] > 3000 and counted["sheets"] == 27 * len(spoken)

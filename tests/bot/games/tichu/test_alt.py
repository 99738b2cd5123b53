"""Tichu's pictures in words (their alt text): what each says, that a public one never
names a card still in a hand, and that each stays within Discord's 1,024 characters —
six seats, long names, every language."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.games.shared import ALT_LIMIT, ELLIPSIS
from bot.games.tichu.alt import (
    deal_summary_alt,
    exchange_alt,
    game_over_alt,
    hand_alt,
    table_alt,
)
from bot.i18n import plain, t
from bot.i18n.names import card_label, combo_name
from bot.render import examples as ex
from bot.render import sorted_hand
from engine.tichu.actions import Action
from engine.tichu.ai import make_player
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.game import TichuGame
from engine.tichu.view import Call, DealResult, Phase, TichuView, TrickPlay
from tests.render.test_render_privacy import poisoned

LONGEST = ("Maximilian von Hohenstein-Eberst", "xX_DragonSlayer_Xx_The_Greatest_",
           "Анастасия Александровна Петрова", "Jean-Christophe de La Tour-Aub",
           "Wilhelmina Fairweather-Smythe II", "Σωκράτης Παπαδόπουλος-Νικολαΐδη")
"""Six names of Discord's longest (32 characters), each then marked away: the most a
seat's name takes in a description."""


# ------------------------------------------------------------------ the table
def test_the_table_in_words() -> None:
    words = table_alt(ex.table_view(), ex.NAMES, "en")
    # Whose turn first, then the play on top, the wish, every seat, the scores.
    assert words.startswith("Bob's turn. On top: Chloé played Pair of Kings (K♥, Phoenix) "
                            "with the Phoenix as King. Open wish: 8. ")
    for seat_words in ("Alice (Team A): out first, called Tichu",
                       "Bob (Team B): 5 cards", "Chloé (Team A): 7 cards",
                       "Dmitri (Team B): 9 cards, called Grand Tichu, passed"):
        assert seat_words in words
    assert "Score: Team A 415, Team B 185. Deal 4, playing to 1000." in words
    assert "Earlier in this trick: Dmitri played Pair of 9s; Bob played Pair of Jacks." in words
    assert words.endswith("Last trick taken by Dmitri with Straight 6–10, 15 points.")


@pytest.mark.parametrize(("phase", "expected"), [
    ("lead", "Dmitri's turn to lead."),
    ("grand", "Grand Tichu decisions: 2 of 4 made; waiting for Bob and Dmitri."),
    ("exchange", "Card exchange: 2 of 4 have passed their cards; waiting for Alice and Dmitri."),
    ("gift", "Chloé won the trick with the Dragon and must give it to an opponent."),
    ("bomb", "Chloé's turn. On top: Bob played Bomb: straight flush 4–8 (4♠, 5♠, 6♠, 7♠, 8♠) "
             "out of turn."),
])
def test_each_phase_says_what_the_table_waits_for(phase: str, expected: str) -> None:
    assert table_alt(ex.table_views()[phase], ex.NAMES, "en").startswith(expected)


def test_six_seats_and_duplicate_boards() -> None:
    words = table_alt(ex.six_table_view(), ex.NAMES6, "en")
    assert words.startswith("Farid's turn. On top: Chloé played Pair of Kings (K♦, K♠).")
    for name, count in zip(ex.NAMES6[1:], (4, 6, 2, 9, 7), strict=True):
        assert f"{name} (Team {'AB'[ex.NAMES6.index(name) % 2]}): {count} cards" in words
    board = table_alt(replace(ex.table_view(), history=()), ex.NAMES, "en", boards=4)
    assert "Board 4 of 4, each played from 0 to 0." in board and "playing to" not in board


@pytest.mark.parametrize("view", [*ex.table_views().values(), *ex.six_table_views().values(),
                                  ex.deal_over_view(), ex.game_over_view()])
def test_the_table_words_never_read_a_hand(view: TichuView) -> None:
    """Private fields that explode when looked at: the words are the same."""
    names = ex.NAMES6 if view.n_seats == 6 else ex.NAMES
    assert table_alt(poisoned(view), names, "en") == table_alt(view, names, "en")
    with pytest.raises(ValueError):
        table_alt(replace(view, seat=0), names, "en")


def hidden_labels(game: TichuGame, locale: str) -> dict[str, int]:
    """Every card still in a hand, by its name in ``locale``."""
    return {card_label(locale, card): seat for seat, hand in enumerate(game.hands)
            for card in hand}


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (4, 11), (6, 5)])
def test_no_card_in_a_hand_is_ever_named_in_public(players: int, seed: int,
                                                   spoken: tuple[str, ...]) -> None:
    """Seeded deals played by computers, the public table described after every action
    in every language: no card still in someone's hand is ever named (the cards on the
    table are), and every description fits."""
    game = TichuGame(seed=seed, target=1000, players=players)
    names = [f"P{seat}" for seat in range(players)]
    seen = {"descriptions": 0, "cards named": 0}

    def look(game: TichuGame, seat: int, action: Action, spent: float) -> None:
        public = game.view(None)
        for locale in spoken:
            words = table_alt(public, names, locale)
            assert len(words) <= ALT_LIMIT
            hidden = hidden_labels(game, locale)
            named = [label for label in hidden if label in words]
            assert not named, (locale, named, words)
            seen["descriptions"] += 1
            seen["cards named"] += any(card_label(locale, c) in words
                                       for play in public.trick for c in play.combo.cards)

    for _ in range(2):
        play_deal(game, [make_player("easy") for _ in range(players)], random.Random(seed),
                  look)
        assert game.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)
        public = game.view(None)
        for locale in spoken:
            for words in (deal_summary_alt(public, names, locale),
                          table_alt(public, names, locale)):
                assert len(words) <= ALT_LIMIT
                assert not [label for label in hidden_labels(game, locale) if label in words]
        game.next_deal()
    assert seen["descriptions"] > 100 and seen["cards named"] > 20


def crowded_table(n_seats: int) -> TichuView:
    """The most a table can say at once: every seat called, points taken, passed; a long
    trick of straights and a bomb on top; the wish; many deals before."""
    base = ex.six_table_view() if n_seats == 6 else ex.table_view()
    plays = tuple(TrickPlay(i % n_seats, ex.combo(cards)) for i, cards in enumerate((
        "2c 3d 4h 5s 6c 7d 8h", "3c 4d 5h 6s 7c 8d 9h", "4c 5d 6h 7s 8c 9d Th",
        "5c 6d 7h 8s 9c Td Jh", "6c 7d 8h 9s Tc Jd Qh", "7c 8d 9h Ts Jc Qd Kh",
        "8c 9d Th Js Qc Kd Ah", "9c 9d 9h 9s")))
    history = tuple(DealResult(n, tuple(range(n_seats - 1)), (55, 45), (100, -200),
                               (Call.TICHU,) + (Call.GRAND_TICHU,) * (n_seats - 1), None)
                    for n in range(20))
    return replace(base, phase=Phase.PLAY, turn=1, out=(), trick=plays, wish=14,
                   hand_counts=(6,) * n_seats, passed=(True,) * n_seats,
                   calls=(Call.GRAND_TICHU,) * n_seats, trick_points=(-25,) * n_seats,
                   history=history, deal_number=20, scores=(-1995, 10000),
                   last_trick=plays[:3], last_trick_taker=2)


@pytest.mark.parametrize("n_seats", [4, 6])
def test_the_longest_tables_fit_and_keep_what_matters(n_seats: int,
                                                      spoken: tuple[str, ...]) -> None:
    """Six seats of the longest names, away, in every language: within the limit, and
    still whose turn it is, the play on top and every seat's cards."""
    view = crowded_table(n_seats)
    for locale in spoken:
        names = [plain(t(locale, "seat.away", name=name)) for name in LONGEST[:n_seats]]
        words = table_alt(view, names, locale)
        assert len(words) <= ALT_LIMIT, (locale, len(words))
        assert words.startswith(t(locale, "alt.tichu.turn", name=names[1]))
        assert combo_name(locale, view.trick[-1].combo) in words
        for name in names:
            assert t(locale, "alt.tichu.seat", name=name, team="", state="").split("(")[0] \
                in words
        assert words.count(t(locale, "alt.cards", n=6)) == n_seats
        assert not words.endswith(ELLIPSIS) or len(words) == ALT_LIMIT


def test_the_examples_with_long_names_fit_whole(spoken: tuple[str, ...]) -> None:
    """The pictures' examples with names as Discord users pick them (long, Cyrillic,
    Greek), four and six seats, in every language: said whole, nothing given up."""
    fours = [*ex.table_views().values(), ex.big_scores_view()]
    sixes = [*ex.six_table_views().values(), ex.six_big_scores_view()]
    for locale in spoken:
        said = [table_alt(v, ex.LONG_NAMES, locale) for v in fours]
        said += [table_alt(v, ex.LONG_NAMES6, locale) for v in sixes]
        said += [deal_summary_alt(ex.deal_over_view(), ex.LONG_NAMES, locale),
                 deal_summary_alt(ex.six_deal_over_view(), ex.LONG_NAMES6, locale),
                 game_over_alt(ex.game_over_view(), ex.LONG_NAMES, locale),
                 game_over_alt(ex.six_game_over_view(), ex.LONG_NAMES6, locale),
                 hand_alt(ex.six_hand_view(), ex.LONG_NAMES6, locale)]
        for words in said:
            assert len(words) <= ALT_LIMIT and not words.endswith(ELLIPSIS), (locale, words)
        last_trick = t(locale, "alt.tichu.last_trick", name="", combo="", points="")[:8]
        assert last_trick in said[0]  # the least important part is still there


@pytest.mark.parametrize("n_seats", [4, 6])
def test_the_longest_sheets_and_hands_fit(n_seats: int, spoken: tuple[str, ...]) -> None:
    view = crowded_table(n_seats)
    over = replace(view, phase=Phase.GAME_OVER, winner=1, turn=None)
    summary = replace(view, phase=Phase.DEAL_OVER, turn=None)
    own = replace(ex.six_hand_view() if n_seats == 6 else ex.hand_view())
    for locale in spoken:
        names = [plain(t(locale, "seat.away", name=name)) for name in LONGEST[:n_seats]]
        final = game_over_alt(over, names, locale)
        assert len(final) <= ALT_LIMIT
        assert final.startswith(t(locale, "alt.tichu.game_won", team="").split("(")[0][:5])
        assert len(deal_summary_alt(summary, names, locale)) <= ALT_LIMIT
        assert len(hand_alt(own, names, locale, selected=own.hand[:3])) <= ALT_LIMIT


# ------------------------------------------------------------------ the hand
def test_the_hand_in_words_in_the_pictures_order() -> None:
    view = ex.hand_view()
    words = hand_alt(view, ex.NAMES, "en", selected=ex.HAND_SELECTED)
    cards = ", ".join(card_label("en", c) for c in sorted_hand(view.hand))
    assert words.startswith(f"Your hand, 14 cards: {cards}.")
    assert "Received in the exchange: Dog from Dmitri, A♣ from Alice, 3♥ from Bob." in words
    assert "You hold Bomb: four 5s; Bomb: straight flush 7–Jack." in words
    assert "Picked to give: " in words
    grand = replace(view, phase=Phase.GRAND, grand_decided=(False,) * 4,
                    hand=view.hand[:8], received={})
    assert hand_alt(grand, ex.NAMES, "en").startswith("Your first 8 cards: ")
    assert hand_alt(replace(view, hand=(), received={}), ex.NAMES, "en") == "Your hand is empty."
    with pytest.raises(ValueError):
        hand_alt(ex.table_view(), ex.NAMES, "en")


def test_the_exchange_in_words() -> None:
    left, _, right = ex.EXCHANGE_CHOICE
    words = exchange_alt(ex.exchange_view(), (left, None, right), ex.NAMES, "en")
    assert words == ("Your exchange, 2 of 3 cards chosen: 2♣ for Dmitri, left opponent; "
                     "nothing yet for Chloé, partner; 3♦ for Bob, right opponent.")
    six = exchange_alt(ex.six_exchange_view(), (None, right), ex.NAMES6, "fr")
    assert "partenaire de gauche" in six and "partenaire de droite" in six


# ------------------------------------------------------------- deal and game
def test_a_finished_deal_in_words() -> None:
    words = deal_summary_alt(ex.deal_over_view(), ex.NAMES, "en")
    assert words == (
        "Deal 4 is over. Double victory for Team A (Alice and Chloé). "
        "Team A (Alice and Chloé): card points 200, calls +100, deal score +300, total 715. "
        "Team B (Bob and Dmitri): card points 0, calls −200, deal score −200, total −15. "
        "Calls: Alice made Tichu (+100); Dmitri failed Grand Tichu (−200). "
        "Out order: Alice first, Chloé second; Bob and Dmitri did not go out. "
        "Playing to 1000.")


def test_a_finished_game_in_words() -> None:
    words = game_over_alt(ex.game_over_view(), ex.NAMES, "en")
    assert words.startswith("Game over: Team A (Alice and Chloé) wins. "
                            "Final score: Team A 1010, Team B 790, playing to 1000. "
                            "Deal 8: Team A +400, Team B 0, totals Team A 1010, Team B 790; "
                            "double victory for Team A; Alice made Grand Tichu (+200).")
    assert words.endswith("Deal 1: Team A +45, Team B +155, totals Team A 45, Team B 155; "
                          "Bob made Tichu (+100).")

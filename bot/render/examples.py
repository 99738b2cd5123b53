"""Fixed example inputs for the images: docs, benchmarks and snapshot tests use them.

The views are built directly (the Tichu engine is not needed), and describe
plausible moments of a game: a trick in play, a hand after the exchange, a
finished deal with a double victory, and a finished game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.render.hand import render_exchange, render_hand
from bot.render.ratings import BoardLine, render_leaderboard
from bot.render.summary import render_deal_summary, render_game_over
from bot.render.table import render_table
from bot.render.trick import SeatInfo, render_score_grid, render_trick_table
from engine.cards import Card, parse_cards
from engine.tichu.combos import Combo, readings
from engine.tichu.view import Call, DealResult, Phase, TichuView, TrickPlay

NAMES = ("Alice", "Bob", "Chloé", "Dmitri")
"""Seat 0..3; Alice and Chloé play together against Bob and Dmitri."""


def combo(tokens: str) -> Combo:
    """The highest reading of the cards written in ``tokens`` (space separated)."""
    found = readings(parse_cards(tokens.split()))
    if not found:
        raise ValueError(f"not a combination: {tokens}")
    return found[0]


def cards(tokens: str) -> tuple[Card, ...]:
    return tuple(parse_cards(tokens.split()))


HISTORY: tuple[DealResult, ...] = (
    DealResult(0, (1, 0, 2), (45, 55), (0, 100), (None, Call.TICHU, None, None), None),
    DealResult(1, (0, 3, 2), (70, 30), (100, 0), (Call.TICHU, None, None, None), None),
    DealResult(2, (2, 0), (200, 0), (0, 0), (None, None, None, None), 0),
    DealResult(3, (3, 2, 0), (35, 65), (0, 200), (None, None, None, Call.GRAND_TICHU), None),
    DealResult(4, (1, 3), (0, 200), (-100, 100), (Call.TICHU, Call.TICHU, None, None), 1),
    DealResult(5, (0, 1, 3), (85, 15), (100, 0), (Call.TICHU, None, None, None), None),
    DealResult(6, (2, 1, 0), (75, 25), (0, 0), (None, None, None, None), None),
    DealResult(7, (0, 2), (200, 0), (200, 0), (Call.GRAND_TICHU, None, None, None), 0),
)
"""Eight deals that end 1010 to 790."""


def totals(history: tuple[DealResult, ...]) -> tuple[int, int]:
    a = sum(d.scores[0] for d in history)
    b = sum(d.scores[1] for d in history)
    return (a, b)


def _base(history: tuple[DealResult, ...]) -> TichuView:
    return TichuView(
        seat=None, n_seats=4, phase=Phase.PLAY, deal_number=len(history), turn=1,
        hand=(), hand_counts=(0, 5, 7, 9), grand_decided=(True,) * 4,
        calls=(Call.TICHU, None, None, Call.GRAND_TICHU), has_played=(True,) * 4,
        exchanged=(True,) * 4, given={}, received={}, trick=(), passed=(False,) * 4,
        wish=None, out=(), trick_points=(0,) * 4, scores=totals(history), target=1000,
        history=history, winner=None, bombs_played=(0,) * 4,
    )


def table_view() -> TichuView:
    """Public view mid-trick: Alice is out first, a wish for 8 is open, Bob to play."""
    history = HISTORY[:3]
    trick = (
        TrickPlay(3, combo("9c 9h")),
        TrickPlay(1, combo("Jd Js")),
        TrickPlay(2, combo("Kh PHOENIX")),
    )
    return replace(
        _base(history), trick=trick, passed=(False, False, False, True), wish=8, out=(0,),
        trick_points=(35, 10, 0, 20), turn=1, bombs_played=(0, 1, 0, 0),
        last_trick=(TrickPlay(0, combo("5c 6d 7h 8s 9c")), TrickPlay(3, combo("6h 7s 8c 9d Td"))),
        last_trick_taker=3,
    )


def table_views() -> dict[str, TichuView]:
    """Public views of every phase, for tests and docs."""
    history = HISTORY[:3]
    base = _base(history)
    return {
        "play": table_view(),
        "lead": replace(base, trick=(), turn=3, out=(0,), calls=(Call.TICHU, None, None, None),
                        last_trick=(TrickPlay(2, combo("Th Tc")), TrickPlay(3, combo("Qd Qs"))),
                        last_trick_taker=3),
        "grand": replace(base, phase=Phase.GRAND, turn=None, hand_counts=(8, 8, 14, 8),
                         grand_decided=(True, False, True, False),
                         calls=(None, None, Call.GRAND_TICHU, None), has_played=(False,) * 4,
                         exchanged=(False,) * 4),
        "exchange": replace(base, phase=Phase.EXCHANGE, turn=None, hand_counts=(14, 14, 11, 14),
                            calls=(None, Call.TICHU, None, None), has_played=(False,) * 4,
                            exchanged=(False, True, True, False)),
        "gift": replace(base, phase=Phase.GIFT, turn=2, out=(2, 1),
                        hand_counts=(3, 0, 0, 6),
                        trick=(TrickPlay(0, combo("Ac")), TrickPlay(2, combo("DRAGON"))),
                        trick_points=(20, 40, 15, 0)),
        "bomb": replace(base, out=(), hand_counts=(4, 2, 7, 5), turn=2, trick=(
            TrickPlay(0, combo("3c 4d 5h 6s 7c 8d")),
            TrickPlay(3, combo("Qc Qd Qh Qs")),
            TrickPlay(1, combo("4s 5s 6s 7s 8s"), out_of_turn=True),
        ), passed=(False, False, False, False),
            last_trick=(TrickPlay(2, combo("3s")), TrickPlay(0, combo("Jh")),
                        TrickPlay(1, combo("Kh"))), last_trick_taker=1),
    }


NAMES6 = ("Alice", "Bob", "Chloé", "Dmitri", "Eve", "Farid")
"""Seat 0..5 of a six-seat table: Alice, Chloé and Eve against Bob, Dmitri and Farid."""

_NO_CALLS6: tuple[Call | None, ...] = (None,) * 6

HISTORY6: tuple[DealResult, ...] = (
    DealResult(0, (1, 0, 2, 4, 5), (40, 60), (0, 100),
               (None, Call.TICHU, None, None, None, None), None),
    DealResult(1, (2, 3, 0, 1, 5), (55, 45), (100, 0),
               (None, None, Call.TICHU, None, None, None), None),
    DealResult(2, (4, 0, 2), (300, 0), (0, -100),
               (None, None, None, None, None, Call.TICHU), None, 0),
    DealResult(3, (1, 3, 5), (0, 300), (0, 0), _NO_CALLS6, None, 1),
    DealResult(4, (0, 1, 2, 3, 4), (70, 30), (200, 0),
               (Call.GRAND_TICHU, None, None, None, None, None), None),
    DealResult(5, (2, 0, 4), (300, 0), (0, 0), _NO_CALLS6, None, 0),
)
"""Six deals of a six-seat game (two triple victories each way) that end 1065 to 435."""


def _base6(history: tuple[DealResult, ...]) -> TichuView:
    return TichuView(
        seat=None, n_seats=6, phase=Phase.PLAY, deal_number=len(history), turn=5,
        hand=(), hand_counts=(0, 4, 6, 2, 9, 7), grand_decided=(True,) * 6,
        calls=(Call.TICHU, None, None, Call.GRAND_TICHU, None, None), has_played=(True,) * 6,
        exchanged=(True,) * 6, given={}, received={}, trick=(), passed=(False,) * 6,
        wish=None, out=(), trick_points=(0,) * 6, scores=totals(history), target=1000,
        history=history, winner=None, bombs_played=(0,) * 6,
    )


def six_table_view() -> TichuView:
    """Public view of a six-seat table mid-trick: Alice is out first and took the last
    trick, Dmitri and Eve passed on Chloé's kings, Farid to play."""
    return replace(
        _base6(HISTORY6[:3]), out=(0,), turn=5,
        trick=(TrickPlay(5, combo("7c 7d")), TrickPlay(1, combo("Tc Th")),
               TrickPlay(2, combo("Kd Ks"))),
        passed=(False, False, False, True, True, False),
        trick_points=(25, 10, 0, 5, 0, 20),
        last_trick=(TrickPlay(4, combo("3s 4s 5h 6d 7c")), TrickPlay(0, combo("8h 9h Td Jc Qs"))),
        last_trick_taker=0,
    )


def six_table_views() -> dict[str, TichuView]:
    """Public six-seat views of the phases, for tests and docs."""
    base = _base6(HISTORY6[:3])
    return {
        "play": six_table_view(),
        "lead": replace(base, out=(0, 3), hand_counts=(0, 4, 6, 0, 9, 7), turn=4,
                        last_trick=(TrickPlay(3, combo("2c 2d")),), last_trick_taker=3),
        "grand": replace(base, phase=Phase.GRAND, turn=None, hand_counts=(6,) * 6,
                         grand_decided=(True, False, True, True, False, False),
                         calls=(None, None, Call.GRAND_TICHU, None, None, None),
                         has_played=(False,) * 6, exchanged=(False,) * 6),
        "exchange": replace(base, phase=Phase.EXCHANGE, turn=None,
                            hand_counts=(10, 10, 9, 9, 9, 9), calls=_NO_CALLS6,
                            has_played=(False,) * 6,
                            exchanged=(True, False, True, True, False, True)),
        "gift": replace(base, phase=Phase.GIFT, turn=1, out=(3, 1), hand_counts=(4, 0, 2, 0, 5, 3),
                        trick=(TrickPlay(0, combo("Ac")), TrickPlay(1, combo("DRAGON"))),
                        trick_points=(15, 35, 0, 10, 0, 5)),
    }


def six_deal_over_view() -> TichuView:
    """Public view after a six-seat deal won by a triple victory of Alice, Chloé and Eve."""
    history = HISTORY6[:3]
    return replace(_base6(history), phase=Phase.DEAL_OVER, turn=None, out=(4, 0, 2),
                   hand_counts=(0, 3, 0, 5, 0, 2))


def six_game_over_view() -> TichuView:
    """Public view of a finished six-seat game (Alice, Chloé and Eve reach the target)."""
    return replace(_base6(HISTORY6), phase=Phase.GAME_OVER, turn=None, winner=0,
                   out=(2, 0, 4), hand_counts=(0, 4, 0, 2, 0, 1))


def hand_view() -> TichuView:
    """Chloé's view (seat 2) after the exchange: two bombs, the Phoenix and the Dragon."""
    hand = cards("DOG 3h 5c 5d 5h 5s 7s 8s 9s Ts Js PHOENIX DRAGON Ac")
    return replace(
        table_view(), seat=2, hand=hand, hand_counts=(14, 14, 14, 14), trick=(), out=(),
        passed=(False,) * 4, wish=None, turn=2,
        received={1: cards("3h")[0], 0: cards("Ac")[0], 3: cards("DOG")[0]},
        given={1: cards("2c")[0], 0: cards("Kd")[0], 3: cards("4h")[0]},
        has_played=(False,) * 4, trick_points=(0,) * 4,
    )


HAND_SELECTED: tuple[Card, ...] = cards("7s 8s 9s Ts Js")


def exchange_view() -> TichuView:
    """Alice's view (seat 0) while choosing her three gifts."""
    hand = cards("MAHJONG 2c 3d 4h 6c 7d 9h Tc Qs Kd Kh Ah As PHOENIX")
    return replace(
        table_view(), seat=0, phase=Phase.EXCHANGE, hand=hand, hand_counts=(14,) * 4,
        trick=(), out=(), wish=None, turn=None, exchanged=(False,) * 4,
        has_played=(False,) * 4, calls=(None,) * 4, trick_points=(0,) * 4,
    )


def six_exchange_view() -> TichuView:
    """Dmitri's view (seat 3 of six) while choosing his gifts for Bob and Farid."""
    hand = cards("DOG 2c 4h 6c 7d 9h Tc Qs Kd PHOENIX")
    return replace(
        _base6(HISTORY6[:3]), seat=3, phase=Phase.EXCHANGE, hand=hand,
        hand_counts=(10, 10, 9, 10, 9, 9), turn=None, exchanged=(False,) * 6,
        has_played=(False,) * 6, calls=_NO_CALLS6,
    )


def six_hand_view() -> TichuView:
    """Dmitri's view (seat 3 of six) after the exchange: a card from each partner."""
    hand = cards("DOG 3c 4h 6c 7d 9h 9s Tc Qs Kd")
    return replace(
        six_table_view(), seat=3, hand=hand, hand_counts=(10, 10, 9, 10, 9, 9), trick=(),
        out=(), passed=(False,) * 6, turn=3, last_trick=(), last_trick_taker=None,
        received={1: cards("9s")[0], 5: cards("3c")[0]},
        given={1: cards("PHOENIX")[0], 5: cards("2c")[0]},
        has_played=(False,) * 6, trick_points=(0,) * 6,
    )


EXCHANGE_CHOICE: tuple[Card, Card | None, Card] = (
    cards("2c")[0], cards("As")[0], cards("3d")[0])
"""(left, partner, right)."""


def deal_over_view() -> TichuView:
    """Public view after a deal won double by Alice and Chloé, Dmitri's Grand Tichu lost."""
    history = (*HISTORY[:3], DealResult(3, (0, 2), (200, 0), (100, -200),
                                        (Call.TICHU, None, None, Call.GRAND_TICHU), 0))
    return replace(_base(history), phase=Phase.DEAL_OVER, turn=None, out=(0, 2),
                   hand_counts=(0, 6, 0, 8))


def game_over_view() -> TichuView:
    """Public view of a finished game (Alice and Chloé reach the target)."""
    return replace(_base(HISTORY), phase=Phase.GAME_OVER, turn=None, winner=0,
                   out=(0, 2), hand_counts=(0, 5, 0, 3))


LONG_NAMES = ("Maximilian Hohenstein", "xX_DragonSlayer_Xx", "Анастасия Петрова",
              "Jean-Christophe")
"""Names as Discord users pick them: long, with underscores, in Cyrillic."""

LONG_NAMES6 = (*LONG_NAMES, "Wilhelmina Fairweather", "Σωκράτης")


def big_scores_view() -> TichuView:
    """The mid-trick table of a long game: a four-digit total against a negative one."""
    return replace(table_view(), scores=(1135, -140), target=2000)


def six_big_scores_view() -> TichuView:
    """The six-seat table while a Dragon trick is given away (two seats out), with a
    four-digit total against a negative one."""
    return replace(six_table_views()["gift"], scores=(1065, -435), target=1500)


HISTORY6_SECOND: tuple[DealResult, ...] = (
    DealResult(0, (1, 3, 5), (0, 300), (-200, 0),
               (Call.GRAND_TICHU, None, None, None, None, None), None, 1),
    DealResult(1, (3, 0, 2, 1, 4), (40, 60), (0, 100),
               (None, None, None, Call.TICHU, None, None), None),
    DealResult(2, (1, 5, 3), (0, 300), (100, -200),
               (Call.TICHU, None, None, None, None, None), None, 1),
)
"""Three six-seat deals won by Bob, Dmitri and Farid, two by triple victory: 560 to −60."""


def six_game_over_second_view() -> TichuView:
    """A finished six-seat game won by the second team, the first ending below zero."""
    return replace(_base6(HISTORY6_SECOND), phase=Phase.GAME_OVER, turn=None, winner=1,
                   target=500, out=(1, 5, 3), hand_counts=(2, 0, 4, 0, 1, 0))


def long_trick_seats() -> list[SeatInfo]:
    """A Chinois round with long names, a negative score and the dealer's tag."""
    return [
        SeatInfo("Maximilian Hohenstein", bid=2, tricks=1, points=1034, is_dealer=True),
        SeatInfo("xX_DragonSlayer_Xx", bid=0, tricks=1, points=-21),
        SeatInfo("Анастасия Петрова", bid=3, tricks=2, points=40, is_turn=True),
        SeatInfo("Jean-Christophe", bid=1, tricks=0, points=12),
    ]


BOARD_HEADERS = ("#", "Player", "Rating", "Games", "Win %")
BOARD: tuple[BoardLine, ...] = (
    BoardLine(1, "mahjong_mike", 34.8, 212, 0.58),
    BoardLine(2, "Léa", 31.2, 96, 0.56),
    BoardLine(3, "Дмитрий", 29.7, 143, 0.54),
    BoardLine(4, "PhoenixRising", 27.9, 61, 0.57),
    BoardLine(5, "Maximilian von Hohenstein-Eberstein", 26.3, 178, 0.51),
    BoardLine(6, "grandtichu_gwen", 24.0, 40, 0.55),
    BoardLine(7, "Γιώργος", 22.6, 88, 0.49),
    BoardLine(8, "dog.lead", 19.8, 33, 0.48),
    BoardLine(9, "Sam", 17.1, 25, 0.44),
    BoardLine(10, "ChloéB", 15.5, 52, 0.42),
)
"""A Tichu leaderboard's first page, with names as Discord users have them."""
BOARD_OWN = BoardLine(23, "night_owl", -1.8, 4, 0.25, mine=True)
DAILY_HEADERS = ("#", "Player", "Score %", "Boards", "Per board")
DAILY: tuple[BoardLine, ...] = (
    BoardLine(1, "Léa", 71.9, 4, 0.0, last="▲▲▲▼"),
    BoardLine(2, "mahjong_mike", 68.5, 4, 0.0, last="▲▲▼▲", mine=True),
    BoardLine(3, "Дмитрий", 56.3, 3, 0.0, last="▲▼▲"),
    BoardLine(3, "PhoenixRising", 56.3, 4, 0.0, last="▼▲▲▼"),
    BoardLine(5, "Γιώργος", 43.8, 4, 0.0, last="▼▲▼▼"),
    BoardLine(6, "Sam", 31.3, 2, 0.0, last="▼▼"),
)
"""A day's standings of the daily challenge (ties share a rank)."""


def trick_seats() -> list[SeatInfo]:
    """Four seats of a Chinois round in progress."""
    return [
        SeatInfo("Alice", bid=2, tricks=1, points=34, is_turn=False),
        SeatInfo("Bob", bid=0, tricks=1, points=21, is_dealer=True),
        SeatInfo("Chloé", bid=3, tricks=2, points=40),
        SeatInfo("Dmitri", bid=1, tricks=0, points=12, is_turn=True),
    ]


TRICK = [(1, cards("Kh")[0]), (2, cards("Ah")[0]), (3, cards("7h")[0])]
TRICK_LEADER = 1
TRICK_TRUMP_CARD = cards("9s")[0]
TRICK_TRUMP_SUIT = 3

GRID_COLUMNS = ["#", "Alice", "Bob", "Chloé", "Dmitri"]
GRID_ROWS = [
    ["1", "12", "3", "15", "-5"],
    ["2", "22", "13", "15", "5"],
    ["3", "22", "23", "30", "17"],
    ["4", "34", "21", "40", "12"],
    ["5", "49", "31", "40", "24"],
]


def gallery() -> dict[str, Callable[[], bytes]]:
    """Every example image by file stem: the docs examples and the snapshot references."""
    views = table_views()
    left, partner, right = EXCHANGE_CHOICE
    out: dict[str, Callable[[], bytes]] = {
        "table": lambda: render_table(views["play"], NAMES),
        "table-fr": lambda: render_table(views["play"], NAMES, locale="fr"),
        "table-duplicate": lambda: render_table(
            replace(views["play"], scores=(0, 0), history=()), NAMES, boards=4),
        "table-bomb": lambda: render_table(views["bomb"], NAMES),
        "table-grand": lambda: render_table(views["grand"], NAMES),
        "table-exchange": lambda: render_table(views["exchange"], NAMES, locale="fr"),
        "table-gift": lambda: render_table(views["gift"], NAMES),
        "table-lead": lambda: render_table(views["lead"], NAMES),
        "hand": lambda: render_hand(hand_view(), selected=HAND_SELECTED),
        "hand-fr": lambda: render_hand(hand_view(), locale="fr"),
        "exchange": lambda: render_exchange(exchange_view(), left, partner, right, NAMES),
        "exchange-partial": lambda: render_exchange(exchange_view(), left, None, None, NAMES,
                                                    locale="fr"),
        "hand-six": lambda: render_hand(six_hand_view(), locale="fr"),
        "exchange-six": lambda: render_exchange(six_exchange_view(), cards("PHOENIX")[0], None,
                                                cards("2c")[0], NAMES6),
        "deal-summary": lambda: render_deal_summary(deal_over_view(), NAMES),
        "deal-summary-fr": lambda: render_deal_summary(deal_over_view(), NAMES, locale="fr"),
        "game-over": lambda: render_game_over(game_over_view(), NAMES),
        "trick-table": lambda: render_trick_table(
            trick_seats(), TRICK, leader=TRICK_LEADER, trump_card=TRICK_TRUMP_CARD,
            trump_suit=TRICK_TRUMP_SUIT, header="Chinois · Round 5 (7 cards)", winner=2),
        "trick-table-3": lambda: render_trick_table(
            three_seats(), THREE_TRICK, leader=1, trump_suit=2, header="Tysiacha · Deal 3",
            locale="fr", footer="Contrat : 120 (Alice)"),
        "table-six": lambda: render_table(six_table_view(), NAMES6),
        "table-six-grand": lambda: render_table(six_table_views()["grand"], NAMES6, locale="fr"),
        "deal-summary-six": lambda: render_deal_summary(six_deal_over_view(), NAMES6),
        "game-over-six": lambda: render_game_over(six_game_over_view(), NAMES6),
        "table-long-names": lambda: render_table(big_scores_view(), LONG_NAMES),
        "table-six-long-names": lambda: render_table(six_big_scores_view(), LONG_NAMES6,
                                                     locale="fr"),
        "deal-summary-long-names": lambda: render_deal_summary(deal_over_view(), LONG_NAMES),
        "deal-summary-six-long-names": lambda: render_deal_summary(six_deal_over_view(),
                                                                   LONG_NAMES6, locale="fr"),
        "game-over-six-second": lambda: render_game_over(six_game_over_second_view(), NAMES6),
        "game-over-long-names": lambda: render_game_over(game_over_view(), LONG_NAMES,
                                                         locale="fr"),
        "trick-table-long-names": lambda: render_trick_table(
            long_trick_seats(), TRICK, leader=TRICK_LEADER, trump_suit=TRICK_TRUMP_SUIT,
            header="Chinois · Round 5 (7 cards)"),
        **{f"{kind}-{lang}": draw for lang in ("de", "el")
           for kind, draw in language_examples(lang).items()},
        "leaderboard": lambda: render_leaderboard(
            "Tichu leaderboard", BOARD_HEADERS, BOARD, BOARD_OWN,
            "Page 1/3 · rating = μ − 3σ (openskill)"),
        "daily-standings": lambda: render_leaderboard(
            "Tichu daily 2026-11-23", DAILY_HEADERS, DAILY, None,
            "6 players of this server · matchpoints against the field and each other"),
        "score-grid": lambda: render_score_grid(
            GRID_COLUMNS, GRID_ROWS, title="Chinois · Score sheet", highlight_rows=[4],
            highlight_cells=[(4, 3)], total_row=True, footer="Target: 100"),
    }
    return out


TRICK_WORDS = {
    "de": ("Chinois · Runde 5 (7 Karten)", "Tysiacha · Runde 3", "Kontrakt: 120 (Alice)",
           "Mariage ♥"),
    "el": ("Chinois · Γύρος 5 (7 κάρτες)", "Tysiacha · Γύρος 3", "Συμβόλαιο: 120 (Alice)",
           "γάμος ♥"),
}
"""What the games write on their trick tables, in German and Greek: the Chinois and the
Tysiacha headers, the Tysiacha footer and the soloist's note."""


def language_examples(lang: str) -> dict[str, Callable[[], bytes]]:
    """The examples drawn in German (``de``) or Greek (``el``), their longer words and
    other letters: a table, a hand, an exchange, a deal summary, a game-over sheet, and
    the trick tables of Chinois and Tysiacha."""
    left, partner, right = EXCHANGE_CHOICE
    chinois, tysiacha, contract, marriage = TRICK_WORDS[lang]
    three = [replace(seat, note=marriage if seat.note else None) for seat in three_seats()]
    return {
        "table": lambda: render_table(table_views()["play"], NAMES, locale=lang),
        "hand": lambda: render_hand(hand_view(), selected=HAND_SELECTED, locale=lang),
        "exchange": lambda: render_exchange(exchange_view(), left, partner, right, NAMES,
                                            locale=lang),
        "deal-summary": lambda: render_deal_summary(deal_over_view(), NAMES, locale=lang),
        "game-over": lambda: render_game_over(game_over_view(), NAMES, locale=lang),
        "trick-table": lambda: render_trick_table(
            trick_seats(), TRICK, leader=TRICK_LEADER, trump_card=TRICK_TRUMP_CARD,
            trump_suit=TRICK_TRUMP_SUIT, header=chinois, winner=2, locale=lang),
        "trick-table-3": lambda: render_trick_table(
            three, THREE_TRICK, leader=1, trump_suit=2, header=tysiacha, locale=lang,
            footer=contract),
    }


SNAPSHOTS = ("table", "table-fr", "table-grand", "table-gift", "table-bomb", "table-lead",
             "table-six", "table-six-grand", "hand", "hand-six", "exchange-partial",
             "exchange-six", "deal-summary", "deal-summary-six", "game-over", "game-over-six",
             "trick-table", "trick-table-3", "score-grid", "table-long-names",
             "table-six-long-names", "deal-summary-long-names", "deal-summary-six-long-names",
             "game-over-six-second", "game-over-long-names", "trick-table-long-names",
             "leaderboard",
             *(f"{kind}-{lang}" for lang in ("de", "el")
               for kind in ("table", "hand", "exchange", "deal-summary", "game-over",
                            "trick-table", "trick-table-3")))
"""The gallery images kept as snapshot references under ``tests/render/snapshots``."""


def three_seats() -> list[SeatInfo]:
    """Three seats of a Tysiacha deal in progress."""
    return [
        SeatInfo("Alice", tricks=2, points=120, is_turn=True, note="Mariage ♥"),
        SeatInfo("Bob", tricks=1, points=40, is_dealer=True),
        SeatInfo("Chloé", tricks=0, points=0),
    ]


THREE_TRICK = [(1, cards("As")[0]), (2, cards("Ts")[0])]

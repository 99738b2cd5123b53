"""Fixed example inputs for the images: docs, benchmarks and snapshot tests use them.

The views are built directly (the Tichu engine is not needed), and describe
plausible moments of a game: a trick in play, a hand after the exchange, a
finished deal with a double victory, and a finished game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.render.french import render_french_hand
from bot.render.hand import render_exchange, render_hand
from bot.render.position import render_position
from bot.render.ratings import BoardLine, render_leaderboard, render_rating_chart
from bot.render.summary import render_deal_summary, render_game_over
from bot.render.table import render_table
from bot.render.trick import NOTE, SeatInfo, render_score_grid, render_trick_table
from engine.cards import Card, parse_cards
from engine.chinois.rules import deal_score
from engine.tichu.combos import Combo, readings
from engine.tichu.view import Call, DealResult, Phase, TichuView, TrickPlay
from engine.trick import by_suit

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


def position_view() -> TichuView:
    """Bob's view (seat 1) of the table of :func:`table_view`, on turn with five cards:
    the position a review shows, or a daily board's panel."""
    return replace(table_view(), seat=1, hand=cards("4s 8d 8h Ad DRAGON"),
                   received={0: cards("Ad")[0], 2: cards("8h")[0], 3: cards("4s")[0]},
                   given={0: cards("3c")[0], 2: cards("Kc")[0], 3: cards("2d")[0]})


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


_T, _G = Call.TICHU, Call.GRAND_TICHU
HISTORY_LONG: tuple[DealResult, ...] = tuple(
    DealResult(i, out, cards_, calls_, seats, sweep) for i, (out, cards_, calls_, seats, sweep)
    in enumerate((
        ((1, 0, 3), (40, 60), (0, 100), (None, _T, None, None), None),
        ((0, 1, 2), (55, 45), (0, 0), (None,) * 4, None),
        ((3, 1), (0, 200), (0, 0), (None,) * 4, 1),
        ((2, 3, 0), (70, 30), (100, -100), (None, None, _T, _T), None),
        ((0, 2), (200, 0), (0, 0), (None,) * 4, 0),
        ((1, 2, 3), (35, 65), (-100, 100), (_T, _T, None, None), None),
        ((2, 1, 0), (60, 40), (0, 0), (None,) * 4, None),
        ((3, 0, 1), (45, 55), (0, -200), (None, _G, None, None), None),
        ((0, 3, 2), (80, 20), (200, 0), (_G, None, None, None), None),
        ((1, 0, 2), (25, 75), (0, 0), (None,) * 4, None),
        ((2, 0), (200, 0), (100, 0), (None, None, _T, None), 0),
        ((3, 2, 1), (50, 50), (0, 100), (None, None, None, _T), None),
        ((0, 1, 3), (65, 35), (-100, 0), (None, None, _T, None), None),
        ((1, 3), (0, 200), (0, 100), (None, _T, None, None), 1),
        ((2, 3, 1), (55, 45), (0, 0), (None,) * 4, None),
        ((3, 0, 2), (30, 70), (-200, 100), (_G, None, None, _T), None),
        ((0, 2, 1), (75, 25), (0, 0), (None,) * 4, None),
        ((1, 0, 3), (40, 60), (0, 100), (None, _T, None, None), None),
        ((2, 1, 0), (60, 40), (0, -100), (None, None, None, _T), None),
        ((3, 1), (0, 200), (0, 200), (None, None, None, _G), 1),
    )))
"""Twenty deals of a game to 1500 that Bob and Dmitri win at the last one, 1715 to 1185."""


def long_game_over_view() -> TichuView:
    """Public view of a long finished game: twenty deals, more than the sheet shows one by
    one (Bob and Dmitri win)."""
    return replace(_base(HISTORY_LONG), phase=Phase.GAME_OVER, turn=None, winner=1,
                   target=1500, out=(3, 1), hand_counts=(4, 0, 6, 0))


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

def _minus(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def chinois_sheet(names: tuple[str, ...], plays: tuple[tuple[str, str], ...],
                  ) -> tuple[list[str], list[list[str]], set[tuple[int, int]]]:
    """A Chinois score sheet as the game sends it: a row per round (its number, then per
    seat ``bid/tricks`` and the running total), the total row, and the exact bids' cells.
    ``plays`` holds each round's bids and tricks, one digit per seat (``"2103", "1202"``)."""
    totals = [0] * len(names)
    rows: list[list[str]] = []
    exact: set[tuple[int, int]] = set()
    for i, (bids, tricks) in enumerate(plays):
        row = [str(i + 1)]
        for s, (bid, took) in enumerate(zip(bids, tricks, strict=True)):
            totals[s] += deal_score(int(bid), int(took))
            row.append(f"{bid}/{took}{NOTE}{_minus(totals[s])}")
            if bid == took:
                exact.add((i, 1 + s))
        rows.append(row)
    rows.append(["Total", *(_minus(n) for n in totals)])
    return ["Round", *names], rows, exact


GRID_PLAYS = (("1011", "0001"), ("1101", "0200"), ("2210", "1110"), ("2100", "2200"),
              ("0201", "1301"))
"""Five rounds of a Chinois game (1 to 5 cards): bids, then tricks, one digit a seat."""
GRID_COLUMNS, GRID_ROWS, GRID_EXACT = chinois_sheet(NAMES, GRID_PLAYS)

LONG_PLAYS = (
    *GRID_PLAYS,
    ("2402", "1302"), ("4311", "4201"), ("3223", "3212"), ("5230", "4230"), ("5421", "5311"),
    ("0413", "1523"), ("4432", "4332"), ("4530", "5530"), ("5421", "5431"), ("2532", "3532"),
    ("4631", "4531"), ("4204", "5214"), ("5322", "6311"), ("3432", "3322"), ("3212", "4311"),
    ("4320", "4220"), ("3012", "3112"), ("1322", "0321"), ("2121", "2120"), ("1200", "1300"),
    ("1300", "0300"), ("2001", "2000"), ("0110", "1000"),
)
"""A whole Chinois game, 28 rounds (1 to 13 cards and back): bids, then tricks."""


def long_grid() -> bytes:
    """The final sheet of a whole Chinois game with long names: 28 rounds, of which the
    image folds the earliest, and the winner's total marked."""
    columns, rows, exact = chinois_sheet(LONG_NAMES, LONG_PLAYS)
    totals = [int(cell.replace("−", "-")) for cell in rows[-1][1:]]
    best = {(len(rows) - 1, 1 + s) for s, n in enumerate(totals) if n == max(totals)}
    return render_score_grid(columns, rows, title="Final score sheet",
                             highlight_cells=exact | best, total_row=True,
                             footer="Each cell: bid/tricks and the running total. Gold: exact "
                                    "bid.")


TYSIACHA_DEALS = (
    (0, 100, "✓", (100, 20, 35)), (1, 120, "✗", (15, -120, 40)), (2, 110, "✓", (25, 5, 110)),
    (0, 140, "✓", (140, 0, 30)), (None, None, "redeal", (0, 0, 0)),
    (1, 100, "⚐", (40, -100, 40)), (2, 160, "✗", (35, 45, -160)), (0, 120, "✓", (120, 10, 25)),
    (1, 150, "✓", (20, 150, 10)), (2, 100, "✓", (15, 25, 100)), (0, 125, "✓", (125, 5, 40)),
    (1, 130, "✗", (60, -130, 25)), (0, 105, "✓", (105, 15, 10)), (2, 140, "✓", (80, 30, 140)),
)
"""Fourteen deals of a three-player Tysiacha game: the contract's player (None: the four
9s were shown, a redeal), the contract, how it went, each player's change."""


def tysiacha_grid() -> bytes:
    """A three-player Tysiacha sheet as the game sends it after deal 14: each cell the
    change and the running total (■ on the barrel at 880); the contract's player gold
    when made, framed when lost or conceded."""
    totals = [0, 0, 0]
    rows: list[list[str]] = []
    made: list[tuple[int, int]] = []
    lost: list[tuple[int, int]] = []
    for i, (who, contract, how, changes) in enumerate(TYSIACHA_DEALS):
        if who is None:
            rows.append([str(i + 1), "redeal", *(_minus(n) for n in totals)])
            continue
        row = [str(i + 1), f"{contract} {how}"]
        for s, change in enumerate(changes):
            totals[s] += change
            mark = "■" if totals[s] == 880 else ""
            row.append(f"{'+' if change > 0 else ''}{_minus(change)}{NOTE}{_minus(totals[s])}"
                       f"{mark}")
        rows.append(row)
        (made if how == "✓" else lost).append((i, 2 + who))
    rows.append(["Total", "", *(_minus(n) for n in totals)])
    return render_score_grid(
        ["Deal", "Contract", *NAMES[:3]], rows, title="Score sheet after deal 14",
        highlight_cells=made, framed_cells=lost, total_row=True,
        footer="Gold: contract made; red frame: lost\u00a0✗ or conceded\u00a0⚐.  "
               "■\u00a0on\u00a0the\u00a0barrel  ↓\u00a0fell\u00a0off  ○\u00a0no\u00a0trick  "
               "!\u00a0penalty\u00a0−120")


RATING_HISTORY = (0.0, 1.2, 2.5, 2.1, 3.4, 4.0, 3.8, 5.1, 4.6, 6.2, 7.0, 6.4, 7.9, 8.3)
"""A player's rating (μ − 3σ) after each of fourteen rated games."""


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
        "position": lambda: render_position(views["play"], position_view(), NAMES),
        "position-full": lambda: render_position(
            replace(views["grand"], trick=(), last_trick=()), replace(
                hand_view(), phase=views["grand"].phase, trick=(), out=()), NAMES,
            locale="fr", selected=HAND_SELECTED),
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
        "game-over-long": lambda: render_game_over(long_game_over_view(), NAMES),
        "trick-table-long-names": lambda: render_trick_table(
            long_trick_seats(), TRICK, leader=TRICK_LEADER, trump_suit=TRICK_TRUMP_SUIT,
            header="Chinois · Round 5 (7 cards)"),
        "trick-table-max": lambda: render_trick_table(
            max_trick_seats(), MAX_TRICK, leader=1, winner=1, trump_card=cards("7s")[0],
            header="Donne 12/28 · cartes : 12 · montée", locale="fr", clockwise=True,
            footer="Paris 13 pour 12 plis"),
        "french-hand-max": lambda: render_french_hand(
            FRENCH_MAX, key=by_suit, playable=FRENCH_MAX_PLAYABLE, title="Atout : sans atout",
            locale="fr"),
        **{f"{kind}-{lang}": draw for lang in ("de", "el")
           for kind, draw in language_examples(lang).items()},
        "leaderboard": lambda: render_leaderboard(BOARD_HEADERS, BOARD, BOARD_OWN),
        "daily-standings": lambda: render_leaderboard(DAILY_HEADERS, DAILY),
        "score-grid": lambda: render_score_grid(
            GRID_COLUMNS, GRID_ROWS, title="Score sheet after round 5/28",
            highlight_rows=[len(GRID_ROWS) - 2], highlight_cells=GRID_EXACT, total_row=True,
            footer="Each cell: bid/tricks and the running total. Gold: exact bid."),
        "score-grid-long": long_grid,
        "score-grid-tysiacha": tysiacha_grid,
        "rating-chart": lambda: render_rating_chart("Rating after each game", RATING_HISTORY,
                                                    f"{len(RATING_HISTORY)} rated games"),
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
             "game-over-six-second", "game-over-long-names", "game-over-long",
             "trick-table-long-names", "leaderboard", "trick-table-max", "french-hand-max",
             "daily-standings", "rating-chart", "score-grid-long", "score-grid-tysiacha",
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

FRENCH_MAX = cards("Ac Kc 8c 3c Ad Td 6d 2d Qh Jh 9h 4h Ks")
"""The largest French hand: thirteen cards, a Chinois round of 13 (Tysiacha holds 10 at
most)."""
FRENCH_MAX_PLAYABLE = cards("Qh Jh 9h 4h")


def max_trick_seats() -> list[SeatInfo]:
    """The fullest Chinois table (four seats, the most either game has): long names in
    Cyrillic, Latin and Greek, a bid of two digits, a score below zero, and the dealer
    who has just taken the trick (so it is his turn to lead) on a side seat."""
    return [
        SeatInfo("Анастасия Петрова", bid=2, tricks=1, points=96),
        SeatInfo("Maximilian Hohenstein", bid=0, tricks=1, points=-138, is_dealer=True,
                 is_turn=True),
        SeatInfo("Γεώργιος Παπαδόπουλος", bid=1, tricks=0, points=208),
        SeatInfo("xX_DragonSlayer_Xx", bid=10, tricks=8, points=412),
    ]


MAX_TRICK = [(1, cards("Ad")[0]), (2, cards("Td")[0]), (3, cards("Qd")[0]),
             (0, cards("9d")[0])]
"""A whole trick of four, led and taken by seat 1."""

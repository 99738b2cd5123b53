"""Rulings 1-6 of the Chinois section of shared/spec/rulings.md, case by case, and every
error code."""

from __future__ import annotations

import pytest

from engine.cards import parse_card
from engine.chinois.actions import Bid, Play
from engine.chinois.deal import DECK, Deal, seeded_deal
from engine.chinois.game import ChinoisGame
from engine.chinois.rules import (
    Rating,
    bidding_order,
    cards_in_round,
    deal_score,
    forbidden_bid,
    has_trump,
    rating,
    scheduled_dealer,
)
from engine.chinois.view import Phase
from engine.errors import EngineError
from tests.engine.chinois.helpers import bids, position, refused, run


# ------------------------------------------------------------ 1. rounds
def test_schedule_of_28_rounds() -> None:
    sizes = [cards_in_round(r) for r in range(1, 29)]
    assert sizes == [*range(1, 13), 13, 13, 13, 13, *range(12, 0, -1)]
    assert [r for r in range(1, 29) if not has_trump(r)] == [13, 14, 15, 16]


@pytest.mark.parametrize("bad", [0, 29, -1, True, "3"])
def test_rounds_outside_the_schedule_are_refused(bad: object) -> None:
    with pytest.raises(EngineError) as info:
        cards_in_round(bad)  # type: ignore[arg-type]
    assert info.value.code == "bad_action"


@pytest.mark.parametrize("round_", [1, 5, 12, 13, 16, 17, 28])
def test_seeded_deal_fits_the_round(round_: int) -> None:
    deal = seeded_deal("s", round_)
    n = cards_in_round(round_)
    dealt = [c for h in deal.hands for c in h]
    assert [len(h) for h in deal.hands] == [n] * 4 and len(set(dealt)) == 4 * n
    if has_trump(round_):
        assert deal.trump_card is not None and deal.trump_card not in dealt
        assert deal.trump == deal.trump_card % 4
    else:
        assert deal.trump_card is None and sorted(dealt) == sorted(DECK)


@pytest.mark.parametrize(
    ("round_", "hands", "trump", "needle"),
    [
        (2, [["Ah", "Kh"]] * 4, "2c", "twice"),
        (2, [["Ah"], ["Kh", "Qh"], ["Jh", "Th"], ["9h", "8h"]], "2c", "hand 0 has 1"),
        (1, [["Ah"], ["Kh"], ["Qh"], ["Jh"]], None, "trump card"),
        (1, [["Ah"], ["Kh"], ["Qh"], ["Jh"]], "Ah", "also in a hand"),
        (13, [[str(c) for c in DECK[s::4]] for s in range(4)], "2c", "no trump card"),
        (1, [["Ah"], ["Kh"], ["Qh"]], "2c", "4 hands"),
    ],
)
def test_bad_deals_are_refused(round_: int, hands: list[list[str]], trump: str | None,
                               needle: str) -> None:
    from engine.chinois.deal import make_deal
    parsed = [[parse_card(t) for t in h] for h in hands]
    with pytest.raises(EngineError) as info:
        make_deal(round_, parsed, None if trump is None else parse_card(trump))
    assert needle in str(info.value)


# --------------------------------------------------- 2. dealer and order
@pytest.mark.parametrize(("round_", "dealer"), [(1, 3), (2, 0), (3, 1), (4, 2), (5, 3), (28, 2)])
def test_dealer_moves_one_seat_each_round(round_: int, dealer: int) -> None:
    assert scheduled_dealer(round_) == dealer
    assert bidding_order(dealer)[-1] == dealer and bidding_order(dealer)[0] == (dealer + 1) % 4


def test_seat_after_dealer_bids_first_and_leads_dealer_bids_last() -> None:
    game = ChinoisGame(seed=3)
    assert game.round == 1 and game.dealer == 3 and game.turn == 0
    seen = []
    for _ in range(4):
        assert game.turn is not None
        seen.append(game.turn)
        game.apply(Bid(game.turn, 0))
    assert seen == [0, 1, 2, 3]
    assert game.phase is Phase.PLAY and game.turn == 0


def test_seeded_game_moves_the_dealer_each_round() -> None:
    game = ChinoisGame(seed=5)
    dealers = []
    for _ in range(5):
        dealers.append(game.dealer)
        _play_round_lowest(game)
        game.next_deal()
    assert dealers == [3, 0, 1, 2, 3] and game.round == 6


def _play_round_lowest(game: ChinoisGame) -> None:
    """Bid 0 (1 for a dealer barred from 0) and play the first legal card."""
    from engine.chinois.legal import legal_bids, legal_cards
    while game.phase in (Phase.BID, Phase.PLAY):
        assert game.turn is not None
        view = game.view(game.turn)
        if game.phase is Phase.BID:
            game.apply(Bid(game.turn, legal_bids(view)[0]))
        else:
            game.apply(Play(game.turn, legal_cards(view)[0]))


# ------------------------------------------------------------ 3. bids
@pytest.mark.parametrize(
    ("n", "earlier", "forbidden"),
    [
        (10, [8, 0, 0], 2),  # the text's example: 8 asked, the dealer may not ask 2
        (1, [0, 0, 0], 1),
        (1, [1, 0, 0], 0),
        (3, [1, 1, 1], 0),
        (3, [2, 2, 0], None),  # the bids already exceed the tricks: nothing forbidden
        (13, [0, 0, 0], 13),
        (13, [13, 13, 13], None),
    ],
)
def test_tout_sauf(n: int, earlier: list[int], forbidden: int | None) -> None:
    assert forbidden_bid(n, earlier) == forbidden


@pytest.mark.parametrize(
    ("round_", "earlier", "dealer_bid", "code"),
    [
        (10, [8, 0, 0], 2, "forbidden_bid"),
        (10, [8, 0, 0], 3, None),
        (3, [2, 2, 0], 0, None),  # out of range: nothing is forbidden
        (3, [1, 1, 0], 1, "forbidden_bid"),
        (1, [0, 0, 0], 1, "forbidden_bid"),
        (1, [0, 0, 0], 0, None),
        (13, [4, 4, 4], 1, "forbidden_bid"),
        (13, [4, 4, 4], 13, None),
    ],
)
def test_dealer_bid(round_: int, earlier: list[int], dealer_bid: int, code: str | None) -> None:
    game = bids(position(round_, ["", "", "", ""]), *earlier)
    dealer = game.dealer
    if code is None:
        game.apply(Bid(dealer, dealer_bid))
        assert game.phase is Phase.PLAY
    else:
        assert refused(game, Bid(dealer, dealer_bid)) == code


@pytest.mark.parametrize(("round_", "bid"), [(3, -1), (3, 4), (1, 2), (13, 14)])
def test_bid_out_of_range(round_: int, bid: int) -> None:
    game = position(round_, ["", "", "", ""])
    assert refused(game, Bid(game.turn or 0, bid)) == "bid_out_of_range"


def test_non_dealers_may_bid_anything_in_range() -> None:
    game = bids(position(3, ["", "", "", ""]), 3, 0)
    assert game.view(game.turn).forbidden_bid is None
    bids(game, 0)
    assert game.view(game.dealer).forbidden_bid == 0


# ------------------------------------------------------------ 4. play
FOLLOW = ["Ad 2h 3c", "Kh 5c 6d", "Qs 2s 3s", "7h 8h 9h"]
"""Round 3 is dealt by seat 1, so seat 2 leads; the turned Td makes diamonds trump."""


def follow_game(hands: list[str] | None = None) -> ChinoisGame:
    return bids(position(3, hands or FOLLOW, trump_card="Td"), 0, 0, 0, 0)


@pytest.mark.parametrize(
    ("lines", "winner"),
    [
        (["2 play Qs", "3 play 7h", "0 play 3c", "1 play 5c"], 2),  # discards never win
        (["2 play 2s", "3 play 9h", "0 play 2h", "1 play 6d"], 1),  # a small trump wins
        (["2 play 2s", "3 play 9h", "0 play Ad", "1 play 6d"], 0),  # the highest trump wins
        (["2 play 3s", "3 play 8h", "0 play 3c", "1 play Kh"], 2),  # highest of the led suit
    ],
)
def test_trick_winner_and_next_lead(lines: list[str], winner: int) -> None:
    game = follow_game()
    assert game.turn == 2
    run(game, *lines)
    assert game.tricks_won[winner] == 1 and game.turn == winner and game.trick.plays == ()


def test_a_void_seat_may_discard_or_trump() -> None:
    game = run(follow_game(), "2 play Qs")
    assert all(game.can(Play(3, parse_card(c))) for c in ("7h", "8h", "9h"))
    run(game, "3 play 7h")
    assert all(game.can(Play(0, parse_card(c))) for c in ("Ad", "2h", "3c"))


@pytest.mark.parametrize(
    ("bid_first", "lines", "bad", "code"),
    [
        (False, [], "2 play Qs", "wrong_phase"),
        (True, [], "3 play 7h", "not_your_turn"),
        (True, [], "2 play Ad", "card_not_in_hand"),
        (True, ["2 play Qs"], "2 play 2s", "not_your_turn"),
        (True, ["2 play Qs"], "3 play Qs", "card_not_in_hand"),
    ],
)
def test_play_refusals(bid_first: bool, lines: list[str], bad: str, code: str) -> None:
    game = position(3, FOLLOW, trump_card="Td")
    if bid_first:
        bids(game, 0, 0, 0, 0)
    assert refused(run(game, *lines), bad) == code


@pytest.mark.parametrize(
    ("hands", "lead", "bad"),
    [
        (["Ah 2h 3c", "Kh 5c 6d", "Qs 2s 3s", "7s 8h 9h"], "2 play 2s", "3 play 8h"),
        (["Ah 2h 4c", "Kh 5c 6d", "Qs 2s 3c", "7c 8h 9h"], "2 play 3c", "3 play 9h"),
        (["Ah 2h 4c", "Kh 5c 6d", "Qs 2s 3c", "7c 8d 9h"], "2 play 3c", "3 play 8d"),  # trump
    ],
)
def test_must_follow_suit(hands: list[str], lead: str, bad: str) -> None:
    game = run(follow_game(hands), lead)
    assert refused(game, bad) == "must_follow_suit"


def test_bid_during_play_and_bad_seat_and_unknown_action() -> None:
    game = bids(position(1, ["Ah", "Kh", "Qh", "Jh"], trump_card="2c"), 0, 0, 0, 0)
    assert refused(game, Bid(0, 0)) == "wrong_phase"
    assert refused(game, Play(4, parse_card("Ah"))) == "bad_seat"
    assert refused(game, Play(-1, parse_card("Ah"))) == "bad_seat"
    with pytest.raises(EngineError) as info:
        game.check("dance")  # type: ignore[arg-type]
    assert info.value.code == "bad_action"


# ------------------------------------------------------------ 5. scoring
@pytest.mark.parametrize(
    ("bid", "tricks", "score"),
    [(0, 0, 10), (1, 1, 12), (3, 3, 16), (13, 13, 36), (2, 0, -4), (0, 3, -6), (5, 4, -2)],
)
def test_deal_score(bid: int, tricks: int, score: int) -> None:
    assert deal_score(bid, tricks) == score


def test_round_is_scored_and_over() -> None:
    game = bids(position(1, ["Ah", "Kh", "Qh", "Jh"], trump_card="2c"), 1, 0, 1, 1)
    run(game, "0 play Ah", "1 play Kh", "2 play Qh", "3 play Jh")
    assert game.phase is Phase.DEAL_OVER and game.turn is None
    assert game.history[-1].tricks == (1, 0, 0, 0)
    assert game.scores == [12, 10, -2, -2]
    assert refused(game, Bid(0, 0)) == "deal_over"
    assert refused(game, "0 play Ah") == "deal_over"


# ------------------------------------------------------------ 6. end
def test_game_ends_after_round_28_and_ties_share() -> None:
    # Round 28 is dealt by seat 2, so seat 3 bids first and leads.
    game = bids(position(28, ["Ah", "Kh", "Qh", "Jh"], trump_card="2c"), 0, 0, 0, 0)
    run(game, "3 play Jh", "0 play Ah", "1 play Kh", "2 play Qh")
    assert game.phase is Phase.GAME_OVER
    assert game.scores == [-2, 10, 10, 10] and game.winners == (1, 2, 3)
    assert refused(game, Bid(3, 0)) == "game_over"
    with pytest.raises(EngineError) as info:
        game.next_deal()
    assert info.value.code == "game_over"


def test_next_deal_needs_the_round_over_and_a_later_round() -> None:
    game = position(1, ["Ah", "Kh", "Qh", "Jh"], trump_card="2c")
    with pytest.raises(EngineError) as info:
        game.next_deal()
    assert info.value.code == "wrong_phase"
    bids(game, 0, 0, 0, 0)
    run(game, "0 play Ah", "1 play Kh", "2 play Qh", "3 play Jh")
    with pytest.raises(EngineError) as info:
        game.next_deal()  # no seed: the deal must be given
    assert "seed" in str(info.value)
    with pytest.raises(EngineError):
        game.next_deal(Deal(1, 0, ((DECK[0],), (DECK[1],), (DECK[2],), (DECK[3],)), DECK[4]))
    game.next_deal(seeded_deal(9, 7))
    assert game.round == 7 and game.dealer == scheduled_dealer(7)


def test_a_game_needs_a_seed_or_a_deal() -> None:
    with pytest.raises(EngineError):
        ChinoisGame()


@pytest.mark.parametrize(
    ("score", "grade"),
    [
        (301, Rating.HIGH_SCORE), (400, Rating.HIGH_SCORE),
        (300, Rating.REMARKABLE), (250, Rating.REMARKABLE),
        (249, Rating.GOOD), (200, Rating.GOOD),
        (199, Rating.AVERAGE), (150, Rating.AVERAGE),
        (149, Rating.WEAK), (100, Rating.WEAK),
        (99, Rating.BAD_SCORE), (0, Rating.BAD_SCORE), (-50, Rating.BAD_SCORE),
    ],
)
def test_rating_scale(score: int, grade: Rating) -> None:
    assert rating(score) is grade
    assert grade.value in {"high_score", "remarkable", "good", "average", "weak", "bad_score"}

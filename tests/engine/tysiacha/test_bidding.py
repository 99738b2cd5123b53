"""Rulings 1-6 of the Tysiacha section: the deal, the bidding, the prikup, conceding,
giving and the four nines; with the error codes of those phases."""

from __future__ import annotations

import pytest

from engine.cards import parse_card, parse_cards
from engine.errors import EngineError
from engine.tysiacha.actions import Bid, Give, Play
from engine.tysiacha.cards import DECK, bid_limit
from engine.tysiacha.deal import make_deal, seeded_deal
from engine.tysiacha.game import TysiachaGame
from engine.tysiacha.legal import can_pass, legal_bids, legal_gifts, legal_raises
from engine.tysiacha.view import DealKind, Phase
from tests.engine.tysiacha.helpers import deal_for, position, refused, run

PLAIN = "9c Jc Tc Ac 9d Jd Td"
"""Seven cards without a King or Queen: no marriage, whatever the prikup adds."""
PLAIN_PRIKUP = "9h Jh Th"
HEARTS_MARRIAGE = "Kh Qh 9c Jc Tc Ac 9d"


# ---------------------------------------------------------------- 1. deal
@pytest.mark.parametrize(("players", "dealer"), [(3, 0), (3, 2), (4, 1), (4, 3)])
def test_seeded_deal_gives_7_each_and_3_to_the_prikup(players: int, dealer: int) -> None:
    deal = seeded_deal("x", 0, dealer, players)
    sizes = [len(h) for h in deal.hands]
    assert len(deal.prikup) == 3
    assert sizes == [0 if players == 4 and s == dealer else 7 for s in range(players)]
    cards = [c for h in deal.hands for c in h] + list(deal.prikup)
    assert sorted(cards) == sorted(DECK)


def test_dealer_starts_at_seat_2_and_moves_one_seat_per_deal() -> None:
    game = TysiachaGame(seed=1)
    dealers = []
    for _ in range(4):
        dealers.append(game.dealer)
        opener = game.turn
        assert opener == (game.dealer + 1) % 3  # the seat after the dealer opens
        run(game, f"{opener} bid 100", f"{(opener + 1) % 3} pass", f"{(opener + 2) % 3} pass",
            f"{opener} concede")
        game.next_deal()
    assert dealers == [2, 0, 1, 2]
    # Seat 0 conceded twice, seats 1 and 2 once; each concession paid the other two 60.
    assert game.concessions == [2, 1, 1] and game.scores == [120, 180, 180]


def test_four_player_table_the_dealer_sits_out() -> None:
    game = TysiachaGame(players=4, seed=3)
    assert game.dealer == 2 and game.active == (3, 0, 1) and game.hands[2] == []
    assert refused(game, "2 bid 100") == "seat_sits_out"
    run(game, "3 bid 100", "0 pass", "1 pass")
    assert game.soloist == 3 and game.opponents == (0, 1)
    run(game, "3 concede")
    assert game.scores == [60, 60, 0, 0]
    game.next_deal()
    assert game.dealer == 3 and game.active == (0, 1, 2) and game.hands[3] == []


# ------------------------------------------------------------- 2. bidding
@pytest.mark.parametrize(
    ("hand", "lines", "bad", "code"),
    [
        ("", [], "0 pass", "must_open"),
        ("", [], "0 bid 95", "bid_too_low"),
        ("", [], "0 bid 103", "bad_bid_step"),
        ("", ["0 bid 100"], "1 bid 100", "bid_too_low"),  # a bid must beat the high bid
        ("", ["0 bid 100"], "1 bid 107", "bad_bid_step"),
        ("", ["0 bid 100"], "0 bid 105", "not_your_turn"),
        (PLAIN, [], "0 bid 125", "bid_needs_marriage"),
        (HEARTS_MARRIAGE, [], "0 bid 225", "bid_over_limit"),
        ("", ["0 bid 100", "1 pass", "2 bid 105"], "1 bid 110", "not_your_turn"),  # final pass
        ("", ["0 bid 100"], "1 raise 110", "wrong_phase"),
        ("", ["0 bid 100"], "1 concede", "wrong_phase"),
        ("", ["0 bid 100"], "1 play 9c", "wrong_phase"),
        ("", [], "3 bid 100", "bad_seat"),
    ],
)
def test_bidding_refusals(hand: str, lines: list[str], bad: str, code: str) -> None:
    game = run(position([hand, "", ""]), *lines)
    assert refused(game, bad) == code


@pytest.mark.parametrize(
    ("hand", "top"),
    [
        (PLAIN, 120),
        (HEARTS_MARRIAGE, 220),
        ("Kd Qd 9c Jc Tc Ac 9h", 200),
        ("Kc Qc 9h Jh Th Ah 9d", 180),
        ("Ks Qs 9c Jc Tc Ac 9d", 160),
        ("Kh Qh Ks Qs 9c Jc Tc", 260),
        ("Kh Qh Kd Qd Kc Qc 9s", 360),
    ],
)
def test_bid_limits_follow_the_marriages_held(hand: str, top: int) -> None:
    game = position([hand, "", ""])
    assert bid_limit(game.hands[0]) == top
    assert legal_bids(game.view(0)) == tuple(range(100, top + 1, 5))
    assert game.can(Bid(0, top)) and not game.can(Bid(0, top + 5))


def test_pass_is_final_and_two_passes_end_the_bidding() -> None:
    game = run(position(["", "", ""]), "0 bid 100", "1 bid 105", "2 pass")
    assert game.turn == 0 and game.phase is Phase.BIDDING
    run(game, "0 bid 110", "1 bid 115")
    assert game.turn == 0  # seat 2 has passed and is skipped
    run(game, "0 pass")
    assert game.phase is Phase.PRIKUP and game.soloist == 1 and game.contract == 115


def test_opener_may_open_higher_and_the_others_pass_to_it() -> None:
    game = run(position(["", "", ""]), "0 bid 120", "1 pass", "2 pass")
    assert game.soloist == 0 and game.contract == 120 and game.turn == 0


def test_can_pass_and_legal_bids_only_for_the_seat_to_bid() -> None:
    game = position(["", "", ""])
    assert not can_pass(game.view(0)) and legal_bids(game.view(1)) == ()
    run(game, "0 bid 100")
    assert can_pass(game.view(1)) and legal_bids(game.view(1))[0] == 105
    run(game, "1 bid 120")
    assert legal_bids(game.view(2)) == () and can_pass(game.view(2))


# -------------------------------------------------------------- 3. prikup
def test_prikup_shown_to_all_after_the_bidding_and_taken_by_the_soloist() -> None:
    game = position(["", "", ""], "Ah Th 9s")
    assert game.view(None).prikup == () and game.view(1).prikup == ()
    run(game, "0 bid 100", "1 bid 105", "2 pass", "0 pass")
    assert game.view(None).prikup == tuple(parse_cards(["Ah", "Th", "9s"]))
    assert len(game.hands[1]) == 10 and set(parse_cards(["Ah", "Th", "9s"])) <= set(game.hands[1])


@pytest.mark.parametrize(
    ("hand", "prikup", "bad", "code"),
    [
        ("", "", "0 raise 100", "bid_too_low"),
        ("", "", "0 raise 122", "bad_bid_step"),
        (PLAIN, PLAIN_PRIKUP, "0 raise 125", "bid_needs_marriage"),
        ("Kh 9c Jc Tc Ac 9d Jd", "Qh 9h Jh", "0 raise 225", "bid_over_limit"),
        ("", "", "1 raise 110", "not_your_turn"),
        ("", "", "1 concede", "not_your_turn"),
        ("", "", "0 bid 110", "wrong_phase"),
        ("", "", "0 pass", "wrong_phase"),
        ("", "", "0 play 9c", "wrong_phase"),
        ("", "", "0 redeal", "wrong_phase"),
    ],
)
def test_prikup_refusals(hand: str, prikup: str, bad: str, code: str) -> None:
    game = run(position([hand, "", ""], prikup), "0 bid 100", "1 pass", "2 pass")
    assert refused(game, bad) == code


def test_raise_uses_the_marriage_completed_by_the_prikup() -> None:
    game = run(position(["Kh 9c Jc Tc Ac 9d Jd", "", ""], "Qh 9h Jh"), "0 bid 100", "1 pass",
               "2 pass")
    assert legal_raises(game.view(0)) == tuple(range(105, 221, 5))
    run(game, "0 raise 150", "0 raise 220")
    assert game.contract == 220 and legal_raises(game.view(0)) == ()


# ---------------------------------------------------------- 4. conceding
@pytest.mark.parametrize(("earlier", "soloist_loses"), [(0, 0), (1, 0), (2, -120), (5, -120)])
def test_conceding_pays_60_to_each_opponent(earlier: int, soloist_loses: int) -> None:
    game = run(position(["", "", ""]), "0 bid 100", "1 pass", "2 pass")
    game.concessions[0] = earlier
    run(game, "0 raise 110", "0 concede")
    result = game.history[-1]
    assert result.kind is DealKind.CONCEDED and game.phase is Phase.DEAL_OVER
    assert game.scores == [soloist_loses, 60, 60] and game.concessions[0] == earlier + 1


# -------------------------------------------------------------- 5. giving
@pytest.mark.parametrize(
    ("give", "code"),
    [
        ("1=Ac", "bad_gift"),
        ("1=Ac 1=Ad", "bad_gift"),
        ("0=Ac 1=Ad", "bad_gift"),
        ("1=Ac 2=Ac", "duplicate_card"),
        ("1=Ac 2=9h", "card_not_in_hand"),
    ],
)
def test_giving_refusals(give: str, code: str) -> None:
    game = run(position(["Ac Ad", "9h", ""]), "0 bid 100", "1 pass", "2 pass")
    assert refused(game, f"0 give {give}") == code
    assert refused(game, "1 give 0=9h 2=Ac") == "not_your_turn"


def test_giving_leaves_eight_cards_each_and_the_soloist_leads() -> None:
    game = run(position(["Ac Ad", "", ""]), "0 bid 100", "1 pass", "2 pass", "0 give 2=Ac 1=Ad")
    assert [len(h) for h in game.hands] == [8, 8, 8]
    assert parse_card("Ad") in game.hands[1] and parse_card("Ac") in game.hands[2]
    assert game.phase is Phase.PLAY and game.turn == 0
    assert game.view(0).given == ((1, parse_card("Ad")), (2, parse_card("Ac")))
    assert game.view(1).received == parse_card("Ad") and game.view(1).given == ()
    assert game.view(None).given == () and game.view(None).received is None


def test_legal_gifts_cover_every_ordered_pair() -> None:
    game = run(position(["", "", ""]), "0 bid 100", "1 pass", "2 pass")
    gifts = legal_gifts(game.view(0))
    assert len(gifts) == 90 and len(set(gifts)) == 90
    assert all(game.can(Give(0, g)) for g in gifts[:10])
    assert legal_gifts(game.view(1)) == ()


# ---------------------------------------------------------- 6. four nines


@pytest.mark.parametrize(
    ("holder", "hands", "prikup", "give"),
    [
        (1, ["Ac", "9c 9d 9h", ""], "9s Ad Kd", "1=9s 2=Ac"),  # a defender, by the gift
        (0, ["9c 9d Ad", "", ""], "9h 9s Ac", "1=Ac 2=Ad"),  # the soloist, by the prikup
    ],
)
def test_four_nines_ask_a_redeal_by_the_same_dealer(holder: int, hands: list[str], prikup: str,
                                                   give: str) -> None:
    game = run(position(hands, prikup), "0 bid 100", "1 pass", "2 pass", f"0 give {give}")
    assert refused(game, f"{(holder + 1) % 3} redeal") == "no_four_nines"
    run(game, f"{holder} redeal")
    result = game.history[-1]
    assert result.kind is DealKind.REDEAL and result.redeal_by == holder
    assert game.scores == [0, 0, 0] and game.phase is Phase.DEAL_OVER
    assert game.next_dealer == game.dealer == 2


def test_redeal_comes_after_the_giving_and_before_the_first_card() -> None:
    game = run(position(["", "9c 9d 9h 9s", ""]), "0 bid 100", "1 pass", "2 pass")
    assert refused(game, "1 redeal") == "wrong_phase"
    run(game, f"0 give 1={game.hands[0][0]} 2={game.hands[0][1]}")
    game.apply(Play(0, game.hands[0][0]))
    assert refused(game, "1 redeal") == "redeal_too_late"


def test_seeded_redeal_deals_again_from_the_same_dealer() -> None:
    game = run(position(["", "9c 9d 9h 9s", ""]), "0 bid 100", "1 pass", "2 pass")
    game.seed = 5  # let the game deal the next hands itself
    run(game, f"0 give 1={game.hands[0][0]} 2={game.hands[0][1]}", "1 redeal")
    game.next_deal()
    assert game.dealer == 2 and game.deal_number == 1 and game.phase is Phase.BIDDING
    run(game, "0 bid 100", "1 pass", "2 pass", "0 concede")
    game.next_deal()
    assert game.dealer == 0  # the rotation goes on from the redealt deal


def test_deal_and_game_errors() -> None:
    game = run(position(["", "", ""]), "0 bid 100", "1 pass", "2 pass", "0 concede")
    assert refused(game, "1 bid 100") == "deal_over"
    fresh = position(["", "", ""])
    with pytest.raises(EngineError) as info:
        fresh.check("dance")  # type: ignore[arg-type]
    assert info.value.code == "bad_action"
    with pytest.raises(EngineError) as info:
        fresh.next_deal()
    assert info.value.code == "wrong_phase"
    with pytest.raises(EngineError):
        TysiachaGame()
    with pytest.raises(EngineError):
        TysiachaGame(players=5, seed=1)
    with pytest.raises(EngineError):
        TysiachaGame(rounding=3, seed=1)
    three = deal_for(["", "", ""])
    with pytest.raises(EngineError) as info:
        make_deal(2, [*three.hands, ()], three.prikup, players=4)  # seat 2 deals yet holds 7
    assert "dealer sits out" in str(info.value)

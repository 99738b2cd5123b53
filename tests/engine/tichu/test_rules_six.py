"""Rulings 1-9 of "Tichu for 6 players" (shared/spec/rulings.md), a case each."""

from __future__ import annotations

import random

import pytest

from engine.cards import parse_cards
from engine.errors import EngineError
from engine.tichu.actions import CallTichu, DeclineGrand, Exchange, GrandTichu
from engine.tichu.ai import EasyPlayer
from engine.tichu.ai.selfplay import play_deal
from engine.tichu.cards import DECK, RANK
from engine.tichu.game import TichuGame, check_deal
from engine.tichu.legal import dog_targets, gift_targets, legal_plays
from engine.tichu.view import Call, Phase
from tests.engine.tichu.helpers import act, dealt_for, position, run

# Every card placed (dealer 5: seats 0 and 1 hold 10, the others 9). Seat 0 holds
# the Mahjong straight to 9 and the Dog; seat 1 stairs 2-6; seat 2 a straight 2-T;
# seat 3 a straight 7-A and a ten; seat 4 a straight 7-A and the Phoenix (6-A);
# seat 5 stairs J-A and the Dragon. Nobody holds a bomb.
SIX = [
    "MAHJONG 2c 3d 4h 5s 6c 7d 8h 9s DOG",
    "2d 2h 3c 3h 4c 4d 5c 5d 6d 6h",
    "2s 3s 4s 5h 6s 7c 8d 9h Tc",
    "7h 8c 9d Td Jc Qd Kh As Th",
    "7s 8s 9c Ts Jd Qh Ks Ac PHOENIX",
    "Jh Js Qc Qs Kc Kd Ad Ah DRAGON",
]
LEAD_STRAIGHT = "0 play MAHJONG 2c 3d 4h 5s 6c 7d 8h 9s"
STRAIGHT_2_T = "2 play 2s 3s 4s 5h 6s 7c 8d 9h Tc"
STRAIGHT_PHOENIX = "4 play 7s 8s 9c Ts Jd Qh Ks Ac PHOENIX"
STAIRS_J_A = "5 play Jh Js Qc Qs Kc Kd Ad Ah"
STAIRS_2_6 = "1 play 2d 2h 3c 3h 4c 4d 5c 5d 6d 6h"
ALL_PASS_FROM_1 = ("1 pass", "2 pass", "3 pass", "4 pass", "5 pass")


def refused(game: TichuGame, line: str) -> str:
    before = game.view(None)
    with pytest.raises(EngineError) as info:
        game.apply(act(line))
    assert game.view(None) == before
    return info.value.code


def six(*, calls: dict[int, str] | None = None, target: int = 1000) -> TichuGame:
    """The SIX deal in phase play (seat 5 dealt; seat 0 holds the Mahjong and leads)."""
    return position(SIX, calls=calls, target=target)


def dog_to_seat_2(game: TichuGame) -> TichuGame:
    """Seat 0 leads its straight, everyone passes, then it leads the Dog to seat 2."""
    return run(game, LEAD_STRAIGHT, *ALL_PASS_FROM_1, "0 play DOG to=2")


# ------------------------------------------------------- 1. seats and teams
def test_seats_alternate_in_two_teams_of_three_and_play_passes_to_the_right() -> None:
    game = six()
    view = game.view(0)
    assert view.n_seats == 6
    assert [view.team_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert view.partners(0) == (2, 4) and view.partners(3) == (5, 1)
    assert view.opponents(0) == (1, 3, 5) and view.opponents(5) == (0, 2, 4)
    assert game.turn == 0
    run(game, LEAD_STRAIGHT)
    assert game.turn == 1
    run(game, "1 pass", "2 pass", "3 pass", "4 pass")
    assert game.turn == 5


def test_four_players_keep_their_table() -> None:
    view = TichuGame(seed=1).view(1)
    assert view.partners(1) == (3,) and view.partner(1) == 3
    assert view.opponents(1) == (0, 2)
    assert view.exchange_targets(1) == (0, 3, 2)
    assert view.dealer is None and view.grand_packet == 8


# ------------------------------------------------------------------ 2. deal
def test_deal_gives_ten_to_the_two_seats_after_the_dealer_and_nine_to_the_others() -> None:
    for dealer in range(6):
        game = TichuGame(seed="deal", players=6, dealer=dealer)
        sizes = [len(h) for h in game.hands]
        assert sizes[(dealer + 1) % 6] == sizes[(dealer + 2) % 6] == 10
        assert sorted(sizes) == [9, 9, 9, 9, 10, 10]
        assert sorted(c for h in game.hands for c in h) == sorted(DECK)


def test_deal_is_one_card_at_a_time_from_the_seat_after_the_dealer() -> None:
    game = TichuGame(seed="order", players=6, dealer=2)
    order = [game.dealt[(2 + 1 + i) % 6][i // 6] for i in range(56)]
    assert sorted(order) == sorted(DECK)
    # The same 56 cards, the same seeded shuffle as four players use.
    four = TichuGame(seed="order")
    assert sorted(order) == sorted(c for h in four.dealt for c in h)


def test_dealer_comes_from_the_seed_and_moves_one_seat_each_deal() -> None:
    first = {TichuGame(seed=s, players=6).dealer for s in range(40)}
    assert len(first) > 1  # drawn from the seed, not fixed
    assert TichuGame(seed=9, players=6).dealer == TichuGame(seed=9, players=6).dealer
    game = TichuGame(seed=9, players=6)
    start = game.dealer
    assert start is not None
    players = [EasyPlayer()] * 6
    rng = random.Random(9)
    for step in range(1, 4):
        play_deal(game, players, rng)
        game.next_deal()
        assert game.dealer == (start + step) % 6
        assert game.view(None).dealer == game.dealer
        sizes = [len(h) for h in game.hands]
        assert sizes[(game.dealer + 1) % 6] == sizes[(game.dealer + 2) % 6] == 10


def test_a_deal_with_wrong_counts_for_its_dealer_is_refused() -> None:
    hands = [parse_cards(h.split()) for h in SIX]
    check_deal(hands, 6, 5)
    with pytest.raises(EngineError, match="seat 0 deals"):
        check_deal(hands, 6, 0)
    with pytest.raises(EngineError):
        TichuGame(hands=hands, players=6, dealer=3)
    with pytest.raises(EngineError):
        TichuGame(seed=1, players=5)
    with pytest.raises(EngineError):
        TichuGame(seed=1, players=6, dealer=6)
    with pytest.raises(EngineError):
        TichuGame(seed=1, dealer=0)  # four players have no dealer


# ----------------------------------------------------------- 3. Grand Tichu
def test_grand_tichu_is_decided_on_the_first_six_cards() -> None:
    game = TichuGame(seed=3, players=6)
    assert game.view(None).hand_counts == (6,) * 6
    assert game.view(1).hand == game.dealt[1][:6]
    assert game.view(1).grand_packet == 6
    game.apply(GrandTichu(1))
    assert game.view(1).hand == game.dealt[1]
    assert game.calls[1] is Call.GRAND_TICHU
    assert game.view(None).hand_counts[1] == len(game.dealt[1])
    for s in (0, 2, 3, 4, 5):
        game.apply(DeclineGrand(s))
    assert game.phase is Phase.EXCHANGE
    game.apply(CallTichu(0))  # Tichu as in the 4-player game
    assert game.calls[0] is Call.TICHU


# -------------------------------------------------------------- 4. exchange
def test_exchange_is_two_cards_one_to_each_partner_delivered_when_all_six_gave() -> None:
    play_hands = [parse_cards(h.split()) for h in SIX]
    dealt, exchanges = dealt_for(play_hands)
    game = TichuGame(hands=dealt, players=6, dealer=5)
    for s in range(6):
        game.apply(DeclineGrand(s))
    seat0 = game.hands[0]
    opponent_gift = Exchange(0, ((1, seat0[0]), (2, seat0[1])))
    with pytest.raises(EngineError) as info:
        game.apply(opponent_gift)
    assert info.value.code == "bad_exchange"
    three = Exchange(0, ((2, seat0[0]), (4, seat0[1]), (1, seat0[2])))
    assert not game.can(three)
    assert game.view(0).exchange_targets(0) == (4, 2)
    for ex in exchanges[:5]:
        game.apply(ex)
        assert game.phase is Phase.EXCHANGE
        assert len(game.hands[ex.seat]) == len(dealt[ex.seat]) - 2
    game.apply(exchanges[5])
    assert game.phase is Phase.PLAY
    assert [sorted(h) for h in game.hands] == [sorted(h) for h in play_hands]
    assert set(game.view(3).received) == {1, 5}


# ------------------------------------------------------------------- 5. Dog
def test_dog_names_the_partner_who_gets_the_lead() -> None:
    game = run(six(), LEAD_STRAIGHT, *ALL_PASS_FROM_1)
    assert dog_targets(game.view(0)) == (2, 4)
    assert refused(game, "0 play DOG") == "bad_dog_target"  # two partners: must name one
    assert refused(game, "0 play DOG to=1") == "bad_dog_target"  # an opponent
    assert refused(game, "0 play DOG to=0") == "bad_dog_target"
    game.apply(act("0 play DOG to=4"))
    assert game.turn == 4 and game.out == [0]


def test_to_is_only_for_the_dog() -> None:
    assert refused(six(), "0 play MAHJONG to=2") == "bad_dog_target"


def test_dog_may_not_name_a_partner_who_is_out_and_goes_to_the_one_left() -> None:
    partial = list(SIX)
    partial[0] = "MAHJONG 2c 3d 4h 5s 6c 7d 8h 9s Jc"
    partial[3] = "7h 8c 9d Td DOG Qd Kh As Th"
    game = run(position(partial), LEAD_STRAIGHT, *ALL_PASS_FROM_1, "0 play Jc",
               *ALL_PASS_FROM_1, STAIRS_2_6, "2 pass", "3 pass", "4 pass", "5 pass",
               "2 play 2s", "3 play Th", "4 pass", "5 pass", "2 pass")
    assert game.out == [0, 1] and game.turn == 3
    # Seat 3's partners are 5 and 1; seat 1 is out.
    assert dog_targets(game.view(3)) == (5,)
    assert refused(game, "3 play DOG to=1") == "bad_dog_target"
    game.apply(act("3 play DOG"))
    assert game.turn == 5


def test_dog_with_no_partner_holding_cards_goes_to_the_next_seat_after_its_player() -> None:
    partial = list(SIX)
    partial[0] = "MAHJONG 2c 3d 4h 5s 6c 7d 8h 9s Jc"
    partial[3] = "7h 8c 9d Td PHOENIX Qd Kh As Th"
    partial[4] = "7s 8s 9c Ts Jd Qh Ks Ac DOG"
    game = run(position(partial), LEAD_STRAIGHT, "1 pass", STRAIGHT_2_T,
               "3 pass", "4 pass", "5 pass", "0 pass", "1 pass",
               "3 play 7h", "4 pass", "5 pass", "0 play Jc",
               "1 pass", "3 pass", "4 pass", "5 pass",
               "1 play 2d", "3 pass", "4 play 7s", "5 pass", "1 pass", "3 pass")
    assert game.out == [2, 0] and game.turn == 4
    assert dog_targets(game.view(4)) == ()
    assert refused(game, "4 play DOG to=2") == "bad_dog_target"
    game.apply(act("4 play DOG"))
    assert game.turn == 5  # not 3, the seat after partner 2


# ---------------------------------------------------------------- 6. Dragon
def test_dragon_trick_goes_to_any_of_three_opponents_out_or_not() -> None:
    game = dog_to_seat_2(six())
    run(game, STRAIGHT_2_T, "3 pass", "4 pass", "5 pass", "1 pass",
        "3 play 7h 8c 9d Td Jc Qd Kh As", "4 pass", "5 pass", "1 pass",
        "3 play Th", "4 pass", "5 play DRAGON", "1 pass", "4 pass")
    assert game.phase is Phase.GIFT and game.turn == 5
    assert gift_targets(game.view(5)) == (0, 2, 4)
    assert refused(game, "5 gift 1") == "bad_gift_target"
    assert refused(game, "5 gift 3") == "bad_gift_target"
    game.apply(act("5 gift 0"))  # seat 0 is out: still a valid target
    assert game.phase is Phase.PLAY and game.turn == 5


# -------------------------------------------------------- 7. end of the deal
def test_partners_out_first_and_second_play_on() -> None:
    game = dog_to_seat_2(six())
    game.apply(act(STRAIGHT_2_T))
    assert game.out == [0, 2]
    assert game.phase is Phase.PLAY and game.turn == 3


def test_triple_victory_ends_the_deal_at_once_300_to_0() -> None:
    game = dog_to_seat_2(six(calls={2: "tichu"}))
    run(game, STRAIGHT_2_T, "3 pass")
    assert game.phase is Phase.PLAY
    game.apply(act(STRAIGHT_PHOENIX))
    assert game.out == [0, 2, 4]
    assert game.phase is Phase.DEAL_OVER
    result = game.history[-1]
    assert result.triple_victory == 0 and result.double_victory is None and result.sweep == 0
    assert result.card_points == (300, 0)
    assert result.call_points == (-100, 0)  # seat 2 called but seat 0 went out first
    assert game.scores == [200, 0]


def five_out() -> TichuGame:
    """Seat 0 out first, then 2, 3, 5 and 1; seat 4 is last, holding a trick of 20."""
    game = dog_to_seat_2(six(calls={0: "tichu"}))
    return run(
        game, STRAIGHT_2_T, "3 pass", "4 pass", "5 pass", "1 pass",
        "3 play 7h 8c 9d Td Jc Qd Kh As", "4 pass", "5 pass", "1 pass",
        "3 play Th", "4 play Ks", "5 pass", "1 pass",
        "4 play 7s", "5 play DRAGON", "1 pass", "4 pass", "5 gift 0",
        STAIRS_J_A, "1 pass", "4 pass",
        STAIRS_2_6,
    )


def test_deal_ends_when_five_are_out_and_the_fifth_takes_its_last_trick() -> None:
    game = five_out()
    assert game.out == [0, 2, 3, 5, 1]
    assert game.phase is Phase.DEAL_OVER
    assert game.last_trick_taker == 1
    assert game.history[-1].triple_victory is None


# --------------------------------------------------------------- 8. scoring
def test_scoring_of_the_last_and_fifth_seats() -> None:
    game = five_out()
    # Piles as taken: seat 0 the Mahjong straight (5) and the Dragon trick (7 + 25),
    # seat 2 its straight (15), seat 3 its straight (20), seat 4 [T, K] (20), seat 5 its
    # stairs (20), seat 1 its stairs (10). Seat 4 is last, holding 8 9 T J Q A and the
    # Phoenix (-15): its hand and its tricks go to team 1; seat 1 (fifth) gives its
    # tricks to seat 0 (first out).
    assert [game.won_points[s] for s in range(6)] == [30, 10, 15, 20, 20, 20]
    result = game.history[-1]
    assert result.card_points == (30 + 10 + 15, 20 + 20 + 20 - 15)
    assert sum(result.card_points) == 100
    assert result.call_points == (100, 0)
    assert game.scores == [155, 45]


def test_game_ends_as_with_four_players() -> None:
    game = dog_to_seat_2(six(target=200, calls={0: "tichu"}))
    run(game, STRAIGHT_2_T, "3 pass", STRAIGHT_PHOENIX)
    assert game.phase is Phase.GAME_OVER and game.winner == 0
    assert game.scores == [400, 0]


# --------------------------------------------------------- 9. everything else
def test_out_of_turn_bomb_and_trick_taken_when_all_other_seats_passed() -> None:
    partial = ["MAHJONG 3c", "", "", "", "8c 8d 8h 8s", ""]
    game = position(partial)
    game.apply(act("0 play 3c"))
    assert game.turn == 1
    bombs = legal_plays(game.view(4))
    assert any(b.is_bomb for b in bombs)
    game.apply(act("4 play 8c 8d 8h 8s"))
    assert game.turn == 5
    run(game, "5 pass", "0 pass", "1 pass", "2 pass")
    assert game.trick and game.turn == 3
    game.apply(act("3 pass"))
    assert not game.trick and game.turn == 4


def test_wish_binds_a_seat_of_the_six_player_game() -> None:
    partial = ["MAHJONG", "7c", "", "", "", ""]
    game = position(partial)
    game.apply(act("0 play MAHJONG wish=7"))
    assert game.wish == 7
    plays = legal_plays(game.view(1))
    assert plays and all(any(RANK[c] == 7 for c in p.cards) or p.is_bomb for p in plays)
    assert refused(game, "1 pass") == "wish_must_be_played"

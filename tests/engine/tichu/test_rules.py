"""Rulings 1-14 of shared/spec/rulings.md, one table of cases per area, and every error code."""

from __future__ import annotations

import pytest

from engine.cards import Card, parse_card
from engine.errors import EngineError
from engine.tichu.actions import CallTichu, DeclineGrand, Exchange, Gift, GrandTichu, Pass
from engine.tichu.cards import DECK
from engine.tichu.game import TichuGame
from engine.tichu.legal import can_call_tichu, can_pass, gift_targets, legal_plays
from engine.tichu.view import Call, Phase
from tests.engine.tichu.helpers import act, dealt_for, fill_hands, position, run

# Seat 0 leads a 13-card straight (Mahjong to King) and then the Dog; seat 3 holds
# the Ace of diamonds and a 2-to-Ace straight; seat 1 holds seven pairs 2-8;
# seat 2 holds the rest. Every card is placed, so these deals play out exactly.
FULL_DEAL = [
    "MAHJONG DOG 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks",
    "2d 2h 3h 3s 4c 4s 5c 5d 6d 6h 7h 7s 8c 8s",
    "9c 9d Th Td Jh Js Qc Qs Kc Kd Ah As PHOENIX DRAGON",
    "Ad 2s 3c 4d 5h 6s 7c 8d 9h Ts Jc Qd Kh Ac",
]
STRAIGHT_13 = "0 play MAHJONG 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks"
STAIRS_14 = "1 play 2d 2h 3h 3s 4c 4s 5c 5d 6d 6h 7h 7s 8c 8s"
STRAIGHT_2_A = "3 play 2s 3c 4d 5h 6s 7c 8d 9h Ts Jc Qd Kh Ac"


def refused(game: TichuGame, line: str) -> str:
    """Apply a line that must be refused without changing anything; return the code."""
    before = game.view(None)
    hands = [list(h) for h in game.hands]
    with pytest.raises(EngineError) as info:
        game.apply(act(line))
    assert game.view(None) == before
    assert game.hands == hands
    return info.value.code


# ------------------------------------------------------------------ the lead
def test_mahjong_holder_leads_and_need_not_play_it() -> None:
    game = position(["", "MAHJONG", "", ""])
    assert game.phase is Phase.PLAY and game.turn == 1
    card = next(c for c in game.hands[1] if c < 52)
    game.apply(act(f"1 play {card}"))
    assert game.turn == 2


# --------------------------------------------------------------- passing
@pytest.mark.parametrize(
    ("lines", "bad", "code"),
    [
        ([], "0 pass", "cannot_pass_on_lead"),
        (["0 play 3c"], "2 pass", "not_your_turn"),
        (["0 play 3c", "1 pass", "2 pass", "3 pass"], "0 pass", "cannot_pass_on_lead"),
    ],
)
def test_passing_refusals(lines: list[str], bad: str, code: str) -> None:
    game = run(position(["MAHJONG 3c 9c", "4c Tc", "5c", "6c"]), *lines)
    assert refused(game, bad) == code


def test_seat_may_play_again_after_passing() -> None:
    game = run(position(["MAHJONG 3c 9c", "4c Tc", "5c", "6c"]), "0 play 3c", "1 pass", "2 play 5c",
               "3 pass", "0 play 9c", "1 play Tc")
    assert game.trick[-1].seat == 1


def test_trick_taken_when_all_others_passed() -> None:
    game = run(position(["MAHJONG 3c", "", "", ""]), "0 play 3c", "1 pass", "2 pass", "3 pass")
    assert game.trick == [] and game.turn == 0
    assert parse_card("3c") in game.won[0]
    public = game.view(None)
    assert public.last_trick_taker == 0
    assert [p.combo.cards for p in public.last_trick] == [(parse_card("3c"),)]


def test_no_last_trick_before_the_first_is_taken() -> None:
    game = run(position(["MAHJONG 3c", "", "", ""]), "0 play 3c", "1 pass")
    assert game.view(None).last_trick == () and game.view(None).last_trick_taker is None


def test_winner_out_passes_lead_to_next_seat_with_cards() -> None:
    game = run(position(FULL_DEAL), STRAIGHT_13, "1 pass", "2 pass", "3 pass", "0 play DOG")
    assert game.out == [0] and game.turn == 2
    run(game, "2 play 9c", "3 play Ad", "1 pass", "2 pass", STRAIGHT_2_A, "1 pass", "2 pass")
    assert game.out == [0, 3] and game.turn == 1  # after seat 3 come 0 (out) and 1


# ------------------------------------------------------------------ bombs
@pytest.mark.parametrize(
    ("lines", "bomb", "turn_after"),
    [
        (["0 play 3c"], "2 play 7c 7d 7h 7s", 3),  # out of turn: play goes on after the bomber
        (["0 play 3c"], "1 play 7c 7d 7h 7s", 2),  # on its turn
        (["0 play 3c", "1 pass"], "0 play 8c 8d 8h 8s", 1),  # on its own play
        ([], "0 play 8c 8d 8h 8s", 1),  # a bomb may be led
    ],
)
def test_bombs_any_seat_any_allowed_moment(lines: list[str], bomb: str, turn_after: int) -> None:
    hands = ["MAHJONG 3c 8c 8d 8h 8s", "7c 7d 7h 7s", "", ""]
    if bomb.startswith("2"):
        hands = ["MAHJONG 3c", "", "7c 7d 7h 7s", ""]
    game = run(position(hands), *lines)
    game.apply(act(bomb))
    assert game.top is not None and game.top.is_bomb
    assert game.turn == turn_after


@pytest.mark.parametrize(
    ("lines", "bad", "code"),
    [
        ([], "2 play 7c 7d 7h 7s", "no_bomb_before_lead"),
        (["0 play DOG"], "1 play 8c 8d 8h 8s", "no_bomb_on_dog"),
        (["0 play 3c", "1 play 8c 8d 8h 8s"], "2 play 7c 7d 7h 7s", "does_not_beat"),
        (["0 play 3c"], "2 play 5c", "not_your_turn"),
    ],
)
def test_bomb_refusals(lines: list[str], bad: str, code: str) -> None:
    game = run(position(["MAHJONG DOG 3c", "8c 8d 8h 8s", "7c 7d 7h 7s 5c", ""]), *lines)
    assert refused(game, bad) == code


def test_straight_flush_beats_four_and_longer_beats_shorter() -> None:
    game = run(position(["MAHJONG 3c", "Ac Ad Ah As", "2h 3h 4h 5h 6h", "8s 9s Ts Js Qs Ks"]),
               "0 play 3c", "1 play Ac Ad Ah As", "2 play 2h 3h 4h 5h 6h",
               "3 play 8s 9s Ts Js Qs Ks")
    assert game.top is not None and game.top.length == 6


def test_out_of_turn_bombs_are_the_only_legal_plays() -> None:
    game = run(position(["MAHJONG 3c", "", "7c 7d 7h 7s", ""]), "0 play 3c")
    plays = legal_plays(game.view(2))
    assert plays and all(p.is_bomb for p in plays)
    assert not can_pass(game.view(2))
    assert legal_plays(game.view(None)) == []


# ------------------------------------------------------------------- Dog
def test_dog_gives_lead_to_partner() -> None:
    game = run(position(["MAHJONG DOG", "", "", ""]), "0 play DOG")
    assert game.turn == 2 and game.trick == [] and game.dog_led


def test_dog_only_on_lead() -> None:
    game = run(position(["MAHJONG 3c", "DOG", "", ""]), "0 play 3c")
    assert refused(game, "1 play DOG") == "dog_only_on_lead"


def test_dog_with_partner_out_goes_to_next_seat_with_cards() -> None:
    hands = [
        "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad DOG",
        "2d 2h 3h 3s 4c 4s 5c 5d 6d 6h 7h 7s 8c 8s",
        "MAHJONG 2s 3c 4d 5h 6s 7c 8d 9h Ts Jc Qd Kh Ac",
        "9c 9d Th Td Jh Js Qc Qs Kc Kd Ah As PHOENIX DRAGON",
    ]
    game = run(position(hands), "2 play MAHJONG 2s 3c 4d 5h 6s 7c 8d 9h Ts Jc Qd Kh Ac",
               "3 pass", "0 pass", "1 pass")
    assert game.out == [2] and game.turn == 3
    run(game, "3 play 9c", "0 play Ad", "1 pass", "3 pass", "0 play DOG")
    assert game.turn == 3  # partner 2 is out: the next seat after it holding cards


# ---------------------------------------------------------------- Dragon
def test_dragon_trick_is_given_to_an_opponent_and_winner_leads() -> None:
    game = run(position(["MAHJONG DRAGON", "", "", ""]), "0 play DRAGON", "1 pass", "2 pass",
               "3 pass")
    assert game.phase is Phase.GIFT and game.turn == 0
    assert gift_targets(game.view(0)) == (1, 3)
    assert refused(game, "0 gift 2") == "bad_gift_target"
    assert refused(game, "1 gift 3") == "not_your_turn"
    assert refused(game, "1 play 8c 8d 8h 8s") == "wrong_phase"
    run(game, "0 gift 3")
    assert game.phase is Phase.PLAY and game.turn == 0
    assert game.view(None).trick_points[3] == 25


def test_dragon_trick_taken_by_bomb_is_kept() -> None:
    game = run(position(["MAHJONG DRAGON", "8c 8d 8h 8s", "", ""]), "0 play DRAGON",
               "1 play 8c 8d 8h 8s", "2 pass", "3 pass", "0 pass")
    assert game.phase is Phase.PLAY and game.turn == 1
    assert parse_card("DRAGON") in game.won[1]


def test_phoenix_not_on_dragon() -> None:
    game = run(position(["MAHJONG DRAGON", "PHOENIX", "", ""]), "0 play DRAGON")
    assert refused(game, "1 play PHOENIX") == "does_not_beat"


# ------------------------------------------------------------------ wish
WISH_HANDS = ["MAHJONG 2c 3c 4d 5h 6s", "7c 8c", "2h 2d 2s 9d", "PHOENIX 9c"]


@pytest.mark.parametrize(
    ("lines", "bad", "code"),
    [
        (["0 play MAHJONG wish=7"], "1 pass", "wish_must_be_played"),
        (["0 play MAHJONG wish=7"], "1 play 8c", "wish_must_be_played"),
        ([], "0 play 2c wish=7", "bad_wish"),
        (["0 play MAHJONG wish=7", "1 play 7c", "2 pass", "3 pass", "0 pass"],
         "1 play 8c wish=7", "bad_wish"),
    ],
)
def test_wish_refusals(lines: list[str], bad: str, code: str) -> None:
    game = run(position(WISH_HANDS), *lines)
    assert refused(game, bad) == code


def holds_rank(cards: tuple[Card, ...], rank: int) -> bool:
    return any(c < 52 and c // 4 + 2 == rank for c in cards)


def test_wish_fulfilled_by_natural_card() -> None:
    game = run(position(WISH_HANDS), "0 play MAHJONG wish=7")
    assert game.wish == 7
    plays = legal_plays(game.view(1))
    assert any(parse_card("7c") in p.cards for p in plays)
    assert all(holds_rank(p.cards, 7) or p.is_bomb for p in plays)
    run(game, "1 play 7c")
    assert game.wish is None


def test_bomb_instead_of_the_wish() -> None:
    game = run(position(["MAHJONG", "7c 3c 3d 3h 3s", "", ""]), "0 play MAHJONG wish=7")
    run(game, "1 play 3c 3d 3h 3s")
    assert game.wish == 7  # the bomb held no 7


def test_phoenix_is_never_the_wished_card() -> None:
    game = run(position(["MAHJONG", "PHOENIX", "7c 7d 7h 7s", ""]), "0 play MAHJONG wish=7")
    assert can_pass(game.view(1))


LEADER_HANDS = [
    "MAHJONG 2c 3d 4h 5s 7c 8c",
    "7d 7h 7s 9c 9d 9h Jc Jd Jh Kc Kd Kh Ac Ad",
    "",
    "",
]


def test_no_duty_when_the_wished_rank_cannot_be_played() -> None:
    # Seat 1 holds three 7s but no straight: on 1-5 it may pass.
    game = run(position(LEADER_HANDS), "0 play MAHJONG 2c 3d 4h 5s wish=7")
    assert can_pass(game.view(1))


def test_wish_binds_a_leader() -> None:
    game = run(position(LEADER_HANDS), "0 play MAHJONG 2c 3d 4h 5s wish=7",
               "1 pass", "2 pass", "3 pass")
    assert game.turn == 0 and game.wish == 7
    assert refused(game, "0 play 8c") == "wish_must_be_played"
    plays = legal_plays(game.view(0))
    assert plays and all(parse_card("7c") in p.cards or p.is_bomb for p in plays)
    run(game, "0 play 7c")
    assert game.wish is None


def test_mahjong_own_play_never_fulfils_the_wish() -> None:
    game = run(position(["MAHJONG 2c 3d 4h 5s", "", "", ""]), "0 play MAHJONG 2c 3d 4h 5s wish=5")
    assert game.wish == 5


def test_wish_fulfilled_by_out_of_turn_bomb() -> None:
    game = run(position(["MAHJONG 3c", "", "7c 7d 7h 7s", ""]), "0 play MAHJONG wish=7",
               "2 play 7c 7d 7h 7s")
    assert game.wish is None


def test_wish_straight_with_phoenix_example() -> None:
    # From the English notes: 5 6 7 8 P must answer 1-5 with 7 wished; 5 6 8 9 P need not.
    game = run(position(["MAHJONG 2c 3d 4h 5s", "5c 6c 7d 8c PHOENIX", "5d 6d 8d 9h", ""]),
               "0 play MAHJONG 2c 3d 4h 5s wish=7")
    assert refused(game, "1 pass") == "wish_must_be_played"
    run(game, "1 play 5c 6c 7d 8c PHOENIX")
    assert game.top is not None and game.top.rank == 9


# ----------------------------------------------------------------- calls
@pytest.mark.parametrize(
    ("setup", "bad", "code"),
    [
        ("grand", "0 tichu", "wrong_phase"),
        ("exchange_called", "0 tichu", "already_called"),
        ("play_after_card", "0 tichu", "already_played"),
    ],
)
def test_call_refusals(setup: str, bad: str, code: str) -> None:
    if setup == "grand":
        game = TichuGame(seed=1)
    elif setup == "exchange_called":
        game = TichuGame(seed=1)
        for s in range(4):
            game.apply(DeclineGrand(s))
        game.apply(CallTichu(0))
    else:
        game = run(position(["MAHJONG 3c", "", "", ""]), "0 play 3c")
    assert refused(game, bad) == code


def test_grand_tichu_only_before_the_ninth_card() -> None:
    game = TichuGame(seed=3)
    assert len(game.view(0).hand) == 8
    game.apply(GrandTichu(0))
    assert len(game.view(0).hand) == 14
    with pytest.raises(EngineError) as info:
        game.apply(DeclineGrand(0))
    assert info.value.code == "already_decided"
    for s in (1, 2, 3):
        game.apply(DeclineGrand(s))
    assert game.calls[0] is Call.GRAND_TICHU
    assert refused(game, "0 tichu") == "already_called"
    with pytest.raises(EngineError) as info:
        game.apply(GrandTichu(1))
    assert info.value.code == "wrong_phase"


def test_tichu_out_of_turn_and_by_both_partners() -> None:
    game = run(position(["MAHJONG 3c", "", "", ""]), "0 play 3c", "2 tichu", "1 pass")
    game.apply(CallTichu(1))  # out of turn is fine
    assert game.calls[2] is Call.TICHU and game.calls[1] is Call.TICHU
    assert can_call_tichu(game.view(3))
    assert not can_call_tichu(game.view(0))


# -------------------------------------------------------------- exchange
def exchange_game() -> TichuGame:
    game = TichuGame(seed=5)
    for s in range(4):
        game.apply(DeclineGrand(s))
    return game


def give(game: TichuGame, seat: int, targets: tuple[int, ...] | None = None) -> Exchange:
    targets = targets or tuple(t for t in range(4) if t != seat)
    return Exchange(seat, tuple(zip(targets, game.hands[seat][:3], strict=False)))


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda g: Exchange(0, ((1, g.hands[0][0]), (2, g.hands[0][1]))), "bad_exchange"),
        (lambda g: Exchange(0, ((0, g.hands[0][0]), (1, g.hands[0][1]), (2, g.hands[0][2]))),
         "bad_exchange"),
        (lambda g: Exchange(0, ((1, g.hands[0][0]), (2, g.hands[0][0]), (3, g.hands[0][2]))),
         "duplicate_card"),
        (lambda g: Exchange(0, ((1, g.hands[1][0]), (2, g.hands[0][1]), (3, g.hands[0][2]))),
         "card_not_in_hand"),
        (lambda g: Pass(0), "wrong_phase"),
    ],
)
def test_exchange_refusals(make, code: str) -> None:  # type: ignore[no-untyped-def]
    game = exchange_game()
    with pytest.raises(EngineError) as info:
        game.apply(make(game))
    assert info.value.code == code


def test_exchange_is_simultaneous() -> None:
    game = exchange_game()
    first = give(game, 0)
    game.apply(first)
    assert len(game.hands[0]) == 11 and len(game.hands[1]) == 14
    assert game.view(1).received == {}
    with pytest.raises(EngineError) as info:
        game.apply(give(game, 0))
    assert info.value.code == "already_decided"
    for s in (1, 2, 3):
        game.apply(give(game, s))
    assert game.phase is Phase.PLAY
    assert all(len(h) == 14 for h in game.hands)
    assert game.view(1).received[0] == dict(first.give)[1]
    assert game.view(None).received == {}


# ---------------------------------------------------------- end and score
def test_double_victory_ends_the_deal_at_once() -> None:
    hands = list(FULL_DEAL)
    hands[1], hands[2] = hands[2], hands[1]  # seat 2 now holds the seven pairs
    game = position(hands, calls={0: "tichu", 1: "tichu"})
    run(game, STRAIGHT_13, "1 pass", "2 pass", "3 pass", "0 play DOG",
        STAIRS_14.replace("1 play", "2 play"))
    assert game.phase is Phase.DEAL_OVER
    result = game.history[-1]
    assert result.double_victory == 0
    assert result.card_points == (200, 0)
    assert result.call_points == (100, -100)
    assert game.scores == [300, -100]
    assert refused(game, "3 pass") == "deal_over"


def full_deal(calls: dict[int, str] | None = None, target: int = 1000) -> TichuGame:
    game = position(FULL_DEAL, calls=calls, target=target)
    return run(game, STRAIGHT_13, "1 pass", "2 pass", "3 pass", "0 play DOG",
               "2 play Th", "3 pass", "1 pass",
               "2 play 9c", "3 play Ad", "1 pass", "2 pass",
               STRAIGHT_2_A, "1 pass", "2 pass")


def test_three_out_ends_the_deal_and_the_last_seat_pays() -> None:
    game = full_deal()
    assert game.turn == 1
    run(game, STAIRS_14)
    assert game.phase is Phase.DEAL_OVER and game.out == [0, 3, 1]
    result = game.history[-1]
    # Seat 2 (last) keeps 9d Td Jh Js Qc Qs Kc Kd Ah As P D: 30 points to team 1;
    # its trick (the Th, 10) goes to seat 0, the first out.
    assert result.card_points == (35, 65)
    assert sum(result.card_points) == 100
    assert result.double_victory is None


@pytest.mark.parametrize(
    ("calls", "call_points"),
    [
        ({0: "tichu"}, (100, 0)),
        ({0: "grand"}, (200, 0)),
        ({2: "tichu"}, (-100, 0)),
        ({1: "grand", 3: "tichu"}, (0, -300)),
        ({0: "tichu", 2: "tichu"}, (0, 0)),
    ],
)
def test_calls_score_on_top_of_card_points(calls: dict[int, str], call_points: tuple[int, int]) -> None:
    game = run(full_deal(calls), STAIRS_14)
    result = game.history[-1]
    assert result.call_points == call_points
    assert game.scores == [35 + call_points[0], 65 + call_points[1]]


@pytest.mark.parametrize(
    ("before", "phase", "winner"),
    [
        ((965, 935), Phase.DEAL_OVER, None),  # 1000 all: another deal
        ((965, 900), Phase.GAME_OVER, 0),
        ((900, 940), Phase.GAME_OVER, 1),
        ((900, 900), Phase.DEAL_OVER, None),  # nobody at the target
        ((990, 970), Phase.GAME_OVER, 1),  # both over: the higher wins
    ],
)
def test_end_of_game(before: tuple[int, int], phase: Phase, winner: int | None) -> None:
    game = full_deal()
    game.scores = list(before)
    run(game, STAIRS_14)
    assert game.phase is phase and game.winner == winner
    if phase is Phase.GAME_OVER:
        with pytest.raises(EngineError) as info:
            game.next_deal()
        assert info.value.code == "game_over"
        assert refused(game, "2 pass") == "game_over"
    else:
        game.next_deal(fill_hands(["", "", "", ""]))
        assert game.phase is Phase.GRAND and game.deal_number == 1


def test_third_out_gives_away_a_dragon_trick() -> None:
    hands = list(FULL_DEAL)
    # Seat 1 ends with the Dragon: seven pairs minus the 8s, plus the Dragon and an 8.
    hands[1] = "2d 2h 3h 3s 4c 4s 5c 5d 6d 6h 7h 7s 8c DRAGON"
    hands[2] = "9c 9d Th Td Jh Js Qc Qs Kc Kd Ah As PHOENIX 8s"
    game = run(position(hands), STRAIGHT_13, "1 pass", "2 pass", "3 pass", "0 play DOG",
               "2 play Th", "3 pass", "1 pass", "2 play 9c", "3 play Ad", "1 pass", "2 pass",
               STRAIGHT_2_A, "1 pass", "2 pass",
               "1 play 2d 2h 3h 3s 4c 4s 5c 5d 6d 6h 7h 7s", "2 pass", "1 play 8c", "2 pass",
               "1 play DRAGON")
    assert game.phase is Phase.GIFT and game.turn == 1 and game.out == [0, 3, 1]
    run(game, "1 gift 2")
    assert game.phase is Phase.DEAL_OVER


# ------------------------------------------------------------ more codes
@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("0 play 3c 4d", "not_a_combination"),
        ("0 play 3c 3c", "duplicate_card"),
        ("0 play 5d", "card_not_in_hand"),
        ("1 play 4c", "not_your_turn"),
    ],
)
def test_play_refusals(line: str, code: str) -> None:
    game = position(["MAHJONG 3c 4d", "4c", "5d", ""])
    assert refused(game, line) == code


def test_phoenix_reading_refusal_and_choice() -> None:
    game = position(["MAHJONG 5c 6d 7h 8s PHOENIX", "", "", ""])
    assert refused(game, "0 play 5c 6d 7h 8s PHOENIX phoenix=7") == "bad_phoenix_reading"
    run(game, "0 play 5c 6d 7h 8s PHOENIX phoenix=4")
    assert game.top is not None and game.top.rank == 8


def test_seat_out_and_bad_seat() -> None:
    game = run(position(FULL_DEAL), STRAIGHT_13, "1 pass", "2 pass", "3 pass", "0 play DOG")
    assert refused(game, "0 pass") == "seat_out"
    with pytest.raises(EngineError) as info:
        game.apply(Pass(7))
    assert info.value.code == "bad_seat"
    with pytest.raises(EngineError) as info:
        game.apply(Gift(0, 1))
    assert info.value.code == "wrong_phase"


def test_helpers_reach_the_requested_hands() -> None:
    wanted = fill_hands(["MAHJONG", "", "", ""])
    dealt, exchanges = dealt_for(wanted)
    game = TichuGame(hands=dealt)
    for s in range(4):
        game.apply(DeclineGrand(s))
    for ex in exchanges:
        game.apply(ex)
    assert [sorted(h) for h in game.hands] == [sorted(h) for h in wanted]
    assert sorted(c for h in game.hands for c in h) == sorted(DECK)

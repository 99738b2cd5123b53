"""The review's valuation: a decision is sampled until it is settled (issue 25)."""

from __future__ import annotations

import random

from engine.cards import Card
from engine.review.moment import DealWatch
from engine.review.options import options
from engine.review.playout import CLOSE_FACTOR, _finish_pre_play, option_scores, settled
from engine.tichu.actions import DeclineGrand
from engine.tichu.ai import bidding
from engine.tichu.ai.normal import NormalPlayer
from engine.tichu.cards import DECK
from engine.tichu.game import TichuGame
from engine.tichu.view import Phase


def card(name: str) -> Card:
    return next(c for c in DECK if str(c) == name)


def test_settled_when_nothing_beats_the_choice_or_the_lead_is_known() -> None:
    assert settled([[0] * 64, [0] * 64, [-100] * 64])  # no option better
    assert settled([[0] * 40, [200 + (i % 2) for i in range(40)]])  # a clear blunder
    assert settled([[0] * 8, [-100] * 8])  # clearly worse, even with a rare swing


def test_deals_alike_do_not_settle_until_a_rare_swing_is_ruled_out() -> None:
    """Eight deals in which the options scored alike say little: a pass that lets an
    opponent out first in one deal of seven is missed by them three times in ten."""
    assert not settled([[0] * 8, [0] * 8])
    assert not settled([[0] * 40, [0] * 40])
    assert settled([[0] * 64, [0] * 64])
    noisy = [(-1) ** i * 100 for i in range(40)]
    assert not settled([[0] * 40, [20 + x for x in noisy]])  # 20 +- 16: close


def test_a_clear_decision_stops_early_and_a_close_one_goes_on() -> None:
    game = TichuGame(seed="value-1")
    for s in range(4):
        game.apply(DeclineGrand(s))
    normal = NormalPlayer()
    rng = random.Random(1)
    watch = DealWatch(game)
    lengths = set()
    while game.phase is not Phase.DEAL_OVER and len(lengths) < 2:
        action = None
        for seat in range(4):
            action = normal.act(game.view(seat), rng)
            if action is not None:
                break
        assert action is not None
        if game.phase is Phase.PLAY and game.turn == seat:
            found = options(watch.moment(seat), action)
            if len(found) > 1:
                scores = option_scores(watch.moment(seat), found, 32, random.Random(2))
                assert len({len(s) for s in scores}) == 1
                assert 8 <= len(scores[0]) <= 32 * CLOSE_FACTOR
                lengths.add(len(scores[0]) < 32)
        game.apply(action)
        watch.after(action)
    assert lengths == {True, False}


def test_the_calls_before_the_first_card_follow_the_last_exchange() -> None:
    """An option that is the deal's last exchange starts play: the seats still call
    Tichu on their new hands before the first card, as the hard player does."""
    game = TichuGame(seed="value-last-exchange-19")
    for s in range(4):
        game.apply(DeclineGrand(s))
    for s in range(4):
        game.apply(bidding.choose_exchange(game.view(s), False))
    assert game.phase is Phase.PLAY and not any(game.has_played)
    wanting = [s for s in range(4) if bidding.wants_tichu(game.view(s), bidding.TICHU_THRESHOLD)]
    assert wanting
    quiet = wanting[0]
    _finish_pre_play(game, quiet)
    assert [s for s in range(4) if game.calls[s] is not None] == wanting[1:]
    assert game.calls[quiet] is None

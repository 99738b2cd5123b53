"""The games the bot hosts, by name. Each brings its rules (an engine package) and
its messages; everything else is shared."""

from __future__ import annotations

from bot.games.base import GameSpec
from bot.games.chinois.spec import CHINOIS
from bot.games.tichu.coach import REVIEW, make_review
from bot.games.tichu.duplicate import FIELD_JOB, make_field
from bot.games.tichu.spec import TICHU
from bot.games.tysiacha.spec import TYSIACHA
from bot.jobs import Handler


def all_specs() -> dict[str, GameSpec]:
    """Every hosted game, in the order their commands are listed."""
    return {spec.name: spec for spec in (TICHU, CHINOIS, TYSIACHA)}


def job_handlers() -> dict[str, Handler]:
    """The background jobs of every game, by kind (:mod:`bot.jobs`): what a bot process
    that runs jobs, and every ``python -m bot.worker``, knows how to make."""
    return {REVIEW: make_review, FIELD_JOB: make_field}

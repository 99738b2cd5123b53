"""The games the bot hosts, by name. Each brings its rules (an engine package) and
its messages; everything else is shared."""

from __future__ import annotations

from bot.games.base import GameSpec
from bot.games.chinois.spec import CHINOIS
from bot.games.tichu.spec import TICHU
from bot.games.tysiacha.spec import TYSIACHA


def all_specs() -> dict[str, GameSpec]:
    """Every hosted game, in the order their commands are listed."""
    return {spec.name: spec for spec in (TICHU, CHINOIS, TYSIACHA)}

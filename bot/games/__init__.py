"""The games the bot hosts, by name. Each brings its rules (an engine package) and
its messages; everything else is shared."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.store.models import CorruptRowError

if TYPE_CHECKING:
    from bot.games.base import GameSpec


def all_specs() -> dict[str, GameSpec]:
    """Every hosted game, in the order their commands are listed."""
    from bot.games.chinois.spec import CHINOIS
    from bot.games.tichu.spec import TICHU
    from bot.games.tysiacha.spec import TYSIACHA

    return {spec.name: spec for spec in (TICHU, CHINOIS, TYSIACHA)}


def spec_for(name: str) -> GameSpec:
    """The game called ``name``; a stored table of an unknown game is a corrupt row."""
    specs = all_specs()
    if name not in specs:
        raise CorruptRowError(f"unknown game {name!r}")
    return specs[name]

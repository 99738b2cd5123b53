"""Every top-level command group, in the order the bot syncs them: one group per game
(each holds Play now, and Tichu's the daily challenge, which work in direct messages too), then
``/privacy``. The bot (:mod:`bot.app`), the commands reference (:mod:`tools.docs`) and
the pinned payload (``tests/bot/test_command_payload.py``) all build the tree here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from discord import app_commands

from bot.cogs.daily import DailyCommands
from bot.cogs.games import NewCommand, game_group
from bot.cogs.play import PlayCommands, TichuPlayCommands
from bot.cogs.privacy import PrivacyCommands
from bot.games.base import GameSpec
from bot.games.registry import all_specs
from bot.i18n.translator import ls

PLAY = {"tichu": ("tichu", "cmd.tichu.play.description", 4),
        "chinois": ("chinois", "cmd.chinois.play.description", 4),
        "tysiacha": ("tysiacha", "cmd.tysiacha.play.description", 3)}
"""Each game's ``/<game> play``: its pool (a table of four; Tysiacha's of three) and its
description."""


def command_groups(host: Any, opener: Callable[[GameSpec], NewCommand]
                   ) -> list[app_commands.Group]:
    """The groups, for ``host`` (the bot; anything, for a tree that runs no command);
    ``opener(spec)`` is what the game's ``new`` command calls."""
    groups: list[app_commands.Group] = []
    for spec in all_specs().values():
        anywhere: list[app_commands.Group] = [DailyCommands(host)] \
            if spec.name == "tichu" else []
        if spec.name in PLAY:
            game, description, seats = PLAY[spec.name]
            group = TichuPlayCommands if game == "tichu" else PlayCommands
            anywhere.append(group(host, game, ls(description), seats))
        groups.append(game_group(host, spec, spec.new_command(opener(spec)), anywhere))
    groups.append(PrivacyCommands(host))
    return groups

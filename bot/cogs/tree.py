"""Every top-level command group, in the order the bot syncs them: one group per game
(Tichu's holds the daily challenge and Play now, which work in direct messages too), then
``/privacy``. The bot (:mod:`bot.app`), the commands reference (:mod:`tools.docs`) and
the pinned payload (``tests/bot/test_command_payload.py``) all build the tree here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from discord import app_commands

from bot.cogs.daily import DailyCommands
from bot.cogs.games import NewCommand, game_group
from bot.cogs.play import PlayCommands
from bot.cogs.privacy import PrivacyCommands
from bot.games.base import GameSpec
from bot.games.registry import all_specs
from bot.i18n.translator import ls


def command_groups(host: Any, opener: Callable[[GameSpec], NewCommand]
                   ) -> list[app_commands.Group]:
    """The groups, for ``host`` (the bot; anything, for a tree that runs no command);
    ``opener(spec)`` is what the game's ``new`` command calls."""
    groups: list[app_commands.Group] = []
    for spec in all_specs().values():
        anywhere = [DailyCommands(host), PlayCommands(
            host, spec.name, ls("cmd.tichu.play.description"))] \
            if spec.name == "tichu" else []
        groups.append(game_group(host, spec, spec.new_command(opener(spec)), anywhere))
    groups.append(PrivacyCommands(host))
    return groups

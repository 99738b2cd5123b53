"""The command tree Discord receives, pinned: every game's ``/<game>`` group and
``/privacy``, translated
as :meth:`bot.app.TichuBot.sync_commands` computes it (names, descriptions, options,
choices, localisations, permissions, contexts, and the order of the subcommands),
compared with ``tests/fixtures/commands.json``.

A change to the commands on purpose updates the snapshot:
``UPDATE_COMMANDS_SNAPSHOT=1 .venv/bin/pytest tests/bot/test_command_payload.py``,
and the diff of the JSON file shows what Discord will be sent.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.cogs.tree import command_groups
from bot.games.registry import all_specs
from bot.i18n.translator import CatalogTranslator

SNAPSHOT = Path(__file__).parent.parent / "fixtures" / "commands.json"


async def translated_payload() -> list[dict[str, Any]]:
    """Every game's group, as the bot builds and syncs it."""
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    translator = CatalogTranslator()
    await tree.set_translator(translator)

    async def opener(interaction: discord.Interaction[Any], options: dict[str, Any]) -> None:
        raise AssertionError("the payload runs no command")

    for group in command_groups(None, lambda spec: opener):  # as bot.app wires them
        tree.add_command(group)
    payload = [await command.get_translated_payload(tree, translator)
               for command in tree.get_commands()]
    # As sync_commands hashes it (json, unknown values as strings).
    loaded: list[dict[str, Any]] = json.loads(json.dumps(payload, default=str))
    return loaded


async def test_the_command_payload_is_the_snapshot() -> None:
    payload = await translated_payload()
    if os.environ.get("UPDATE_COMMANDS_SNAPSHOT"):
        SNAPSHOT.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
    assert [group["name"] for group in payload] == [*all_specs(), "privacy"]
    assert payload == json.loads(SNAPSHOT.read_text(encoding="utf-8"))

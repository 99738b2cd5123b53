"""The command tree Discord receives, pinned: every game's ``/<game>`` group and
``/privacy``, translated as :meth:`bot.app.TichuBot.sync_commands` computes it (names, descriptions, options,
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

from bot.games.registry import all_specs
from tools.docs import command_payload

SNAPSHOT = Path(__file__).parent.parent / "fixtures" / "commands.json"


async def translated_payload() -> list[dict[str, Any]]:
    """Every group, as the bot builds and syncs it (the commands reference reads the same:
    :func:`tools.docs.command_payload`)."""
    return await command_payload()


async def test_the_command_payload_is_the_snapshot() -> None:
    payload = await translated_payload()
    if os.environ.get("UPDATE_COMMANDS_SNAPSHOT"):
        SNAPSHOT.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
    assert [group["name"] for group in payload] == [*all_specs(), "privacy"]
    assert payload == json.loads(SNAPSHOT.read_text(encoding="utf-8"))

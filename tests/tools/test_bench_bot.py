"""The bot bench's measure of what a person sees: which interactions count, and from
which of the emulator's times. Nothing here is timed: the bench prints its figures."""

from __future__ import annotations

from typing import Any

from tests.emulator.models import InteractionRecord, InteractionType, UserRecord
from tools.bench_bot import click_action, table_results, visible_results

PERSON = UserRecord(id=1, name="p0")


def record(custom_id: str | None, *, dispatched: float = 10.0, settled: float | None = None,
           public: float | None = None) -> InteractionRecord:
    """An interaction as the emulator records it: a click (``custom_id``) or a slash
    command (None), dispatched, answered and followed by public edits at the given times."""
    data: dict[str, Any] = {} if custom_id is None else {"custom_id": custom_id}
    kind = InteractionType.APPLICATION_COMMAND if custom_id is None \
        else InteractionType.MESSAGE_COMPONENT
    return InteractionRecord(id=1, token="t", type=kind, user=PERSON, channel_id=5,
                             guild_id=2, data=data, payload={},
                             name="tichu new" if custom_id is None else "",
                             dispatched_at=dispatched, responded_at=dispatched + 0.001,
                             settled_at=settled, public_edit_at=public)


def test_a_click_s_visible_result_is_its_answer_shown() -> None:
    clicks = [record("tichu:b:7:3:pass", settled=10.030),
              record("tichu:s:7:-1:ex:0", settled=10.050),
              record("tichu:b:7:-1:hand", settled=10.200)]
    never = record("tichu:b:7:4:play")  # no answer shown: not counted
    command = record(None, settled=10.5)  # a slash command is not a click
    seen = visible_results([*clicks, never, command])
    assert [round(s, 3) for s in seen] == [0.030, 0.050, 0.200]


def test_only_moves_count_towards_the_table_message() -> None:
    moved = record("tichu:b:7:3:pass", settled=10.03, public=11.4)
    draft = record("tichu:s:7:-1:kind", settled=10.02, public=11.4)  # a choice in progress
    opened = record("tichu:b:7:-1:hand", settled=10.2, public=11.4)
    waiting = record("tichu:s:7:3:play", settled=10.03)  # no table edit yet
    assert [round(s, 3) for s in table_results([moved, draft, opened, waiting])] == [1.4]
    assert [click_action(r) for r in (moved, draft, opened)] == ["pass", "kind", "hand"]
    assert click_action(record(None)) is None

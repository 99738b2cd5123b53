"""What tables of several people keep (issue 12): server settings, away seats,
drafts, hand panels, several tables per channel, and the bot's metadata."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from bot.store import (
    ActionRecord,
    GuildSettings,
    PanelRecord,
    Repository,
    SeatRecord,
    StoreError,
    TableStatus,
)

from .conftest import Backend, new_table

PARIS = timezone(timedelta(hours=2))


def panel(user_id: int, token: str = "tok-1", message_id: int = 900,
          created_at: datetime | None = None) -> PanelRecord:
    return PanelRecord(user_id=user_id, application_id=4242, token=token, message_id=message_id,
                       created_at=created_at or datetime(2026, 1, 2, 3, 4, 5, 6789, tzinfo=UTC))


async def test_guild_settings_default_to_unset_and_round_trip(repo: Repository,
                                                             backend: Backend) -> None:
    assert await repo.guild_settings(7) == GuildSettings()  # no guild row at all
    await repo.ensure_guild(8, "de")
    assert await repo.guild_settings(8) == GuildSettings()  # a row but no settings

    chosen = GuildSettings(locale="fr", turn_timer=0, target=500, tables_per_channel=3)
    await repo.save_guild_settings(7, chosen)  # creates the guild's row
    assert await repo.guild_settings(7) == chosen
    await repo.save_guild_settings(7, GuildSettings(turn_timer=45))  # replaces, not merges
    assert await repo.guild_settings(7) == GuildSettings(turn_timer=45)

    # Discord's locale and the admins' locale are kept apart.
    await repo.save_guild_settings(8, GuildSettings(locale="fr"))
    await repo.ensure_guild(8, "pl")
    assert (await repo.guild_settings(8)).locale == "fr"
    await repo.close()
    async with backend.repository() as again:
        assert await again.guild_settings(7) == GuildSettings(turn_timer=45)
        assert await again.guild_settings(8) == GuildSettings(locale="fr")
        table = await new_table(again, guild_id=8)
        assert table.guild_id == 8


@pytest.mark.parametrize("bad", [
    GuildSettings(locale=""), GuildSettings(turn_timer=-1), GuildSettings(target=0),
    GuildSettings(tables_per_channel=0), GuildSettings(turn_timer=True),
    GuildSettings(target="500"),  # type: ignore[arg-type]
    GuildSettings(turn_timer=2**63),
])
async def test_bad_guild_settings_are_refused(repo: Repository,
                                              bad: GuildSettings) -> None:
    await repo.save_guild_settings(1, GuildSettings(target=1000))
    with pytest.raises(StoreError) as caught:
        await repo.save_guild_settings(1, bad)
    assert caught.value.code == "invalid_settings"
    assert await repo.guild_settings(1) == GuildSettings(target=1000)


async def test_away_seats_are_stored_and_loaded(repo: Repository) -> None:
    table = await new_table(repo)
    assert [seat.away for seat in table.seats] == [False] * 4
    seats = [SeatRecord(0, 100, "Ann", "normal", away=True), SeatRecord(1, None, "Robot", "hard"),
             SeatRecord(2, 200, "Bob"), SeatRecord(3, 300, "Cat")]
    await repo.save_seats(table.id, seats)
    loaded = await repo.load_table(table.id)
    assert loaded is not None and loaded.seats == seats

    created = await repo.create_table(guild_id=1, channel_id=5, host_id=100, game="tichu",
                                      seed="s", options={}, locale="en", seats=seats)
    assert created.seats == seats
    # An away seat without its person, or without the computer playing it, is refused.
    for bad in (SeatRecord(0, None, "", "easy", away=True), SeatRecord(0, 100, "Ann", away=True)):
        with pytest.raises(StoreError) as caught:
            await repo.save_seats(table.id, [bad])
        assert caught.value.code == "invalid_seats"
    again = await repo.load_table(table.id)
    assert again is not None and again.seats == seats


async def test_drafts_are_saved_replaced_deleted_and_loaded(repo: Repository,
                                                           backend: Backend) -> None:
    table = await new_table(repo)
    other = await new_table(repo, channel_id=11)
    assert table.drafts == {}
    picks: dict[str, Any] = {"exchange": {"left": "S2", "partner": None, "right": "Dragon"}}
    await repo.save_draft(table.id, 2, {"exchange": {"left": "S3"}})
    await repo.save_draft(table.id, 2, picks)
    await repo.save_draft(table.id, 0, {"note": "ünïcødé"})
    await repo.save_draft(other.id, 2, {"x": 1})
    loaded = await repo.load_table(table.id)
    assert loaded is not None and loaded.drafts == {0: {"note": "ünïcødé"}, 2: picks}

    await repo.save_draft(table.id, 0, None)
    await repo.save_draft(table.id, 3, None)  # deleting what is not there is harmless
    await repo.close()
    async with backend.repository() as again:
        reloaded = await again.load_table(table.id)
        assert reloaded is not None and reloaded.drafts == {2: picks}
        other_loaded = await again.load_table(other.id)
        assert other_loaded is not None and other_loaded.drafts == {2: {"x": 1}}


async def test_bad_drafts_are_refused(repo: Repository) -> None:
    table = await new_table(repo)
    await repo.save_draft(table.id, 1, {"keep": True})
    attempts: list[tuple[int, int, Any, str]] = [
        (table.id, 1, ["not", "a", "dict"], "invalid_draft"),
        (table.id, -1, {}, "invalid_draft"),
        (table.id, 1, {"nan": float("nan")}, "not_json"),
        (404, 1, {}, "unknown_table"),
        (404, 1, None, "unknown_table"),
    ]
    for table_id, seat, data, code in attempts:
        with pytest.raises(StoreError) as caught:
            await repo.save_draft(table_id, seat, data)
        assert caught.value.code == code, (seat, data)
    loaded = await repo.load_table(table.id)
    assert loaded is not None and loaded.drafts == {1: {"keep": True}}


async def test_panels_are_one_per_person_per_table(repo: Repository) -> None:
    table = await new_table(repo)
    other = await new_table(repo, channel_id=11)
    first = panel(100)
    later = panel(100, token="tok-2", message_id=901,
                  created_at=datetime(2026, 1, 2, 5, 4, 5, tzinfo=PARIS))
    await repo.save_panel(table.id, first)
    await repo.save_panel(table.id, panel(200))
    await repo.save_panel(other.id, panel(100, token="elsewhere"))
    await repo.save_panel(table.id, later)  # the newer message replaces the older one
    loaded = await repo.load_table(table.id)
    assert loaded is not None
    assert loaded.panels == {100: later, 200: panel(200)}
    assert loaded.panels[100].created_at.tzinfo == UTC
    assert loaded.panels[100].created_at == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)

    await repo.delete_panel(table.id, 100)
    await repo.delete_panel(table.id, 100)  # twice is harmless
    await repo.delete_panel(404, 100)
    loaded = await repo.load_table(table.id)
    assert loaded is not None and loaded.panels == {200: panel(200)}
    elsewhere = await repo.load_table(other.id)
    assert elsewhere is not None and elsewhere.panels[100].token == "elsewhere"


async def test_bad_panels_are_refused(repo: Repository) -> None:
    table = await new_table(repo)
    bad_panels = [panel(100, token=""), panel(-1), panel(100, message_id=2**64),
                  PanelRecord(100, 1, "t", 2, "now")]  # type: ignore[arg-type]
    for bad in bad_panels:
        with pytest.raises(StoreError) as caught:
            await repo.save_panel(table.id, bad)
        assert caught.value.code == "invalid_panel"
    with pytest.raises(StoreError) as missing:
        await repo.save_panel(404, panel(100))
    assert missing.value.code == "unknown_table"
    loaded = await repo.load_table(table.id)
    assert loaded is not None and loaded.panels == {}


async def test_several_active_tables_per_channel(repo: Repository) -> None:
    first = await new_table(repo, channel_id=10)
    second = await new_table(repo, channel_id=10)
    third = await new_table(repo, channel_id=10)
    elsewhere = await new_table(repo, channel_id=20)
    await repo.update_table(first.id, status=TableStatus.PLAYING, thread_id=101)
    await repo.update_table(second.id, thread_id=102)
    await repo.update_table(elsewhere.id, thread_id=10)  # a thread id equal to a channel id
    done = await new_table(repo, channel_id=10)
    await repo.update_table(done.id, status=TableStatus.FINISHED, thread_id=103)

    assert await repo.active_tables_in(10) == [first.id, second.id, third.id, elsewhere.id]
    assert await repo.active_tables_in(101) == [first.id]
    assert await repo.active_tables_in(103) == []
    assert await repo.active_tables_in(999) == []
    assert await repo.count_active_tables(10) == 3  # opened in channel 10
    assert await repo.count_active_tables(20) == 1
    assert await repo.count_active_tables(101) == 0  # a thread is not a parent channel

    await repo.update_table(second.id, status=TableStatus.ABANDONED)
    assert await repo.active_tables_in(10) == [first.id, third.id, elsewhere.id]
    assert await repo.count_active_tables(10) == 2


async def test_a_persons_open_tables_everywhere(repo: Repository) -> None:
    """A person's open tables: those they host or hold a seat at (away or not), in every
    channel and server; closed tables and tables played alone (no channel) do not count."""
    alice, bob = 500, 600
    hosted = await new_table(repo, guild_id=1, channel_id=10, host_id=alice)
    elsewhere = await new_table(repo, guild_id=2, channel_id=20, host_id=bob)
    seats = [SeatRecord(seat=0, user_id=bob, name="bob"),
             SeatRecord(seat=1, user_id=alice, name="alice", bot_level="normal", away=True),
             SeatRecord(seat=2, bot_level="easy"), SeatRecord(seat=3)]
    await repo.save_seats(elsewhere.id, seats)
    await new_table(repo, guild_id=2, channel_id=0, host_id=alice,
                    options={"private": True})  # a daily board
    closed = await new_table(repo, guild_id=1, channel_id=10, host_id=alice)
    await repo.update_table(closed.id, status=TableStatus.ABANDONED)
    assert await repo.count_open_tables_of(alice) == 2
    assert await repo.count_open_tables_of(bob) == 1
    assert await repo.count_open_tables_of(700) == 0
    await repo.update_table(hosted.id, status=TableStatus.PLAYING)
    assert await repo.count_open_tables_of(alice) == 2
    await repo.update_table(hosted.id, status=TableStatus.FINISHED)
    assert await repo.count_open_tables_of(alice) == 1


async def test_metadata(repo: Repository, backend: Backend) -> None:
    assert await repo.get_meta("commands_hash") is None
    await repo.set_meta("commands_hash", "abc")
    await repo.set_meta("commands_hash", "def")
    await repo.set_meta("other", "")
    assert await repo.get_meta("commands_hash") == "def"
    for bad in (repo.get_meta(""), repo.set_meta("", "x"),
                repo.set_meta("k", 5)):  # type: ignore[arg-type]
        with pytest.raises(StoreError) as caught:
            await bad
        assert caught.value.code == "invalid_argument"
    await repo.close()
    async with backend.repository() as again:
        assert await again.get_meta("commands_hash") == "def"
        assert await again.get_meta("other") == ""


async def test_actions_carry_their_time_for_the_last_human_action(repo: Repository) -> None:
    table = await new_table(repo)
    moments = [datetime(2026, 3, 1, 10, minute, tzinfo=UTC) for minute in range(3)]
    payloads = [{"type": "deal"}, {"type": "play", "by": "human"}, {"type": "pass", "by": "timer"}]
    for seq, (payload, moment) in enumerate(zip(payloads, moments, strict=True), start=1):
        await repo.append_action(table.id, ActionRecord(seq, payload, created_at=moment))
    loaded = await repo.load_table(table.id)
    assert loaded is not None
    last_human = max(a.created_at for a in loaded.actions
                     if a.payload.get("by") == "human" and a.created_at is not None)
    assert last_human == moments[1]
    assert [a.created_at for a in loaded.actions] == moments

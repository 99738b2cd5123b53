"""Drive a real discord.py bot through the local Discord emulator."""

from __future__ import annotations

import asyncio
import io
import struct
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.emulator import (
    ChannelRecord,
    DiscordEmulator,
    GuildRecord,
    NoResponseError,
    Overwrite,
    Perm,
    UserActionError,
    UserRecord,
    point_discord_at,
    run_bot,
)

pytest_plugins = ["tests.emulator.fixtures"]

EmulatorFactory = Callable[..., Awaitable[DiscordEmulator]]


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid RGB PNG of the given size."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + tag
            + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    rows = b"".join(b"\x00" + b"\xc0\x20\x20" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


PNG = tiny_png()
ALT = "A board of three by two squares, all empty."
CARDS = ["Dragon", "Phoenix", "Dog", "Mah Jong"]
FRENCH = {"demo": "démo", "new": "nouvelle", "Start a new table": "Commencer une table"}


@dataclass
class Recorder:
    """What the bot saw, for assertions."""

    errors: list[discord.HTTPException] = field(default_factory=list)
    messages: list[discord.Message] = field(default_factory=list)
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    failed: asyncio.Event = field(default_factory=asyncio.Event)
    got_message: asyncio.Event = field(default_factory=asyncio.Event)

    def note(self, error: discord.HTTPException) -> None:
        self.errors.append(error)
        self.failed.set()


def recorder(interaction: discord.Interaction) -> Recorder:
    client = interaction.client
    assert isinstance(client, DemoBot)
    return client.recorder


class DemoTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return FRENCH.get(string.message) if locale is discord.Locale.french else None


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:join:(?P<table>\d+)"
):
    """A persistent button: works for any message carrying it, registered with add_dynamic_items."""

    def __init__(self, table: int) -> None:
        super().__init__(discord.ui.Button(label="Join", custom_id=f"demo:join:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> JoinButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"joined table {self.table}", ephemeral=True)


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(JoinButton(7))

    @discord.ui.button(label="Play", custom_id="demo:play", style=discord.ButtonStyle.primary)
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        button.disabled = True
        await interaction.response.edit_message(
            content=f"{interaction.user.name} played", view=self
        )

    @discord.ui.button(label="Deal", custom_id="demo:deal")
    async def deal(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="cards dealt")

    @discord.ui.select(
        custom_id="demo:pick",
        placeholder="Pick cards",
        max_values=2,
        options=[discord.SelectOption(label=f"Card {n}", value=f"c{n}") for n in range(1, 4)],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class PeekView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Peek", custom_id="demo:peek")
    async def peek(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="peeked", view=None)


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Name", custom_id="demo:name", max_length=32
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


class Demo(app_commands.Group, name="demo", description="Demo commands"):
    table = app_commands.Group(name="table", description="Table settings")

    @table.command(name="seats", description="Sets the number of seats")
    @app_commands.choices(
        count=[app_commands.Choice(name="four", value=4), app_commands.Choice(name="six", value=6)]
    )
    async def seats(
        self, interaction: discord.Interaction, count: app_commands.Choice[int]
    ) -> None:
        await interaction.response.send_message(f"{count.value} seats ({count.name})")

    @app_commands.command(name="new", description="Start a new table")
    async def new(
        self, interaction: discord.Interaction, target: app_commands.Range[int, 100, 1000] = 1000
    ) -> None:
        guild_locale = interaction.guild_locale.value if interaction.guild_locale else None
        await interaction.response.send_message(
            f"table to {target} (locale={interaction.locale.value}, guild={guild_locale})",
            file=discord.File(io.BytesIO(PNG), filename="board.png",
                              description="The board"),
            view=TableView(),
        )

    @app_commands.command(name="secret", description="An ephemeral reply")
    async def secret(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "only you can see this", ephemeral=True, view=PeekView()
        )

    @app_commands.command(name="slow", description="Defers, then edits the original response")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content="done thinking")

    @app_commands.command(name="follow", description="Replies, then follows up")
    async def follow(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        await interaction.followup.send("second", ephemeral=True)

    @app_commands.command(name="thread", description="Opens a thread on its reply")
    async def thread(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("game starting")
        message = await interaction.original_response()
        thread = await message.create_thread(name="game-1")
        await thread.send("welcome to the game")
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        await channel.create_thread(name="side", type=discord.ChannelType.public_thread)
        await interaction.followup.send("threads ready", ephemeral=True)

    @app_commands.command(name="cleanup", description="Deletes its reply, edits a follow-up")
    async def cleanup(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("temporary reply")
        await interaction.delete_original_response()
        note = await interaction.followup.send("note", wait=True)
        await note.edit(content="note (edited)")
        await interaction.followup.send("cleaned", ephemeral=True)

    @app_commands.command(name="scratch", description="Posts, edits and deletes channel messages")
    async def scratch(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        draft = await channel.send(
            "draft",
            file=discord.File(io.BytesIO(PNG), filename="draft.png", description=ALT),
        )
        await draft.edit(content="final")
        temporary = await channel.send("temporary")
        await temporary.delete()
        fetched = await channel.fetch_message(draft.id)
        data = await fetched.attachments[0].read()
        alt = fetched.attachments[0].description
        await interaction.followup.send(f"edited to {fetched.content}, {len(data)} bytes, {alt}")

    @app_commands.command(name="big", description="A select with too many options")
    async def big(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        select: discord.ui.Select[Any] = discord.ui.Select(custom_id="demo:big")
        select.options = [discord.SelectOption(label=f"option {n}") for n in range(26)]
        view.add_item(select)
        try:
            await interaction.response.send_message("choose", view=view)
        except discord.HTTPException as exc:
            recorder(interaction).note(exc)
            await interaction.response.send_message("too many options", ephemeral=True)

    @app_commands.command(name="late", description="Answers after the deadline")
    async def late(self, interaction: discord.Interaction) -> None:
        await recorder(interaction).gate.wait()
        try:
            await interaction.response.send_message("sorry, late")
        except discord.NotFound as exc:
            recorder(interaction).note(exc)

    @app_commands.command(name="form", description="Opens a modal")
    async def form(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(name="greet", description="Greets a member")
    async def greet(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.send_message(
            f"hello {member.mention} ({member.display_name})",
            allowed_mentions=discord.AllowedMentions(users=[member]),
        )

    @app_commands.command(name="card", description="Names a card")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"card {name}")

    @card.autocomplete("name")
    async def card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=c, value=c)
            for c in CARDS
            if c.lower().startswith(current.lower())
        ]


class DemoBot(commands.Bot):
    def __init__(self, guild_id: int, *, intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix="!",
            intents=intents or discord.Intents.default(),
            guild_ready_timeout=0.05,
        )
        self.guild_id = guild_id
        self.recorder = Recorder()
        self.tree.add_command(Demo(), guild=discord.Object(guild_id))

    async def setup_hook(self) -> None:
        await self.tree.set_translator(DemoTranslator())
        self.add_dynamic_items(JoinButton)
        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def on_message(self, message: discord.Message) -> None:
        self.recorder.messages.append(message)
        self.recorder.got_message.set()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py sleeps 5 s before every re-IDENTIFY by default; the emulator has no identify rate limit."""


@dataclass
class Table:
    """The emulated server the tests use."""

    emu: DiscordEmulator
    guild: GuildRecord
    channel: ChannelRecord
    alice: UserRecord
    bob: UserRecord


def populate(emu: DiscordEmulator) -> Table:
    guild = emu.add_guild("Friends", locale="fr")
    channel = emu.add_text_channel(guild, "tichu")
    alice = emu.add_user("alice", locale="en-US")
    bob = emu.add_user("bob", locale="fr")
    emu.add_member(guild, alice)
    emu.add_member(guild, bob)
    return Table(emu, guild, channel, alice, bob)


@asynccontextmanager
async def demo_bot(emu: DiscordEmulator) -> AsyncIterator[tuple[Table, DemoBot]]:
    table = populate(emu)
    async with run_bot(emu, DemoBot(table.guild.id)) as bot:
        await emu.wait_for_commands(["demo"], guild=table.guild)
        yield table, bot


async def test_login_sync_slash_attachment_button_select(emulator: DiscordEmulator) -> None:
    emu = emulator
    async with demo_bot(emu) as (t, bot):
        assert bot.user is not None and bot.user.id == emu.bot.id
        assert [(c.compression, c.compressed) for c in emu.gateway.connections] in (
            [("zlib-stream", True)],
            [("zstd-stream", True)],
        )
        demo = emu.get_command("demo", t.guild)
        assert demo.name_localizations == {"fr": "démo"}
        new = next(o for o in demo.options if o["name"] == "new")
        assert new["type"] == 1 and new["name_localizations"] == {"fr": "nouvelle"}
        assert new["options"][0]["min_value"] == 100

        r = await emu.slash(t.alice, t.channel, "demo new", target=500)
        msg = await r.response()
        assert msg.content == "table to 500 (locale=en-US, guild=fr)"
        assert r.record.response_type == 4 and r.record.latency is not None
        board = msg.attachment("board.png")
        assert (
            board.data == PNG
            and board.content_type == "image/png"
            and (board.width, board.height) == (3, 2)
        )
        async with aiohttp.ClientSession() as session, session.get(board.url) as resp:
            assert await resp.read() == PNG
        assert [b.label for b in msg.buttons] == ["Play", "Deal", "Join"]
        assert msg.select("demo:pick").labels == ["Card 1", "Card 2", "Card 3"]
        assert msg in emu.visible_to(t.bob) and emu.channel_messages(t.channel) == [msg]

        played = await (await emu.click(t.alice, msg, label="Play")).response()
        assert played is msg and msg.content == "alice played"
        assert msg.button("Play").disabled and msg.attachment("board.png").data == PNG
        assert emu.interactions[-1].response_type == 7

        r = await emu.click(t.bob, msg, "demo:deal")
        dealt = await r.response()
        assert dealt is msg and msg.content == "cards dealt" and r.record.response_type == 6
        assert [h["content"] for h in msg.history][1:] == ["alice played"]

        picked = await (await emu.select(t.bob, msg, "demo:pick", ["c1", "Card 3"])).response()
        assert picked.content == "picked c1,c3" and picked.ephemeral
        assert picked in emu.ephemerals(t.bob) and picked not in emu.visible_to(t.alice)

        joined = await (await emu.click(t.bob, msg, label="Join")).response()
        assert joined.content == "joined table 7" and joined.ephemeral_user_id == t.bob.id

        french = await (await emu.slash(t.bob, t.channel, "démo nouvelle", target=200)).response()
        assert french.content == "table to 200 (locale=fr, guild=fr)"
        with pytest.raises(UserActionError, match="must be within"):
            await emu.slash(t.alice, t.channel, "demo new", target=5)

        # Discord refuses a second initial response to the same interaction.
        url = f"{emu.api_base}/interactions/{r.record.id}/{r.record.token}/callback"
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, json={"type": 4, "data": {"content": "x"}}) as resp,
        ):
            assert resp.status == 400 and (await resp.json())["code"] == 40060
        assert [v.kind for v in emu.violations] == ["already_acknowledged"]
        emu.violations.clear()
    emu.assert_clean()


async def test_ephemeral_visibility_and_ownership(emulator: DiscordEmulator) -> None:
    emu = emulator
    async with demo_bot(emu) as (t, _bot):
        secret = await (await emu.slash(t.alice, t.channel, "demo secret")).response()
        assert secret.ephemeral and secret.content == "only you can see this"
        assert emu.visible_to(t.alice, t.channel) == [secret]
        assert emu.visible_to(t.bob) == [] and emu.channel_messages(t.channel) == []
        assert "MESSAGE_CREATE" not in emu.event_names()
        with pytest.raises(UserActionError, match="ephemeral"):
            await emu.click(t.bob, secret, "demo:peek")
        peeked = await (await emu.click(t.alice, secret, "demo:peek")).response()
        assert (
            peeked is secret
            and secret.content == "peeked"
            and secret.components == []
            and secret.ephemeral
        )
    emu.assert_clean()


async def test_defer_edit_and_followups(emulator: DiscordEmulator) -> None:
    emu = emulator
    async with demo_bot(emu) as (t, _bot):
        r = await emu.slash(t.alice, t.channel, "demo slow")
        done = await r.response()
        assert r.record.response_type == 5 and done.content == "done thinking" and not done.loading
        assert done.history[0]["content"] == "" and done.history[0]["flags"] & 128

        r = await emu.slash(t.alice, t.channel, "demo follow")
        first = await r.response()
        second = await r.followup(0)
        assert (first.content, first.ephemeral) == ("first", False)
        assert (second.content, second.ephemeral_user_id) == ("second", t.alice.id)
        assert [m.content for m in emu.channel_messages(t.channel)] == ["done thinking", "first"]
    emu.assert_clean()


async def test_thread_and_channel_message_edit_delete(emulator: DiscordEmulator) -> None:
    emu = emulator
    async with demo_bot(emu) as (t, _bot):
        r = await emu.slash(t.alice, t.channel, "demo thread")
        starter = await r.response()
        assert (await r.followup(0)).content == "threads ready"
        game, side = emu.threads(t.channel)
        assert (game.name, side.name) == ("game-1", "side")
        assert game.id == starter.id == starter.thread_id
        assert [m.content for m in emu.channel_messages(game)] == ["welcome to the game"]
        assert emu.event_names().count("THREAD_CREATE") == 2
        system = [m for m in emu.channel_messages(t.channel, include_system=True) if m.type == 18]
        assert [m.content for m in system] == ["side"]

        report = await (await emu.slash(t.alice, t.channel, "demo scratch")).response()
        # The attachment's description (alt text) is kept, and served back to the bot.
        assert report.content == f"edited to final, {len(PNG)} bytes, {ALT}" and report.ephemeral
        final = next(m for m in emu.channel_messages(t.channel) if m.content == "final")
        assert [h["content"] for h in final.history] == ["draft"] and final.attachment(
            "draft.png"
        ).data == PNG
        assert final.attachment("draft.png").description == ALT
        assert [m.content for m in emu.channel_messages(t.channel)] == ["game starting", "final"]
        deleted = [m for m in emu.messages.values() if m.deleted]
        assert [m.content for m in deleted] == [
            "temporary"
        ] and "MESSAGE_DELETE" in emu.event_names()
    emu.assert_clean()


async def test_modal_autocomplete_and_member_option(emulator: DiscordEmulator) -> None:
    emu = emulator
    async with demo_bot(emu) as (t, _bot):
        opened = await emu.slash(t.alice, t.channel, "demo form")
        modal = await opened.modal()
        assert modal["title"] == "Your name"
        with pytest.raises(UserActionError):
            await emu.submit_modal(t.bob, opened, {"demo:name": "Mallory"})
        hello = await (await emu.submit_modal(t.alice, opened, {"demo:name": "Zoe"})).response()
        assert hello.content == "hello Zoe"

        choices = await (
            await emu.autocomplete(t.alice, t.channel, "demo card", focused="name", name="d")
        ).choices()
        assert [c["value"] for c in choices] == ["Dragon", "Dog"]

        seats = await (
            await emu.slash(t.bob, t.channel, "démo table seats", count="six")
        ).response()
        assert seats.content == "6 seats (six)"
        assert emu.interactions[-1].data["options"][0]["options"][0]["name"] == "seats"

        r = await emu.slash(t.alice, t.channel, "demo cleanup")
        reply = await r.response()
        assert (await r.followup(1)).content == "cleaned"
        note = await r.followup(0)
        assert reply.deleted and note.content == "note (edited)" and not note.ephemeral

        greeting = await (
            await emu.slash(t.alice, t.channel, "demo greet", member=t.bob)
        ).response()
        assert greeting.content == f"hello <@{t.bob.id}> (bob)" and greeting.mentions() == [
            t.bob.id
        ]
        # The greeting notified bob, whom its allowed_mentions named, and nobody else.
        [ping] = [p for p in emu.pings if p.message_id == greeting.id]
        assert ping.users == {t.bob.id} and ping.named == {t.bob.id} and not ping.unnamed
    emu.assert_clean()


async def test_too_many_select_options_is_refused(emulator: DiscordEmulator) -> None:
    emu = emulator
    async with demo_bot(emu) as (t, bot):
        r = await emu.slash(t.alice, t.channel, "demo big")
        violation = await r.rejected()
        assert (violation.kind, violation.status, violation.code) == (
            "invalid_form_body",
            400,
            50035,
        )
        assert violation.errors is not None
        options_error = violation.errors["data"]["components"]["0"]["components"]["0"]["options"][
            "_errors"
        ][0]
        assert options_error["code"] == "BASE_TYPE_BAD_LENGTH"
        fallback = await r.response()
        assert fallback.content == "too many options" and fallback.ephemeral
        assert [e.code for e in bot.recorder.errors] == [50035]
        assert emu.channel_messages(t.channel) == []
        assert emu.violations == [violation]


async def test_late_initial_response_is_refused(emulator_factory: EmulatorFactory) -> None:
    emu = await emulator_factory(interaction_timeout=0.2)
    async with demo_bot(emu) as (t, bot):
        r = await emu.slash(t.alice, t.channel, "demo late")
        await r.expired()
        bot.recorder.gate.set()
        violation = await r.rejected()
        assert (violation.kind, violation.status, violation.code) == ("late_response", 404, 10062)
        await asyncio.wait_for(bot.recorder.failed.wait(), 5)
        assert [e.code for e in bot.recorder.errors] == [10062]
        assert [v.kind for v in emu.violations] == ["no_response", "late_response"]
        with pytest.raises(NoResponseError, match="deadline"):
            await r.response()


async def test_gateway_resume_reconnect_and_reidentify(emulator: DiscordEmulator) -> None:
    emu = emulator
    async with demo_bot(emu) as (t, bot):
        emu.drop_connections()
        await emu.wait_for(lambda: emu.gateway.resumes == 1 and emu.is_ready(), what="a RESUME")
        emu.request_reconnect()
        await emu.wait_for(
            lambda: emu.gateway.resumes == 2 and emu.is_ready(), what="a second RESUME"
        )
        emu.invalidate_sessions()
        await emu.wait_for(
            lambda: emu.gateway.identifies == 2 and emu.is_ready(), what="a new IDENTIFY"
        )
        assert emu.gateway.heartbeats >= 3

        posted = await emu.post(t.alice, t.channel, "hello bot")
        await asyncio.wait_for(bot.recorder.got_message.wait(), 5)
        seen = bot.recorder.messages[0]
        assert seen.id == posted.id and seen.content == ""  # no MESSAGE_CONTENT intent

        reply = await (await emu.slash(t.alice, t.channel, "demo follow")).response()
        assert reply.content == "first"
    emu.assert_clean()


async def test_privileged_intents_must_be_allowed(emulator_factory: EmulatorFactory) -> None:
    emu = await emulator_factory(allowed_intents=0)
    table = populate(emu)
    intents = discord.Intents.default()
    intents.members = True
    with pytest.raises(discord.PrivilegedIntentsRequired):
        async with run_bot(emu, DemoBot(table.guild.id, intents=intents)):
            pass
    assert 4014 in emu.gateway.close_codes


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"content": "x" * 2001}, ["content"]),
        ({"content": "x", "embeds": [{"title": "t"}] * 11}, ["embeds"]),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "c"}],
                    }
                ]
                * 6
            },
            ["components"],
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "b", "custom_id": f"c{i}"}
                            for i in range(6)
                        ],
                    }
                ]
            },
            ["components", "0", "components"],
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": "a", "value": "a"}],
                            },
                            {"type": 2, "style": 1, "label": "b", "custom_id": "c"},
                        ],
                    }
                ]
            },
            ["components", "0", "components"],
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "b", "custom_id": "x" * 101}
                        ],
                    }
                ]
            },
            ["components", "0", "components", "0", "custom_id"],
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "l" * 81, "custom_id": "c"}
                        ],
                    }
                ]
            },
            ["components", "0", "components", "0", "label"],
        ),
    ],
    ids=["content", "embeds", "rows", "row-width", "select-shares-row", "custom-id", "label"],
)
async def test_message_limits_are_enforced(
    emulator: DiscordEmulator, body: dict[str, Any], path: list[str]
) -> None:
    emu = emulator
    t = populate(emu)
    headers = {"Authorization": f"Bot {emu.bot_token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(
            f"{emu.api_base}/channels/{t.channel.id}/messages", json=body
        ) as resp:
            error = await resp.json()
        assert resp.status == 400 and error["code"] == 50035
        node = error["errors"]
        for part in path:
            node = node[part]
        assert node["_errors"]
        assert [v.kind for v in emu.violations] == ["invalid_form_body"]
        assert emu.channel_messages(t.channel) == []
        async with session.get(f"{emu.api_base}/channels/{t.channel.id}/pins") as resp:
            assert resp.status == 404 and (await resp.json()) == {
                "message": "404: Not Found",
                "code": 0,
            }
    assert [r.path for r in emu.unhandled_requests] == [f"/api/v10/channels/{t.channel.id}/pins"]


async def test_too_many_files_and_multipart_edit(emulator: DiscordEmulator) -> None:
    emu = emulator
    t = populate(emu)
    headers = {"Authorization": f"Bot {emu.bot_token}"}

    def form(payload: dict[str, Any], count: int) -> aiohttp.FormData:
        data = aiohttp.FormData(quote_fields=False)
        data.add_field(
            "payload_json", discord.utils._to_json(payload), content_type="application/json"
        )
        for n in range(count):  # text files: two images would be cropped (a display breach)
            data.add_field(f"files[{n}]", b"text", filename=f"f{n}.txt",
                           content_type="text/plain")
        return data

    url = f"{emu.api_base}/channels/{t.channel.id}/messages"
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(url, data=form({"content": "many"}, 11)) as resp:
            assert resp.status == 400 and "attachments" in (await resp.json())["errors"]
        async with session.post(url, data=form({"content": "two"}, 2)) as resp:
            created = await resp.json()
        kept = {"id": created["attachments"][1]["id"]}
        edit = form(
            {"content": "edited", "attachments": [kept, {"id": 0, "filename": "new.txt"}]}, 1
        )
        async with session.patch(f"{url}/{created['id']}", data=edit) as resp:
            edited = await resp.json()
    assert [a["filename"] for a in edited["attachments"]] == ["f1.txt", "new.txt"]
    assert [v.kind for v in emu.violations] == ["invalid_form_body"]


async def test_point_discord_at_restores_discord_settings(emulator: DiscordEmulator) -> None:
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    with point_discord_at(emulator):
        assert emulator.api_base == discord.http.Route.BASE
        assert emulator.gateway_url == str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    assert before == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


async def test_rest_lookups_dm_and_history(emulator: DiscordEmulator) -> None:
    emu = emulator
    async with demo_bot(emu) as (t, bot):
        guild = await bot.fetch_guild(t.guild.id)
        assert (guild.name, guild.preferred_locale) == ("Friends", discord.Locale.french)
        member = await guild.fetch_member(t.alice.id)
        assert member.name == "alice"
        channel = await bot.fetch_channel(t.channel.id)
        assert isinstance(channel, discord.TextChannel) and channel.name == "tichu"
        with pytest.raises(discord.NotFound):
            await guild.fetch_member(424242)

        user = await bot.fetch_user(t.bob.id)
        dm = await user.send("your hand is ready")
        assert [m.content for m in emu.visible_to(t.bob, dm.channel.id)] == ["your hand is ready"]
        assert emu.visible_to(t.alice, dm.channel.id) == []

        for n in range(3):
            await channel.send(f"line {n}")
        history = [m.content async for m in channel.history(limit=2)]
        assert history == ["line 2", "line 1"]
        stats = emu.latency_stats()
        assert stats["count"] == 0
        await (await emu.slash(t.alice, t.channel, "demo follow")).response()
        assert emu.latency_stats()["count"] == 1 and emu.latency_stats()["p99_ms"] is not None
    emu.assert_clean()


async def test_bot_channel_permissions_are_enforced(emulator: DiscordEmulator) -> None:
    emu = emulator
    t = populate(emu)
    assert t.guild.bot_role_id is not None
    emu.set_permissions(t.channel, t.guild.roles[t.guild.bot_role_id], deny=Perm.SEND_MESSAGES)
    staff = emu.add_text_channel(
        t.guild, "staff", overwrites=[Overwrite(id=t.guild.id, type=0, deny=Perm.VIEW_CHANNEL)]
    )
    headers = {"Authorization": f"Bot {emu.bot_token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        for channel, code in ((t.channel, 50013), (staff, 50001)):
            url = f"{emu.api_base}/channels/{channel.id}/messages"
            async with session.post(url, json={"content": "hi"}) as resp:
                assert resp.status == 403 and (await resp.json())["code"] == code
    assert [v.kind for v in emu.violations] == ["missing_permissions", "missing_access"]
    with pytest.raises(UserActionError, match="cannot see"):
        await emu.post(t.alice, staff, "let me in")


async def test_a_click_records_when_its_result_became_visible(emulator: DiscordEmulator) -> None:
    """A deferred click's result is visible when the bot edits the clicked message through
    the click's token (``settled_at``, ``seen_latency``); that message being public, it is
    also the channel's first public edit after the click (``public_edit_at``). A click
    answered by an ephemeral message waits for the channel's next public edit."""
    emu = emulator
    async with demo_bot(emu) as (t, _bot):
        table = await (await emu.slash(t.alice, t.channel, "demo new")).response()
        joined = await emu.click(t.bob, table, label="Join")
        await joined.response()
        join = joined.record
        assert join.seen_latency is not None and join.public_edit_at is None
        dealt = await emu.click(t.bob, table, "demo:deal")
        assert await dealt.response() is table and table.content == "cards dealt"
        deal = dealt.record
        assert deal.response_type == 6 and deal.dispatched_at is not None
        assert deal.responded_at is not None and deal.settled_at is not None
        assert deal.dispatched_at <= deal.responded_at <= deal.settled_at
        assert deal.latency is not None and deal.seen_latency is not None
        assert deal.seen_latency >= deal.latency
        assert deal.public_edit_at is not None and deal.public_edit_at <= deal.settled_at
        assert deal.public_edit_latency == deal.public_edit_at - deal.dispatched_at
        assert join.public_edit_at == deal.public_edit_at  # the same edit, the next one
    emu.assert_clean()

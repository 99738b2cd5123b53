"""The emulator's reading of a message's text: its markdown as Discord's client shows it,
and whom the message pings, as a real discord.py client sends it."""

from __future__ import annotations

import discord
import pytest

from tests.emulator import DEFAULT_BOT, DiscordEmulator, DiscordError, Perm, run_bot
from tests.emulator.markdown import message_texts, pings, render


@pytest.mark.parametrize(("source", "runs", "styles", "links", "mentions"), [
    ("**Bob** calls", ["Bob", " calls"], {"strong"}, [], []),
    (r"\*\*Bob\*\* calls", ["**Bob** calls"], set(), [], []),
    ("*em* __under__ ~~gone~~ ||hidden||", ["em", " ", "under", " ", "gone", " ", "hidden"],
     {"em", "underline", "strike", "spoiler"}, [], []),
    ("snake_case_name", ["snake_case_name"], set(), [], []),
    ("# Big", ["Big"], {"heading"}, [], []),
    ("a # not a heading", ["a # not a heading"], set(), [], []),
    ("-# small", ["small"], {"subtext"}, [], []),
    ("> said\nback", ["said", "\nback"], {"quote"}, [], []),
    (">>> all\nof it", ["all\nof it"], {"quote"}, [], []),
    ("- one", ["one"], {"list"}, [], []),
    ("1. one", ["one"], {"list"}, [], []),
    (r"1\. one", ["1. one"], set(), [], []),
    ("`**code** <@1>`", ["**code** <@1>"], set(), [], []),
    ("```\n# not\n```", ["# not"], set(), [], []),
    ("see https://a.example/x.", ["see ", "."], set(), ["https://a.example/x"], []),
    ("<https://a.example>", [], set(), ["https://a.example"], []),
    ("[Free Nitro](https://evil.example)", [], set(), ["https://evil.example"], []),
    (r"\[Free Nitro](https://evil.example)", ["[Free Nitro](", ")"], set(),
     ["https://evil.example"], []),
    (r"\[Free Nitro\](https\://evil.example)", ["[Free Nitro](https://evil.example)"], set(),
     [], []),
    ("<@1> <@!2> <@&3> <#4> @everyone @here", [" ", " ", " ", " ", " "], set(), [],
     ["user:1", "user:2", "role:3", "channel:4", "everyone", "here"]),
    ("@\u200beveryone \\<@3\\>", ["@\u200beveryone <@3>"], set(), [], []),
])
def test_markdown_shows_as_discord_shows_it(source: str, runs: list[str], styles: set[str],
                                            links: list[str], mentions: list[str]) -> None:
    shown = render(source)
    assert shown.runs() == runs
    assert {s for node in shown.nodes for s in node.styles} == styles
    assert shown.links == links
    assert shown.mentions == mentions


def test_pings_follow_allowed_mentions() -> None:
    content = "<@1> <@!2> <@&3> <@&4> @everyone"

    def ping(allowed: dict[str, object] | None, everyone: bool = True):  # type: ignore[no-untyped-def]
        return pings(9, 8, content, allowed, mentionable_roles={3}, mention_everyone=everyone)

    # No allowed_mentions: every kind is parsed.
    every = ping(None)
    assert (every.users, every.roles, every.everyone) == ({1, 2}, {3, 4}, True)
    assert every.unnamed == ["user 1", "user 2", "role 3", "role 4", "@everyone"]
    # Without MENTION_EVERYONE: no @everyone, and only the mentionable role.
    weak = ping(None, everyone=False)
    assert (weak.roles, weak.everyone) == ({3}, False)
    # discord.py's AllowedMentions.none(): nobody.
    none = ping({"parse": []})
    assert not (none.users or none.roles or none.everyone) and none.unnamed == []
    # Users named by id: only those, and only if the content mentions them.
    named = ping({"parse": [], "users": ["2", "5"]})
    assert named.users == {2} and named.unnamed == []
    # parse: ["users"] pings every user mentioned, none of them named.
    parsed = ping({"parse": ["users"]})
    assert parsed.users == {1, 2} and parsed.unnamed == ["user 1", "user 2"]


def texts_of(payload: dict[str, object]) -> dict[str, bool]:
    return {where: markdown for where, _, markdown in message_texts(payload)}


def test_which_texts_are_markdown() -> None:
    payload = {
        "content": "c",
        "embeds": [{"title": "t", "description": "d", "footer": {"text": "f"},
                    "fields": [{"name": "n", "value": "v"}]}],
        "components": [{"type": 1, "components": [
            {"type": 2, "label": "b"},
            {"type": 3, "placeholder": "p", "options": [{"label": "o", "description": "od"}]}]}],
        "attachments": [{"description": "alt"}],
    }
    assert texts_of(payload) == {
        "content": True, "embeds[0].title": True, "embeds[0].description": True,
        "embeds[0].fields[0].name": True, "embeds[0].fields[0].value": True,
        "embeds[0].footer": False, "components[0].components[0].label": False,
        "components[0].components[1].placeholder": False,
        "components[0].components[1].options[0].label": False,
        "components[0].components[1].options[0].description": False,
        "attachments[0].description": False}


def client(**options: object) -> discord.Client:
    return discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05,
                          **options)  # type: ignore[arg-type]


async def test_a_client_without_allowed_mentions_pings_everyone(
        emulator: DiscordEmulator) -> None:
    emu = emulator
    guild = emu.add_guild("Pings", bot_permissions=DEFAULT_BOT | Perm.MENTION_EVERYONE)
    channel = emu.add_text_channel(guild, "general")
    bob = emu.add_user("bob")
    emu.add_member(guild, bob)
    async with run_bot(emu, client()) as bot:
        sent = await bot.get_channel(channel.id).send(  # type: ignore[union-attr]
            f"@everyone [Free Nitro](https://evil.example) <@{bob.id}>")
    [ping] = emu.pings
    assert ping.message_id == sent.id and ping.everyone and ping.users == {bob.id}
    assert ping.allowed_mentions is None
    assert [v.kind for v in emu.violations] == ["unnamed_ping"]
    assert [link.url for link in emu.links] == ["https://evil.example"]
    emu.violations.clear()


async def test_a_client_that_names_its_pings_pings_only_them(emulator: DiscordEmulator) -> None:
    emu = emulator
    guild = emu.add_guild("Pings")
    channel = emu.add_text_channel(guild, "general")
    bob, carol = emu.add_user("bob"), emu.add_user("carol")
    for user in (bob, carol):
        emu.add_member(guild, user)
    async with run_bot(emu, client(allowed_mentions=discord.AllowedMentions.none())) as bot:
        target = bot.get_channel(channel.id)
        assert isinstance(target, discord.TextChannel)
        text = f"@everyone <@{bob.id}> <@{carol.id}>"
        quiet = await target.send(text)
        named = await target.send(text, allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(bob.id)]))
        await named.edit(content=f"{text} <@{carol.id}>")  # an edit notifies nobody
    reports = {p.message_id: p for p in emu.pings}
    assert len(reports) == 2
    assert not (reports[quiet.id].users or reports[quiet.id].everyone)
    assert reports[named.id].users == {bob.id} and not reports[named.id].unnamed
    emu.assert_clean()


def test_users_parsed_and_named_at_once_are_refused(emulator: DiscordEmulator) -> None:
    with pytest.raises(DiscordError) as refused:
        emulator.check_message({"content": "x", "allowed_mentions": {
            "parse": ["users"], "users": ["1"]}}, [], [], creating=True)
    assert refused.value.code == 50035
    assert "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE" in str(refused.value.errors)
    emulator.violations.clear()

"""Names are text, never markup (issue 51): people named as a hostile player would name
themselves play through the local Discord, and every text the bot shows is checked as
Discord would show it.

The names (:data:`HOSTILE`): ``@everyone``, ``@here``, a role's and a channel's mention,
a masked link after ``@everyone``, a bare link, ``**bold**``, backticks, a ``>`` quote,
``#`` and ``-#`` headings, list marks, zero-width and right-to-left control characters,
a Hebrew name, a 32-character nickname (Discord's longest) full of markdown, an emoji-only
name, a person's mention and a shrug (backslashes). They play Tichu (the lobby, the table
message, panels, pings, log lines, leave, back, votes, takeover, abandon, deal and game
summaries, leaderboard, stats, history and a game's replay), Tichu for six, Chinois and
Tysiacha, the daily boards (result, standings, share line), an event of duplicate
boards (its standings), a practice table (the coach's hints and review), refusals and
``/privacy`` (show, export, erase).

Every version of every message the bot sends (channel messages, answers, follow-ups,
ephemeral ones, edits) is read as it is stored (:class:`Shown`), and :meth:`Shown.check`
asserts, as Discord shows them (``tests/emulator/markdown.py``):

- no ping but of the people the bot names in its ping (the emulator's ``pings``; any other
  is an ``unnamed_ping`` violation), no mention shown of what the names mention (a role,
  a channel, someone not at the table, ``@everyone``, ``@here``), the bot's own mentions
  (of the people seated, of where the table plays, its countdown) still shown;
- no link at all (the emulator's ``links``);
- no markdown taking effect in a name: where a name's words show, the name shows as
  written (in markdown, in its rendered runs; in a label or a description, as it is);
- no bidirectional override or zero-width character, an isolate only around a name
  written right to left;
- every limit of Discord kept (the emulator's violations).

Each catalogue sentence that takes a name (:func:`name_keys`) is one a scenario plays:
each test asserts that the sentences it always shows (:data:`PLAYED`) were filled in with
a hostile name (as the bot fills them, ``t``), and
:func:`test_every_sentence_with_a_name_is_played` that every such sentence of the
catalogues is one a scenario shows, always or when its deals have it (:data:`MAYBE`): a
new sentence with a name fails until a scenario plays it.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.app import TichuBot
from bot.i18n import LANGUAGES, t
from bot.i18n import catalog as catalog_module
from bot.i18n.catalog import catalog
from bot.i18n.commands import spell
from bot.i18n.text import CODE_BACKTICK
from bot.store.models import TableStatus
from bot.tables import Table
from bot.tables import lobby as lobby_module
from bot.tables.lobby import DirectSeat
from engine.tichu.view import Phase
from tests.bot.driver import (
    ChinoisChoices,
    Person,
    TysiachaChoices,
    component,
    running,
    settle,
    table_message,
)
from tests.bot.test_direct_tables import panel_of
from tests.bot.test_direct_tables import shown as dm_panels_shown
from tests.bot.test_direct_tables import shown as drawn
from tests.bot.test_six import SixChoices
from tests.emulator import DEFAULT_BOT, DiscordEmulator, Perm
from tests.emulator.markdown import invisible, message_texts, render
from tests.emulator.models import MessageRecord
from tests.emulator.state import World as Discord

# -- the names -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hostile:
    """A hostile name: how it is written (``{role}``, ``{channel}``, ``{user}`` filled in
    with the guild's ids), and the words (``cores``) by which a text is seen to show it."""

    written: str
    cores: tuple[str, ...]

    def name(self, ids: dict[str, int]) -> str:
        return self.written.format(**ids)


HOSTILE = (
    Hostile("@everyone [Free Nitro](https://evil.example)", ("Nitro",)),
    Hostile("# Hedda **Brave** `Tick`", ("Hedda",)),
    Hostile("> Quinn <@&{role}> <#{channel}>", ("Quinn",)),
    Hostile("\u202eRolf\u200b @here \u2066Zoë", ("Rolf",)),
    Hostile("-# Sven https://evil.example/win", ("Sven",)),
    Hostile("- Lisa <@{user}>", ("Lisa",)),
    Hostile("1. Olga ¯\\_(ツ)_/¯", ("Olga",)),
    Hostile("~~Strike~~||Spoil||__Under__ 32c", ("Strike", "Spoil", "Under")),
    Hostile("🃏🔥", ("🃏🔥",)),
    Hostile("דוד המלך", ("דוד",)),
)
"""Ten names, each a few of the hostile kinds at once; the eighth is 32 characters long,
Discord's longest nickname."""
assert len(HOSTILE[7].written) == 32

SHOWN_PREFIX = 16
"""Where a text cuts a long name (a leaderboard's column, a label), its first characters
must still show as written."""

FORBIDDEN = re.compile("[\u200b\u200c\u200e\u200f\u061c\u202a-\u202e\u2060\u2066\u2067\ufeff]")
"""Characters no text of the bot may hold (but a zero-width space right after ``@``, as
``discord.utils.escape_mentions`` breaks a mention): overrides, embeddings, marks, the
isolates other than the first-strong one the bot puts around a right-to-left name."""


def shown_form(name: str) -> str:
    """A name as a reader sees it: one line, without invisible characters."""
    return invisible(re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", " ", name)).strip()


# -- what the bot showed -------------------------------------------------------------------


@dataclass(frozen=True)
class ShownText:
    """One text of one version of a bot message: where it is, and whether Discord shows it
    as markdown."""

    message_id: int
    where: str
    text: str
    markdown: bool
    ephemeral: bool


@dataclass
class Shown:
    """Every text of every version of every message the bot sent, as stored."""

    texts: list[ShownText] = field(default_factory=list)
    filled: set[str] = field(default_factory=set)
    """The catalogue sentences (as written in their language) that a hostile name filled."""
    _seen: set[tuple[int, str, str]] = field(default_factory=set)

    def record(self, world: Discord, message: MessageRecord) -> None:
        for where, text, rendered in message_texts(world.message_payload(message)):
            key = (message.id, where, text)
            if key not in self._seen:
                self._seen.add(key)
                self.texts.append(ShownText(message.id, where, text, rendered, message.ephemeral))

    def check(self, emu: DiscordEmulator, names: list[str], hostile: list[Hostile],
              people: set[int], targets: set[str]) -> None:
        """Everything the module's docstring lists, over every text shown so far."""
        problems: list[str] = []
        for shown in self.texts:
            problems += _text_problems(shown, names, hostile, targets)
        for report in emu.pings:
            content = emu.messages[report.message_id].content
            written = {int(u) for u in re.findall(r"<@!?(\d+)>", content)}
            if report.unnamed or report.roles or report.everyone or report.here:
                problems.append(f"message {report.message_id} pings {report.unnamed}")
            if report.users and report.users != written & people:
                problems.append(f"message {report.message_id} pings {report.users}, "
                                f"not the people it names {written}")
        problems += [f"link {link}" for link in emu.links]
        problems += [str(v) for v in emu.violations]
        for thread in emu.threads():
            if len(thread.name) > 100 or FORBIDDEN.search(thread.name):
                problems.append(f"thread name {thread.name!r}")
        assert not problems, "\n".join(problems[:40])

    def sentences(self) -> set[str]:
        """The catalogue sentences with a name that were filled in with a hostile name
        (any language; a sentence the same as another's in some language counts for
        both: they show alike)."""
        texts = _sentence_keys()
        return {key for text in self.filled for key in texts.get(text, ())} & name_keys()


def _text_problems(shown: ShownText, names: list[str], hostile: list[Hostile],
                   targets: set[str]) -> list[str]:
    problems: list[str] = []
    where = f"message {shown.message_id} {shown.where}: {shown.text[:300]!r}"
    if FORBIDDEN.search(shown.text.replace("@\u200b", "@")):
        problems.append(f"invisible or bidirectional control characters in {where}")
    if shown.text.count("\u2068") != shown.text.count("\u2069"):
        problems.append(f"an isolate left open in {where}")
    if shown.markdown:
        rendered = render(shown.text)
        problems += [f"mention {m} shown in {where}" for m in rendered.mentions if m in targets]
        runs = [invisible(r).replace(CODE_BACKTICK, "`") for r in rendered.runs()]
    else:
        runs = [invisible(shown.text)]
    seen = invisible(shown.text)
    for name, h in zip(names, hostile, strict=True):
        if not any(core in seen for core in h.cores):
            continue
        literal = shown_form(name)
        if any(literal in run for run in runs):
            continue
        if len(literal) > SHOWN_PREFIX and any(literal[:SHOWN_PREFIX] in run for run in runs):
            continue
        problems.append(f"{name!r} does not show as written in {where}")
    return problems


# -- the catalogue's sentences with a name ------------------------------------------------

NAME_VALUES = frozenset({"name", "names", "to", "lead", "dealer"})
"""The placeholders a person's name fills. (A ping's ``mentions`` are ids, checked
through the local Discord's ``pings``.)"""


def name_keys() -> set[str]:
    """Every catalogue key whose sentence takes a name (in English, as every catalogue has
    the same placeholders)."""
    return {key for key, text in catalog("en").items()
            if set(re.findall(r"\{(\w+)", text)) & NAME_VALUES}


def _sentence_keys() -> dict[str, set[str]]:
    """Each catalogue sentence (any language) and the keys it is the text of."""
    out: dict[str, set[str]] = {}
    for lang in LANGUAGES:
        for key, text in catalog(lang).items():
            # As the bot fills it: the commands it names spelled as the reader's client shows.
            out.setdefault(spell(text, catalog(lang), catalog("en")), set()).add(key)
    return out


CORES = frozenset(core for h in HOSTILE for core in h.cores)


def hostile_value(value: Any) -> bool:
    """Whether a sentence's value holds a hostile name (escaped or not)."""
    seen = invisible(str(value))
    return any(core in seen for core in CORES)


# -- the fixtures --------------------------------------------------------------------------


@dataclass
class Guild:
    emu: DiscordEmulator
    guild: Any
    channel: Any
    people: list[Any]
    names: list[str]
    hostile: list[Hostile]
    shown: Shown
    stranger: Any
    targets: set[str]
    """What the hostile names mention (a role, a channel, a stranger, everyone, here):
    the bot never does."""

    @property
    def ids(self) -> set[int]:
        return {p.id for p in self.people}

    def check(self, *, pings: bool = True) -> None:
        """The texts shown (:meth:`Shown.check`), and, at a table of people (``pings``),
        that the bot did ping them (each ping naming exactly its people)."""
        self.shown.check(self.emu, self.names, self.hostile, self.ids, self.targets)
        if pings:
            assert any(report.users for report in self.emu.pings), "nobody was pinged"


@pytest.fixture(autouse=True)
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table of a test dealt from a seed of the test's (``hostile-1``, ``hostile-2``
    …, as they open), not a random one: the same deals, the same computers, each run."""
    count = iter(range(1, 1000))
    monkeypatch.setattr(lobby_module, "secrets",
                      SimpleNamespace(token_hex=lambda _n: f"hostile-{next(count)}"))


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> Shown:
    """Every text of every bot message, recorded as the local Discord stores it; and each
    catalogue sentence a hostile name filled in (as the bot fills it, :func:`t`)."""
    record = Shown()
    check_text = Discord.check_text

    def keep(self: Discord, message: MessageRecord, data: dict[str, Any], *,
             first: bool) -> None:
        check_text(self, message, data, first=first)
        record.record(self, message)

    monkeypatch.setattr(Discord, "check_text", keep)
    fill = catalog_module.fill

    def noted(text: str, values: Mapping[str, Any], lang: str = "en") -> Any:
        if any(hostile_value(v) for v in values.values()):
            record.filled.add(text)
        return fill(text, values, lang)

    monkeypatch.setattr(catalog_module, "fill", noted)
    return record


def hostile_guild(emu: DiscordEmulator, shown: Shown, chosen: list[int],
                  locales: tuple[str, ...] = ("en-US", "fr", "en-GB", "de")) -> Guild:
    """A guild whose bot may mention everyone (as many servers let bots), a mentionable
    role, and people nicknamed with the hostile names ``chosen`` (indexes of
    :data:`HOSTILE`); a stranger whose mention one of the names holds."""
    guild = emu.add_guild("Hostile", bot_permissions=DEFAULT_BOT | Perm.MENTION_EVERYONE)
    channel = emu.add_text_channel(guild, "tables")
    rules = emu.add_text_channel(guild, "rules")
    role = emu.add_role(guild, "Moderators")
    role.mentionable = True
    stranger = emu.add_user("stranger")
    emu.add_member(guild, stranger)
    ids = {"role": role.id, "channel": rules.id, "user": stranger.id}
    people, names, hostile = [], [], []
    for i, index in enumerate(chosen):
        h = HOSTILE[index]
        user = emu.add_user(f"p{index}", locale=locales[i % len(locales)])
        emu.add_member(guild, user, nick=h.name(ids))
        people.append(user)
        names.append(h.name(ids))
        hostile.append(h)
    forbidden = {f"role:{role.id}", f"channel:{rules.id}", f"user:{stranger.id}", "everyone",
                 "here"}
    return Guild(emu, guild, channel, people, names, hostile, shown, stranger, forbidden)


def played(g: Guild, scenario: str) -> None:
    """The sentences with a name that ``scenario`` plays were all shown."""
    seen = g.shown.sentences()
    missing = PLAYED[scenario] - seen
    assert not missing, (f"{scenario}: never shown with the hostile names: {sorted(missing)} "
                         f"(shown: {sorted(seen)})")


async def slash(g: Guild, who: Any, command: str, channel: Any = None, **options: Any) -> Any:
    return await (await g.emu.slash(who, channel or g.channel, command, **options)).response()


async def until(condition: Any, what: str, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"waited too long for {what}"
        await asyncio.sleep(0.02)


# -- what each scenario plays ----------------------------------------------------------------

PLAYED: dict[str, set[str]] = {
    "tichu": {
        "lobby.seat", "select.give_left", "select.give_partner", "select.give_right",
        "log.grand_tichu", "log.tichu", "log.play", "log.exchange_done", "log.out",
        "log.trick", "log.timer", "log.takeover", "log.left", "log.back", "log.away",
        "log.vote_end", "log.vote_back", "table.waiting_grand", "table.waiting_exchange",
        "table.turn", "table.game_over", "table.left", "table.abandoned", "seat.away",
        "leaderboard.row", "stats.title.tichu", "stats.partner.team", "stats.none",
        "history.title", "history.empty", "alt.board.row", "alt.tichu.turn",
        "alt.tichu.seat", "alt.tichu.team", "alt.tichu.played", "alt.tichu.grand",
        "alt.tichu.exchange", "alt.tichu.slot", "alt.tichu.placed",
    },
    "six": {"select.give_left_partner", "select.give_right_partner", "stats.title.tichu6"},
    "chinois": {
        "lobby.seat_alone", "log.chinois.bid", "log.chinois.bids_done", "log.chinois.play",
        "log.chinois.trick", "log.chinois.game_over", "chinois.hand.header",
        "chinois.hand.their_bid", "chinois.hand.their_turn", "chinois.table.title",
        "chinois.table.to_bid", "chinois.table.to_play", "chinois.final_line",
        "stats.title.chinois", "stats.partner.table", "alt.chinois.final",
        "alt.chinois.rated", "alt.chinois.row_seat", "alt.chinois.to_bid", "alt.seat",
        "alt.to_lead", "alt.to_play",
    },
    "tysiacha": {
        "lobby.seat_alone", "hand.their_turn", "tysiacha.hand.bid_prompt",
        "tysiacha.select.give", "tysiacha.header.contract", "tysiacha.log.bid",
        "tysiacha.log.pass", "tysiacha.log.give", "tysiacha.log.play", "tysiacha.log.prikup",
        "tysiacha.log.trick", "tysiacha.log.game_over", "tysiacha.prikup.text",
        "tysiacha.prikup.title", "tysiacha.sheet.final", "tysiacha.table.game_over",
        "tysiacha.table.turn_bid", "tysiacha.table.turn_prikup", "stats.title.tysiacha",
        "alt.tysiacha.cell", "alt.tysiacha.contract", "alt.tysiacha.final",
        "alt.tysiacha.game_won", "alt.tysiacha.prikup", "alt.tysiacha.prikup_turn",
        "alt.tysiacha.to_bid", "alt.tysiacha.to_open",
    },
    "daily": {"daily.best", "daily.call_grand", "daily.share", "daily.standings_row",
              "daily.trick", "alt.standings.row"},
    "coach": {"coach.do.give", "queue.blocked", "queue.unblocked", "queue.not_blocked"},
    "direct": {"end.rating", "end.rematch_pressed"},
    "talk": {"log.talk"},
    "away": {"log.away_direct", "log.away_out"},
}
"""The sentences with a name each scenario shows, whatever its deals: the test fails if
one of them is not shown with a hostile name."""

MAYBE: dict[str, set[str]] = {
    "tichu": {
        "log.pass", "log.gift", "log.bomb", "button.gift", "table.waiting_gift",
        "alt.tichu.gift", "alt.tichu.call_failed", "alt.tichu.call_made",
        "alt.tichu.never_out", "alt.tichu.played_cards", "alt.tichu.last_trick",
        "alt.tichu.lead", "alt.tichu.from", "alt.tichu.slot_empty",
    },
    "six": {"button.dog", "log.dog"},
    "chinois": {"chinois.game_over", "chinois.game_over_shared", "alt.chinois.last_trick",
                "alt.led", "alt.followed"},
    "tysiacha": {"tysiacha.log.concede", "tysiacha.log.marriage", "tysiacha.log.raise",
                 "tysiacha.log.redeal", "alt.tysiacha.conceded", "alt.tysiacha.lost",
                 "alt.tysiacha.made"},
    "daily": {"daily.call_tichu", "daily.dog", "daily.gift"},
    "coach": {"coach.do.gift"},
    "away": set(),
}
"""The sentences with a name each scenario shows when its deals have what they say (the
Dragon's gift, a bomb, the Dog, a shared win, a marriage, a concession…): the tables'
deals are seeded, but which of these they hold is theirs to say, and a day's boards are
the day's. Their texts are checked whenever they are shown."""


def test_every_sentence_with_a_name_is_played() -> None:
    """Every catalogue sentence that takes a name is one a scenario shows (or may show,
    :data:`MAYBE`): a new sentence with a name fails here until a scenario plays it."""
    claimed = set().union(*PLAYED.values(), *MAYBE.values())
    assert name_keys() - claimed == set(), "sentences with a name that no scenario shows"
    assert claimed - name_keys() == set(), "claimed sentences that take no name"


# -- Tichu -------------------------------------------------------------------------------------

def thread_of(emu: DiscordEmulator, table: Table) -> Any:
    return emu.channels[table.record.thread_id or table.channel_id]


async def open_table(g: Guild, bot: TichuBot, host: Any, game: str,
                     **options: Any) -> tuple[Any, Table]:
    """``/<game> new`` by ``host``: the lobby and its table."""
    await g.emu.wait_for_commands([game])
    lobby = await slash(g, host, f"{game} new", **options)
    table = max(bot.service.core.tables.values(), key=lambda t: t.id)
    return lobby, table


async def join_and_start(g: Guild, lobby: Any, host: Any, seated: dict[int, Any],
                         computers: dict[int, str] | None = None) -> None:
    emu = g.emu
    for seat, who in seated.items():
        join = component(emu.messages[lobby.id], "join", arg=str(seat))
        assert join is not None
        await (await emu.click(who, emu.messages[lobby.id], join.custom_id)).response()
    for seat, level in (computers or {}).items():
        cpu = component(emu.messages[lobby.id], "cpu", "s")
        await (await emu.select(host, emu.messages[lobby.id], cpu.custom_id,
                                [f"{seat}.{level}"])).response()
    start = component(emu.messages[lobby.id], "start")
    await (await emu.click(host, emu.messages[lobby.id], start.custom_id)).response()


async def confirm_call(person: Person, table: Table, call: str) -> None:
    """``person`` calls (Grand) Tichu from their panel: the button, then its confirmation."""
    panel = person.panel or await person.open_hand(table_message(person.emu, table))
    await person.emu.wait_for(lambda: component(panel, "ask", arg=call) is not None, 10.0,
                              what=f"the {call} button")
    await person.click(panel, component(panel, "ask", arg=call).custom_id)
    await person.emu.wait_for(lambda: component(panel, call) is not None, 10.0,
                              what=f"the {call} confirmation")
    assert await person.click(panel, component(panel, call).custom_id, action=True)


async def miss(bot: TichuBot, table: Table, seat: int) -> None:
    """``seat``, due, lets its time run out: its decision became due a turn timer ago, so
    the timer has a computer decide for it (for this seat only: the others' times hold);
    then the bot shows it. Called when the table is settled, the timer asleep."""
    seq = table.seq
    table.due_since[seat] = time.time() - 2 * (table.turn_timer or 0)
    bot.service.drivers.reset_timer(table)
    await until(lambda: table.seq > seq, "the timer's move")
    await settle(bot, table)


async def play_on(bot: TichuBot, table: Table, people: dict[int, Person], done: Any,
                  late: int | None = None) -> None:
    """The people act from their panels until ``done()``; ``late`` (a seat), due, lets
    its time run out instead (one seat's turn at a time, each shown)."""
    while not done():
        due = await settle(bot, table)
        assert due, "the game ended first"
        acting = [s for s in due if s != late]
        if acting:
            await people[acting[0]].act()
        else:
            await miss(bot, table, due[0])


async def test_hostile_names_at_a_tichu_table(emulator: DiscordEmulator, shown: Shown,
                                              tmp_path: Path) -> None:
    emu = emulator
    g = hostile_guild(emu, shown, [0, 1, 2, 3])
    a, b, c, d = g.people
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        await emu.wait_for_commands(["tichu"])
        await slash(g, b, "tichu stats", user=c)  # nothing yet, said with c's name
        await slash(g, c, "tichu history")
        lobby, table = await open_table(g, bot, a, "tichu", target=400,
                                        turn_timer=3600)
        await join_and_start(g, lobby, a, {1: b, 2: c, 3: d})
        people = {s: Person(emu, u, random.Random(s), table=table) for s, u in enumerate(g.people)}
        # The first deal, by its people: a Grand Tichu, a Tichu, the exchange, the play.
        await settle(bot, table)
        # The bot's own markup still works: the lobby mentions its people and where the
        # table plays, the table message counts its time down.
        started = render(emu.messages[lobby.id].content)
        assert {f"user:{u.id}" for u in g.people} | {f"channel:{table.channel_id}"} \
            <= set(started.mentions)
        assert any(n.kind == "timestamp" for n in render(table_message(emu, table).content).nodes)
        await confirm_call(people[0], table, "grand")
        await play_on(bot, table, people, lambda: table.game.phase is Phase.PLAY)
        await settle(bot, table)
        await confirm_call(people[1], table, "tichu")
        await play_on(bot, table, people, lambda: bool(table.game.history))
        await settle(bot, table)
        # Leave, a vote to end and its taking back, in the table's thread.
        thread = thread_of(emu, table)
        await slash(g, d, "tichu leave", thread)
        await slash(g, c, "tichu end", thread)
        await slash(g, c, "tichu end", thread)
        await settle(bot, table)
        # Carol lets her time run out three times: a computer keeps her seat until she is
        # back; then Bob, whose seat the host hands to a computer for good. (Alice and
        # Carol stay partners: the records name Carol as Alice's.)
        await play_on(bot, table, people, lambda: table.seats[2].away, late=2)
        back = await people[2].open_hand(table_message(emu, table))
        await emu.wait_for(lambda: component(back, "back") is not None, 10.0, what="Back")
        await people[2].click(back, component(back, "back").custom_id)
        await play_on(bot, table, people, lambda: table.seats[1].away, late=1)
        await slash(g, a, "tichu takeover", thread, seat=2)
        await quickly_to_the_end(bot, table)
        # The records, with the names.
        await slash(g, a, "tichu leaderboard")
        await slash(g, b, "tichu stats", user=a)
        history = await slash(g, c, "tichu history", user=a)
        pick = component(history, "hgame", "s")
        opened = await (await emu.select(c, history, pick.custom_id,
                                         [pick.options[0].value])).response()
        export = component(opened, "hexport")
        await (await emu.click(c, opened, export.custom_id)).response()
        # A second table, closed by its host.
        lobby, other = await open_table(g, bot, d, "tichu")
        await join_and_start(g, lobby, d, {}, {1: "easy", 2: "easy", 3: "easy"})
        await slash(g, d, "tichu abandon", thread_of(emu, other))
        await bot.presenter.idle.wait()
    g.check()
    played(g, "tichu")


# -- Talk at a table in direct messages ---------------------------------------------------------

async def test_hostile_names_talk_at_a_table_in_dms(emulator: DiscordEmulator, shown: Shown,
                                                    tmp_path: Path) -> None:
    """Each person at a table in DMs says a phrase: every panel shows each line, the
    hostile name as text, in the reader's language."""
    emu = emulator
    g = hostile_guild(emu, shown, [1, 2, 3, 4], locales=("fr", "el", "de", "en-US"))
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        table = await bot.service.lobby.open_direct(
            game="tichu", seats=[DirectSeat(u.id, name, u.locale)
                                 for u, name in zip(g.people, g.names, strict=True)],
            options={"target": 200})
        await drawn(bot, table)
        for seat, (user, phrase) in enumerate(zip(g.people, ("gl", "hello", "wait", "gg"),
                                                  strict=True)):
            panel = panel_of(emu, table, seat)
            menu = component(panel, "talk", "s")
            assert menu is not None
            reply = await (await emu.select(user, panel, menu.custom_id, [phrase])).response()
            assert reply.id == panel.id
        await drawn(bot, table)
        assert len(table.talk) == 4
        await bot.presenter.idle.wait()
    g.check(pings=False)  # nobody is pinged in DMs: each panel is the person's own
    played(g, "talk")


# -- away at a table in DMs --------------------------------------------------------------------

async def test_hostile_names_away_at_a_table_in_dms(emulator: DiscordEmulator, shown: Shown,
                                                    tmp_path: Path) -> None:
    """A table in DMs: one person's time runs out (a computer plays for them), then they
    are gone too long and out; the others read both in their DM panels."""
    from tests.bot.test_away import away_after_grand, people
    from tests.bot.test_direct_tables import shown as drawn

    emu = emulator
    g = hostile_guild(emu, shown, [1, 3, 5, 9])
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        seats = [DirectSeat(u.id, n, u.locale) for u, n in zip(g.people, g.names, strict=True)]
        table = await bot.service.lobby.open_direct(
            game="tichu", seats=list(seats), options={"target": 200, "turn_timer": 60})
        await drawn(bot, table)
        others = people(emu, bot, table, g.people)
        await away_after_grand(bot, emu, table, others)
        while 0 not in table.out:
            due = await drawn(bot, table)
            assert due, "the game ended first"
            await asyncio.gather(*(others[s].act() for s in due))
        await drawn(bot, table)
    g.check(pings=False)
    played(g, "away")


# -- Chinois, Tysiacha, Tichu for six ----------------------------------------------------------

async def people_of(bot: TichuBot, table_id: int, g: Guild, choices: Any) -> dict[int, Person]:
    """The people seated at the table, each acting from a panel of their own (opened
    anew: after a restart too)."""
    table = await bot.service.core.get(table_id)
    seated = {}
    for i, user in enumerate(g.people):
        seat = table.seat_of(user.id)
        if seat is not None:
            seated[seat] = Person(g.emu, user, random.Random(i), table=table,
                                  **({} if choices is None else {"choices": choices}))
    return seated


async def play_to_the_end(bot: TichuBot, table: Table, people: dict[int, Person]) -> None:
    while due := await settle(bot, table, timeout=60):
        await people[due[0]].act()
    await bot.presenter.idle.wait()


async def quickly_to_the_end(bot: TichuBot, table: Table) -> None:
    """From a settled table on, every turn timer runs out at once: the timer plays each
    late seat, three times and a computer keeps it, to the game's end."""
    await settle(bot, table)
    table.record.options["turn_timer"] = 0.01
    bot.service.drivers.reset_timer(table)
    await until(lambda: table.status is TableStatus.FINISHED, "the game's end", 600)
    await bot.presenter.idle.wait()


@pytest.mark.parametrize(("game", "chosen", "choices"), [
    ("chinois", [4, 5, 6, 7], ChinoisChoices),
    ("tysiacha", [8, 9, 0], TysiachaChoices),
])
async def test_hostile_names_at_chinois_and_tysiacha(
        emulator: DiscordEmulator, shown: Shown, tmp_path: Path, game: str,
        chosen: list[int], choices: Any) -> None:
    emu = emulator
    g = hostile_guild(emu, shown, chosen)
    host, *others = g.people
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_table(g, bot, host, game, turn_timer=3600)
        await join_and_start(g, lobby, host, dict(enumerate(others, start=1)))
        people = await people_of(bot, table.id, g, choices())
        # The first deal by its people, from their panels; the rest by the turn timers.
        await play_on(bot, table, people, lambda: bool(table.game.history))
        await quickly_to_the_end(bot, table)
        await slash(g, others[0], f"{game} stats", user=host)
    g.check()
    played(g, game)


async def test_hostile_names_at_tichu_for_six(emulator: DiscordEmulator, shown: Shown,
                                             tmp_path: Path) -> None:
    emu = emulator
    g = hostile_guild(emu, shown, [4, 5, 6, 7, 8, 9])
    host, *others = g.people
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_table(g, bot, host, "tichu", players=6, target=50,
                                        turn_timer=3600)
        await join_and_start(g, lobby, host, dict(enumerate(others, start=1)))
        people = await people_of(bot, table.id, g, SixChoices())
        # The first deal by its people: each gives a card to each partner, from menus
        # named after them, and leads the Dog to the partner of their choice, from
        # buttons named after them; the rest by the turn timers.
        await play_on(bot, table, people, lambda: bool(table.game.history))
        await quickly_to_the_end(bot, table)
        await slash(g, others[0], "tichu stats", user=host, players="tichu6")
    g.check()
    played(g, "six")


# -- the daily boards, an event ------------------------------------------------------------------

DAILY = {"daily_boards": 1, "field_tables": 2, "daily_level": "normal"}


async def test_hostile_names_in_the_daily_and_an_event(emulator: DiscordEmulator,
                                                       shown: Shown, tmp_path: Path) -> None:
    emu = emulator
    g = hostile_guild(emu, shown, [4, 5, 6, 7])
    a, b, c, d = g.people
    async with running(emu, tmp_path / "db.sqlite3", **DAILY) as bot:
        # The day's board, alone with three computers: a Grand Tichu, then the result
        # (how the best here played it), the standings and the share line.
        await emu.wait_for_commands(["tichu"])
        day = await slash(g, a, "tichu daily play")
        panel = await (await emu.click(a, day, component(day, "dplay").custom_id)).response()
        board = max((t for t in bot.service.core.tables.values() if t.seat_of(a.id) == 0),
                    key=lambda t: t.id)
        alone = Person(emu, a, random.Random(11), panel=panel, table=board)
        await settle(bot, board)
        await confirm_call(alone, board, "grand")
        while await settle(bot, board, timeout=60):
            await alone.act()
        await bot.jobs.idle()
        last = emu.messages[panel.id]
        await (await emu.click(a, last, component(last, "dresult").custom_id)).response()
        await slash(g, b, "tichu daily standings")
        day = await slash(g, a, "tichu daily play")
        await (await emu.click(a, day, component(day, "dshare").custom_id)).response()
        # An event of one board, four people at its table: each board's marks, and the
        # event's standings at its end.
        lobby, table = await open_table(g, bot, b, "tichu", duplicate=1)
        await join_and_start(g, lobby, b, {1: c, 2: a, 3: d})
        await bot.jobs.idle()
        people = await people_of(bot, table.id, g, None)
        await play_to_the_end(bot, table, people)
        assert table.status is TableStatus.FINISHED
        code = table.record.options["event"]
        title = t("en", "table.event_standings", event=code)
        [standings] = [m for m in emu.channel_messages(table.channel_id)
                       if m.content.startswith(title)]
        assert sum(hostile_value(line) for line in standings.content.splitlines()) == 4
    g.check()
    played(g, "daily")


# -- a practice table's coach, refusals, /privacy ------------------------------------------------

async def test_hostile_names_with_the_coach_refusals_and_privacy(
        emulator: DiscordEmulator, shown: Shown, tmp_path: Path) -> None:
    emu = emulator
    g = hostile_guild(emu, shown, [8, 9, 2, 6])
    a, b, c, d = g.people
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        lobby, table = await open_table(g, bot, a, "tichu", practice=True,
                                        target=50, turn_timer=3600)
        await join_and_start(g, lobby, a, {1: b, 2: c, 3: d})
        people = await people_of(bot, table.id, g, None)
        # A hint on the Grand Tichu decision.
        await settle(bot, table)
        panel = await people[0].open_hand(table_message(emu, table))
        await emu.wait_for(lambda: component(panel, "hint") is not None, 10.0,
                           what="the Hint button")
        await (await emu.click(a, panel, component(panel, "hint").custom_id)).response()
        # A hint on the exchange: its options name who gets each card.
        await play_on(bot, table, people, lambda: table.game.phase is Phase.EXCHANGE)
        panel = people[0].panel
        await emu.wait_for(lambda: component(panel, "hint") is not None, 10.0,
                           what="the Hint button")
        await (await emu.click(a, panel, component(panel, "hint").custom_id)).response()
        # Refusals: My hand of someone not seated, a command where no such table is.
        message = table_message(emu, table)
        await (await emu.click(g.stranger, message, component(message, "hand").custom_id)
               ).response()
        await slash(g, d, "chinois leave")
        await play_on(bot, table, people, lambda: bool(table.game.history))
        await bot.jobs.idle()
        summary = next(m for m in emu.channel_messages(table.channel_id)
                       if component(m, "review") is not None)
        await (await emu.click(a, summary, component(summary, "review").custom_id)).response()
        await quickly_to_the_end(bot, table)
        # Play now: a block, its undoing, and an unblock of someone not blocked name them.
        await slash(g, a, "tichu play block", user=c)
        await slash(g, a, "tichu play unblock", user=c)
        await slash(g, a, "tichu play unblock", user=c)
        # /privacy: what is stored, the export, the erase asked and done.
        await emu.wait_for_commands(["privacy"])
        await slash(g, b, "privacy show")
        await slash(g, b, "privacy export")
        asked = await slash(g, b, "privacy erase")
        await (await emu.click(b, asked, component(asked, "perase").custom_id)).response()
        await slash(g, c, "tichu history", user=b)  # b is now "a former player"
    g.check()
    played(g, "coach")


# -- the end of a game in direct messages ------------------------------------------------------

async def test_hostile_names_at_the_end_of_a_game_in_dms(
        emulator: DiscordEmulator, shown: Shown, tmp_path: Path) -> None:
    """A game in DMs ends: each person's rating change, and Rematch's who asked so far."""
    emu = emulator
    g = hostile_guild(emu, shown, [0, 3])
    a, b = g.people
    async with running(emu, tmp_path / "db.sqlite3") as bot:
        seats: list[DirectSeat | str] = [DirectSeat(a.id, g.names[0], "en-US"), "easy",
                                         DirectSeat(b.id, g.names[1], "fr"), "easy"]
        table = await bot.service.lobby.open_direct(game="tichu", seats=seats,
                                                    options={"target": 1})
        await bot.service.results.finish_for_people(table, "easy")
        await until(lambda: table.status is TableStatus.FINISHED, "the game's end")
        await dm_panels_shown(bot, table)
        panel = emu.messages[table.record.options["dm_panels"]["0"][1]]
        await (await emu.click(a, panel, component(panel, "rematch").custom_id)).response()
        await dm_panels_shown(bot, table)
    g.check(pings=False)  # DMs ping nobody
    played(g, "direct")


"""What people write is text (issue 51): ``bot.i18n.text`` and the sentences ``t`` fills.

Each escaped text is read back as Discord's client shows it (the local Discord's
``tests/emulator/markdown.py``): whatever a person writes shows as written — no
formatting, no mention, no link — in a sentence, in bold, at a line's start or inside a
code span."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import Text, join, plain, t
from bot.i18n.text import CODE_BACKTICK, clean, code, cut, escape
from tests.emulator.markdown import invisible, pings, render

HOSTILE = [
    "@everyone", "@here", "<@&123456789012345678>", "<#123456789012345678>",
    "<@123456789012345678>", "@everyone [Free Nitro](https://evil.example)",
    "https://evil.example/win", "<https://evil.example>", "**bold**", "__under__", "*em*",
    "_em_", "~~gone~~", "||spoiler||", "`tick`", "```block```", "> quote", ">>> all",
    "# heading", "### small heading", "-# subtext", "- item", "* item", "+ item",
    "1. first", "¯\\_(ツ)_/¯", "a\\", "\\", "<:emoji:123456789012345678>", "<t:0:R>",
    "</command:123456789012345678>", "line\nbreak", "Zo\u200bë", "\u202eevil",
    "\u2066isolated", "דוד", "🃏🔥", "~~Strike~~||Spoil||__Under__ 32c",
]


def shows_as_written(source: str, written: str) -> bool:
    """``source`` shows ``written`` (cleaned) as it is: one run of plain text, nothing
    formatted, no mention, no link."""
    shown = render(source)
    expected = invisible(clean(written))
    return not shown.formatted and invisible("".join(shown.runs())) == expected


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_shows_as_written(name: str) -> None:
    assert shows_as_written(escape(name), name)
    assert plain(t("en", "log.tichu", name=name)) == f"{clean(name)} calls **Tichu!**"


@given(st.text(max_size=40))
@settings(max_examples=400, deadline=None)
def test_any_text_shows_as_written(name: str) -> None:
    assert shows_as_written(escape(name), name)
    assert not pings(1, 1, escape(name), None, mentionable_roles=set(),
                     mention_everyone=True).unnamed


@given(st.text(max_size=30))
@settings(max_examples=200, deadline=None)
def test_any_name_in_a_sentence_shows_as_written(name: str) -> None:
    """In a sentence, around the bot's own bold: the name, then the bold word."""
    shown = render(t("en", "log.tichu", name=name))
    runs = [invisible(r) for r in shown.runs()]
    assert runs[-1] == "Tichu!" and shown.mentions == [] and shown.links == []
    assert "".join(runs[:-1]) == invisible(clean(name)) + " calls "


@pytest.mark.parametrize("name", HOSTILE)
def test_inside_a_code_span_a_name_shows_as_written(name: str) -> None:
    row = t("en", "leaderboard.row", rank=1, name=name, games=3, wins=1, rate=33, extra="")
    shown = render(row)
    assert shown.nodes[0].kind == "code"
    assert shown.mentions == [] and shown.links == []
    column = invisible(shown.nodes[0].text)[3:3 + 17]
    assert column.replace(CODE_BACKTICK, "`").rstrip() == invisible(clean(name))[:17].rstrip()


def test_values_the_bot_makes_are_kept() -> None:
    """Numbers, and the bot's own text (a sentence, a mention it pings) go in as they are;
    every other value is escaped."""
    mention = Text("<@5>")
    assert t("en", "ping.turn", mentions=mention).startswith("<@5>, your turn!")
    assert t("en", "ping.turn", mentions="<@5>").startswith("\\<@5\\>, your turn!")
    assert t("en", "table.countdown", when=Text("<t:9:R>")) == \
        t("en", "table.countdown", when=Text("<t:9:R>")).read
    assert t("en", "lobby.timer", seconds=90) == "Turn timer: 90 s (then a computer player acts)."
    # French: the preposition before an escaped name.
    assert t("fr", "hand.their_turn", name="**Alice**") == "C’est au tour d’\\*\\*Alice\\*\\*."
    assert plain(t("fr", "hand.their_turn", name="**Alice**")) == "C’est au tour d’**Alice**."


def test_an_image_description_is_no_markdown() -> None:
    """``alt.`` sentences are descriptions: their names cleaned, never escaped, and a
    plain ``str``, escaped as any other text should it fill a message."""
    said = t("en", "alt.seat", name="**Bob**\u202e", state="away")
    assert said == "**Bob**: away." and not isinstance(said, Text)
    assert t("en", "log.tichu", name=said) == "\\*\\*Bob\\*\\*: away. calls **Tichu!**"


def test_join_keeps_the_bot_s_text() -> None:
    said = t("en", "log.tichu", name="**A**")
    joined = join(", ", [said, "**B**"])
    assert joined == "\\*\\*A\\*\\* calls **Tichu!**, \\*\\*B\\*\\*"
    assert joined.read == "**A** calls **Tichu!**, **B**"
    assert t("en", "log.gift", name="x", to=joined).count("\\*\\*A") == 1  # escaped once
    assert str.join(", ", [said]) == said and not isinstance(", ".join([said, said]), Text)


def test_a_text_the_bot_wrote_survives_what_the_bot_does_with_it() -> None:
    said = t("en", "button.gift", name="**Bob**")
    assert said[:80] is said and plain(said[:80]) == "Give to **Bob**"
    assert pickle.loads(pickle.dumps(said)).read == said.read


@pytest.mark.parametrize(("text", "limit", "expected"), [
    ("abcdef", 10, "abcdef"),
    ("abcdef", 4, "abc…"),
    ("ab\\*cd", 4, "ab…"),        # never a backslash that escaped what was cut off
    ("ab\\\\cd", 5, "ab\\\\…"),   # an escaped backslash is whole
    ("x \u2068דודדוד\u2069 y", 6, "x \u2068ד\u2069…"),  # an isolate is closed
])
def test_cut_keeps_escapes_whole(text: str, limit: int, expected: str) -> None:
    assert cut(text, limit) == expected and len(cut(text, limit)) <= limit


def test_clean_drops_what_shows_nothing_and_isolates_right_to_left() -> None:
    assert clean(" Zo\u200bë\u202e\u2066 \n x ") == "Zoë   x"  # a line break is a space
    assert clean("דוד") == "\u2068דוד\u2069"
    assert clean("👩\u200d👩\u200d👧") == "👩\u200d👩\u200d👧"  # the joiner of emoji stays
    assert code("`x` <@&123456789012345678>") == "ˋxˋ <@\u200b&123456789012345678>"
    assert code("abcdef", "<4.3") == "abc "  # cut and padded as the column says

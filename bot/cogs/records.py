"""``/<game> leaderboard``, ``stats`` and ``history``, and their buttons and selects.

Their components are not tied to a table: their custom IDs use table ``0`` and one of
:data:`RECORD_ACTIONS`, with the game (and page) in the argument; the guild is always the
clicker's own, so a forged ID can only show what the clicker may see anyway.

``tichu:b:0:-:lbpage:<game>.<page>.<p|n>[.g]``  leaderboard page (0-based; previous/next;
``.g``: the global board, which answers in direct messages too)
``tichu:s:0:-:hgame:<game>``           history select; the value is a game id

``<game>`` is a name games are stored and rated under (``GameSpec.record_names``): a
game's own, or a variant's with its own rating pool (``tichu6``, six-player Tichu).
``tichu:b:0:-:hexport:<game id>``      the replay file of one game
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.games.base import image_file
from bot.games.registry import all_specs
from bot.games.shared import Part, alt_text, person_name
from bot.games.ui import Control, GameButton, GameSelect, view_of
from bot.i18n import Text, join, t
from bot.i18n.text import DESCRIPTION, TITLE, cut
from bot.ratings import TEAM_GAMES
from bot.render import filename
from bot.render.ratings import BOARD_ROWS, BoardLine, render_leaderboard, render_rating_chart
from bot.store.models import GamePlayerResult, GameResult, LeaderboardRow
from bot.store.personal import is_former
from bot.tables import TableError, ids
from bot.workers import offload

if TYPE_CHECKING:
    from bot.tables import TableService


class Host(Protocol):
    """The bot, as the records commands use it."""

    service: TableService


PAGE = BOARD_ROWS
"""Lines per leaderboard page: as many as its image holds legibly (the text lists the same)."""
HISTORY = 10
RECORD_ACTIONS = {"lbpage", "hgame", "hexport"}
EPHEMERAL_ACTIONS = {"hgame", "hexport"}
_PAGE_ARG = re.compile(r"(?P<game>[a-z0-9]{1,16})\.(?P<page>\d{1,4})\.[pn](?P<world>\.g)?")
SCOPES = ("server", "global")
"""The boards ``leaderboard`` shows: the server's, or the global one (issue 53: every
server's games and direct messages', naming only those who chose to appear)."""


def record_names() -> dict[str, str]:
    """Every name finished games are stored under, with its game (``tichu6`` -> ``tichu``)."""
    return {record: name for name, spec in all_specs().items() for record in spec.record_names}


def _locale(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


def player_name(locale: str, player: GamePlayerResult) -> str:
    """A seat's name in a finished game: a computer's level, a person's name then, or "a
    former player" for a person who erased their data."""
    if player.user_id is None:
        return t(locale, "seat.computer", seat=player.seat + 1,
                 level=t(locale, f"level.{player.bot_level or 'normal'}"))
    return person_name(locale, "" if is_former(player.user_id) else player.name)


def _rating(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


# -- the pictures in words ---------------------------------------------------------

def decimal(value: float) -> str:
    """A rating as the pictures write it: one decimal, a true minus sign."""
    return f"{value:.1f}".replace("-", "−")


def rating_row(locale: str, line: BoardLine) -> str:
    """A leaderboard line in words: ``3. Léa: rating 31.2, 96 games, 56% won``."""
    rating = "—" if line.rating is None else decimal(line.rating)
    return t(locale, "alt.board.row", rank=line.rank, name=line.name, rating=rating,
             games=line.games, rate=round(100 * line.win_rate))


def board_alt(locale: str, title: str, lines: Sequence[BoardLine], own: BoardLine | None,
              row: Callable[[str, BoardLine], str]) -> str:
    """A leaderboard picture (or the daily standings', which look the same) in words: its
    ``title``, the clicker's own line if it is below the page, then each line in order,
    the clicker's marked (the last lines given up first)."""
    parts: list[Part | str] = [title]
    if own is not None:
        parts.append(t(locale, "alt.board.own", row=row(locale, own)))
    for line in lines:
        said = row(locale, line)
        parts.append(Part(t(locale, "alt.board.mine", row=said) if line.mine else said, 1))
    return alt_text(parts)


def chart_alt(locale: str, values: Sequence[float]) -> str:
    """The rating chart in words: how many games, the first and last ratings, the highest
    and lowest; then every rating, game after game (given up first)."""
    if not values:
        return alt_text([t(locale, "ratings.chart")])
    parts: list[Part | str] = [t(locale, "alt.chart", title=t(locale, "ratings.chart"),
                                 games=len(values), first=decimal(values[0]),
                                 last=decimal(values[-1]), high=decimal(max(values)),
                                 low=decimal(min(values)))]
    parts.append(Part(t(locale, "alt.chart_values",
                        values=", ".join(decimal(v) for v in values)), 1))
    return alt_text(parts)


# -- leaderboard -------------------------------------------------------------------

def board_of(interaction: discord.Interaction[Any], scope: str | None) -> int | None:
    """The board ``scope`` asks for: the server's (its id) or the global one (None), the
    default in a server being the server's, in direct messages (no server) the global
    one, where a server's cannot be asked for."""
    if scope is not None and scope not in SCOPES:
        raise TableError("forged")
    if interaction.guild_id is None:
        if scope == "server":
            raise TableError("scope_server")
        return None
    return None if scope == "global" else interaction.guild_id


async def leaderboard_message(bot: Host, locale: str, guild_id: int | None, game: str,
                              user_id: int, page: int) -> dict[str, Any] | None:
    """The leaderboard page as message fields (embed, file, view); None if empty.
    ``guild_id`` None: the global board, which lists only those who chose to appear and
    says how many others it leaves out; the caller's own line only if they chose to
    appear (the message is seen by others: :func:`own_place` tells them privately)."""
    repo = bot.service.repo
    hidden = 0
    if guild_id is None:
        counted = await repo.global_board_size(game)
        size, hidden = counted.shown, counted.hidden
        if size + hidden == 0:
            return None
    else:
        size = await repo.leaderboard_size(guild_id, game)
        if size == 0:
            return None
    pages = max(1, -(-size // PAGE))
    page = min(max(page, 0), pages - 1)
    rows = await repo.leaderboard(guild_id, game, limit=PAGE, offset=page * PAGE)
    own: LeaderboardRow | None = None
    if all(row.user_id != user_id for row in rows) and (
            guild_id is not None or await repo.standings_choice(user_id)):
        own = await repo.player_stats(guild_id, game, user_id)

    def line(row: LeaderboardRow) -> BoardLine:
        return BoardLine(row.rank, row.name, row.rating, row.games, row.win_rate,
                         mine=row.user_id == user_id)


    title = t(locale, f"leaderboard.title.{game}")
    scope = t(locale, "leaderboard.scope.global" if guild_id is None else "leaderboard.scope.server")
    headers = [t(locale, f"ratings.col.{c}") for c in ("rank", "name", "rating", "games", "rate")]
    footer = t(locale, "ratings.page", page=page + 1, pages=pages)
    lines = [line(r) for r in rows]
    mine = None if own is None else line(own)
    image = await offload(render_leaderboard, headers, lines, mine, scope)
    alt = board_alt(locale, t(locale, "alt.board.title", title=f"{title} · {scope}",
                              page=page + 1, pages=pages), lines, mine, rating_row)
    text = [t(locale, "leaderboard.header")]
    for row in [*rows, *([own] if own else [])]:
        text.append(t(locale, "leaderboard.row", rank=row.rank, name=row.name, games=row.games,
                      wins=row.wins, rate=round(100 * row.win_rate),
                      extra=f"{_rating(row.rating)} · " + spec_extra(locale, game, row.stats)))
    if hidden:
        text.append(t(locale, "leaderboard.hidden", count=hidden))
    embed = discord.Embed(title=cut(f"{title} · {scope}", TITLE),
                          description=cut("\n".join(text), DESCRIPTION),
                          colour=discord.Colour.dark_green())
    embed.set_image(url=f"attachment://{filename('leaderboard')}")
    embed.set_footer(text=footer)
    world = ".g" if guild_id is None else ""
    buttons = [
        GameButton(ids.button(0, "lbpage", f"{game}.{max(page - 1, 0)}.p{world}"),
                   label=t(locale, "ratings.previous"), disabled=page == 0),
        GameButton(ids.button(0, "lbpage", f"{game}.{min(page + 1, pages - 1)}.n{world}"),
                   label=t(locale, "ratings.next"), disabled=page >= pages - 1),
    ]
    return {"embed": embed, "file": image_file(image, filename("leaderboard"), alt),
            "view": view_of(*buttons)}


async def leaderboard_command(bot: Host, interaction: discord.Interaction[Any],
                              game: str, scope: str | None = None) -> None:
    """``/<game> leaderboard [scope]``: the server's board, or the global one (the
    default in direct messages); then, on the global one, the caller's own place,
    privately, if they chose not to appear."""
    if game not in record_names():
        raise TableError("forged")
    board = board_of(interaction, scope)
    locale = _locale(interaction)
    await interaction.response.defer(thinking=True)
    message = await leaderboard_message(bot, locale, board, game, interaction.user.id, 0)
    if message is None:
        await interaction.followup.send(t(
            locale, "leaderboard.empty" if board is not None else "leaderboard.empty_global"))
        return
    await interaction.followup.send(**message)
    if board is None:
        await own_place(bot, interaction, locale, game)


async def own_place(bot: Host, interaction: discord.Interaction[Any], locale: str,
                    game: str) -> None:
    """The caller's global rating and place, in a message only they see, when the global
    board does not name them (they did not choose to appear): their own data."""
    repo = bot.service.repo
    user_id = interaction.user.id
    if await repo.standings_choice(user_id):
        return
    row = await repo.player_stats(None, game, user_id)
    if row is None:
        return
    counted = await repo.global_board_size(game)
    await interaction.followup.send(t(locale, "leaderboard.own_hidden", rating=_rating(row.rating),
                                      rank=row.rank, total=counted.shown + counted.hidden),
                                    ephemeral=True)


# -- stats ---------------------------------------------------------------------------

async def stats_command(bot: Host, interaction: discord.Interaction[Any], game: str,
                        who: discord.User | discord.Member) -> None:

    assert interaction.guild_id is not None
    if game not in record_names():
        raise TableError("forged")
    locale = _locale(interaction)
    repo = bot.service.repo
    row = await repo.player_stats(interaction.guild_id, game, who.id)
    if row is None:
        await interaction.response.send_message(
            t(locale, "stats.none", name=who.display_name), ephemeral=True)
        return
    await interaction.response.defer(thinking=True)
    s = row.stats
    lines = [t(locale, "stats.rating", rating=_rating(row.rating), rank=row.rank),
             t(locale, "stats.body", games=row.games, wins=row.wins,
               rate=round(100 * row.win_rate)),
             t(locale, f"stats.{game}", **{k: s.get(k, 0) for k in STAT_KEYS},
               per_deal=round(s.get("points", 0) / max(1, s.get("deals", 0)), 1))]
    partners = await repo.partners(interaction.guild_id, game, who.id, limit=1)
    if partners:
        best = partners[0]
        name = best.name
        if best.player.startswith("u:"):
            name = person_name(locale, name)
        if best.player.startswith("cpu:"):
            name = t(locale, "ratings.cpu", level=t(locale, f"level.{best.player[4:]}"))
        kind = "team" if game in TEAM_GAMES else "table"
        lines.append(t(locale, f"stats.partner.{kind}", name=name, wins=best.wins,
                       games=best.games))
    embed = discord.Embed(title=t(locale, f"stats.title.{game}", name=who.display_name),
                          description="\n".join(lines), colour=discord.Colour.dark_green())
    history = await repo.rating_history(interaction.guild_id, game, who.id)
    files = []
    if history:
        chart = await offload(render_rating_chart, t(locale, "ratings.chart"),
                              [p.ordinal for p in history],
                              t(locale, "ratings.chart_caption", games=len(history)))
        files.append(image_file(chart, filename("rating"),
                                chart_alt(locale, [p.ordinal for p in history])))
        embed.set_image(url=f"attachment://{filename('rating')}")
    await interaction.followup.send(embed=embed, files=files)


# -- history -------------------------------------------------------------------------

def result_text(locale: str, result: GameResult) -> str:
    """Who scored what, winners marked: ``alice & carol 1010 🏆 · bob & dave 600``; the
    bot's :class:`~bot.i18n.Text`, its names escaped (it fills a sentence, or shows as
    it is under a game's title)."""
    won = t(locale, "history.won")

    def side(names: list[str], score: int, winner: bool) -> Text:
        return join(" ", [join(" & ", names), Text(f"{score}{won if winner else ''}")])

    if result.game in TEAM_GAMES:
        return join(" · ", [
            side([player_name(locale, p) for p in result.players if p.team == team],
                 result.scores[team] if team < len(result.scores) else 0,
                 result.winner == team)
            for team in (0, 1)])
    ordered = sorted(result.players,
                     key=lambda p: (-_score(result, p), p.seat))
    return join(" · ", [side([player_name(locale, p)], _score(result, p), p.won)
                        for p in ordered])


def _score(result: GameResult, player: GamePlayerResult) -> int:
    return result.scores[player.team] if 0 <= player.team < len(result.scores) else 0


def _newest_first(result: GameResult) -> tuple[float, int]:
    moment = result.finished_at.timestamp() if result.finished_at else 0.0
    return (-moment, -(result.id or 0))


def _date(result: GameResult) -> str:
    return result.finished_at.strftime("%Y-%m-%d %H:%M") if result.finished_at else "?"


async def history_command(bot: Host, interaction: discord.Interaction[Any], game: str,
                          who: discord.User | discord.Member) -> None:
    assert interaction.guild_id is not None
    locale = _locale(interaction)
    repo = bot.service.repo
    games = []
    spec = all_specs()[game]
    for record in spec.history_names:
        if record not in spec.record_names and who.id != interaction.user.id:
            continue  # duplicate boards: only their own players see them (no spoiler)
        games += await repo.recent_games(interaction.guild_id, record, user_id=who.id,
                                         limit=HISTORY)
    games = sorted(games, key=_newest_first)[:HISTORY]
    if not games:
        await interaction.response.send_message(
            t(locale, "history.empty", name=who.display_name), ephemeral=True)
        return
    labelled = len(spec.history_names) > 1
    lines = [t(locale, "history.line", id=g.id, date=_date(g),
               result=join(" · ", [t(locale, f"variant.{g.game}"), result_text(locale, g)])
               if labelled else result_text(locale, g))
             for g in games]
    title = t(locale, "history.title", game=t(locale, f"game.{game}"), name=who.display_name)
    embed = discord.Embed(title=cut(title, TITLE), description=cut("\n".join(lines), DESCRIPTION),
                          colour=discord.Colour.dark_green())
    options = [discord.SelectOption(label=t(locale, "history.option", id=g.id,
                                            date=_date(g))[:100], value=str(g.id))
               for g in games]
    select = GameSelect(ids.select(0, "hgame", game), options=options,
                        placeholder=t(locale, "history.select"))
    await interaction.response.send_message(embed=embed, view=view_of(select))


def game_message(locale: str, result: GameResult,
                 user_id: int | None = None) -> tuple[str, discord.ui.View]:
    lines = [t(locale, "history.game", id=result.id, date=_date(result),
               game=t(locale, f"game.{result.game}")),
             result_text(locale, result)]
    export = GameButton(ids.button(0, "hexport", str(result.id)),
                        label=t(locale, "history.export"), style=discord.ButtonStyle.primary)
    items: list[Control] = [export]
    deals = result.replay.get("deals")
    if result.replay.get("game") == "tichu" and isinstance(deals, list) and deals \
            and any(p.user_id == user_id for p in result.players):
        # The coach's review of each deal (the latest 25), the clicker's own seat.
        numbers = range(max(0, len(deals) - 25), len(deals))
        items.append(GameSelect(
            ids.select(0, "review", str(result.id)),
            options=[discord.SelectOption(label=t(locale, "history.review_deal",
                                                  number=n + 1), value=str(n))
                     for n in numbers],
            placeholder=t(locale, "history.review")[:150], row=1))
    return "\n".join(lines), view_of(*items)


def replay_file(result: GameResult, locale: str) -> discord.File:
    data = json.dumps(result.replay, indent=1).encode()
    return discord.File(io.BytesIO(data), f"replay-{result.id}.json",
                        description=t(locale, "alt.replay", id=result.id,
                                      game=t(locale, f"game.{result.game}")))


# -- components ----------------------------------------------------------------------

async def handle_component(bot: Host, interaction: discord.Interaction[Any],
                           cid: ids.ComponentId, values: Sequence[str]) -> None:
    """A click on a leaderboard, history or game message (already deferred); the global
    board's pages answer in direct messages too, the rest in a server only."""
    guild_id = interaction.guild_id
    if cid.table != 0 or cid.arg is None:
        raise TableError("forged")
    locale = _locale(interaction)
    if cid.action == "lbpage":
        match = _PAGE_ARG.fullmatch(cid.arg)
        if match is None or match["game"] not in record_names() or (
                guild_id is None and not match["world"]):
            raise TableError("forged")
        board = None if match["world"] else guild_id
        message = await leaderboard_message(bot, locale, board, match["game"],
                                            interaction.user.id, int(match["page"]))
        if message is None:
            raise TableError("no_game")
        await interaction.edit_original_response(
            embed=message["embed"], attachments=[message["file"]], view=message["view"])
        return
    if guild_id is None:
        raise TableError("forged")
    if cid.action == "hgame":
        if cid.arg not in all_specs() or len(values) != 1 or not values[0].isdigit():
            raise TableError("forged")
        found = await bot.service.repo.load_game(guild_id, int(values[0]))
        if found is None or found.game not in all_specs()[cid.arg].history_names:
            raise TableError("no_game")
        _check_spoiler(found, interaction.user.id)
        content, view = game_message(locale, found, interaction.user.id)
        await interaction.followup.send(content, view=view, ephemeral=True)
        return
    if cid.action == "hexport":
        if not cid.arg.isdigit() or len(cid.arg) > 18:
            raise TableError("forged")
        found = await bot.service.repo.load_game(guild_id, int(cid.arg))
        if found is None:
            raise TableError("no_game")
        _check_spoiler(found, interaction.user.id)
        await interaction.followup.send(t(locale, "history.exported", id=found.id),
                                        file=replay_file(found, locale), ephemeral=True)
        return
    raise TableError("forged")


def _check_spoiler(result: GameResult, user_id: int) -> None:
    """A game of duplicate boards (unrated) is shown only to its own players: its boards
    may still be played by others."""
    if not result.rated and all(p.user_id != user_id for p in result.players):
        raise TableError("no_game")


STAT_KEYS = ("deals", "tichu_called", "tichu_won", "grand_called", "grand_won",
             "double_victories", "triple_victories", "bombs", "points", "exact_bids", "contracts", "contracts_won",
             "barrels", "concessions")


def spec_extra(locale: str, game: str, stats: dict[str, int]) -> str:
    """The game's own column of the leaderboard."""
    return t(locale, f"leaderboard.extra.{game}", **{k: stats.get(k, 0) for k in STAT_KEYS})

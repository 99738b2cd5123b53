"""The coach's buttons (issue 25): a hint at a practice table, a review of a deal.

The controller routes them here (:data:`COACH_ACTIONS`), each answered with a new
private message:

``tichu:b:<table>:-:hint``               the Hint button of a seat's panel (practice tables)
``tichu:b:<table>:-:review:<deal>``      Review under a deal's summary (0-based deal)
``tichu:s:0:-:review:<game id>``          the history's select of a game's deals; the value is
                                         the deal (a game stored before reviews were made
                                         has its review made on demand)

A review is the clicker's own: the seat is found from who clicks, never from the ID,
so a forged ID shows nothing of anyone else's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.games.base import image_file
from bot.games.tichu.coach import Coach, review_pictures
from bot.i18n.text import CONTENT, cut
from bot.render import filename
from bot.store.models import GameResult
from bot.tables import TableError, TableService, ids

COACH_ACTIONS = {"hint", "review"}
EPHEMERAL_ACTIONS = COACH_ACTIONS
MAX_DEAL = 10_000


class CoachHost(Protocol):
    service: TableService
    coach: Coach


def _locale(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


async def handle_component(host: CoachHost, interaction: discord.Interaction[Any],
                           cid: ids.ComponentId, values: Sequence[str]) -> None:
    """A Hint or Review click (already deferred as a new private message)."""
    locale = _locale(interaction)
    if cid.action == "hint":
        table = await host.service.core.get(cid.table)
        if table.game is None:
            raise TableError("not_playing")
        text = await host.coach.hint(table, interaction.user.id, locale)
        await interaction.followup.send(text, ephemeral=True)
        return
    raw = cid.arg if cid.kind == "b" else (values[0] if len(values) == 1 else None)
    if raw is None or not raw.isdigit() or int(raw) > MAX_DEAL:
        raise TableError("forged")
    if cid.kind == "b":
        if cid.table == 0:
            raise TableError("forged")
        await send_review(host, interaction, cid.table, int(raw), None)
        return
    game_id = cid.arg or ""
    if cid.table != 0 or not game_id.isdigit() or len(game_id) > 18:
        raise TableError("forged")
    result = await host.service.repo.load_game(interaction.guild_id or 0, int(game_id))
    if result is None:
        raise TableError("no_game")
    await send_review(host, interaction, result.table_id, int(raw), result)


async def send_review(host: CoachHost, interaction: discord.Interaction[Any], table_id: int,
                      deal: int, result: GameResult | None) -> None:
    """The clicker's review of a deal, privately: words, and each decision's position as
    one picture in a message of its own (Discord crops several images of one message into
    a mosaic)."""
    locale = _locale(interaction)
    record = await host.coach.review(table_id, deal, interaction.user.id, result)
    text, shown = await review_pictures(record, locale)
    if not shown:
        await interaction.followup.send(cut(text, CONTENT), ephemeral=True)
        return
    for number, decision in enumerate(shown, start=1):
        content = f"{text}\n{decision.text}" if number == 1 else decision.text
        picture = image_file(decision.image, filename(f"review-{number}"), decision.alt)
        await interaction.followup.send(cut(content, CONTENT), file=picture, ephemeral=True)

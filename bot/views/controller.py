"""One place for every click: parse it, find its table, send it down, answer it.

Refusals are ephemeral sentences in the clicker's language; nothing changes.
Lobby clicks and the table's public buttons are the same for every game. A click on
a seat's private panel goes down the stack once (:meth:`Controller.play`): the table
service's click path (:mod:`bot.tables.clicks`) finds the seat, decides whether the
click is stale, has the table's game read it and the engine check it, stores and
applies it; then the clicker's panel is redrawn. A click is refused only when it is
really wrong: a forged control, a stranger, a control from before the seat's own last
move (a double click), or an action the engine does not allow. See ``docs/architecture.md``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any

import discord

from bot import metrics, workers
from bot.games.base import HandMessage, spec_of
from bot.i18n import Text, t
from bot.store.models import StoreError, TableStatus
from bot.tables import Table, TableError, TableService, ids
from bot.tables.clicks import Look, Move
from bot.tables.errors import store_refusal
from bot.views.gate import Gate
from bot.views.panels import Panels
from bot.views.surfaces import DirectSurface
from bot.views.table import lobby_message
from engine.errors import EngineError

log = logging.getLogger(__name__)
LOBBY_ACTIONS = {"join", "leave", "cpu", "start"}
NEW_MESSAGE_ACTIONS = {"hand", "bomb", "rules"}
Route = Callable[[discord.Interaction[Any], ids.ComponentId, list[str]], Awaitable[None]]


def locale_of(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value if interaction.locale else "en")


class Controller:
    """Routes component interactions to the table service and answers them."""

    def __init__(self, service: Callable[[], TableService], panels: Callable[[], Panels],
                 gate: Gate | None = None) -> None:
        self._service = service
        self._panels = panels
        self.gate = gate
        """Every click passes it first (:mod:`bot.views.gate`); None: no pace is kept."""
        self._routes: dict[str, tuple[Route, bool]] = {}
        self.direct: DirectSurface | None = None
        """The DM panels of tables shown in direct messages (the presenter's)."""

    @property
    def service(self) -> TableService:
        return self._service()

    @property
    def panels(self) -> Panels:
        return self._panels()

    def route(self, actions: Collection[str], handler: Route, *,
              ephemeral: Collection[str] = ()) -> None:
        """Send the clicks of ``actions`` to ``handler`` (a cog's own components); those
        in ``ephemeral`` answer with a new private message."""
        for action in actions:
            self._routes[action] = (handler, action in ephemeral)

    async def refuse(self, interaction: discord.Interaction[Any], code: str,
                     **values: Any) -> None:
        """An ephemeral refusal in the clicker's language."""
        text = t(locale_of(interaction), f"error.{code}", **values)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def handle(self, interaction: discord.Interaction[Any], custom_id: str,
                     values: list[str]) -> None:
        """Answer one click: acknowledged at once, then its outcome or a refusal (its time
        from arrival to answer is measured, :mod:`bot.metrics`). A click past its person's
        pace is answered by the gate, and nothing else is done for it."""
        if self.gate is not None and not await self.gate.admit(interaction):
            return
        started = time.perf_counter()
        try:
            await self._handle(interaction, custom_id, values)
        finally:
            metrics.click(time.perf_counter() - started)

    async def _handle(self, interaction: discord.Interaction[Any], custom_id: str,
                      values: list[str]) -> None:
        workers.hold_background()  # a person is waiting: the background work pauses
        cid = ids.parse(custom_id)
        if cid is None:
            await self.refuse(interaction, "forged")
            return
        # Answer Discord at once, before any lock or drawing: the outcome (a redrawn
        # message, or a refusal) follows. A busy table can never make a click time out.
        routed = self._routes.get(cid.action)
        if cid.action in NEW_MESSAGE_ACTIONS or (routed is not None and routed[1]):
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        try:
            if routed is not None:
                await routed[0](interaction, cid, values)
            else:
                await self._dispatch(interaction, cid, values)
        except TableError as exc:
            await self.refuse(interaction, exc.code, **exc.values)
        except EngineError as exc:
            await self.refuse(interaction, f"engine.{exc.code}")
        except StoreError as exc:
            # The database away or busy: one sentence, no traceback (the service logs
            # what it does about it); any other store failure is logged in full.
            code = store_refusal(exc.code)
            metrics.store_error(exc.code)
            if code == "store_failed":
                log.exception("store failure on %s", custom_id)
            else:
                log.warning("click %s refused: the store failed (%s)", custom_id, exc)
            await self.refuse(interaction, code)
        except Exception:
            log.exception("click %s failed (table %s)", custom_id, cid.table)
            await self.refuse(interaction, "internal")

    async def _dispatch(self, interaction: discord.Interaction[Any], cid: ids.ComponentId,
                        values: list[str]) -> None:
        action = cid.action
        if action in LOBBY_ACTIONS:
            await self._lobby(interaction, cid, values)
            return
        table = await self.service.core.get(cid.table)
        spec = spec_of(table)
        locale = locale_of(interaction)
        self.panels.locales[interaction.user.id] = locale
        if action == "rules":
            await interaction.followup.send(t(locale, f"rules.{spec.name}"), ephemeral=True)
            return
        if action == "rematch":
            await self.rematch(interaction, table, locale)
            return
        if table.game is None:
            raise TableError("not_playing")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise TableError("seat_lost" if table.lost_seat(interaction.user.id)
                             else "not_seated")
        if table.direct:
            # A seat's controls are on its DM panel only: a click from any other message
            # (a forged ID) is refused, and no other panel is ever opened.
            stored = self.direct.message_of(table, seat) if self.direct is not None else None
            if action in NEW_MESSAGE_ACTIONS or stored is None or \
                    interaction.message is None or interaction.message.id != stored[1]:
                raise TableError("forged_direct")
            if table.seats[seat].away and table.status is TableStatus.PLAYING:
                # Any click on the panel takes back the seat a computer kept; the click
                # then counts for what it is (a move the engine still allows is played).
                await self.service.seats.come_back(table.id, interaction.user.id)
                if action in ("back", "refresh"):
                    await self.show(interaction, table, seat, locale)
                    return
                await self.play(interaction, table, ids.Click(cid, tuple(values)), locale,
                                back=True)
                return
        if action in ("hand", "bomb"):
            await self.open_panel(interaction, table, seat, locale, bombs_only=action == "bomb")
            return
        if action == "back":
            await self.service.seats.come_back(table.id, interaction.user.id)
            await self.show(interaction, table, seat, locale)
            return
        if action == "refresh":
            await self.show(interaction, table, seat, locale)
            return
        if action == "talk":
            # A phrase said (only DM panels offer the menu): stored, then the clicker's
            # panel shows it; the others' panels on their next drawing.
            if not table.direct:
                raise TableError("forged")
            phrase = values[0] if len(values) == 1 else None
            table = await self.service.talk.say(table.id, interaction.user.id, phrase)
            await self.show(interaction, table, seat, locale)
            return
        await self.play(interaction, table, ids.Click(cid, tuple(values)), locale)

    async def play(self, interaction: discord.Interaction[Any], table: Table,
                   click: ids.Click, locale: str, *, back: bool = False) -> None:
        """A click on the seat's private panel: down the stack once, then the panel
        (``back``: the click just took back the seat a computer kept).

        :meth:`bot.tables.clicks.Clicks.click` decides everything (seat, staleness, the
        game's reading, the engine's check, store, apply); here only what the clicker
        sees."""
        table, seat, decision = await self.service.clicks.click(table.id, interaction.user.id,
                                                                click, back=back)
        if isinstance(decision, Look):
            with workers.clicked():
                look = await decision.draw(locale)
            await self.show(interaction, table, seat, locale, look)
            return
        if isinstance(decision, Move):
            mine = table.seat_of(interaction.user.id)
            if mine is None or table.game is None:
                return
            seat = mine
        await self.show(interaction, table, seat, locale)

    async def rematch(self, interaction: discord.Interaction[Any], table: Table,
                      locale: str) -> None:
        """Rematch under a finished game in DMs (:mod:`bot.tables.rematch`): the press is
        stored, then the presser's panel shows who pressed so far (the others' panels
        follow through the presenter); the rematch's panels come as new DMs."""
        seat = table.seat_of(interaction.user.id)
        stored = self.direct.message_of(table, seat) \
            if self.direct is not None and seat is not None else None
        if seat is not None and (stored is None or interaction.message is None
                                 or interaction.message.id != stored[1]):
            raise TableError("forged_direct")  # a seat's Rematch is on its DM panel only
        table, _ = await self.service.rematch.press(table.id, interaction.user.id)
        if seat is not None and self.direct is not None:
            await self.direct.answer(interaction, table, seat, locale)

    async def open_panel(self, interaction: discord.Interaction[Any], table: Table, seat: int,
                         locale: str, *, bombs_only: bool = False) -> None:
        """A new private panel; the full one becomes the panel the bot keeps in step."""
        spec = spec_of(table)
        async with self.panels.lock(table.id, interaction.user.id):
            key = self.panels.key(table, seat)
            message = await spec.hand_message(table, seat, locale, bombs_only=bombs_only)
            sent = await interaction.followup.send(message.content, files=message.files(),
                                                   view=message.view, ephemeral=True, wait=True)
            self.panels.sent(sent.id, message)
            if not bombs_only:
                await self.panels.opened_panel(table, seat, interaction, sent.id, key)

    # ------------------------------------------------------------- panels
    async def show(self, interaction: discord.Interaction[Any], table: Table, seat: int,
                   locale: str, message: HandMessage | None = None) -> None:
        """Redraw the clicker's panel (the click is already acknowledged)."""
        if table.direct and self.direct is not None:
            await self.direct.answer(interaction, table, seat, locale, message)
            return
        spec = spec_of(table)
        async with self.panels.lock(table.id, interaction.user.id):
            key = self.panels.key(table, seat)
            with workers.clicked():
                drawn = message or await spec.hand_message(table, seat, locale)
            target = interaction.message.id if interaction.message is not None else None
            await interaction.edit_original_response(**self.panels.edits(target, drawn))
            if message is None and interaction.message is not None and \
                    (panel := table.record.panels.get(interaction.user.id)) is not None and \
                    panel.message_id == interaction.message.id:
                self.panels.shown(table, seat, key)
            await self.panels.renew(table, interaction)
        # The game may have moved on while the panel was drawn: keep the open panel true.
        await self.panels.push(table)

    # ----------------------------------------------------------------- lobby
    async def _lobby(self, interaction: discord.Interaction[Any], cid: ids.ComponentId,
                     values: list[str]) -> None:
        user = interaction.user
        lobby = self.service.lobby
        if cid.action == "join":
            if cid.arg is None or not cid.arg.isdigit():
                raise TableError("forged")
            table = await lobby.join(cid.table, user.id, user.display_name, int(cid.arg))
        elif cid.action == "leave":
            table = await lobby.leave(cid.table, user.id)
        elif cid.action == "cpu":
            seat_text, _, level = (values[0] if values else "").partition(".")
            if not seat_text.isdigit():
                raise TableError("forged")
            table = await lobby.set_computer(cid.table, user.id, int(seat_text),
                                             None if level == "none" else level)
        else:
            table = await lobby.start(cid.table, user.id)
        message = lobby_message(table, table.record.locale)
        if table.game is not None:
            message.content += "\n" + t(table.record.locale, "lobby.started",
                                        where=Text(f"<#{table.channel_id}>"))
        await interaction.edit_original_response(content=message.content, view=message.view)

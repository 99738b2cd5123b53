"""A person's decision, down one path: :meth:`Clicks.click`.

Under the table's lock: the clicker's seat; :func:`stale`, the one place that decides
whether a control is out of date; the game's reading of the click into a
:data:`Decision` (:meth:`ClickRules.read_click`); the engine's check (the only legality
check); then a :class:`Move` is stored and applied, a :class:`Draft` is stored, and a
:class:`Look` changes nothing. A refused decision raises and changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

from bot.store.models import TableStatus
from bot.tables.core import TableCore
from bot.tables.errors import TableError
from bot.tables.ids import Click
from bot.tables.rules import TableRules
from bot.tables.seats import Seats
from bot.tables.table import Table


@dataclass(frozen=True, slots=True)
class Move:
    """A click read as an engine action: the engine checks it, then it is stored and
    applied (``applied``: what the engine returned, once it is)."""

    action: Any
    applied: Any = None


@dataclass(frozen=True, slots=True)
class Draft:
    """A click that changes the seat's choice in progress (``value``; None drops it),
    kept on the server. ``provisional``: an action the engine must allow before the
    choice goes on (a Tichu play waiting for its wish or its Phoenix reading)."""

    value: dict[str, Any] | None
    provisional: Any = None


@dataclass(frozen=True, slots=True)
class Look:
    """A click that only changes what the clicker's panel shows, its choice kept in the
    panel's own controls: nothing is stored; ``draw(locale)`` draws the panel."""

    draw: Callable[[str], Awaitable[Any]]


Decision = Move | Draft | Look
"""What a game reads a click as (:meth:`ClickRules.read_click`)."""


class ClickRules(TableRules, Protocol):
    """The part of a game's spec a click needs (:class:`bot.games.base.GameSpec`)."""

    def read_click(self, table: Table, seat: int, click: Click) -> Decision:
        """The decision of ``click`` by ``seat`` now, or TableError for a click that
        cannot be read (``forged``, an unfinished choice). Pure: it decides neither
        staleness (:func:`stale` did) nor legality (the engine does)."""


def stale(table: Table, seat: int, seq: int | None) -> bool:
    """Whether a control drawn when the seat had made ``seq`` moves is out of date: the
    seat has moved since (a double click, an old menu, a timer's move). Another seat's
    actions never make a control out of date; a control without ``seq`` never is (the
    engine refuses a repeat). The one place every game's clicks are judged stale."""
    return seq is not None and seq != table.moves[seat]


class Clicks:
    """People's decisions at a table in play: a click on their panel, or an action."""

    def __init__(self, core: TableCore, seats: Seats) -> None:
        self.core = core
        self.seats = seats
        """Brings an away seat's person back when they decide a move."""

    async def click(self, table_id: int, user_id: int, click: Click, *,
                    back: bool = False) -> tuple[Table, int, Decision]:
        """A person's click on their private panel, down the stack once.

        Under the table's lock: the clicker's seat; :func:`stale`, the one place that
        decides whether the control is out of date; the game's
        :meth:`ClickRules.read_click`, which reads the click into a :data:`Decision`
        (or refuses it as malformed); then the decision is carried out — a move is
        checked by the engine (the only legality check), stored and applied; a draft
        is stored. Returns the table, the seat and the decision, for the views to
        redraw the clicker's panel. ``back``: the click has just taken back the seat a
        computer kept (a table in DMs), so a control out of date says so
        (``back_stale``: the computer decided meanwhile).
        """
        table = await self.core.get(table_id)
        rules = cast(ClickRules, table.spec)
        return await self._decide(table, user_id, click.seq,
                                  lambda seat: rules.read_click(table, seat, click), back)

    async def act(self, table_id: int, user_id: int, token: int | None,
                  make: Callable[[int], Any]) -> Any:
        """A person's action built by the caller (``make(seat)``), on the same path as a
        click (:meth:`click`): ``token`` is the seat's move count when the control was
        drawn (None for a decision that is not a move). Returns what the engine applied."""
        table = await self.core.get(table_id)
        _, _, decision = await self._decide(table, user_id, token,
                                            lambda seat: Move(make(seat)))
        return decision.applied if isinstance(decision, Move) else None

    async def _decide(self, table: Table, user_id: int, seq: int | None,
                      read: Callable[[int], Decision],
                      back: bool = False) -> tuple[Table, int, Decision]:
        """The one path of a person's decision (see :meth:`click`)."""
        async with self.core.hold(table):
            game = table.game
            if game is None:
                raise TableError("not_playing")
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("seat_lost" if table.lost_seat(user_id) else "not_seated")
            if stale(table, seat, seq):
                if back:  # the computer decided for them meanwhile
                    raise TableError("back_stale")
                raise TableError("stale")
            if table.status is not TableStatus.PLAYING:
                raise TableError("not_playing")
            decision = read(seat)
            if isinstance(decision, Move):
                game.check(decision.action)  # the engine: a refusal brings no seat back
                if table.seats[seat].away:  # a person whose seat a computer kept is back
                    await self.seats.back(table, seat)
                decision = replace(decision, applied=await self.core.apply(
                    table, decision.action, by="human"))
                table.last_human = time.time()
            elif isinstance(decision, Draft):
                if decision.provisional is not None:
                    game.check(decision.provisional)  # the engine, before asking more
                await self.core.repo.save_draft(table.id, seat, decision.value)
                if decision.value is None:
                    table.drafts.pop(seat, None)
                else:
                    table.drafts[seat] = decision.value
        if isinstance(decision, Move):
            self.core.after_change(table)
        return table, seat, decision

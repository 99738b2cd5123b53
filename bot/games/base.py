"""What the shared table machinery needs from each game.

The lobby, seats, lock, store, timers, computer players, presenter, refusals
and commands are built once (``bot/tables``, ``bot/views``, ``bot/cogs``); a
game brings its rules (through its engine package) and its messages.
"""

from __future__ import annotations

import hashlib
import io
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast

import discord

from bot.games.shared import cut
from bot.i18n import plain
from bot.render import IMAGE_EXT, PANEL_EXT
from bot.render import filename as image_name
from bot.store.models import GameResult
from bot.tables.computer import computer_move
from bot.tables.rules import TableRules
from engine.replay import game_from_replay

if TYPE_CHECKING:
    from bot.tables.clicks import Decision
    from bot.tables.ids import Click
    from bot.tables.rules import LogEntry
    from bot.tables.table import Table

OpenTable = Callable[..., Any]
"""``open_table(spec, interaction, options)``: what ``/<game> new`` calls (the cogs' own)."""


@dataclass(slots=True)
class HandMessage:
    """A seat's private message: text, one image, the controls. The image is the hand (or
    the exchange being chosen); at a private table (a daily board, played alone) it is
    the table with the hand under it, one picture, since Discord crops two images of one
    message into a mosaic. It goes with its description in words (``alt``), in the
    person's language."""

    content: str
    image: bytes | None
    view: discord.ui.View
    alt: str = ""
    """What the image shows, in words (its alt text)."""

    def images(self) -> bytes:
        """The image the message shows, with its description, as one value (to see whether
        it changed)."""
        return (self.image or b"") + b"\0" + self.alt.encode()

    def files(self) -> list[discord.File]:
        if self.image is None:
            return []
        return [image_file(self.image, image_name("hand"), self.alt)]


@dataclass(slots=True)
class PublicMessage:
    """A message everyone sees, built only from public information; its image goes with
    its description in words (``alt``), in the server's language."""

    content: str
    image: bytes | None
    view: discord.ui.View | None
    filename: str = field(default_factory=lambda: image_name("table"))
    alt: str = ""
    """What the image shows, in words (its alt text)."""

    def digest(self) -> str:
        """The image and its description as one value (to see whether they changed)."""
        return hashlib.sha256((self.image or b"") + b"\0" + self.alt.encode()).hexdigest()

    def files(self) -> list[discord.File]:
        if self.image is None:
            return []
        return [image_file(self.image, self.filename, self.alt)]


def image_file(data: bytes, name: str, alt: str) -> discord.File:
    """An image to attach, with its description (alt text), which screen readers read:
    within Discord's limit, and never missing; as it reads (a description is no
    markdown: names as written). Its name ends as its bytes' format does (a live panel's
    picture is a JPEG: ``hand.webp`` is sent as ``hand.jpg``)."""
    if not alt.strip():
        raise ValueError(f"the image {name} has no description")
    stem, dot, ext = name.rpartition(".")
    if dot and ext in (IMAGE_EXT, PANEL_EXT):
        name = image_name(stem, data)  # the extension of the bytes' own format
    return discord.File(io.BytesIO(data), filename=name, description=cut(plain(alt)))


@dataclass(frozen=True, slots=True)
class Option:
    """A ``/<game> new`` option: its name, type and limits (the cog builds the command)."""

    name: str
    kind: type
    default: Any
    low: int | None = None
    high: int | None = None
    choices: tuple[Any, ...] = ()


class GameSpec(TableRules, Protocol):
    """One game, as the bot hosts it: its rules glue (:class:`TableRules`) and its
    messages and clicks."""

    @property
    def record_names(self) -> tuple[str, ...]:
        """The names its finished games are stored and rated under (``tichu``, ``tichu6``)."""

    @property
    def history_names(self) -> tuple[str, ...]:
        """The names its finished games are listed under in ``history``: the rated ones,
        and the unrated kinds (Tichu's duplicate boards, ``tichu_dup``)."""

    @property
    def panel_shows_table(self) -> bool:
        """Whether the seat's panel at a table shown in direct messages draws the table
        and the hand as one picture itself (else the DM panel puts the table's picture
        over the hand's, :class:`bot.views.surfaces.DirectSurface`)."""

    def ping_key(self, game: Any) -> str:
        """The catalog key of the "your turn" ping for the current phase."""

    def panel_key(self, table: Table, seat: int) -> Hashable:
        """What the seat's private panel offers now: when it changes, the bot redraws the
        person's open panel by itself."""

    async def hand_message(self, table: Table, seat: int, locale: str, *,
                           bombs_only: bool = False) -> HandMessage:
        """The seat's private panel now (its choice in progress is ``table.drafts``)."""

    async def table_message(self, table: Table, locale: str) -> PublicMessage:
        """The public table message (image, recent plays, buttons)."""

    async def announcement(self, table: Table, entry: LogEntry,
                           locale: str) -> PublicMessage | None:
        """A message to post for a log entry (a round summary, the final sheet), or None."""

    def new_command(self, open_table: OpenTable) -> Any:
        """The ``/<game> new`` callback with the game's options; it calls
        ``open_table(spec, interaction, options)``."""

    def read_click(self, table: Table, seat: int, click: Click) -> Decision:
        """What a click on the seat's private panel means now: a move for the engine, a
        changed draft, or a new look of the panel; TableError for a click that cannot be
        read (``forged``, an unfinished choice). Pure, and never judges staleness (the
        table service did) nor legality (the engine does); see :mod:`bot.tables.clicks`."""


def spec_of(table: Table) -> GameSpec:
    """The spec of ``table`` as the bot layer uses it. The tables layer holds it as its
    :class:`TableRules` part (it never imports the games), but every spec the bot hands it
    is a :class:`GameSpec` (:func:`bot.games.registry.all_specs`)."""
    return cast("GameSpec", table.spec)


class GameModules(ABC):
    """The part of a spec every game shares: its package holds modules of the same names
    (``log.describe``, ``results.game_result``, ``table.table_message`` and
    ``table.announcement``, ``controls.read``, ``commands.new_command``), and its engine
    package ``engine.<name>.actions`` the JSON form of its actions. A spec names them in
    :attr:`parts`."""

    name: str
    levels: tuple[str, ...]
    team_size: int
    parts: ClassVar[dict[str, ModuleType]]
    """``log``, ``results``, ``table``, ``controls``, ``commands`` and ``actions``."""
    panel_shows_table: bool = False
    """The seat's panel at a table in direct messages shows the hand alone (the DM panel
    adds the table's picture over it), unless the game draws both itself."""

    @property
    def record_names(self) -> tuple[str, ...]:
        """The names its finished games are stored and rated under (one rating pool and
        leaderboard each): the game's own name, and its variants' (``tichu6``)."""
        return (self.name,)

    @abstractmethod
    def due_seats(self, game: Any) -> tuple[int, ...]:
        """Seats that must act before the game can go on (each game says)."""

    @property
    def history_names(self) -> tuple[str, ...]:
        return self.record_names

    def _module(self, module: str) -> Any:
        return self.parts[module]

    def is_move(self, action: Any) -> bool:
        """Every decision is a turn decision, unless the game says otherwise."""
        return True

    def panel_key(self, table: Table, seat: int) -> Hashable:
        """What the seat may do now: the phase, whether it is on turn, its hand and moves,
        and who must act (a game with more to offer off turn says more)."""
        game = table.game
        view = game.view(seat)
        return (view.phase, view.turn == seat, view.hand, table.moves[seat],
                table.seats[seat].away, self.due_seats(game))

    def computer_task(self, table: Table, seat: int, level: str,
                      purpose: str) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """The player of the level decides from the seat's view, with a seed made of the
        table's seed, the purpose and the count of actions so far."""
        seed = f"{table.record.seed}:{purpose}:{table.seq}"
        return computer_move, (self.name, level, table.game.view(seat), seed)

    def action_from_json(self, data: Any) -> Any:
        return self.parts["actions"].action_from_json(data)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        out: dict[str, Any] = self.parts["actions"].action_to_json(action)
        return out

    def describe(self, applied: Any) -> list[LogEntry]:
        lines: list[LogEntry] = self._module("log").describe(applied)
        return lines

    def result(self, table: Table) -> GameResult:
        """The finished game's record. Its per-player figures are computed from its
        replay (the action log stored with it), so stored figures and log never drift
        apart: :meth:`stats_from_replay` gives them back from any stored game."""
        result: GameResult = self._module("results").game_result(table)
        derived = self.stats_from_replay(result.replay)
        for player in result.players:
            player.stats = derived[player.seat]
        return result

    def stats_from_replay(self, replay: Mapping[str, Any]) -> dict[int, dict[str, int]]:
        """Per seat, the figures of a stored game, recomputed from its replay."""
        game = game_from_replay(replay)
        stats = self._module("results").player_stats
        return {seat: stats(game, seat) for seat in range(game.n_seats)}

    async def table_message(self, table: Table, locale: str) -> PublicMessage:
        message: PublicMessage = await self._module("table").table_message(table, locale)
        return message

    async def announcement(self, table: Table, entry: LogEntry,
                           locale: str) -> PublicMessage | None:
        message: PublicMessage | None = await self._module("table").announcement(
            table, entry, locale)
        return message

    def new_command(self, open_table: OpenTable) -> Any:
        return self._module("commands").new_command(open_table)

    def read_click(self, table: Table, seat: int, click: Click) -> Decision:
        decision: Decision = self._module("controls").read(table, seat, click)
        return decision

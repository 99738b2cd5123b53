"""Where a table is shown: its surface.

A table's game logic, its store and its clicks are the same wherever it is shown; only
its surface differs. :class:`Surface` is what the presenter (:mod:`bot.views.presenter`)
asks of one, after each change of the table:

- :class:`ThreadSurface`, a table of a server's channel: the lobby message, the table
  message in the table's thread (at most once per ``edit_interval``, Discord allowing
  about five writes per five seconds in a channel, always with the latest state, its
  image uploaded again only when the picture changed), announcements, the ping of the
  people due, and each person's private hand panel (an ephemeral message,
  :class:`~bot.views.panels.Panels`);
- :class:`AlonePanel`, a table played alone (a daily board): its one private panel
  shows the table and the hand; nothing public, no ping;
- :class:`DirectSurface`, a table shown in its seats' direct messages (people from any
  server, or none): each seat's DM holds one live panel, a message of the bot's own that
  it edits with its bot token (no interaction token, no 15-minute limit), showing the
  table and the seat's hand, the seat's controls, and the last lines of the table log;
  the deals' summaries and the final result are posted under it. Its message ids are
  kept in the table's options (``dm_panels``), so a restarted bot edits the same ones.
  Once the game is over the panel shows its end (:meth:`DirectSurface.ending`): each
  person's rating before and after (or that the game was unrated), Rematch and who
  pressed it (:mod:`bot.tables.rematch`), and in Tichu the coach's review of a deal.
  Its last control is the "Say…" menu of the table's phrases (:func:`talk_menu`), on a
  row the seat's controls leave free.

Render only what will be written: the table edit first waits for its turn (the edit
interval, then the pacer), and only then draws the message, from the state as it is at
that moment; a pass finds nothing to draw when no change came in since the last drawing.
Under load many changes fold into one picture instead of pictures drawn and then
superseded while they wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.games.base import HandMessage, PublicMessage, spec_of
from bot.games.shared import log_line, names_of
from bot.games.ui import GameButton, GameSelect
from bot.i18n import Text, t
from bot.i18n.text import CONTENT, cut
from bot.ratings import Rating
from bot.render import render_stacked
from bot.store.models import GameResult, Repository, StoreError, TableStatus
from bot.tables import SeatKind, Table, ids
from bot.tables.rematch import Rematch, finished_game, people_of, pressed_of, rematch_table
from bot.tables.talk import SPOKEN, phrases_of
from bot.views.pacing import Pacer
from bot.views.panels import Images, Panels
from bot.views.table import lobby_message
from bot.workers import clicked, offload, until_free

log = logging.getLogger(__name__)
THREAD_ARCHIVED = 50083
DM_CLOSED = 50007
"""Discord's answer to a message for a person who closed their DMs or blocked the bot."""
DIRECT_LOG_LINES = 4
"""The lines of the table log a direct panel shows above the seat's own text."""
SHOWN = (TableStatus.PLAYING, TableStatus.FINISHED)
REVIEW_DEALS = 25
"""The deals the game's end offers to review (the latest; a select holds 25 options)."""


@dataclass(slots=True)
class GameEnd:
    """A finished game as its DM panels show it: its stored result, and each person's
    rating before and after it (rated games only)."""

    result: GameResult
    ratings: dict[int, tuple[float, float]] = field(default_factory=dict)
ROWS = 5
"""Discord's action rows in one message; each holds a select or up to five buttons."""


def talk_menu(table: Table, locale: str) -> GameSelect:
    """The "Say…" menu: the table's phrases in the reader's language (the value is the
    phrase's key; the line is stored and shown by key)."""
    return GameSelect(ids.select(table.id, "talk"), options=[
        discord.SelectOption(label=t(locale, f"talk.{phrase}")[:100], value=phrase)
        for phrase in phrases_of(table)], placeholder=t(locale, "select.talk"))


def with_talk(view: discord.ui.View, table: Table, locale: str) -> discord.ui.View:
    """``view`` with the "Say…" menu on a row its controls leave free. A select takes a
    whole row; when the seat's decision needs all five (Tichu's exchange, a long play
    menu on turn), the decision comes first and the menu is back on the next drawing
    with a free row (a folded button would need a second message to open the menu)."""
    menu = talk_menu(table, locale)
    if table.status not in SPOKEN or any(getattr(item, "custom_id_text", None) ==
                                         menu.custom_id_text for item in view.children):
        return view
    if len(view.to_components()) >= ROWS:  # every row holds something: no room for a select
        return view
    with contextlib.suppress(ValueError):  # no room after all: not on this drawing
        view.add_item(menu)
    return view


class Surface(Protocol):
    """Where a table is shown, as the presenter uses it."""

    async def present(self, table: Table) -> None:
        """Show the table as it is now: everything its surface shows, each part's
        failure logged without stopping the others."""

    async def push_panels(self, table: Table) -> None:
        """Redraw the people's private panels alone (while a :meth:`present` pass waits
        for its turn to write)."""

    async def repost(self, table: Table) -> None:
        """Show the table again where it is seen last (the bottom of its channel)."""


class AlonePanel:
    """A table played alone in its private panel (a daily board): the panel shows the
    table and, at the end, the result; nothing public, no ping."""

    def __init__(self, panels: Callable[[], Panels]) -> None:
        self._panels = panels

    async def present(self, table: Table) -> None:
        table.announcements.clear()
        await self.push_panels(table)

    async def push_panels(self, table: Table) -> None:
        await _push_panels(self._panels(), table)

    async def repost(self, table: Table) -> None:
        await self.push_panels(table)


async def _push_panels(panels: Panels, table: Table) -> None:
    if table.game is None:
        return
    try:
        await panels.push(table)
    except Exception:
        log.exception("presenting table %s: the panels' redraw failed", table.id)


class Writer:
    """What a surface that writes the bot's messages holds: the client, the store, the
    panels, the presenter's count of each table's changes, and the pace of its writes
    (a message at most once per ``edit_interval``, each write waiting for the pacer)."""

    def __init__(self, client: discord.Client, repo: Callable[[], Repository],
                 panels: Callable[[], Panels], *, changes: Callable[[int], int],
                 edit_interval: float = 1.5, pacer: Pacer | None = None) -> None:
        self.bot = client
        self._repo = repo
        self._panels = panels
        self._changes = changes
        """How many changes of a table the presenter heard of so far."""
        self.edit_interval = edit_interval
        self.pacer = pacer or Pacer(0)


class ThreadSurface(Writer):
    """Tables of a server's channel: edits the lobby and table messages, posts
    announcements and summaries, pings whoever must act, redraws their panels."""

    def __init__(self, client: discord.Client, repo: Callable[[], Repository],
                 panels: Callable[[], Panels], *, changes: Callable[[int], int],
                 edit_interval: float = 1.5, pacer: Pacer | None = None) -> None:
        super().__init__(client, repo, panels, changes=changes, edit_interval=edit_interval,
                         pacer=pacer)
        self._written: dict[int, float] = {}
        """Per table: when its message was last written (monotonic)."""
        self._image: dict[int, str] = {}
        """Per table: a digest of the image its message shows, with its description."""
        self._drawn: dict[int, int] = {}
        """Per table: the count of changes its written message was drawn after."""
        self._pinged: dict[int, tuple[object, ...]] = {}
        self._lobby_shown: dict[int, TableStatus] = {}

    async def push_panels(self, table: Table) -> None:
        await _push_panels(self._panels(), table)

    async def present(self, table: Table) -> None:
        steps = [self._show_lobby]
        if table.game is not None:
            steps += [self._post_announcements, self._panels().push, self._ping,
                      self._show_table_soon]
        for step in steps:
            try:
                await step(table)
            except StoreError as exc:  # the database away: said in one line, no traceback
                log.warning("presenting table %s: %s failed: %s", table.id, step.__name__, exc)
            except Exception:  # one failed request never drops the others (the ping)
                log.exception("presenting table %s: %s failed", table.id, step.__name__)

    async def _show_table_soon(self, table: Table) -> None:
        """The table message, no sooner than ``edit_interval`` after the last write;
        nothing when it was drawn after the latest change already."""
        if self._drawn.get(table.id) == self._changes(table.id) and \
                table.record.message_id is not None:
            return
        wait = self._written.get(table.id, -1e9) + self.edit_interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        await self._show_table(table)

    # ------------------------------------------------------------- lobby
    async def _show_lobby(self, table: Table) -> None:
        message_id = table.record.options.get("lobby_message_id")
        if not isinstance(message_id, int):
            return
        if table.game is not None and self._lobby_shown.get(table.id) is table.status:
            return
        self._lobby_shown[table.id] = table.status
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        await self.pacer.wait()
        msg = lobby_message(table, table.record.locale)  # as it is once its turn came
        if table.status is TableStatus.PLAYING:
            msg.content += "\n" + t(table.record.locale, "lobby.started",
                                    where=Text(f"<#{table.channel_id}>"))
        try:
            await channel.get_partial_message(message_id).edit(content=msg.content, view=msg.view)
        except discord.HTTPException:
            log.warning("cannot edit the lobby message of table %s", table.id)

    # -------------------------------------------------------------- table
    async def table_message(self, table: Table) -> PublicMessage:
        spec = spec_of(table)
        msg = await spec.table_message(table, table.record.locale)
        countdown = countdown_line(table, table.record.locale)
        if countdown:
            msg.content = cut(f"{msg.content}\n{countdown}", CONTENT)
        return msg

    async def _show_table(self, table: Table) -> None:
        """Write the table message: its turn first, then the drawing (of the latest state)."""
        channel = self.bot.get_partial_messageable(table.channel_id)
        await self.pacer.wait()
        changes_seen = self._changes(table.id)
        msg = await self.table_message(table)
        message_id = table.record.message_id
        digest = msg.digest()
        self._written[table.id] = time.monotonic()
        if message_id is not None:
            message = channel.get_partial_message(message_id)
            # The image is sent again only when it changed (the same files on a retry).
            files = msg.files() if self._image.get(table.id) != digest else None
            for attempt in range(2):
                if attempt:
                    await self.pacer.wait()
                try:
                    if files is None:
                        await message.edit(content=msg.content, view=msg.view)
                    else:
                        await message.edit(content=msg.content, view=msg.view, attachments=files)
                    self._image[table.id] = digest
                    self._drawn[table.id] = changes_seen
                    return
                except discord.NotFound:
                    break
                except discord.HTTPException as error:
                    # Discord archives an idle thread after 24 h: open it again, once.
                    if error.code != THREAD_ARCHIVED or attempt or table.record.thread_id is None:
                        raise
                    await self.bot.http.edit_channel(table.record.thread_id, archived=False)
        if message_id is not None:
            await self.pacer.wait()  # the edit above took the first turn
        if msg.view is None:  # no view: ``send``'s own default
            sent = await channel.send(content=msg.content, files=msg.files())
        else:
            sent = await channel.send(content=msg.content, files=msg.files(), view=msg.view)
        self._image[table.id] = digest
        self._drawn[table.id] = changes_seen
        table.record.message_id = sent.id
        await self._repo().update_table(table.id, message_id=sent.id)

    async def repost(self, table: Table) -> None:
        """Post the table message again, at the bottom of the channel."""
        old = table.record.message_id
        table.record.message_id = None
        await self._show_table(table)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(table.channel_id).get_partial_message(
                    old).delete()

    async def _post_announcements(self, table: Table) -> None:
        entries, table.announcements = table.announcements, []
        channel = self.bot.get_partial_messageable(table.channel_id)
        for entry in entries:
            message = await spec_of(table).announcement(table, entry, table.record.locale)
            if message is not None:
                await self.pacer.wait()
                if message.view is None:
                    await channel.send(content=message.content, files=message.files())
                else:
                    await channel.send(content=message.content, files=message.files(),
                                       view=message.view)

    # --------------------------------------------------------------- pings
    async def _ping(self, table: Table) -> None:
        game = table.game
        waiting = tuple(s for s in table.spec.due_seats(game) if table.kind(s) is SeatKind.HUMAN)
        if table.status is not TableStatus.PLAYING:
            waiting = ()
        # A new ping whenever the people due change, or the same person is due again
        # after the table moved on.
        spec = spec_of(table)
        key = (waiting, tuple(table.moves[s] for s in waiting), spec.ping_key(game))
        if self._pinged.get(table.id) == key:
            return
        self._pinged[table.id] = key
        if not waiting and table.status is TableStatus.PLAYING:
            return  # computers' turns: the last ping goes when the next one comes
        channel = self.bot.get_partial_messageable(table.channel_id)
        old = table.record.ping_message_id
        if old is not None:
            await self.pacer.wait()
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()
            table.record.ping_message_id = None
            await self._repo().clear_ping(table.id)
        if not waiting:
            return
        people = [user for s in waiting if (user := table.seats[s].user_id) is not None]
        mentions = Text(" ".join(f"<@{user}>" for user in people))
        locale = table.record.locale
        text = t(locale, spec.ping_key(game), mentions=mentions) + " " + t(locale, "ping.panel")
        countdown = countdown_line(table, locale)
        if countdown:
            text += "\n" + countdown
        await self.pacer.wait()
        # The ping names exactly the people it is for: nobody else, whatever the text says.
        sent = await channel.send(text, allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user) for user in people]))
        table.record.ping_message_id = sent.id
        await self._repo().update_table(table.id, ping_message_id=sent.id)


def _change(points: float) -> str:
    """A rating's change with its sign, a true minus: ``+7.8``, ``−3.2``."""
    text = f"{abs(points):.1f}"
    return f"−{text}" if text != "0.0" and points < 0 else f"+{text}"


def countdown_line(table: Table, locale: str) -> str:
    """When the waiting people's time runs out, as Discord's live relative timestamp."""
    if table.status is not TableStatus.PLAYING:
        return ""
    deadlines = [d for s in table.due_since if (d := table.deadline(s)) is not None]
    if not deadlines:
        return ""
    return t(locale, "table.countdown", when=Text(f"<t:{int(min(deadlines))}:R>"))


class DirectSurface(Writer):
    """Tables shown in their seats' direct messages: one live panel per seat, edited in
    place (at most once per ``edit_interval`` per DM, each write waiting for the pacer
    of the bot's own writes, always drawn from the latest state), the deals' summaries
    and the result posted under it. A person whose DMs are closed is logged and left
    out (the turn timer plays their seat); the table goes on."""

    def __init__(self, client: discord.Client, repo: Callable[[], Repository],
                 panels: Callable[[], Panels], *, changes: Callable[[int], int],
                 edit_interval: float = 1.5, pacer: Pacer | None = None) -> None:
        super().__init__(client, repo, panels, changes=changes, edit_interval=edit_interval,
                         pacer=pacer)
        self._drawn: dict[tuple[int, int], int] = {}
        """Per table and seat: the count of changes its panel was last drawn after."""
        self._shown: dict[int, str] = {}
        """Per panel message: a digest of what it shows (nothing is written twice)."""
        self._images = Images()
        """The picture each panel message shows (uploaded again only when it changed)."""
        self._written: dict[tuple[int, int], float] = {}
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}
        self._queued: dict[tuple[int, int], tuple[bool, object]] = {}
        """Per table and seat: a drawing of its panel waiting for its turn (the pacer's,
        then a worker's), and whether it goes first; another change of the table folds
        into it, since it reads the state only once its turn came."""
        self._tables: dict[tuple[int, str], tuple[int, PublicMessage]] = {}
        """Per table and language: its public message, with the count of changes it was
        drawn after (the pictures of the games whose panel shows the hand alone)."""
        self.closed: set[tuple[int, int]] = set()
        """(table, person) whose DMs refused the bot's message: not tried again."""
        self.sent = 0
        """Messages posted in DMs (panels, summaries, results)."""
        self.edited = 0
        """Panel edits written."""
        self.rematch: Callable[[], Rematch] | None = None
        """The rematches (the table service's), set by the app."""
        self._ends: dict[int, GameEnd] = {}
        """Per finished table: its result and rating changes, read once from the store."""

    # ------------------------------------------------------------ records
    @staticmethod
    def message_of(table: Table, seat: int) -> tuple[int, int] | None:
        """The DM channel and the panel message of ``seat``, as stored."""
        stored = table.record.options.get("dm_panels")
        entry = stored.get(str(seat)) if isinstance(stored, dict) else None
        if isinstance(entry, list) and len(entry) == 2 and all(isinstance(i, int)
                                                                for i in entry):
            return entry[0], entry[1]
        return None

    def locale_of(self, table: Table, user_id: int) -> str:
        """The language of a person's panel: the one they last clicked in, else the one
        the table was opened with for them."""
        last = self._panels().locales.get(user_id)
        if last is not None:
            return last
        locales = table.record.options.get("locales")
        locale = locales.get(str(user_id)) if isinstance(locales, dict) else None
        return locale if isinstance(locale, str) else table.record.locale

    async def _remember(self, table: Table, seat: int, channel_id: int,
                        message_id: int) -> None:
        stored = table.record.options.get("dm_panels")
        panels = dict(stored) if isinstance(stored, dict) else {}
        panels[str(seat)] = [channel_id, message_id]
        table.record.options["dm_panels"] = panels
        await self._repo().update_table(table.id, options=table.record.options)

    def _lock(self, table: Table, seat: int) -> asyncio.Lock:
        return self._locks.setdefault((table.id, seat), asyncio.Lock())

    def _people(self, table: Table) -> list[int]:
        return [s for s in range(table.n_seats) if table.seats[s].user_id is not None]

    # ------------------------------------------------------------ drawing
    async def panel(self, table: Table, seat: int, locale: str,
                    hand: HandMessage | None = None) -> HandMessage:
        """The seat's DM panel: the seat's own panel (its text, its picture, its
        controls; ``hand`` if drawn already), with the last lines of the table log and
        the time left under its text."""
        spec = spec_of(table)
        hand = hand or await spec.hand_message(table, seat, locale)
        image, alt = hand.image, hand.alt
        if not spec.panel_shows_table and hand.image is not None:
            # One picture: the table's, the hand under it (two images of one message
            # would be cropped into a mosaic).
            public = await self._public(table, locale)
            if public.image is not None:
                image = await offload(render_stacked, public.image, hand.image)
                alt = f"{public.alt}\n{hand.alt}"
        names = names_of(table, locale)
        lines = [f"• {log_line(e, names, locale)}"
                 for e in list(table.log)[-DIRECT_LOG_LINES:]]
        countdown = countdown_line(table, locale)
        away = t(locale, "hand.away_direct") if table.seats[seat].away \
            and table.status is TableStatus.PLAYING else ""
        parts = [away, hand.content, "\n".join(lines), countdown]
        if table.status is TableStatus.FINISHED:
            parts.append(await self.ending(table, locale, hand.view))
        content = cut("\n".join(p for p in parts if p), CONTENT)
        return HandMessage(content, image, with_talk(hand.view, table, locale), alt=alt)

    # ------------------------------------------------------------ the end
    async def game_end(self, table: Table) -> GameEnd | None:
        """The finished game's result and each person's global rating change, from the
        store (``rating_history``: each key's rating after each rated game); None while
        the result is not stored."""
        kept = self._ends.get(table.id)
        if kept is not None:
            return kept
        repo = self._repo()
        result = await finished_game(repo, table)
        if result is None:
            return None
        end = GameEnd(result)
        if result.rated and result.id is not None:
            for player in result.players:
                if player.user_id is None:
                    continue
                # The global rating: the one "Play now" pairs on, wherever one plays.
                points = await repo.rating_history(None, result.game, player.user_id)
                at = next((i for i, p in enumerate(points) if p.game_id == result.id), None)
                if at is None:
                    continue
                before = points[at - 1].ordinal if at else Rating().ordinal
                end.ratings[player.user_id] = (before, points[at].ordinal)
        self._ends[table.id] = end
        return end

    async def ending(self, table: Table, locale: str, view: discord.ui.View) -> str:
        """The game's end under a finished panel's text: each person's rating change
        (or that the game was unrated), the rematch and who asked for it; Rematch and
        (in Tichu) the review of a deal added to ``view``."""
        end = await self.game_end(table)
        if end is None:
            return ""
        names = names_of(table, locale)
        lines = []
        if not end.result.rated:
            lines.append(t(locale, "end.unrated"))
        for seat in range(table.n_seats):
            user = table.seats[seat].user_id
            change = end.ratings.get(user) if user is not None else None
            if change is None:
                continue
            before, after = change
            lines.append(t(locale, "end.rating", name=names[seat], before=f"{before:.1f}",
                           after=f"{after:.1f}", change=_change(after - before)))
        people = people_of(table)
        pressed = pressed_of(table)
        if rematch_table(table) is not None:
            lines.append(t(locale, "end.rematch_open"))
        elif people:
            ends_at = await self.rematch().ends_at(table) if self.rematch else None
            if ends_at is not None:
                lines.append(t(locale, "end.rematch_ask", when=Text(f"<t:{int(ends_at)}:T>")))
            if pressed:
                seat_names = {table.seats[s].user_id: names[s] for s in range(table.n_seats)}
                lines.append(t(locale, "end.rematch_pressed", count=len(pressed),
                               total=len(people),
                               names=", ".join(seat_names.get(u, "?") for u in pressed)))
            view.add_item(GameButton(ids.button(table.id, "rematch"),
                                     label=t(locale, "button.rematch"), emoji="🔁",
                                     style=discord.ButtonStyle.success))
        deals = end.result.replay.get("deals")
        if end.result.game in ("tichu", "tichu6") and isinstance(deals, list) and deals \
                and end.result.id is not None:
            numbers = range(max(0, len(deals) - REVIEW_DEALS), len(deals))
            view.add_item(GameSelect(
                ids.select(0, "review", str(end.result.id)),
                options=[discord.SelectOption(label=t(locale, "history.review_deal",
                                                      number=n + 1), value=str(n))
                         for n in numbers],
                placeholder=t(locale, "history.review")[:150]))
        return "\n".join(lines)

    async def _public(self, table: Table, locale: str) -> PublicMessage:
        """The table's public message in ``locale``, drawn once per change of the table."""
        changes = self._changes(table.id)
        kept = self._tables.get((table.id, locale))
        if kept is not None and kept[0] == changes:
            return kept[1]
        message = await spec_of(table).table_message(table, locale)
        self._tables[(table.id, locale)] = (changes, message)
        return message

    @staticmethod
    def _digest(message: HandMessage) -> str:
        components = json.dumps(message.view.to_components(), sort_keys=True, default=str)
        return hashlib.sha256(message.content.encode() + b"\0" + message.images()
                              + b"\0" + components.encode()).hexdigest()

    # ------------------------------------------------------------ surface
    async def present(self, table: Table) -> None:
        if table.game is None or table.status not in SHOWN:
            table.announcements.clear()
            return
        entries, table.announcements = table.announcements, []
        gone = [e for e in entries if e.key == "log.away_out"]
        entries = [e for e in entries if e.key != "log.away_out"]
        await asyncio.gather(*(self._present_seat(table, seat, entries)
                               for seat in self._people(table)),
                             *(self._tell_out(table, entry) for entry in gone))

    async def _present_seat(self, table: Table, seat: int, entries: list[Any]) -> None:
        try:
            key = (table.id, seat)
            if self._drawn.get(key) != self._changes(table.id) or \
                    self.message_of(table, seat) is None:
                wait = self._written.get(key, -1e9) + self.edit_interval - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                await self._show(table, seat)
            for entry in entries:
                await self._announce(table, seat, entry)
        except StoreError as exc:
            log.warning("direct table %s, seat %s: %s", table.id, seat, exc)
        except Exception:  # one seat's failure never stops the others'
            log.exception("direct table %s: the DM of seat %s failed", table.id, seat)

    async def push_panels(self, table: Table) -> None:
        if table.game is None or table.status not in SHOWN:
            return
        await asyncio.gather(*(self._show_logged(table, seat) for seat in self._people(table)))

    async def repost(self, table: Table) -> None:
        await self.push_panels(table)

    async def _show_logged(self, table: Table, seat: int) -> None:
        try:
            await self._show(table, seat)
        except Exception:
            log.exception("direct table %s: the DM panel of seat %s failed", table.id, seat)

    async def _dm(self, user_id: int) -> discord.abc.Messageable:
        return await self.bot.create_dm(discord.Object(user_id))

    async def _show(self, table: Table, seat: int) -> None:
        """Write the seat's panel: an edit of its message, or its first message. The write
        waits for its turn at the pacer before it takes the seat's lock: a click on the
        panel (answered through its own token, which the pace does not bind) waits for
        no more than a drawing in progress, never for the queue of the bot's writes."""
        user_id = table.seats[seat].user_id
        if user_id is None or (table.id, user_id) in self.closed:
            return
        key = (table.id, seat)
        if self._drawn.get(key) == self._changes(table.id) and \
                self.message_of(table, seat) is not None:
            return
        # The seat due to act (or with no panel yet) takes the next turn of the writes;
        # the others' panels wait, folding the changes that come meanwhile.
        due = table.game is not None and table.status is TableStatus.PLAYING \
            and seat in table.spec.due_seats(table.game)
        first = due or self.message_of(table, seat) is None
        queued = self._queued.get(key)
        if queued is not None and (queued[0] or not first) and \
                self.message_of(table, seat) is not None:
            return  # a drawing of this panel waits for its turn: it draws the newest state
        mine = self._queued[key] = (first, object())
        try:
            await self.pacer.wait(first=first)
            # Drawn before the seat's lock is taken: a click on the panel (drawn first by
            # the workers, :func:`~bot.workers.clicked`) never waits for this drawing; if
            # it drew the table as new or newer meanwhile, this one is not written. The
            # state is read once a worker is free for it (:func:`~bot.workers.until_free`).
            await until_free()
            if self._queued.get(key) is mine:
                del self._queued[key]  # a change from now on needs a drawing of its own
            seen = self._changes(table.id)
            if self._drawn.get(key) == seen and self.message_of(table, seat) is not None:
                return  # drawn meanwhile (the person's click)
            message = await self.panel(table, seat, self.locale_of(table, user_id))
        finally:
            if self._queued.get(key) is mine:
                del self._queued[key]
        async with self._lock(table, seat):
            stored = self.message_of(table, seat)
            if self._drawn.get(key, -1) >= seen and stored is not None:
                return  # the person's click drew it as new or newer meanwhile
            digest = self._digest(message)
            self._written[key] = time.monotonic()
            if stored is not None:
                channel_id, message_id = stored
                if self._shown.get(message_id) == digest:
                    self._drawn[key] = seen
                    return
                partial = self.bot.get_partial_messageable(channel_id)
                try:
                    await partial.get_partial_message(message_id).edit(
                        **self._images.edits(message_id, message))
                    self.edited += 1
                    self._shown[message_id] = digest
                    self._drawn[key] = seen
                    return
                except discord.NotFound:
                    pass  # the person deleted it: a new panel
                except discord.Forbidden as error:
                    if error.code != DM_CLOSED:
                        raise
                    self._refused(table, seat, user_id)
                    return
            channel = await self._dm(user_id)
            try:
                sent = await channel.send(content=message.content, files=message.files(),
                                          view=message.view)
            except discord.Forbidden as error:
                if error.code != DM_CLOSED:
                    raise
                self._refused(table, seat, user_id)
                return
            self.sent += 1
            self._images.sent(sent.id, message)
            self._shown[sent.id] = digest
            self._drawn[key] = seen
            await self._remember(table, seat, sent.channel.id, sent.id)

    def _refused(self, table: Table, seat: int, user_id: int) -> None:
        """The person's DMs refused the bot (closed, or the bot blocked): not tried again
        at this table; the turn timer plays their seat."""
        self.closed.add((table.id, user_id))
        log.warning("direct table %s: user %s does not take direct messages (seat %s "
                    "plays on its timer)", table.id, user_id, seat)

    async def _tell_out(self, table: Table, entry: Any) -> None:
        """Tell a person who lost their seat for good (gone too long), in one sentence in
        their DM, under the panel they no longer play from."""
        found = table.out.get(entry.values.get("seat", -1))
        if found is None or (table.id, found[0]) in self.closed:
            return
        user_id = found[0]
        try:
            channel = await self._dm(user_id)
            await self.pacer.wait()
            await channel.send(content=t(self.locale_of(table, user_id), "hand.away_gone"))
            self.sent += 1
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            self.closed.add((table.id, user_id))
        except Exception:  # one person's DM never stops the table's presentation
            log.exception("direct table %s: telling %s they are out failed", table.id,
                          user_id)

    async def _announce(self, table: Table, seat: int, entry: Any) -> None:
        """A deal's summary or the game's result, posted under the seat's panel."""
        user_id = table.seats[seat].user_id
        if user_id is None or (table.id, user_id) in self.closed or \
                self.message_of(table, seat) is None:
            return
        message = await spec_of(table).announcement(table, entry,
                                                     self.locale_of(table, user_id))
        if message is None:
            return
        channel = await self._dm(user_id)
        await self.pacer.wait()
        try:
            if message.view is None:
                await channel.send(content=message.content, files=message.files())
            else:
                await channel.send(content=message.content, files=message.files(),
                                   view=message.view)
        except discord.Forbidden as error:
            if error.code != DM_CLOSED:
                raise
            self._refused(table, seat, user_id)
            return
        self.sent += 1

    async def answer(self, interaction: discord.Interaction[Any], table: Table, seat: int,
                     locale: str, look: HandMessage | None = None) -> None:
        """A click on the seat's DM panel (acknowledged as an update of that message):
        the panel redrawn in place, through the click's own response."""
        key = (table.id, seat)
        async with self._lock(table, seat):
            seen = self._changes(table.id)
            with clicked():
                message = await self.panel(table, seat, locale, look)
            target = interaction.message.id if interaction.message is not None else None
            await interaction.edit_original_response(**self._images.edits(target, message))
            if target is not None:
                self._shown[target] = self._digest(message)
            self._drawn[key] = seen
            self._written[key] = time.monotonic()

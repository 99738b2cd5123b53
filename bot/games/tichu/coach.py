"""The coach at a Tichu table (issue 25): hints at practice tables, and each person's
review of their decisions after every deal.

- **Hints** (:meth:`Coach.hint`): only at practice tables (``/tichu new practice:true``),
  never at rated tables, duplicate tables or the daily challenge. The seat's decision
  now is valued by :func:`engine.review.hint` in a worker process (milliseconds),
  from a replay of the deal so far that the engine reads only through the seat's
  eyes.
- **Reviews** (:meth:`Coach.deal_ended`, :meth:`Coach.review`): when a deal ends,
  each person's decisions in it are valued by :func:`engine.review.review_game` in the
  background processes (the lowest CPU priority: no live table waits for them) and
  stored with the deal's replay (:class:`~bot.store.models.ReviewRecord`). Opening a
  review reads the store. A review asked for before it is stored (the bot restarted,
  or it is still being computed) is started then, once.

Both only ever show the person's own cards: the position pictures are drawn from the
seat's view of the deal at that moment and the public table.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.shared import names_of
from bot.games.tichu.alt import position_alt
from bot.i18n import t
from bot.i18n.names import card_labels, combo_name, rank_name
from bot.render import render_position
from bot.store.models import GameResult, ReviewRecord
from bot.tables import SeatKind, Table, TableError, TableService
from bot.workers import FOR_A_PERSON, offload, offload_background
from engine.duplicate.play import BoardsGame
from engine.errors import EngineError
from engine.review import has_choice, review_game
from engine.review import hint as engine_hint
from engine.tichu.actions import Action, Exchange, Gift, Play, action_from_json
from engine.tichu.cards import MAHJONG
from engine.tichu.combos import readings
from engine.tichu.game import TichuGame
from engine.tichu.replay import read_file, to_replay

log = logging.getLogger(__name__)

SHOWN = 3
"""At most this many decisions are shown in a review."""
MIN_COST = 10.0
"""A decision is shown only if it cost at least this many points: below, the estimate is
within the evaluator's error (the engine lists every positive cost)."""
QUEUED_REVIEWS = 32
"""At most this many reviews made ahead (as deals end) wait or run at once; past it, on a
busy server, a deal's reviews are made when they are asked for, so the background
never falls behind without bound."""
SHOWN_OPTIONS = 3
"""A hint shows at most this many options."""
WORDS = ("grand_tichu", "decline_grand", "tichu", "no_tichu", "no_bomb", "pass")
"""The options said in words of their own (the others name their cards)."""


# ------------------------------------------------------------ engine jobs
# Module-level functions of plain data: they run in worker processes.

def one_deal(replay: dict[str, Any], number: int) -> dict[str, Any]:
    """The replay file of deal ``number`` of a game's replay alone (its hands, dealer and
    actions, from 0-0): what a hint or a review reads."""
    out = {key: value for key, value in replay.items() if key not in ("deals", "trace")}
    out["deals"] = [replay["deals"][number]]
    return out


def deal_replay(game: TichuGame, number: int) -> dict[str, Any]:
    """The replay file of deal ``number`` of ``game`` alone (see :func:`one_deal`)."""
    return one_deal(to_replay(game), number)


def hint_job(data: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The engine's hint for ``seat`` at the end of ``data``, as JSON (None: no decision)."""
    found = engine_hint(data, seat)
    return None if found is None else found.to_json()


def review_job(data: dict[str, Any], seat: int) -> dict[str, Any]:
    """The engine's review of ``seat``'s decisions in the one deal of ``data``, as JSON."""
    return review_game(data, [seat]).to_json()


def position_picture(data: dict[str, Any], index: int, seat: int, names: Sequence[str],
                     locale: str) -> tuple[bytes, str]:
    """The table everyone saw with ``seat``'s own hand under it, just before action
    ``index`` of the one deal of ``data`` (never another seat's cards): one picture, and
    the same in words (its alt text)."""
    read = read_file(data)
    deal = read.deals[0]
    game = TichuGame(target=read.target, hands=deal.hands, players=read.players,
                     dealer=deal.dealer)
    for action in deal.actions[:index]:
        game.apply(action)
    public, own = game.view(None), game.view(seat)
    return (render_position(public, own, names, locale=locale),
            position_alt(public, own, names, locale))


# ------------------------------------------------------------- in words
def option_text(locale: str, option: dict[str, Any], names: Sequence[str]) -> str:
    """An option of the engine's JSON (an action, or not calling / not bombing), in words."""
    do = option.get("do")
    if do in WORDS:
        return t(locale, f"coach.do.{do}")
    try:
        action: Action = action_from_json(option)
    except (EngineError, ValueError, KeyError):
        return str(do)
    if isinstance(action, Exchange):
        gifts = [t(locale, "coach.do.give", cards=card_labels(locale, [card]),
                   name=names[target] if 0 <= target < len(names) else "?")
                 for target, card in action.give]
        return ", ".join(gifts)
    if isinstance(action, Gift):
        name = names[action.to] if 0 <= action.to < len(names) else "?"
        return t(locale, "coach.do.gift", name=name)
    if isinstance(action, Play):
        found = [r for r in readings(action.cards) if action.phoenix is None
                 or r.phoenix == action.phoenix]
        what = combo_name(locale, found[0]) if found else card_labels(locale, action.cards)
        text = t(locale, "coach.do.play", combo=what, cards=card_labels(locale, action.cards))
        if action.wish is not None:
            text += " " + t(locale, "coach.do.wish", rank=rank_name(locale, action.wish))
        elif MAHJONG in action.cards:
            text += " " + t(locale, "coach.do.no_wish")
        return text
    return str(do)


def points(value: float) -> str:
    """A value in points, signed, to a whole point."""
    rounded = round(value)
    return f"+{rounded}" if rounded > 0 else str(rounded)


def hint_text(locale: str, found: dict[str, Any], names: Sequence[str]) -> str:
    """A hint in words: the move, the best options with their values, and a reason."""
    lines = [t(locale, "coach.hint_title"),
             t(locale, "coach.hint_best", option=option_text(locale, found["best"], names))]
    for entry in found.get("options", [])[:SHOWN_OPTIONS]:
        lines.append(t(locale, "coach.hint_option",
                       option=option_text(locale, entry["option"], names),
                       value=points(float(entry["value"]))))
    lines.append(t(locale, f"coach.reason.{found.get('reason', 'best_value')}"))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Shown:
    """One decision of a review as shown: its words and its position's picture (the table
    with the seat's hand under it), with its description."""

    text: str
    image: bytes
    alt: str


def shown_decisions(review: dict[str, Any]) -> list[dict[str, Any]]:
    """The decisions of a stored review worth showing: cost at least :data:`MIN_COST`,
    the costliest first, at most :data:`SHOWN`."""
    decisions = [d for d in review.get("decisions", [])
                 if isinstance(d, dict) and float(d.get("cost", 0)) >= MIN_COST]
    decisions.sort(key=lambda d: (-float(d["cost"]), int(d.get("index", 0))))
    return decisions[:SHOWN]


async def review_pictures(record: ReviewRecord, locale: str) -> tuple[str, list[Shown]]:
    """A stored review in words, with the picture of each decision's position."""
    review = record.review
    names = [str(n) for n in review.get("names", [])]
    data = review["replay"]
    lines = [t(locale, "coach.review_title", deal=record.deal + 1)]
    decisions = shown_decisions(review)
    shown: list[Shown] = []
    if not decisions:
        lines.append(t(locale, "coach.review_clean"))
    for number, decision in enumerate(decisions, start=1):
        text = t(locale, "coach.review_line", number=number,
                 kind=t(locale, f"coach.kind.{decision.get('kind', 'play')}"),
                 chosen=option_text(locale, decision["chosen"], names),
                 best=option_text(locale, decision["best"], names),
                 cost=round(float(decision["cost"])))
        pictures = await offload(position_picture, data, int(decision["index"]), record.seat,
                                 names, locale)
        shown.append(Shown(text, *pictures))
    return "\n".join(lines), shown


# ------------------------------------------------------------- the coach
def hints_allowed(table: Table) -> bool:
    """Hints only at practice tables: never at rated, duplicate or daily tables."""
    return bool(table.record.options.get("practice")) and not table.private \
        and not isinstance(table.game, BoardsGame)


def has_decision(table: Table, seat: int) -> bool:
    """Whether the seat has something to decide now that a hint speaks of (the engine's
    :func:`~engine.review.has_choice`; a seat the computer plays for has not)."""
    game = table.game
    return isinstance(game, TichuGame) and not table.seats[seat].away \
        and has_choice(game.view(seat))


class Coach:
    """Hints and reviews for the Tichu tables of a :class:`TableService`."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._reviews: dict[tuple[int, int, int], asyncio.Task[None]] = {}
        service.deal_listeners.append(self.deal_ended)

    async def close(self) -> None:
        """Stop the reviews being computed (one not stored is computed when asked for)."""
        tasks = [task for task in self._reviews.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ---------------------------------------------------------------- hints
    async def hint(self, table: Table, user_id: int, locale: str) -> str:
        """A hint for the person's decision now, in words (refusals are TableErrors): a
        Hint button stays valid whatever happens (no move count), and answers about the
        decision the person has now."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        if not hints_allowed(table):
            raise TableError("hint_not_here")
        if not has_decision(table, seat):
            raise TableError("hint_no_decision")
        game = table.game
        assert isinstance(game, TichuGame)
        data = deal_replay(game, len(game.deal_log) - 1)
        found = await offload(hint_job, data, seat)
        if found is None:
            raise TableError("hint_no_decision")
        return hint_text(locale, found, names_of(table, locale))

    # -------------------------------------------------------------- reviews
    async def deal_ended(self, table: Table) -> None:
        """A deal ended at a table: have each person's review of it made in the background."""
        game = table.game
        if not isinstance(game, TichuGame) or not game.history:
            return
        number = len(game.history) - 1
        for seat in range(table.n_seats):
            if table.kind(seat) is not SeatKind.HUMAN:
                continue
            if len(self._reviews) >= QUEUED_REVIEWS:
                log.info("table %s deal %s: reviews made on demand (%d under way)",
                         table.id, number, len(self._reviews))
                return
            self.review_soon(table, number, seat)

    def review_soon(self, table: Table, number: int, seat: int) -> None:
        """Compute and store the seat's review of deal ``number`` (once at a time)."""
        key = (table.id, number, seat)
        task = self._reviews.get(key)
        if task is not None and not task.done():
            return
        game = table.game
        assert isinstance(game, TichuGame)
        user_id = table.seats[seat].user_id
        assert user_id is not None
        data = deal_replay(game, number)
        names = names_of(table, table.record.locale)
        self._start(key, self._review(table.id, number, seat, user_id, data, names))

    def _start(self, key: tuple[int, int, int], work: Coroutine[Any, Any, None]) -> None:
        """Run one review; it is forgotten once done (stored, or failed: asked again, it
        is made again)."""
        task = asyncio.get_running_loop().create_task(work)
        self._reviews[key] = task

        def done(task: asyncio.Task[None]) -> None:
            if self._reviews.get(key) is task:
                del self._reviews[key]
            _review_done(task)

        task.add_done_callback(done)

    async def _review(self, table_id: int, number: int, seat: int, user_id: int,
                      data: dict[str, Any], names: list[str]) -> None:
        found = await offload_background(review_job, data, seat, rank=FOR_A_PERSON)
        review = {**found, "replay": data, "names": names}
        await self.service.repo.save_review(ReviewRecord(table_id=table_id, deal=number,
                                                         seat=seat, user_id=user_id,
                                                         review=review))
        log.info("table %s deal %s: seat %s's review stored", table_id, number, seat)

    async def review(self, table_id: int, number: int, user_id: int,
                     result: GameResult | None = None) -> ReviewRecord:
        """The person's stored review of deal ``number`` at the table (of the finished
        game ``result``, from the history). Refused: not the person's deal
        (``review_not_yours``), a deal not over (``review_not_over``), or a review still
        being made (``review_pending``, started now if it was not)."""
        stored = [r for r in await self.service.repo.user_reviews(table_id, user_id)
                  if r.deal == number]
        if stored:
            return stored[0]
        if result is not None:
            self._review_result(result, number, user_id)
            raise TableError("review_pending")
        try:
            table = await self.service.get(table_id)
        except TableError:
            table = None
        game = table.game if table is not None else None
        if table is None or not isinstance(game, TichuGame):
            raise TableError("review_missing")
        seats = [s for s in range(table.n_seats) if table.seats[s].user_id == user_id
                 and table.kind(s) is SeatKind.HUMAN]
        if not seats:
            raise TableError("review_not_yours")
        if not 0 <= number < len(game.history):
            raise TableError("review_not_over")
        self.review_soon(table, number, seats[0])
        raise TableError("review_pending")


    def _review_result(self, result: GameResult, number: int, user_id: int) -> None:
        """Start the review of a finished game's deal (one stored before reviews were)."""
        seats = sorted(p.seat for p in result.players if p.user_id == user_id)
        deals = result.replay.get("deals")
        if not seats:
            raise TableError("review_not_yours")
        if result.replay.get("game") != "tichu" or not isinstance(deals, list) \
                or not 0 <= number < len(deals):
            raise TableError("review_missing")
        key = (result.table_id, number, seats[0])
        task = self._reviews.get(key)
        if task is not None and not task.done():
            return
        names = [p.name for p in sorted(result.players, key=lambda p: p.seat)]
        self._start(key, self._review(result.table_id, number, seats[0], user_id,
                                      one_deal(result.replay, number), names))


def _review_done(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a review failed: %r", task.exception())

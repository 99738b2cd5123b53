"""The coach at a Tichu table (issue 25): hints at practice tables, and each person's
review of their decisions after every deal.

- **Hints** (:meth:`Coach.hint`): only at practice tables (``/tichu new practice:true``),
  never at rated tables, duplicate tables or the daily challenge. The seat's decision
  now is valued by :func:`engine.review.hint` in a worker process (milliseconds),
  from a replay of the deal so far that the engine reads only through the seat's
  eyes.
- **Reviews** (:meth:`Coach.deal_ended`, :meth:`Coach.review`): when a deal ends,
  each person's review of it is a job (:mod:`bot.jobs`, kind ``review``, made ahead):
  :func:`make_review` values their decisions with :func:`engine.review.review_game` in
  the background (the bot's lowest-priority processes, or a worker) and stores them with
  the deal's replay (:class:`~bot.store.models.ReviewRecord`). Opening a review reads
  the store. A review asked for before it is stored is queued then, or moved ahead of
  the reviews made ahead if it is queued already; one whose job failed for good says
  so.

Both only ever show the person's own cards: the position pictures are drawn from the
seat's view of the deal at that moment and the public table.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.shared import names_of, person_name
from bot.games.tichu.alt import position_alt
from bot.i18n import join, t
from bot.i18n.names import card_labels, combo_name, rank_name
from bot.jobs import AHEAD, ASKED, JobContext, JobFailed, Jobs
from bot.render import render_position
from bot.store.models import GameResult, ReviewRecord, StoreError
from bot.store.personal import REVIEW_JOBS
from bot.tables import SeatKind, Table, TableError, TableService
from bot.workers import offload
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
"""With the in-memory queue (SQLite), at most this many reviews made ahead (as deals end)
wait or run at once; past it, on a busy server, a deal's reviews are made when they are
asked for, so the background never falls behind without bound. The queue in PostgreSQL
has no such bound: workers on other machines take its reviews."""
REVIEW = REVIEW_JOBS
"""The kind of the review jobs (named in the store, whose erase deletes a person's)."""
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


def review_key(table_id: int, deal: int, seat: int) -> str:
    """The job key of one seat's review of one deal."""
    return f"{REVIEW}:{table_id}:{deal}:{seat}"


def review_payload(table_id: int, deal: int, seat: int, user_id: int, data: dict[str, Any],
                   names: list[str]) -> dict[str, Any]:
    """A review job's payload: the deal's replay and who the review is for."""
    return {"table_id": table_id, "deal": deal, "seat": seat, "user_id": user_id,
            "replay": data, "names": names}


async def make_review(ctx: JobContext, payload: dict[str, Any]) -> None:
    """A review job: value the seat's decisions (in the background) and store them, unless
    they are stored already (the first write wins either way). A payload or a replay that
    cannot be read fails the job for good (:class:`~bot.jobs.JobFailed`)."""
    try:
        table_id, deal, seat, user_id = (int(payload[k]) for k in
                                         ("table_id", "deal", "seat", "user_id"))
        data = payload["replay"]
        names = [str(n) for n in payload["names"]]
        if not isinstance(data, dict):
            raise TypeError("a replay of the wrong type")
    except (KeyError, TypeError, ValueError) as exc:
        raise JobFailed(f"review job {ctx.job_id}: its payload cannot be read "
                        f"({exc!r})") from None
    if await ctx.repo.review(table_id, deal, seat) is not None:
        return
    try:
        found = await ctx.run(review_job, data, seat)
    except (EngineError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise JobFailed(f"review job {ctx.job_id} (table {table_id} deal {deal} seat "
                        f"{seat}): the engine cannot review it ({exc!r})") from None
    review = {**found, "replay": data, "names": names}
    await ctx.repo.save_review(ReviewRecord(table_id=table_id, deal=deal, seat=seat,
                                            user_id=user_id, review=review))
    log.info("table %s deal %s: seat %s's review stored", table_id, deal, seat)


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
        return join(", ", gifts)
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
    names = [person_name(locale, str(n)) for n in review.get("names", [])]
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
    """Hints and reviews for the Tichu tables of a :class:`TableService`; the reviews are
    jobs on ``jobs``."""

    def __init__(self, service: TableService, jobs: Jobs) -> None:
        self.service = service
        self.jobs = jobs
        service.results.deal_listeners.append(self.deal_ended)

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
        """A deal ended at a table: queue each person's review of it, made ahead. A queue
        that does not answer costs only that: the review is queued when asked for."""
        game = table.game
        if not isinstance(game, TichuGame) or not game.history:
            return
        number = len(game.history) - 1
        try:
            for seat in range(table.n_seats):
                if table.kind(seat) is not SeatKind.HUMAN:
                    continue
                if not self.jobs.durable and await self.jobs.depth(REVIEW) >= QUEUED_REVIEWS:
                    log.info("table %s deal %s: reviews made on demand (%d queued)",
                             table.id, number, QUEUED_REVIEWS)
                    return
                user_id = table.seats[seat].user_id
                assert user_id is not None
                await self.jobs.submit(REVIEW, review_key(table.id, number, seat),
                                       review_payload(table.id, number, seat, user_id,
                                                      deal_replay(game, number),
                                                      names_of(table, table.record.locale)),
                                       AHEAD)
        except StoreError as exc:
            log.warning("table %s deal %s: reviews not queued (%s); each is queued when "
                        "asked for", table.id, number, exc)

    async def review(self, table_id: int, number: int, user_id: int,
                     result: GameResult | None = None) -> ReviewRecord:
        """The person's stored review of deal ``number`` at the table (of the finished
        game ``result``, from the history). Refused: not the person's deal
        (``review_not_yours``), a deal not over (``review_not_over``), a review still
        being made (``review_pending``: queued now, first of all, if it was not), or
        one whose job failed for good (``review_failed``)."""
        stored = [r for r in await self.service.repo.user_reviews(table_id, user_id)
                  if r.deal == number]
        if stored:
            return stored[0]
        seat, data, names = (self._of_result(result, number, user_id) if result is not None
                             else await self._of_table(table_id, number, user_id))
        key = review_key(table_id, number, seat)
        if await self.jobs.state(key) == "failed":
            raise TableError("review_failed")
        await self.jobs.submit(REVIEW, key, review_payload(table_id, number, seat, user_id,
                                                           data, names), ASKED)
        raise TableError("review_pending")

    async def _of_table(self, table_id: int, number: int,
                        user_id: int) -> tuple[int, dict[str, Any], list[str]]:
        """The person's seat, the deal's replay and the names, from the live table."""
        try:
            table = await self.service.core.get(table_id)
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
        return seats[0], deal_replay(game, number), names_of(table, table.record.locale)

    @staticmethod
    def _of_result(result: GameResult, number: int,
                   user_id: int) -> tuple[int, dict[str, Any], list[str]]:
        """The same from a finished game (one stored before reviews were)."""
        seats = sorted(p.seat for p in result.players if p.user_id == user_id)
        deals = result.replay.get("deals")
        if not seats:
            raise TableError("review_not_yours")
        if result.replay.get("game") != "tichu" or not isinstance(deals, list) \
                or not 0 <= number < len(deals):
            raise TableError("review_missing")
        names = [p.name for p in sorted(result.players, key=lambda p: p.seat)]
        return seats[0], one_deal(result.replay, number), names



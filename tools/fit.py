"""Whether every label fits its room: every image kind, in every language, at its fullest.

``python -m tools.fit [--lang LANG ...] [--kind NAME ...]`` draws each kind of image the
bot posts in English, French, German and Greek, in its fullest cases (every phase of a
table, long names, the largest scores and bids, the games' own words from the
catalogues), records every text drawn, and prints each label that was cut short:
drawn with an ellipsis that does not stand for the end of a player's name. It ends with
the count, ``cut labels: N`` (the goal is 0; exit status 1 otherwise).

A label that does not fit takes its short form (``<key>.short`` in
:mod:`bot.render.labels`, chosen by its translator) before anything is cut; only a name
is cut, and a name cut is not counted. ``tests/tools/test_fit.py`` holds every kind and
language to 0, and fails on a planted label too long for its room.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import Any

from PIL import ImageDraw

from bot.i18n import t
from bot.i18n.catalog import LANGUAGES, catalog
from bot.i18n.names import card_label
from bot.render import examples as ex
from bot.render import labels
from bot.render.trick import NOTE, SeatInfo
from engine.tichu.view import Call, DealResult

ELLIPSIS = "…"
SHADOW = (0, 0, 0, 150)

Draw = Callable[[], object]


@dataclass(frozen=True, slots=True)
class Case:
    """One image of the sweep: how to draw it, and the players' texts it shows (names,
    which may be cut)."""

    draw: Draw
    free: tuple[str, ...]


class _Warnings(logging.Handler):
    """The warnings of the drawing code: a label that fits nowhere, a legend left short."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.texts = texts

    def emit(self, record: logging.LogRecord) -> None:
        if not str(record.msg).startswith(CUT):  # a cut label is drawn, and counted so
            self.texts.append(f"{WARNED}{record.getMessage()}")


CUT = "the %s label"
"""How :func:`bot.render.labels.fit_label` warns of a label it cut."""
WARNED = "warning: "
"""How a warning of the drawing code shows among the texts drawn."""


@contextmanager
def recording() -> Iterator[list[str]]:
    """Every text drawn inside the block (drop shadows left out), and every warning of
    :mod:`bot.render` (prefixed :data:`WARNED`)."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text
    handler = _Warnings(texts)
    logger = logging.getLogger("bot.render")
    logger.addHandler(handler)

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        fill = kwargs.get("fill", args[0] if args else None)
        if fill != SHADOW:
            texts.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign]
    try:
        yield texts
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
        logger.removeHandler(handler)


def _word_starts(text: str) -> list[str]:
    """``text`` and each of its tails that starts after a space (a name wraps at its
    words, hyphens, underscores and slashes, a team's name at its members: ``& Eve``)."""
    return [text[i:] for i in range(len(text)) if i == 0 or text[i - 1] in " -_/"]


@cache
def _templates(lang: str) -> tuple[re.Pattern[str], ...]:
    """Every text of ``lang`` with a value at its end (a label, a sentence of the
    catalogues), as a pattern its filled-in forms match: ``Ανοίγει: (.+)``."""
    texts = {*labels.catalog(lang).values(), *catalog(lang).values()}
    patterns = []
    for text in texts:
        parts = re.split(r"\{[^{}]*\}", text)
        words = sum(c.isalnum() for part in parts for c in part)
        if len(parts) > 1 and not parts[-1] and words >= 2:  # not "{name} {card}"
            patterns.append(re.compile("(.+)".join(map(re.escape, parts))))
    return tuple(patterns)


def _cut_name(kept: str, starts: list[str]) -> bool:
    """Whether ``kept`` is a name (a tail of one that starts a word) cut short."""
    return bool(kept) and any(tail.startswith(kept) and tail != kept for tail in starts)


def cut_labels(texts: Iterable[str], lang: str, free: Collection[str]) -> list[str]:
    """The texts of ``texts`` in which a label was cut: an ellipsis that neither belongs to
    the label itself (``deciding…``) nor ends a cut name of ``free``. A text cut at its end
    is a name drawn alone, or a text whose last value is that name (the words before it
    whole); inside a text, the cut must end a name that starts after a space."""
    whole = set(labels.catalog(lang).values())
    starts = [tail for name in free for tail in _word_starts(name)]
    found = []
    for text in texts:
        if text.startswith(WARNED):
            found.append(text)
            continue
        if ELLIPSIS not in text or text in whole:
            continue
        at = 0
        while (at := text.find(ELLIPSIS, at)) >= 0:
            kept = text[:at].rstrip()
            at += 1
            if at == len(text):
                ok = _cut_name(kept, starts) or any(
                    (m := p.fullmatch(kept + ELLIPSIS)) is not None
                    and _cut_name(m.group(m.lastindex or 0)[:-1].rstrip(), starts)
                    for p in _templates(lang))
            else:
                ok = any(kept.endswith(tail[:k]) and (len(kept) == k or kept[-k - 1] == " ")
                         for tail in starts for k in range(1, len(tail)))
            if not ok:
                found.append(text)
                break
    return found


# ------------------------------------------------------------------------- the sweep
def _teams(names: tuple[str, ...]) -> tuple[str, ...]:
    from bot.render.seats import team_name

    return tuple(team_name(names, team, len(names)) for team in (0, 1))


NAME_SETS: tuple[tuple[str, ...], ...] = (ex.NAMES, ex.LONG_NAMES)
NAME_SETS6: tuple[tuple[str, ...], ...] = (ex.NAMES6, ex.LONG_NAMES6)
LONGEST = "Maximilian Hohenstein"
"""The longest of the example names: the one the games' texts name."""


def _tichu(lang: str) -> dict[str, Case]:
    from bot.render.hand import draw_exchange, draw_hand
    from bot.render.position import render_position
    from bot.render.summary import draw_deal_summary, draw_game_over
    from bot.render.table import draw_table

    cases: dict[str, Case] = {}
    names: tuple[str, ...]
    for names in NAME_SETS:
        free = (*names, *_teams(names))
        tag = "long" if names is ex.LONG_NAMES else "short"
        for phase, view in ex.table_views().items():
            cases[f"table-{phase}-{tag}"] = Case(partial(draw_table, view, names, lang), free)
        cases[f"table-big-{tag}"] = Case(
            partial(draw_table, ex.big_scores_view(), names, lang), free)
        cases[f"table-duplicate-{tag}"] = Case(
            partial(draw_table, ex.table_view(), names, lang, 12), free)
        cases[f"table-over-{tag}"] = Case(
            partial(draw_table, replace(ex.game_over_view(), trick=()), names, lang), free)
        cases[f"exchange-{tag}"] = Case(partial(
            draw_exchange, ex.exchange_view(), *ex.EXCHANGE_CHOICE, names, lang), free)
        cases[f"exchange-partial-{tag}"] = Case(partial(
            draw_exchange, ex.exchange_view(), ex.EXCHANGE_CHOICE[0], None, None, names,
            lang), free)
        cases[f"position-{tag}"] = Case(partial(
            render_position, ex.table_views()["play"], ex.position_view(), names,
            locale=lang), free)
        for name, view in (("deal-summary", ex.deal_over_view()), ("calls", _calls_view()),
                           ("no-sweep", _no_sweep_view())):
            cases[f"{name}-{tag}"] = Case(partial(draw_deal_summary, view, names, lang), free)
        for name, view in (("game-over", ex.game_over_view()),
                           ("game-over-long", ex.long_game_over_view())):
            cases[f"{name}-{tag}"] = Case(partial(draw_game_over, view, names, lang), free)
    for names in NAME_SETS6:
        free = (*names, *_teams(names))
        tag = "long" if names is ex.LONG_NAMES6 else "short"
        for phase, view in ex.six_table_views().items():
            cases[f"table-six-{phase}-{tag}"] = Case(partial(draw_table, view, names, lang),
                                                     free)
        cases[f"exchange-six-{tag}"] = Case(partial(
            draw_exchange, ex.six_exchange_view(), ex.cards("PHOENIX")[0], None,
            ex.cards("2c")[0], names, lang), free)
        cases[f"deal-summary-six-{tag}"] = Case(
            partial(draw_deal_summary, ex.six_deal_over_view(), names, lang), free)
        for name, view in (("game-over-six", ex.six_game_over_view()),
                           ("game-over-six-second", ex.six_game_over_second_view())):
            cases[f"{name}-{tag}"] = Case(partial(draw_game_over, view, names, lang), free)
    grand = replace(ex.hand_view(), calls=(None, None, Call.GRAND_TICHU, None))
    for name, view in (("hand", ex.hand_view()), ("hand-grand", grand),
                       ("hand-six", ex.six_hand_view()), ("hand-ten", _ten_view())):
        cases[name] = Case(partial(draw_hand, view, lang, ex.HAND_SELECTED), ())
    return cases


def _calls_view() -> Any:
    """A deal where three of four seats called: a Tichu made, a Tichu and a Grand lost."""
    return replace(ex.deal_over_view(), history=(*ex.HISTORY[:3], DealResult(
        3, (1, 0, 2), (45, 55), (-300, 100), (Call.TICHU, Call.TICHU, Call.GRAND_TICHU, None),
        None)))


def _no_sweep_view() -> Any:
    return replace(ex.deal_over_view(), history=(*ex.HISTORY[:3], DealResult(
        3, (3, 2, 0), (35, 65), (0, 200), (None,) * 4, None)))


def _ten_view() -> Any:
    return replace(ex.hand_view(), hand=ex.cards("DOG 3h 5c 5d 5h 7s 9s Ts PHOENIX Ac"),
                   hand_counts=(10, 12, 10, 13))


def _note(parts: list[str]) -> str:
    """A Tysiacha seat's note as the game builds it: its parts by priority, as many as
    fit (:func:`bot.games.tysiacha.table.seat_infos`)."""
    from bot.render.trick import note_fits

    note = ""
    for part in parts:
        longer = f"{note} · {part}" if note else part
        if note and not note_fits(longer):
            break
        note = longer
    return note


def _tricks(lang: str) -> dict[str, Case]:
    """The trick-taking games' tables, with the words their games write on them."""
    from bot.games.tysiacha.table import marriages_footer
    from bot.render.trick import draw_trick_table

    round_ = t(lang, "chinois.round", round=12, rounds=28, cards=12)
    header = t(lang, "chinois.image.header", round=round_, stage=t(lang, "chinois.stage.down"))
    footer = t(lang, "chinois.image.footer", bids=13, tricks=12)
    names4 = [s.name for s in ex.max_trick_seats()]
    cases: dict[str, Case] = {
        "chinois-max": Case(lambda: draw_trick_table(
            ex.max_trick_seats(), ex.MAX_TRICK, leader=1, winner=1,
            trump_card=ex.cards("7s")[0], header=header, locale=lang, clockwise=True,
            footer=footer), tuple(names4)),
        "chinois-long": Case(lambda: draw_trick_table(
            ex.long_trick_seats(), ex.TRICK, leader=ex.TRICK_LEADER,
            trump_suit=ex.TRICK_TRUMP_SUIT, header=header, locale=lang, footer=footer),
            tuple(s.name for s in ex.long_trick_seats())),
        "chinois-lead": Case(lambda: draw_trick_table(
            ex.long_trick_seats(), [], leader=0, header=t(lang, "chinois.image.header",
            round=t(lang, "chinois.round", round=14, rounds=28, cards=13),
            stage=t(lang, "chinois.stage.top")), locale=lang, footer=footer),
            tuple(s.name for s in ex.long_trick_seats())),
        "chinois-no-trump": Case(lambda: draw_trick_table(
            ex.trick_seats(), ex.TRICK, leader=ex.TRICK_LEADER, header=header, locale=lang),
            tuple(ex.NAMES)),
    }
    names3 = ex.LONG_NAMES[:3]
    notes = [_note([t(lang, "tysiacha.note.barrel", left=3),
                    t(lang, "tysiacha.note.contract", contract=120), "♥ ♣"]),
             _note([t(lang, "tysiacha.note.barrel", left=1),
                    t(lang, "tysiacha.note.bid", bid=115)]),
             _note([t(lang, "tysiacha.note.passed")])]
    seats3 = [SeatInfo(n, tricks=4, points=-1000 + 20 * i, is_turn=i == 0, is_dealer=i == 1,
                       note=note) for i, (n, note) in enumerate(zip(names3, notes, strict=True))]
    sits_out = SeatInfo(ex.LONG_NAMES[3], points=885, is_dealer=True,
                        note=t(lang, "tysiacha.note.sits_out"))
    tys_header = t(lang, "tysiacha.header.contract", number=12, name=names3[0], contract=120)
    tys_footer = marriages_footer(list(zip(names3, (2, 1, 0), strict=True)), lang)
    bidding = t(lang, "tysiacha.header.bidding", number=12, bid=120)
    cases |= {
        "tysiacha-three": Case(lambda: draw_trick_table(
            seats3, ex.THREE_TRICK, leader=1, trump_suit=2, header=tys_header, locale=lang,
            clockwise=True, footer=tys_footer), (*names3, *ex.LONG_NAMES)),
        "tysiacha-four": Case(lambda: draw_trick_table(
            [sits_out, *seats3], [(2, ex.cards("Ah")[0])], leader=2, trump_suit=3,
            header=bidding, locale=lang, clockwise=True, footer=tys_footer),
            tuple(ex.LONG_NAMES)),
        "tysiacha-open": Case(lambda: draw_trick_table(
            seats3, [], leader=None, header=t(lang, "tysiacha.header.bidding_open", number=12),
            locale=lang, clockwise=True), tuple(names3)),
    }
    return cases


def _sheets(lang: str) -> dict[str, Case]:
    """The score sheets, the French hands, the prikup, the boards and the chart."""
    from bot.games.tysiacha.images import hand_key, render_prikup
    from bot.render.french import render_french_hand
    from bot.render.ratings import BoardLine, render_leaderboard, render_rating_chart
    from bot.render.trick import render_score_grid
    from engine.trick import by_suit

    columns, rows, exact = ex.chinois_sheet(ex.LONG_NAMES, ex.LONG_PLAYS)
    columns[0] = t(lang, "chinois.grid.round")
    rows[-1][0] = t(lang, "chinois.grid.total")
    chinois_title = t(lang, "chinois.grid.title", round=27, rounds=28)
    totals = [0, 0, 0]
    grid: list[list[str]] = []
    for i, (who, contract, how, changes) in enumerate(ex.TYSIACHA_DEALS):
        if who is None:
            grid.append([str(i + 1), t(lang, "tysiacha.sheet.redeal"), *map(str, totals)])
            continue
        row = [str(i + 1), f"{contract} {how}"]
        for s, change in enumerate(changes):
            totals[s] += change
            row.append(f"{change:+d}{NOTE}{totals[s]}".replace("-", "−"))
        grid.append(row)
    grid.append([t(lang, "tysiacha.sheet.total"), "", *map(str, totals)])
    tys_columns = [t(lang, "tysiacha.sheet.deal"), t(lang, "tysiacha.sheet.contract"),
                   *ex.LONG_NAMES[:3]]
    french = ex.FRENCH_MAX
    trump = t(lang, "chinois.hand.image_title", trump=card_label(lang, ex.cards("7s")[0]))
    no_trump = t(lang, "chinois.hand.image_title", trump=t(lang, "chinois.no_trump"))
    soloist = t(lang, "tysiacha.hand.title_soloist", contract=120)
    board = [t(lang, f"ratings.col.{c}") for c in ("rank", "name", "rating", "games", "rate")]
    daily = [t(lang, f"daily.col.{c}") for c in ("rank", "name", "score", "boards", "trend")]
    own = BoardLine(123, "Maximilian von Hohenstein-Eberstein", -11.8, 1234, 0.25, mine=True)
    board_names = tuple(line.name for line in (*ex.BOARD, *ex.DAILY, own))
    prikup = tuple(int(c) for c in ex.cards("Ah Ts Qd"))
    return {
        "chinois-sheet": Case(lambda: render_score_grid(
            columns, rows, title=chinois_title, highlight_cells=exact, total_row=True,
            footer=t(lang, "chinois.grid.footer"), locale=lang), tuple(ex.LONG_NAMES)),
        "chinois-final": Case(lambda: render_score_grid(
            columns, rows, title=t(lang, "chinois.grid.final_title"), total_row=True,
            footer=t(lang, "chinois.grid.footer"), locale=lang), tuple(ex.LONG_NAMES)),
        "tysiacha-sheet": Case(lambda: render_score_grid(
            tys_columns, grid, title=t(lang, "tysiacha.sheet.final", name=LONGEST),
            total_row=True, footer=t(lang, "tysiacha.sheet.legend"), locale=lang),
            tuple(ex.LONG_NAMES)),
        "french-hand": Case(lambda: render_french_hand(
            french, key=by_suit, playable=ex.FRENCH_MAX_PLAYABLE, title=trump, locale=lang),
            ()),
        "french-hand-no-trump": Case(lambda: render_french_hand(
            french[:10], key=hand_key, playable=french[:3], title=no_trump, locale=lang), ()),
        "french-hand-soloist": Case(lambda: render_french_hand(
            french[:10], key=hand_key, playable=(), title=soloist, locale=lang), ()),
        "prikup": Case(lambda: render_prikup(prikup, t(
            lang, "tysiacha.prikup.title", number=12, name=LONGEST, bid=120)), (LONGEST,)),
        "leaderboard": Case(lambda: render_leaderboard(board, ex.BOARD, own), board_names),
        "standings": Case(lambda: render_leaderboard(daily, ex.DAILY), board_names),
        "rating-chart": Case(lambda: render_rating_chart(
            t(lang, "ratings.chart"), list(ex.RATING_HISTORY),
            t(lang, "ratings.chart_caption", games=1234)), ()),
    }


def sweep(lang: str) -> dict[str, Case]:
    """Every image kind in ``lang``, in its fullest cases, by name."""
    return {**_tichu(lang), **_tricks(lang), **_sheets(lang)}


def cuts(langs: Iterable[str] = LANGUAGES,
         kinds: Collection[str] | None = None) -> dict[tuple[str, str], list[str]]:
    """The cut labels of every case of the sweep, by (case, language)."""
    found: dict[tuple[str, str], list[str]] = {}
    for lang in langs:
        for name, case in sweep(lang).items():
            if kinds and not any(name.startswith(k) for k in kinds):
                continue
            with recording() as texts:
                case.draw()
            found[(name, lang)] = cut_labels(texts, lang, case.free)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.fit", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", action="append", choices=LANGUAGES,
                        help="only this language (repeatable)")
    parser.add_argument("--kind", action="append",
                        help="only the cases whose name starts so (repeatable)")
    args = parser.parse_args(argv)
    found = cuts(args.lang or LANGUAGES, args.kind)
    total = 0
    for (name, lang), texts in found.items():
        for text in texts:
            print(f"{lang}  {name:<28} {text}")
            total += 1
    cases = len({name for name, _ in found})
    langs = len({lang for _, lang in found})
    print(f"cut labels: {total} ({cases} cases × {langs} languages, {len(found)} images)")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())

"""Figures of a table of people: the play menu over seeded deals, and four people
playing from their open hand panels through the local Discord.

    python -m tools.bench_table [--deals 200] [--table-deals 2]

Prints: how often the play menu is grouped, unreachable legal plays (must be 0),
clicks per play for a single, a pair and a bomb; then, from a seeded table of four
people acting at once from their panels: hand messages per player per deal,
panel redraws pushed by the bot, refusals (and of them, still-legal choices: 0),
REST calls per action and 429s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
from pathlib import Path

from bot.games.tichu.hand import MAX_OPTIONS, grouped_plays, menu_pages
from engine.tichu.actions import DeclineGrand, Exchange, Gift, Pass, Play
from engine.tichu.ai import pending_seats
from engine.tichu.cards import MAHJONG
from engine.tichu.combos import Combo, Kind
from engine.tichu.game import TichuGame
from engine.tichu.legal import can_pass, gift_targets, legal_plays
from engine.tichu.view import Phase


def clicks(plays: list[Combo], play: Combo) -> int:
    """Choices a person makes to play ``play`` from the panel on their turn (paging
    counts as a choice)."""
    kinds, shown, _ = menu_pages(plays, None)
    if not kinds:
        return 1
    group = next(k for k, g in grouped_plays(plays).items() if play in g)
    index = grouped_plays(plays)[group].index(play)
    return (1 if group == shown else 2) + index // MAX_OPTIONS


def _turn(game: TichuGame) -> int:
    """The seat on turn, in a phase where there is one."""
    assert game.turn is not None, game.phase
    return game.turn


def menu_figures(deals: int, players: int) -> None:
    rng = random.Random(players)
    turns = grouped = unreachable = 0
    per: dict[str, list[int]] = {"single": [], "pair": [], "bomb": [], "bomb off turn": []}
    for number in range(deals):
        game = TichuGame(seed=f"bench-table-{players}-{number}", players=players)
        while game.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
            public = game.view(None)
            if game.phase is Phase.GRAND:
                game.apply(DeclineGrand(pending_seats(public)[0]))
                continue
            if game.phase is Phase.EXCHANGE:
                seat = pending_seats(public)[0]
                mine = game.view(seat)
                targets = mine.exchange_targets(seat)
                cards = rng.sample(list(mine.hand), len(targets))
                game.apply(Exchange(seat, tuple(zip(targets, cards, strict=True))))
                continue
            if game.phase is Phase.GIFT:
                giver = _turn(game)
                game.apply(Gift(giver, rng.choice(gift_targets(game.view(giver)))))
                continue
            for seat in range(players):
                if seat != game.turn and game.hands[seat]:
                    bombs = [p for p in legal_plays(game.view(seat)) if p.is_bomb]
                    per["bomb off turn"] += [1] * len(bombs)
            seat = _turn(game)
            mine = game.view(seat)
            plays = legal_plays(mine)
            turns += 1
            kinds, _, _ = menu_pages(plays, None)
            grouped += bool(kinds)
            seen = set()
            every: list[str | None] = [None]  # no kind menu: one page list of all plays
            for kind in kinds or every:
                for page in menu_pages(plays, kind)[2]:
                    seen |= {(p.cards, p.phoenix) for p in page}
            unreachable += len({(p.cards, p.phoenix) for p in plays} - seen)
            for play in plays:
                name = "bomb" if play.is_bomb else str(play.kind.value)
                if name in per:
                    per[name].append(clicks(plays, play))
            if can_pass(mine) and (not plays or rng.random() < 0.4):
                game.apply(Pass(seat))
                continue
            play = rng.choice(plays)
            dog = mine.dog_targets(seat) if play.kind is Kind.DOG else ()
            game.apply(Play(seat, play.cards, phoenix=play.phoenix,
                            wish=rng.choice([None, *range(2, 15)]) if MAHJONG in play.cards
                            else None, to=dog[0] if len(dog) > 1 else None))
    print(f"Play menu, {players} players, {deals} seeded deals: {turns} turns, "
          f"{grouped / turns:.0%} with more than {MAX_OPTIONS} plays (grouped by kind), "
          f"unreachable legal plays: {unreachable}")
    for name, counts in per.items():
        if counts:
            print(f"  clicks to play a {name}: mean {statistics.mean(counts):.2f}, "
                  f"max {max(counts)} ({len(counts)} plays)")


async def table_figures(deals: int) -> None:
    from bot.i18n import t
    from tests.bot.conftest import World, open_lobby, seat_and_start
    from tests.bot.driver import Person, running, settle, table_message
    from tests.emulator.server import DiscordEmulator

    async with DiscordEmulator() as emu:
        guild = emu.add_guild("Friends", locale="en-US")
        channel = emu.add_text_channel(guild, "tichu")
        users = [emu.add_user(n, locale=loc) for n, loc in
                 (("alice", "en-US"), ("bob", "fr"), ("carol", "en-GB"), ("dave", "fr"))]
        stranger = emu.add_user("eve", locale="en-US")
        for user in (*users, stranger):
            emu.add_member(guild, user)
        world = World(emu, guild, channel, users, stranger)
        with tempfile.TemporaryDirectory() as folder:
            async with running(emu, Path(folder) / "db.sqlite3",
                               table_edit_interval=1.5) as bot:
                lobby, table = await open_lobby(world, bot, target=1000)
                await seat_and_start(world, lobby, [0, 1, 2, 3], {})
                await settle(bot, table)
                message = table_message(emu, table)
                people = {s: Person(emu, users[s], random.Random(40 + s), calls=True)
                          for s in range(4)}
                await asyncio.gather(*(p.open_hand(message) for p in people.values()))
                calls_before = len(emu.rest_calls)
                while len(table.game.history) < deals:
                    due = await settle(bot, table, timeout=60)
                    await asyncio.gather(
                        *(people[s].act(message) for s in due),
                        *(people[s].out_of_turn() for s in range(4) if s not in due))
                await settle(bot, table)
                actions = table.seq
                stale = sum(r == t(p.user.locale, "error.stale")
                            for p in people.values() for r in p.refusals)
                summary = emu.rest_summary()
                print(f"Four people, {deals} seeded deals, acting at once from open panels "
                      f"({actions} actions):")
                for seat, person in people.items():
                    print(f"  seat {seat + 1}: {person.opened / deals:.1f} hand messages per "
                          f"deal, {person.actions} actions, {person.raced} out of turn, "
                          f"{len(person.refusals)} refusals")
                print(f"  panel redraws pushed by the bot: {bot.panels.pushed}; refusals of a "
                      f"still-legal choice (out of date): {stale}")
                print(f"  REST calls per action: {(len(emu.rest_calls) - calls_before) / actions:.2f}"
                      f"; KB uploaded in all: {summary['kb_uploaded']:.0f}; 429s: "
                      f"{summary['rate_limited']}")
                for route, kb in sorted(summary["kb_by_route"].items(), key=lambda r: -r[1]):
                    print(f"    {route}: {summary['by_route'].get(route, 0)} calls, {kb:.0f} KB")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_table",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200,
                        help="seeded deals of four whose play menus are counted (a quarter as "
                        "many of six)")
    parser.add_argument("--table-deals", type=int, default=2,
                        help="deals four people play from their panels through the local "
                        "Discord")
    args = parser.parse_args(argv)
    menu_figures(args.deals, 4)
    menu_figures(max(args.deals // 4, 1), 6)
    asyncio.run(table_figures(args.table_deals))


if __name__ == "__main__":
    main()

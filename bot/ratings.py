"""Skill ratings of finished games, with openskill's Plackett-Luce model (pure: no Discord,
no store).

A rating belongs to one *player key* per game per server: ``u:<user id>`` for a person,
``cpu:<level>`` for each computer level, which is rated like a player of its own so that
beating ``hard`` counts for more than beating ``easy``. Tichu is rated as two teams of two,
ranked by the winning team (six-player Tichu, ``tichu6``, as two teams of three, in a
pool of its own); Chinois and Tysiacha free-for-all by final rank (the winners
first, then by final score, equal places sharing a rank). The number shown is the
conservative ordinal ``mu - 3 * sigma``.

:func:`rate_game` is the one update; :func:`rebuild` replays it over games in finish order,
so a rebuild from the stored games gives exactly the incremental numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
TEAM_GAMES = frozenset({"tichu", "tichu6"})
"""Games rated team against team: Tichu for four (2 v 2) and for six (3 v 3)."""

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown to players: ``mu - 3 * sigma``."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a finished game, as the rating needs it."""

    key: str
    team: int
    won: bool
    score: int


def player_key(user_id: int | None, bot_level: str | None) -> str | None:
    """``u:<id>`` for a person, ``cpu:<level>`` for a computer, None for an empty seat."""
    if user_id is not None:
        return f"u:{user_id}"
    if bot_level:
        return f"cpu:{bot_level}"
    return None


def user_of(key: str) -> int | None:
    """The Discord user id of a person's key, None for a computer."""
    return int(key[2:]) if key.startswith("u:") and key[2:].isdigit() else None


def places(game: str, seats: Sequence[Seat]) -> list[tuple[list[int], int]]:
    """The sides of the game (seat indexes of ``seats``) with their rank (0 is first;
    equal ranks tie). Tichu: one side per team; otherwise one side per seat."""
    if game in TEAM_GAMES:
        teams: dict[int, list[int]] = {}
        for i, seat in enumerate(seats):
            teams.setdefault(seat.team, []).append(i)
        sides = [teams[team] for team in sorted(teams)]
    else:
        sides = [[i] for i in range(len(seats))]

    def strength(side: list[int]) -> tuple[bool, int]:
        first = seats[side[0]]
        return (any(seats[i].won for i in side), first.score)

    order = sorted({strength(side) for side in sides}, reverse=True)
    return [(side, order.index(strength(side))) for side in sides]


def rate_game(game: str, seats: Sequence[Seat],
              ratings: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new ratings of every key that played in the game (unknown keys start at the
    default). A key seated more than once (a computer level at two seats) moves by the mean
    of its seats' changes. A game with fewer than two distinct keys changes nothing."""
    if len({seat.key for seat in seats}) < 2:
        return {}
    sides = places(game, seats)
    teams = [[_MODEL.rating(mu=ratings.get(seats[i].key, Rating()).mu,
                            sigma=ratings.get(seats[i].key, Rating()).sigma)
              for i in side] for side, _ in sides]
    rated = _MODEL.rate(teams, ranks=[float(rank) for _, rank in sides])
    moves: dict[str, list[tuple[float, float]]] = {}
    for (side, _), new_team in zip(sides, rated, strict=True):
        for i, new in zip(side, new_team, strict=True):
            moves.setdefault(seats[i].key, []).append((new.mu, new.sigma))
    out: dict[str, Rating] = {}
    for key, changes in moves.items():
        old = ratings.get(key, Rating())
        mu = old.mu + sum(m - old.mu for m, _ in changes) / len(changes)
        sigma = sum(s for _, s in changes) / len(changes)
        out[key] = Rating(mu, sigma)
    return out


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game to rate: its id (finish order), its kind and its seats."""

    id: int
    game: str
    seats: tuple[Seat, ...]


def rebuild(games: Iterable[RatedGame]) -> tuple[dict[tuple[str, str], Rating],
                                                  dict[int, dict[str, Rating]]]:
    """Every rating from scratch, replaying ``games`` in the order given (finish order):
    the final ratings by (game kind, key) and, per game id, the ratings after it."""
    current: dict[tuple[str, str], Rating] = {}
    after: dict[int, dict[str, Rating]] = {}
    for played in games:
        known = {seat.key: current[played.game, seat.key] for seat in played.seats
                 if (played.game, seat.key) in current}
        new = rate_game(played.game, played.seats, known)
        for key, rating in new.items():
            current[played.game, key] = rating
        after[played.id] = new
    return current, after

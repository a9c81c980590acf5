"""Ratings of rated games: pure functions on OpenSkill's Plackett-Luce model (``openskill``).

One finished game rates its seats by final rank, 2 to 6 players, ties allowed: the caller
passes each seat's player, that player's current :class:`Rating` **for the game's preset** (one
rating per preset; a player new to the preset passes ``Rating()``) and the seat's final rank,
and gets each player's new rating back. Nothing here reads or writes storage.

Ranks are competition ranks from the final totals, 1 for first (:func:`ranks_from_totals`:
totals 200, 180, 180, 150 rank 1, 2, 2, 4). A seat a bot played for an absent player keeps that
player's rank: the caller passes the absent player with the seat's rank, as if they had played
to the end. A rating is **provisional** until :data:`PROVISIONAL_GAMES` rated games; its
uncertainty (sigma) is larger then, so it moves more with each game.

The displayed rating is :data:`SCALE` times mu, so a new player shows 1500 as on Board Game
Arena and lichess, and one sigma of a new player is 500; leaderboards sort by the conservative
:attr:`Rating.ordinal` (mu - 3 sigma) so that a lucky newcomer does not top them.

>>> ann, bob = Rating(), Rating()
>>> changes = rate_game([Seat("ann", ann, 1), Seat("bob", bob, 2)])
>>> [(c.player, c.before.shown, c.after.shown, c.after.games) for c in changes]
[('ann', 1500, 1658, 1), ('bob', 1500, 1342, 1)]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from yacht.game import Game
from yacht.rules import Category
from yacht.web.service.correspondence import forfeit_ranks
from yacht.web.storage.models import SeatRow, TableRow
from yacht.web.storage.results import Finish, Result, Standing

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "MU",
    "PROVISIONAL_GAMES",
    "SCALE",
    "SIGMA",
    "Rating",
    "RatingChange",
    "RatingError",
    "Seat",
    "finish",
    "ranks_from_totals",
    "rate_game",
]

MU = 25.0
"""A new player's mean skill (OpenSkill's default)."""

SIGMA = MU / 3
"""A new player's uncertainty (OpenSkill's default)."""

SCALE = 60.0
"""Displayed points per unit of mu: a new player's 25 shows as 1500."""

PROVISIONAL_GAMES = 10
"""Rated games before a rating stops being provisional."""

MIN_SEATS, MAX_SEATS = 2, 6

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


class RatingError(ValueError):
    """What the caller passed cannot be rated (a bug in the caller, never a player's input:
    so it is English only, not in the catalogs)."""


@dataclass(frozen=True)
class Rating:
    """A player's rating for one preset: ``mu`` (mean skill), ``sigma`` (its uncertainty),
    ``games`` (rated games played)."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    def __post_init__(self) -> None:
        if not (isinstance(self.mu, int | float) and math.isfinite(self.mu)):
            raise RatingError(f"mu must be a finite number, got {self.mu!r}")
        if not (isinstance(self.sigma, int | float) and math.isfinite(self.sigma)):
            raise RatingError(f"sigma must be a finite number, got {self.sigma!r}")
        if self.sigma <= 0:
            raise RatingError(f"sigma must be above 0, got {self.sigma!r}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 0:
            raise RatingError(f"games must be a whole number from 0, got {self.games!r}")

    @property
    def provisional(self) -> bool:
        """Fewer than :data:`PROVISIONAL_GAMES` rated games."""
        return self.games < PROVISIONAL_GAMES

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: the skill the player is very likely above (what leaderboards sort by)."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The rating a player sees: :data:`SCALE` times mu, rounded (1500 for a new player)."""
        return round(SCALE * self.mu)

    def to_json(self) -> dict[str, Any]:
        return {
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
            "shown": self.shown,
            "provisional": self.provisional,
        }


@dataclass(frozen=True)
class Seat:
    """One seat of a finished rated game: the ``player`` (an account's id), their current
    ``rating`` for the game's preset, and the seat's final ``rank`` (1 for first)."""

    player: str | int
    rating: Rating
    rank: int


@dataclass(frozen=True)
class RatingChange:
    """A player's rating before and after one game."""

    player: str | int
    before: Rating
    after: Rating

    @property
    def shown_change(self) -> int:
        return self.after.shown - self.before.shown


def ranks_from_totals(totals: Sequence[int]) -> list[int]:
    """Competition ranks from final totals: 1 + the number of higher totals.

    >>> ranks_from_totals([180, 200, 180, 150])
    [2, 1, 2, 4]
    """
    return [1 + sum(other > total for other in totals) for total in totals]


def _check(seats: Sequence[Seat]) -> None:
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise RatingError(f"a rated game has {MIN_SEATS} to {MAX_SEATS} players, got {len(seats)}")
    players = [s.player for s in seats]
    if len(set(players)) != len(players):
        twice = sorted({repr(p) for p in players if players.count(p) > 1})
        raise RatingError(f"a player is in two seats: {', '.join(twice)}")
    for s in seats:
        if not isinstance(s.rating, Rating):
            raise RatingError(f"the rating of {s.player!r} is not a Rating: {s.rating!r}")
        if isinstance(s.rank, bool) or not isinstance(s.rank, int):
            raise RatingError(f"the rank of {s.player!r} is not a whole number: {s.rank!r}")
    ranks = [s.rank for s in seats]
    for s in seats:
        # competition ranking: a rank is 1 + the number of seats ranked before it
        if s.rank != 1 + sum(r < s.rank for r in ranks):
            raise RatingError(
                f"ranks {ranks} are not competition ranks from 1 (e.g. 1, 2, 2, 4): "
                f"{s.player!r} has rank {s.rank!r}"
            )


def _tie_breaks(ranks: Sequence[int]) -> Iterator[list[float]]:
    """Every strict order the ranks allow: each group of tied seats in every order (one order
    when nothing is tied; at most 6! = 720 when all six tie)."""
    groups = [[i for i, r in enumerate(ranks) if r == rank] for rank in sorted(set(ranks))]
    for orders in itertools.product(*(itertools.permutations(g) for g in groups)):
        strict = [0.0] * len(ranks)
        for place, seat in enumerate(seat for order in orders for seat in order):
            strict[seat] = float(place + 1)
        yield strict


def rate_game(seats: Sequence[Seat]) -> list[RatingChange]:
    """The new ratings after one finished game, in the order of ``seats``.

    Plackett-Luce by final rank; each player's ``games`` goes up by one. A tie is rated as
    the mean of its strict orders: each order of the tied seats is rated alone and the new
    mu and sigma of every seat are averaged over them, so tied players with equal ratings get
    equal ones. (openskill 6.2's own tie handling gives the player just after a tie the
    same mu as the tied ones: ranks 1, 1, 3, 4 leave the third where the winners are;
    openskill.py issues 155 and 201.) Deterministic: the same seats give the same ratings.

    Raises :class:`RatingError` for fewer than 2 or more than 6 seats, a player in two
    seats, or ranks that are not competition ranks (1 for first, ties share a rank and the
    next rank skips it: 1, 2, 2, 4).
    """
    _check(seats)
    mus: list[list[float]] = [[] for _ in seats]
    sigmas: list[list[float]] = [[] for _ in seats]
    for strict in _tie_breaks([s.rank for s in seats]):
        teams = [[_MODEL.rating(mu=s.rating.mu, sigma=s.rating.sigma)] for s in seats]
        for i, team in enumerate(_MODEL.rate(teams, ranks=strict)):
            mus[i].append(float(team[0].mu))
            sigmas[i].append(float(team[0].sigma))
    # fsum is exact whatever the order of its terms: tied equals stay equal to the bit
    return [
        RatingChange(
            s.player,
            s.rating,
            Rating(
                math.fsum(mus[i]) / len(mus[i]),
                math.fsum(sigmas[i]) / len(sigmas[i]),
                s.rating.games + 1,
            ),
        )
        for i, s in enumerate(seats)
    ]


START = Standing(MU, SIGMA, 0)
"""A player new to a preset, as stored."""


def _rate(ranks: dict[int, int]) -> Callable[[Mapping[int, Standing]], dict[int, Standing]]:
    def rate(before: Mapping[int, Standing]) -> dict[int, Standing]:
        seats = [Seat(a, Rating(s.mu, s.sigma, s.games), ranks[a]) for a, s in before.items()]
        return {
            int(c.player): Standing(c.after.mu, c.after.sigma, c.after.games)
            for c in rate_game(seats)
        }

    return rate


def finish(
    table: TableRow, seats: Sequence[SeatRow], game: Game, forfeits: Collection[int] = ()
) -> Finish | None:
    """What a finished ``game`` leaves for its signed-in players (None: it has none): each
    account's total, rank and Yachts, once per account (an account in two seats of an unrated
    table counts its first); for a rated table whose every seat holds another account, the
    OpenSkill update by final rank. A seat a bot played for an absent player still holds the
    player's account, so the player keeps the seat's rank; except the seats in ``forfeits``
    (a correspondence seat the bot kept after too many missed moves), which lost: they share
    the last place."""
    totals = game.totals
    ranks = forfeit_ranks(totals, forfeits) if forfeits else ranks_from_totals(totals)
    first: dict[int, int] = {}
    for row in seats:
        if row.account_id is not None:
            first.setdefault(row.account_id, row.position)
    if not first:
        return None
    results = tuple(
        Result(
            account,
            seat,
            totals[seat],
            ranks[seat],
            int(game.sheet(seat).get(Category.YACHT, 0) > 0),
        )
        for account, seat in first.items()
    )
    rated = bool(table.rated) and len(first) == len(seats) >= MIN_SEATS
    rate = _rate({r.account: r.rank for r in results}) if rated else None
    return Finish(table.preset, bool(table.private), rated, len(seats), results, rate, START)

"""What a finished game leaves behind for its signed-in players, written in the transaction of
the game's last move: one :class:`~yacht.web.storage.models.PlayerGameRow` per account, and for
a rated game each account's new rating and a rating event.

Ratings are read and written here, but computed by the caller's ``rate`` (the service's OpenSkill
model, :mod:`yacht.web.service.ratings`): this layer does not know the model. The rating rows of
the game's players are locked in account id order before they are read (``SELECT ... FOR
UPDATE`` on PostgreSQL; SQLite has one writer at a time, and the move's first statement took
the write lock already), so two games of one player ending at the same moment are both counted,
one after the other, and two games with the same players in other seat orders cannot deadlock.
A game rates a player once: ``rating_events`` is unique on (game, account), so a change that
runs twice fails whole rather than count twice.

>>> finish = Finish("traditional", False, False, 2, (Result(7, 0, 180, 1, 1),), None)
>>> finish.accounts, finish.rated_accounts
((7,), ())
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, insert, select, text, update
from sqlalchemy.dialects import postgresql, sqlite

from yacht.web.storage.models import PlayerGameRow, RatingEventRow, RatingRow

__all__ = [
    "Finish",
    "Rate",
    "Result",
    "Standing",
    "reviewed",
    "write",
    "write_pg",
    "write_review",
    "write_review_pg",
]

_RATINGS = cast(Table, RatingRow.__table__)
_EVENTS = cast(Table, RatingEventRow.__table__)
_PLAYER_GAMES = cast(Table, PlayerGameRow.__table__)


@dataclass(frozen=True)
class Standing:
    """An account's rating for one preset as stored: mean, uncertainty, rated games."""

    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


Rate = Callable[[Mapping[int, Standing]], Mapping[int, Standing]]
"""Each rated account's standing before the game -> after it."""


@dataclass(frozen=True)
class Result:
    """One account's seat in a finished game: ``rank`` 1 for first (ties share a rank)."""

    account: int
    seat: int
    total: int
    rank: int
    yachts: int


@dataclass(frozen=True)
class Finish:
    """A finished game's results for its signed-in players; ``rate`` for a rated game."""

    preset: str
    private: bool
    rated: bool
    players: int
    results: tuple[Result, ...]
    rate: Rate | None
    start: Standing = Standing(0.0, 1.0, 0)
    """The standing of a player new to the preset (the rating model's prior)."""

    @property
    def accounts(self) -> tuple[int, ...]:
        return tuple(sorted({r.account for r in self.results}))

    @property
    def rated_accounts(self) -> tuple[int, ...]:
        return self.accounts if self.rated and self.rate is not None else ()

    def rows(self, game_id: int, code: str, number: int, when: datetime) -> list[dict[str, Any]]:
        return [
            {
                "account_id": r.account,
                "game_id": game_id,
                "table_code": code,
                "number": number,
                "seat": r.seat,
                "preset": self.preset,
                "rated": self.rated,
                "private": self.private,
                "players": self.players,
                "total": r.total,
                "rank": r.rank,
                "yachts": r.yachts,
                "loss": None,
                "decisions": None,
                "accurate": None,
                "finished_at": when,
            }
            for r in self.results
        ]

    def starts(self, when: datetime) -> list[dict[str, Any]]:
        """Rating rows for players new to the preset (inserted unless there is one)."""
        return [self._rating(a, self.start, when) for a in self.rated_accounts]

    def _rating(self, account: int, s: Standing, when: datetime) -> dict[str, Any]:
        return {
            "account_id": account,
            "preset": self.preset,
            "mu": s.mu,
            "sigma": s.sigma,
            "ordinal": s.ordinal,
            "games": s.games,
            "updated_at": when,
        }

    def rated_rows(
        self, game_id: int, before: Mapping[int, Standing], when: datetime
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The ratings to update and the rating events."""
        assert self.rate is not None
        after = self.rate(before)
        ranks = {r.account: r.rank for r in self.results}
        changed, events = [], []
        for account in self.rated_accounts:
            s = after[account]
            changed.append(self._rating(account, s, when))
            events.append(
                {
                    "game_id": game_id,
                    "account_id": account,
                    "preset": self.preset,
                    "rank": ranks[account],
                    "mu": s.mu,
                    "sigma": s.sigma,
                    "games": s.games,
                    "at": when,
                }
            )
        return changed, events


# One statement for SQLite and PostgreSQL alike (both have ON CONFLICT ... DO UPDATE).
_COUNT = (
    "INSERT INTO player_stats (account_id, preset, games, wins, total_sum, best, yachts, "
    "reviewed, loss_sum, decisions, accurate) VALUES ({a}, {p}, 1, {w}, {t}, {t}, {y}, 0, 0, 0, 0) "
    "ON CONFLICT (account_id, preset) DO UPDATE SET games = player_stats.games + 1, "
    "wins = player_stats.wins + excluded.wins, "
    "total_sum = player_stats.total_sum + excluded.total_sum, "
    "best = CASE WHEN excluded.best > player_stats.best THEN excluded.best "
    "ELSE player_stats.best END, yachts = player_stats.yachts + excluded.yachts"
)
_COUNT_SQL = text(_COUNT.format(a=":a", p=":p", w=":w", t=":t", y=":y"))
_COUNT_PG = _COUNT.format(a="$1", p="$2", w="$3", t="$4", y="$5")
_SUMS_REVIEWED = (
    "UPDATE player_stats SET reviewed = reviewed + 1, loss_sum = loss_sum + {loss}, "
    "decisions = decisions + {d}, accurate = accurate + {ok} WHERE account_id = {a} "
    "AND preset = {p}"
)
_SUMS_REVIEWED_SQL = text(_SUMS_REVIEWED.format(loss=":loss", d=":d", ok=":ok", a=":a", p=":p"))
_SUMS_REVIEWED_PG = _SUMS_REVIEWED.format(loss="$3", d="$4", ok="$5", a="$1", p="$2")


def _counts(finish: Finish) -> list[dict[str, Any]]:
    return [
        {"a": r.account, "p": finish.preset, "w": int(r.rank == 1), "t": r.total, "y": r.yachts}
        for r in sorted(finish.results, key=lambda r: r.account)
    ]


def write(
    c: Connection, finish: Finish, game_id: int, code: str, number: int, when: datetime
) -> None:
    """Write ``finish`` inside the caller's transaction (SQLAlchemy: SQLite, PostgreSQL)."""
    c.execute(insert(_PLAYER_GAMES), finish.rows(game_id, code, number, when))
    c.execute(_COUNT_SQL, _counts(finish))
    accounts = finish.rated_accounts
    if not accounts:
        return
    dialect = sqlite.insert if c.dialect.name == "sqlite" else postgresql.insert
    c.execute(dialect(_RATINGS).on_conflict_do_nothing(), finish.starts(when))
    query = (
        select(_RATINGS.c.account_id, _RATINGS.c.mu, _RATINGS.c.sigma, _RATINGS.c.games)
        .where(_RATINGS.c.preset == finish.preset, _RATINGS.c.account_id.in_(accounts))
        .order_by(_RATINGS.c.account_id)
        .with_for_update()
    )
    before = {a: Standing(mu, sigma, games) for a, mu, sigma, games in c.execute(query)}
    changed, events = finish.rated_rows(game_id, before, when)
    for row in changed:
        c.execute(
            update(_RATINGS)
            .where(_RATINGS.c.account_id == row["account_id"], _RATINGS.c.preset == finish.preset)
            .values(**row)
        )
    c.execute(insert(_EVENTS), events)


def _insert_sql(table: Table, columns: list[str]) -> str:
    holes = ", ".join(f"${i + 1}" for i in range(len(columns)))
    return f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({holes})"


_PG_PLAYER_GAMES = [c.name for c in _PLAYER_GAMES.columns]
_PG_RATINGS = [c.name for c in _RATINGS.columns]
_PG_EVENTS = [c.name for c in _EVENTS.columns if c.name != "id"]
# Missing rows first (the prior; in account order, so two games insert in the same order), then
# every row of the game's players locked in account order: the read sees the other game's
# committed update, never a lost one.
_PG_LOCK = (
    "SELECT account_id, mu, sigma, games FROM ratings WHERE preset = $1 "
    "AND account_id = ANY($2::int[]) ORDER BY account_id FOR UPDATE"
)
_PG_UPDATE = (
    "UPDATE ratings SET mu = $3, sigma = $4, ordinal = $5, games = $6, updated_at = $7 "
    "WHERE account_id = $1 AND preset = $2"
)


async def write_pg(
    connection: Any, finish: Finish, game_id: int, code: str, number: int, when: datetime
) -> None:
    """:func:`write` on an asyncpg connection, inside the caller's transaction."""
    rows = finish.rows(game_id, code, number, when)
    await connection.executemany(
        _insert_sql(_PLAYER_GAMES, _PG_PLAYER_GAMES),
        [[r[k] for k in _PG_PLAYER_GAMES] for r in rows],
    )
    await connection.executemany(
        _COUNT_PG, [[r["a"], r["p"], r["w"], r["t"], r["y"]] for r in _counts(finish)]
    )
    accounts = finish.rated_accounts
    if not accounts:
        return
    await connection.executemany(
        _insert_sql(_RATINGS, _PG_RATINGS) + " ON CONFLICT DO NOTHING",
        [[r[k] for k in _PG_RATINGS] for r in finish.starts(when)],
    )
    before = {
        r["account_id"]: Standing(r["mu"], r["sigma"], r["games"])
        for r in await connection.fetch(_PG_LOCK, finish.preset, list(accounts))
    }
    changed, events = finish.rated_rows(game_id, before, when)
    for r in changed:
        await connection.execute(
            _PG_UPDATE,
            r["account_id"],
            r["preset"],
            r["mu"],
            r["sigma"],
            r["ordinal"],
            r["games"],
            r["updated_at"],
        )
    await connection.executemany(
        _insert_sql(_EVENTS, _PG_EVENTS), [[e[k] for k in _PG_EVENTS] for e in events]
    )


def reviewed(review: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each seat's figures from a game's review (the JSON of
    :func:`yacht.web.service.bots.review_json`): the expected points lost over the game, the
    decisions and the accurate ones.

    >>> reviewed({"players": [{"seat": 1, "loss": 2.5, "decisions": [{"accurate": True}, {}]}]})
    [{'seat': 1, 'loss': 2.5, 'decisions': 2, 'accurate': 1}]
    """
    return [
        {
            "seat": int(p["seat"]),
            "loss": float(p["loss"]),
            "decisions": len(p["decisions"]),
            "accurate": sum(bool(d.get("accurate")) for d in p["decisions"]),
        }
        for p in review.get("players", ())
    ]


_REVIEWED = (
    "UPDATE player_games SET loss = $3, decisions = $4, accurate = $5 "
    "WHERE game_id = $1 AND seat = $2 AND loss IS NULL RETURNING account_id, preset"
)


def write_review(c: Connection, game_id: int, review: Mapping[str, Any]) -> None:
    """The review's figures onto the game's player rows and their sums, in the caller's
    transaction (a row that has them already is left as it is)."""
    for r in reviewed(review):
        done = c.execute(
            update(_PLAYER_GAMES)
            .where(
                _PLAYER_GAMES.c.game_id == game_id,
                _PLAYER_GAMES.c.seat == r["seat"],
                _PLAYER_GAMES.c.loss.is_(None),
            )
            .values(loss=r["loss"], decisions=r["decisions"], accurate=r["accurate"])
            .returning(_PLAYER_GAMES.c.account_id, _PLAYER_GAMES.c.preset)
        ).first()
        if done is not None:
            params = {"loss": r["loss"], "d": r["decisions"], "ok": r["accurate"]}
            c.execute(_SUMS_REVIEWED_SQL, {**params, "a": done[0], "p": done[1]})


async def write_review_pg(connection: Any, game_id: int, review: Mapping[str, Any]) -> None:
    """:func:`write_review` on an asyncpg connection, inside the caller's transaction."""
    for r in reviewed(review):
        done = await connection.fetchrow(
            _REVIEWED, game_id, r["seat"], r["loss"], r["decisions"], r["accurate"]
        )
        if done is not None:
            await connection.execute(
                _SUMS_REVIEWED_PG,
                done["account_id"],
                done["preset"],
                r["loss"],
                r["decisions"],
                r["accurate"],
            )

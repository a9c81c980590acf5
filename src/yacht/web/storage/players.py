"""What a profile and a leaderboard read (SQLAlchemy Core, SQLite and PostgreSQL alike).

Reads only: the rows are written with a game's last move and its review
(:mod:`yacht.web.storage.results`). Every function takes the engine first and runs in a worker
thread through :class:`~yacht.web.storage.accounts.AccountStore`, and every query walks an
index, so that a profile costs the same for a player of five games and one of 100,000:

- the leaderboard: ``ix_ratings_preset_ordinal`` from the top, down to the first
  :data:`BOARD_SIZE` rows of players active since the given time (accounts by primary key);
- a profile: the account by its name's skeleton (unique index), its ``player_stats`` and
  ``ratings`` rows (primary keys: one per preset), its rating history
  (``ix_rating_events_account``, the newest :data:`HISTORY` per preset);
- the skill figure's games and the list of games: ``ix_player_games_account_finished``
  newest first. The skill figure reads the newest :data:`SKILL_GAMES` reviewed games of each
  preset the player's sums say has any (the walk skips the few games whose review is not
  made yet); the games list walks on from the cursor past private tables' games.

The rating history asks for the account as a range of one (``BETWEEN a AND a``) and orders by
the index's whole key: with an equality, PostgreSQL walked the primary key (``id``) backwards
instead, filtering, which for a long-time player read 432,000 rows (100 ms) to find the newest
200 of theirs (0.2 ms on the index).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import Connection, Engine, Table, and_, or_, select

from yacht.web.storage.models import (
    AccountRow,
    PlayerGameRow,
    PlayerStatsRow,
    RatingEventRow,
    RatingRow,
)
from yacht.web.storage.offline import OfflineLine, offline_lines

__all__ = [
    "BOARD_SIZE",
    "HISTORY",
    "SKILL_GAMES",
    "BoardRow",
    "Cursor",
    "GameLine",
    "Profile",
    "RatingPoint",
    "ReviewedGame",
    "leaderboard",
    "live_account",
    "player_games",
    "profile",
]

BOARD_SIZE = 100
"""Players on a leaderboard."""

HISTORY = 200
"""Rating changes a profile shows per preset (the newest)."""

SKILL_GAMES = 100
"""Reviewed games per preset the skill chart shows (the newest; the running figure takes the
last 20 of them)."""

_ACCOUNTS = cast(Table, AccountRow.__table__)
_RATINGS = cast(Table, RatingRow.__table__)
_EVENTS = cast(Table, RatingEventRow.__table__)
_GAMES = cast(Table, PlayerGameRow.__table__)
_STATS = cast(Table, PlayerStatsRow.__table__)


def _aware(when: datetime) -> datetime:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


@dataclass(frozen=True)
class BoardRow:
    """One line of a leaderboard."""

    name: str
    mu: float
    sigma: float
    games: int
    updated_at: datetime


def leaderboard(engine: Engine, preset: str, since: datetime) -> list[BoardRow]:
    """The :data:`BOARD_SIZE` best ratings of ``preset`` by ordinal (mu - 3 sigma), of live
    accounts whose rating changed at ``since`` or later."""
    query = (
        select(
            _ACCOUNTS.c.name,
            _RATINGS.c.mu,
            _RATINGS.c.sigma,
            _RATINGS.c.games,
            _RATINGS.c.updated_at,
        )
        .join(_ACCOUNTS, _ACCOUNTS.c.id == _RATINGS.c.account_id)
        .where(
            _RATINGS.c.preset == preset,
            _RATINGS.c.updated_at >= since,
            _ACCOUNTS.c.deleted_at.is_(None),
        )
        .order_by(_RATINGS.c.preset.desc(), _RATINGS.c.ordinal.desc())
        .limit(BOARD_SIZE)
    )
    with engine.connect() as c:
        rows = c.execute(query).all()
    return [BoardRow(r.name, r.mu, r.sigma, r.games, _aware(r.updated_at)) for r in rows]


@dataclass(frozen=True)
class RatingPoint:
    """A rating after one rated game."""

    game_id: int
    rank: int
    mu: float
    sigma: float
    games: int
    at: datetime


@dataclass(frozen=True)
class ReviewedGame:
    """A reviewed game's figures for the skill rating."""

    game_id: int
    loss: float
    decisions: int
    accurate: int
    finished_at: datetime


@dataclass(frozen=True)
class Profile:
    """A live account and its figures, per preset: sums, rating, rating history (oldest
    first) and its newest reviewed games (oldest first)."""

    name: str
    created_at: datetime
    stats: list[PlayerStatsRow]
    ratings: dict[str, RatingRow]
    history: dict[str, list[RatingPoint]] = field(default_factory=dict)
    reviewed: dict[str, list[ReviewedGame]] = field(default_factory=dict)
    offline_count: int = 0
    """Offline games synced (:mod:`yacht.web.storage.offline`): listed, never counted above."""
    offline: list[OfflineLine] = field(default_factory=list)


def _account_id(engine: Engine, skeleton: str) -> tuple[int, str, datetime] | None:
    with engine.connect() as c:
        return _account_on(c, skeleton)


def _account_on(c: Connection, skeleton: str) -> tuple[int, str, datetime] | None:
    row = c.execute(
        select(_ACCOUNTS.c.id, _ACCOUNTS.c.name, _ACCOUNTS.c.created_at).where(
            _ACCOUNTS.c.name_skeleton == skeleton, _ACCOUNTS.c.deleted_at.is_(None)
        )
    ).first()
    return None if row is None else (row.id, row.name, _aware(row.created_at))


def live_account(engine: Engine, skeleton: str) -> bool:
    """Whether a live account's name looks like ``skeleton``."""
    return _account_id(engine, skeleton) is not None


def profile(engine: Engine, skeleton: str) -> Profile | None:
    """The profile of the live account whose name looks like ``skeleton``; None when there
    is none (a deleted account has no profile)."""
    with engine.connect() as c:  # one connection (each checkout pings the database)
        found = _account_on(c, skeleton)
        if found is None:
            return None
        account, name, created = found
        stats = [
            PlayerStatsRow(**dict(r))
            for r in c.execute(
                select(_STATS).where(_STATS.c.account_id == account).order_by(_STATS.c.preset)
            ).mappings()
        ]
        ratings = {
            r["preset"]: RatingRow(**dict(r))
            for r in c.execute(select(_RATINGS).where(_RATINGS.c.account_id == account)).mappings()
        }
        history: dict[str, list[RatingPoint]] = {}
        for preset in sorted(ratings):
            rows = c.execute(
                select(
                    _EVENTS.c.game_id,
                    _EVENTS.c.rank,
                    _EVENTS.c.mu,
                    _EVENTS.c.sigma,
                    _EVENTS.c.games,
                    _EVENTS.c.at,
                )
                .where(_EVENTS.c.account_id.between(account, account), _EVENTS.c.preset == preset)
                .order_by(_EVENTS.c.account_id.desc(), _EVENTS.c.preset.desc(), _EVENTS.c.id.desc())
                .limit(HISTORY)
            ).all()
            history[preset] = [
                RatingPoint(r.game_id, r.rank, r.mu, r.sigma, r.games, _aware(r.at))
                for r in reversed(rows)
            ]
        reviewed: dict[str, list[ReviewedGame]] = {}
        for preset in sorted(s.preset for s in stats if s.reviewed):
            newest = c.execute(
                select(
                    _GAMES.c.game_id,
                    _GAMES.c.loss,
                    _GAMES.c.decisions,
                    _GAMES.c.accurate,
                    _GAMES.c.finished_at,
                )
                .where(
                    _GAMES.c.account_id == account,
                    _GAMES.c.preset == preset,
                    _GAMES.c.loss.is_not(None),
                )
                .order_by(_GAMES.c.finished_at.desc())
                .limit(SKILL_GAMES)
            ).all()
            reviewed[preset] = [
                ReviewedGame(
                    r.game_id, r.loss, r.decisions or 0, r.accurate or 0, _aware(r.finished_at)
                )
                for r in reversed(newest)
            ]
        offline_count, offline = offline_lines(c, account)
    return Profile(name, created, stats, ratings, history, reviewed, offline_count, offline)


@dataclass(frozen=True)
class Cursor:
    """Where a page of games ends: the last game's finish time and id (the next page has the
    games finished before it)."""

    finished_at: datetime
    game_id: int


@dataclass(frozen=True)
class GameLine:
    """One finished game in a player's list."""

    game_id: int
    table_code: str
    number: int
    seat: int
    preset: str
    rated: bool
    players: int
    total: int
    rank: int
    yachts: int
    loss: float | None
    finished_at: datetime


def player_games(
    engine: Engine, skeleton: str, before: Cursor | None, limit: int
) -> list[GameLine] | None:
    """The live account's finished games at public tables, newest first, up to ``limit``,
    finished before ``before`` (None: from the newest); None when there is no such account."""
    found = _account_id(engine, skeleton)
    if found is None:
        return None
    account = found[0]
    query = select(_GAMES).where(_GAMES.c.account_id == account, _GAMES.c.private.is_(False))
    if before is not None:
        query = query.where(
            _GAMES.c.finished_at <= before.finished_at,
            or_(
                _GAMES.c.finished_at < before.finished_at,
                and_(
                    _GAMES.c.finished_at == before.finished_at,
                    _GAMES.c.game_id < before.game_id,
                ),
            ),
        )
    query = query.order_by(_GAMES.c.finished_at.desc(), _GAMES.c.game_id.desc()).limit(limit)
    with engine.connect() as c:
        rows: Sequence[dict[str, object]] = [dict(r) for r in c.execute(query).mappings()]
    return [
        GameLine(
            game_id=cast(int, r["game_id"]),
            table_code=cast(str, r["table_code"]),
            number=cast(int, r["number"]),
            seat=cast(int, r["seat"]),
            preset=cast(str, r["preset"]),
            rated=bool(r["rated"]),
            players=cast(int, r["players"]),
            total=cast(int, r["total"]),
            rank=cast(int, r["rank"]),
            yachts=cast(int, r["yachts"]),
            loss=cast("float | None", r["loss"]),
            finished_at=_aware(cast(datetime, r["finished_at"])),
        )
        for r in rows
    ]

"""The inbox's rows: the correspondence games waiting on a player, read in two set-based
statements, never a game's state.

The first joins the seats a game waits on (a deadline, an indexed column) with their tables
and current games and reads each game's ``summary`` (round and totals, written with its state
by every change); the second reads the names of those tables' seats. 200 games are two queries
whatever their event logs hold, and nothing is decoded or kept in the process's snapshot cache.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Engine, Table, and_, false, or_, select

from yacht.web.storage.models import GameRow, SeatRow, TableRow

__all__ = ["INBOX_MAX", "Waiting", "waiting_on"]

INBOX_MAX = 200
"""Games an inbox lists at most."""

_SEATS = cast(Table, SeatRow.__table__)
_TABLES = cast(Table, TableRow.__table__)
_GAMES = cast(Table, GameRow.__table__)


@dataclass(frozen=True)
class Waiting:
    """A seat whose correspondence game waits on it, with what the inbox shows of the game.

    ``holder`` and the two token hashes say whose seat it is (the caller checks a guest's token
    against them); ``summary`` is the game's stored summary (None, or one of another
    ``version``: written by an older server, read the game instead); ``names`` holds every
    seat's name by position."""

    code: str
    seat: int
    deadline: float
    holder: int | None
    token_hash: str | None
    account_token_hash: str | None
    preset: str
    rated: bool
    move_days: int
    version: int
    summary: dict[str, Any] | None
    names: tuple[str | None, ...]

    @property
    def hashes(self) -> tuple[str | None, str | None]:
        """The seat's token hashes (its browser's, its account's)."""
        return self.token_hash, self.account_token_hash

    @property
    def round(self) -> int | None:
        """The game's round from its summary, when the summary is of the game's version."""
        value = self._summed("round")
        return value if isinstance(value, int) else None

    @property
    def totals(self) -> list[int] | None:
        """Every seat's total from the summary, when the summary is of the game's version."""
        value = self._summed("totals")
        if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
            return None
        return list(value)

    def _summed(self, key: str) -> object:
        summary = self.summary
        if not isinstance(summary, dict) or summary.get("version") != self.version:
            return None
        return summary.get(key)


def waiting_on(
    engine: Engine,
    account: int | None,
    seats: Collection[tuple[str, int]],
    limit: int = INBOX_MAX,
) -> list[Waiting]:
    """The seats of correspondence games in play waiting on a person (the seat has a
    deadline) that ``account`` holds or that are among ``seats`` (table code, position),
    soonest deadline first, at most ``limit``."""
    held = [_SEATS.c.account_id == account] if account is not None else []
    given = [
        and_(_SEATS.c.table_code == code, _SEATS.c.position == position)
        for code, position in sorted(set(seats))
    ]
    if not held and not given:
        return []
    query = (
        select(
            _SEATS.c.table_code,
            _SEATS.c.position,
            _SEATS.c.deadline,
            _SEATS.c.account_id,
            _SEATS.c.token_hash,
            _SEATS.c.account_token_hash,
            _TABLES.c.preset,
            _TABLES.c.rated,
            _TABLES.c.move_days,
            _GAMES.c.version,
            _GAMES.c.summary,
        )
        .join(_TABLES, _TABLES.c.code == _SEATS.c.table_code)
        .join(
            _GAMES,
            and_(
                _GAMES.c.table_code == _TABLES.c.code,
                _GAMES.c.number == _TABLES.c.game_number,
            ),
        )
        .where(
            _SEATS.c.deadline.is_not(None),
            _SEATS.c.kind == "human",
            _TABLES.c.move_days.is_not(None),
            _GAMES.c.status == "playing",
            or_(false(), *held, *given),
        )
        .order_by(_SEATS.c.deadline, _SEATS.c.table_code)
        .limit(limit)
    )
    with engine.connect() as c:
        rows = c.execute(query).all()
        codes = sorted({r.table_code for r in rows})
        names: dict[str, dict[int, str | None]] = {}
        if codes:
            seated = select(_SEATS.c.table_code, _SEATS.c.position, _SEATS.c.name).where(
                _SEATS.c.table_code.in_(codes)
            )
            for code, position, name in c.execute(seated):
                names.setdefault(code, {})[position] = name
    return [
        Waiting(
            code=r.table_code,
            seat=r.position,
            deadline=r.deadline,
            holder=r.account_id,
            token_hash=r.token_hash,
            account_token_hash=r.account_token_hash,
            preset=r.preset,
            rated=bool(r.rated),
            move_days=r.move_days,
            version=r.version,
            summary=r.summary,
            names=tuple(v for _, v in sorted(names.get(r.table_code, {}).items())),
        )
        for r in rows
    ]

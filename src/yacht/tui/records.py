"""Finished games in an embedded SQLite database (stdlib ``sqlite3``): history and high scores.

The database is ``records.sqlite3`` in the data directory: ``$YACHT_DATA_DIR`` when set,
else platformdirs' ``user_data_dir("yacht")``.

>>> import tempfile
>>> from yacht.dice import ScriptedDice
>>> from yacht.game import Game
>>> from yacht.tui.seats import Seat
>>> game = Game(["Ann"], dice=ScriptedDice([6] * 5 * 12))
>>> for _ in range(12):
...     _ = game.apply("roll"); _ = game.apply(f"score {game.legal_actions()[-1].category.value}")
>>> records = Records(Path(tempfile.mkdtemp()) / "records.sqlite3")
>>> records.add(game, [Seat("Ann")])
1
>>> [(r.id, r.preset, r.totals, r.winners) for r in records.games()]
[(1, 'traditional', [134], ['Ann'])]
>>> records.get(1).game().to_json() == game.to_json()
True

A row that cannot be read (its game JSON broken, a column of the wrong type: a damaged or
hand-edited file) is left out of :meth:`Records.games` and :meth:`Records.high_scores` with
one warning in the ``yacht.records`` log (or a call of ``unreadable``), so the others still
show; :meth:`Records.get` raises :class:`UnreadableRecordError` for it.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from yacht.game import Game
from yacht.tui.seats import Seat

__all__ = ["GameRecord", "HighScore", "Records", "UnreadableRecordError", "data_dir"]

log = logging.getLogger("yacht.records")


class UnreadableRecordError(ValueError):
    """A stored game whose row cannot be read: ``game_id`` and why."""

    def __init__(self, game_id: object, reason: str) -> None:
        super().__init__(f"stored game {game_id} cannot be read: {reason}")
        self.game_id = game_id
        self.reason = reason


Unreadable = Callable[[UnreadableRecordError], None]
"""Told of each row a listing leaves out."""


def _logged(error: UnreadableRecordError) -> None:
    log.warning("%s; left out", error)


def _typed(game_id: object, row: Sequence[Any], types: Sequence[type]) -> None:
    """UnreadableRecordError unless each column of ``row`` has its type (SQLite stores
    whatever a writer gave it, whatever the column's declaration)."""
    for value, kind in zip(row, types, strict=True):
        if not isinstance(value, kind) or isinstance(value, bool):
            raise UnreadableRecordError(game_id, f"a column holds {type(value).__name__}")


SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    finished_at TEXT NOT NULL,
    preset TEXT NOT NULL,
    game TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS scores (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    total INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS scores_by_total ON scores (total DESC);
"""


def data_dir() -> Path:
    """Where saves and records live: ``$YACHT_DATA_DIR`` or the user's data directory."""
    override = os.environ.get("YACHT_DATA_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("yacht"))


@dataclass(frozen=True)
class GameRecord:
    """One finished game: when, which preset, who sat where, and the full game JSON."""

    id: int
    finished_at: str
    preset: str
    names: list[str]
    kinds: list[str]
    totals: list[int]
    winners: list[str]
    data: dict[str, Any]

    def game(self) -> Game:
        return Game.from_json(self.data)

    @property
    def seats(self) -> list[Seat]:
        return [Seat(n, k) for n, k in zip(self.names, self.kinds, strict=True)]

    @property
    def people(self) -> set[int]:
        """The seats a person played (not a bot), from 0."""
        return {i for i, seat in enumerate(self.seats) if not seat.is_bot}


@dataclass(frozen=True)
class HighScore:
    total: int
    name: str
    kind: str
    game_id: int
    finished_at: str
    preset: str


def _game_json(game_id: object, text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise UnreadableRecordError(game_id, "its game is not JSON") from None
    if not isinstance(data, dict):
        raise UnreadableRecordError(game_id, "its game is not a JSON object")
    return data


class Records:
    """The record book. Every method opens its own short connection (safe across threads)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise ValueError(f"{path} was written by a newer yacht (schema {version})")
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @classmethod
    def open_default(cls, folder: Path | None = None) -> Records:
        return cls((folder or data_dir()) / "records.sqlite3")

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path)) as db, db:
            db.execute("PRAGMA foreign_keys = ON")
            yield db

    def add(
        self,
        game: Game,
        seats: Sequence[Seat],
        *,
        finished_at: str | None = None,
        target: int | None = None,
        coach: float | None = None,
        coach_win: float | None = None,
    ) -> int:
        """Store a finished game; returns its id. A ``target`` score is kept in the game's
        JSON (``"target"``), so its review rates by the chance of reaching it; a game played
        with the live coach on is marked so (``"coach"``: its threshold in points, or
        ``"coach_win"``: in percentage points of the chance of winning)."""
        if not game.finished:
            raise ValueError("only finished games go into the records")
        if [s.name for s in seats] != list(game.players):
            raise ValueError(f"seats {seats!r} do not match players {game.players!r}")
        when = finished_at or datetime.now(UTC).isoformat(timespec="seconds")
        winners = set(game.winners())
        data = game.to_json()
        if target is not None:
            data["target"] = target
        if coach is not None:
            data["coach"] = coach
        if coach_win is not None:
            data["coach_win"] = coach_win
        with self._connect() as db:
            cur = db.execute(
                "INSERT INTO games (finished_at, preset, game) VALUES (?, ?, ?)",
                (when, game.rules.name, json.dumps(data)),
            )
            game_id = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO scores VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, i, s.name, s.kind, total, int(i in winners))
                    for i, (s, total) in enumerate(zip(seats, game.totals, strict=True))
                ],
            )
        return game_id

    def _record(self, db: sqlite3.Connection, row: tuple[Any, ...]) -> GameRecord:
        game_id, when, preset, data = row
        _typed(game_id, row, (int, str, str, str))
        scores = db.execute(
            "SELECT name, kind, total, winner FROM scores WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ).fetchall()
        for score in scores:
            _typed(game_id, score, (str, str, int, int))
        data = _game_json(game_id, data)
        return GameRecord(
            id=game_id,
            finished_at=when,
            preset=preset,
            names=[s[0] for s in scores],
            kinds=[s[1] for s in scores],
            totals=[s[2] for s in scores],
            winners=[s[0] for s in scores if s[3]],
            data=data,
        )

    def games(self, limit: int = 20, unreadable: Unreadable = _logged) -> list[GameRecord]:
        """The most recent finished games that can be read, newest first."""
        out = []
        with self._connect() as db:
            rows = db.execute(
                "SELECT id, finished_at, preset, game FROM games ORDER BY id DESC LIMIT ?",
                (limit,),
            ).fetchall()
            for row in rows:
                try:
                    out.append(self._record(db, row))
                except UnreadableRecordError as e:
                    unreadable(e)
        return out

    def get(self, game_id: int) -> GameRecord:
        with self._connect() as db:
            row = db.execute(
                "SELECT id, finished_at, preset, game FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise ValueError(f"no stored game with id {game_id}")
            return self._record(db, row)

    def high_scores(
        self, limit: int = 10, *, humans_only: bool = False, unreadable: Unreadable = _logged
    ) -> list[HighScore]:
        """The best totals ever, highest first (earlier games first among equals), of the rows
        that can be read."""
        where = "WHERE s.kind = 'human'" if humans_only else ""
        with self._connect() as db:
            rows = db.execute(
                "SELECT s.total, s.name, s.kind, g.id, g.finished_at, g.preset, g.game "
                f"FROM scores s JOIN games g ON g.id = s.game_id {where} "
                "ORDER BY s.total DESC, g.id ASC, s.seat ASC LIMIT ?",
                (limit,),
            ).fetchall()
        out = []
        for row in rows:
            try:  # a game that cannot be read ranks nowhere, as it is listed nowhere
                _typed(row[3], row, (int, str, str, int, str, str, str))
                _game_json(row[3], row[6])
            except UnreadableRecordError as e:
                unreadable(e)
                continue
            out.append(HighScore(*row[:6]))
        return out

    def count(self) -> int:
        with self._connect() as db:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

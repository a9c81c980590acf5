"""What the other server processes say of their moves, so that this one's snapshot stays fresh.

With two processes the seats of a table are often on different ones, and each turn of the
other process made this process's snapshot of the table stale: the next move here was first
decided on it and refused (``stale_version``), then the table was read again (two statements)
and its game caught up. Now a process that stores a move also publishes, beside the table's
new state and through the same Redis channel, a short :func:`note` of it: the revisions before
and after, the new events as logged and the game's changed columns. A process that has the
table's snapshot at the note's earlier revision applies it the next time it needs the table
(:class:`PeerNotes`), each event checked to replay exactly as logged, so the move is decided
on a current snapshot with no read. Redis delivers the note before the new state reaches the
other seat's player, so by the time that player acts the note is there.

Nothing here is trusted further than a snapshot ever was: a note that does not fit (another
revision, a game that does not replay to it) is dropped and the table is read as before, and
every write still names the revision it was decided on. Notes are only made for moves, the
bulk of the traffic; a seat, table or new game changed reads the table as before. A note says
where the dice source stands, never its seed (the seed stays secret until the game ends).

>>> from yacht.dice import ScriptedDice
>>> from yacht.web.storage.models import GameRow, SeatRow, TableRow
>>> from yacht.web.storage.store import TableSnapshot
>>> from yacht.game import Game
>>> ours, theirs = (Game(["Ann", "Bo"], dice=ScriptedDice([1, 2, 3, 4, 5] * 9)) for _ in "ab")
>>> snap = TableSnapshot(TableRow(code="ABC", revision=4), (SeatRow(position=0),),
...                      GameRow(number=1, version=0, status="playing"))
>>> before = len(theirs.events)
>>> _ = theirs.apply("roll", player=0)
>>> text = note(snap, 5, {"version": theirs.version}, theirs, before)
>>> notes = PeerNotes()
>>> notes.add("ABC", text)
>>> new, game = notes.advance("ABC", (snap, ours))
>>> new.revision, game.version, game.dice, game.dice_source.position
(5, 1, (1, 2, 3, 4, 5), 5)
>>> notes.advance("ABC", (new, game)) == (new, game)  # nothing left to apply
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import orjson
from cachetools import LRUCache

from yacht.dice import dice_from_description
from yacht.game import Game
from yacht.web.storage.changes import Change
from yacht.web.storage.snapshots import Entry, applied, replayed
from yacht.web.storage.store import TableSnapshot

__all__ = ["PeerNotes", "note"]

COLUMNS = frozenset({"state", "version", "status", "deadline", "summary"})
"""The game columns a move may change for a note to be made of it (a finished game's
``finished_at`` is a time: its table is read as before)."""
POSITION = ("drawn", "position")
"""The fields of a dice source's description that say where it stands (not its seed)."""
KEEP = 32
"""Notes kept per table; more than that unapplied, and the table is read instead."""
TABLES = 4096
"""Tables with notes kept (least recent goes)."""


def note(
    snap: TableSnapshot, revision: int, columns: Mapping[str, Any], game: Game, before: int
) -> str | None:
    """The note of a move stored as ``revision`` on ``snap``: ``columns`` written to its game,
    whose events from ``before`` on are the move's. None when the change is not a plain move."""
    if not columns or not set(columns) <= COLUMNS:
        return None
    where = {k: v for k, v in game.dice_source.describe().items() if k in POSITION}
    return orjson.dumps(
        {
            "from": snap.revision,
            "to": revision,
            "number": snap.game.number,
            "at": before,
            "events": [e.to_json() for e in game.events[before:]],
            "columns": {k: v for k, v in columns.items() if k != "state"},
            "dice": where,
        },
    ).decode()


class PeerNotes:
    """The notes other processes published, per table, until this process needs the table."""

    def __init__(self) -> None:
        self._notes: LRUCache[str, list[str]] = LRUCache(TABLES)

    def add(self, code: str, text: str) -> None:
        kept = self._notes.get(code)
        if kept is None:
            kept = self._notes[code] = []
        if len(kept) >= KEEP:
            kept.clear()  # far behind: the table is read when next needed
        kept.append(text)

    def advance(
        self, code: str, entry: Entry, told: Callable[[str], None] = lambda _outcome: None
    ) -> Entry | None:
        """``entry`` (taken out of the cache) with the table's notes applied, each outcome
        ``told`` (applied, gap, refused): as far as they fit, None when one fitted but its
        game did not replay to it (drop the entry: it may be half-changed)."""
        texts = self._notes.pop(code, None)
        if not texts:
            return entry
        snap, game = entry
        for text in texts:
            try:
                data = orjson.loads(text)
                if data["to"] <= snap.revision:
                    continue  # this process has it already
                if data["from"] != snap.revision or game is None:
                    told("gap")  # the table is read when a decision needs it
                    break
                if data["number"] != snap.game.number or not _replayed(game, data):
                    told("refused")
                    return None
                snap = applied(snap, data["to"], Change(game=data["columns"]))
            except (ValueError, KeyError, TypeError):
                told("refused")
                return None
            told("applied")
        return snap, game


def _replayed(game: Game, data: Mapping[str, Any]) -> bool:
    """Apply the note's events to ``game`` (in place, see :func:`replayed`) and move its dice
    source to where the note says; False when anything does not fit (``game`` may then be
    half-changed)."""
    if len(game.events) != data["at"] or not replayed(game, data["events"]):
        return False
    where = game.dice_source.describe()
    if set(data["dice"]) != {k for k in where if k in POSITION}:
        return False
    try:
        game.dice_source = dice_from_description({**where, **data["dice"]})
    except (ValueError, KeyError, TypeError):
        return False
    return True

"""What this process saw last of each table: its snapshot and decoded game, at one revision.

A move is decided on the entry of its table, so it neither reads the table back nor replays
the game's event log from JSON; the new entry is the old one with the change applied. An entry
may be stale (another process changed the table since): the write names the revision the
decision was made on, so a stale decision loses the race
(:class:`~yacht.web.storage.store.ConflictError`)
and is made again on a fresh read. Nothing read from here is shown to anyone without that check.

A change :meth:`~SnapshotCache.take` s its entry out while it decides and writes (the engine
game is changed in place), and :meth:`~SnapshotCache.put` s the new one back once it is stored,
so nobody else ever sees a game ahead of its snapshot.

A cached snapshot's game row has no ``state`` (the event log as JSON, None here): the entry's
engine game is the game. With 1,000 tables, keeping a new JSON tree per move alive made the
garbage collector's full passes both frequent and long (about 300 ms, measured), and every
such pass stalled every table of the process.

>>> from yacht.web.storage.models import GameRow, SeatRow, TableRow
>>> t = TableRow(code="ABC", revision=4, game_number=1)
>>> g = GameRow(table_code="ABC", number=1, status="waiting", version=0)
>>> snap = TableSnapshot(t, (SeatRow(position=0, name=None), SeatRow(position=1, name="Bo")), g)
>>> cache = SnapshotCache()
>>> cache.put(snap, None)
>>> from yacht.web.storage.changes import Change
>>> new = applied(snap, 5, Change(seats={0: {"name": "Al"}}, game={"status": "playing"}))
>>> [s.name for s in new.seats], new.game.status, new.revision, snap.revision
(['Al', 'Bo'], 'playing', 5, 4)
>>> applied(snap, 5, Change(game={"state": {"events": []}})).game.state is None
True
>>> cache.put(new, None)
>>> cache.put(snap, None)  # an older read arriving late does not replace a newer entry
>>> cache.get("ABC")[0].revision
5
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cachetools import LRUCache

from yacht.actions import Action, GameError, Roll
from yacht.dice import dice_from_description
from yacht.game import Game
from yacht.web.storage.changes import Change
from yacht.web.storage.models import with_columns
from yacht.web.storage.store import TableSnapshot, now

__all__ = [
    "CACHE_SIZE",
    "Entry",
    "SnapshotCache",
    "applied",
    "caught_up",
    "decoded",
    "replayed",
    "resumed",
]

CACHE_SIZE = 2048
"""Tables remembered. An entry holds the decoded game, about 33 KiB for two players and 67 KiB
for four (measured), plus a finished game's review (about 65 KiB): some 70-270 MiB at most."""

Entry = tuple[TableSnapshot, Game | None]


class SnapshotCache:
    """A bounded map from table code to its newest known :data:`Entry` (least recent goes)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._entries: LRUCache[str, Entry] = LRUCache(size)

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, code: str) -> Entry | None:
        """The entry, left in place: read it at once (a change may take it at the next await)."""
        return self._entries.get(code)  # a read counts as a use (least recent goes first)

    def take(self, code: str) -> Entry | None:
        """Remove and return the entry: the caller may change its game."""
        return self._entries.pop(code, None)

    def put(self, snap: TableSnapshot, game: Game | None) -> None:
        """Remember ``snap`` and its game unless a newer revision is already known."""
        code = snap.table.code
        if snap.game.state is not None:  # see the module docstring
            snap = TableSnapshot(snap.table, snap.seats, with_columns(snap.game, {"state": None}))
        old = self._entries.get(code)
        if old is not None and old[0].revision > snap.revision:
            return
        self._entries[code] = (snap, game)

    def drop(self, code: str) -> None:
        self._entries.pop(code, None)


def applied(snap: TableSnapshot, revision: int, change: Change) -> TableSnapshot:
    """``snap`` after :meth:`~yacht.web.storage.store.Store.change` stored ``change`` as
    ``revision``; its ``new_game`` must carry the id the database gave it. The game row has no
    ``state``."""
    seats, game, new_game = change.seats, change.game, change.new_game
    table: dict[str, Any] = {**change.table, "revision": revision}
    if new_game is not None:
        table["game_number"] = new_game.number
    rows = tuple(
        with_columns(s, seats[s.position]) if seats and s.position in seats else s
        for s in snap.seats
    )
    if new_game is not None:
        current = with_columns(new_game, {"state": None})
    elif game:
        current = with_columns(snap.game, {**game, "updated_at": now(), "state": None})
    else:
        current = snap.game
    return TableSnapshot(with_columns(snap.table, table), rows, current)


def caught_up(game: Game, state: Mapping[str, Any]) -> Game | None:
    """``game`` moved on to the saved ``state`` of the same game by applying only the events
    it has not seen (as :meth:`Game.from_json` applies each: the logged dice, every event
    checked to replay as logged), its dice source then taken from ``state``. None when
    ``state`` is not ``game`` further on (``game`` may then be half-changed: drop it).

    With two processes every turn of the other process makes this one's snapshot stale; a
    full :meth:`Game.from_json` replays the whole log again (about 2 ms half-way through a
    two-player game, measured), this only the turn's few events.
    """
    events = state.get("events")
    seen = len(game.events)
    if not isinstance(events, list) or len(events) < seen:
        return None
    if seen and events[seen - 1] != game.events[-1].to_json():
        return None
    if not replayed(game, events[seen:]):
        return None
    try:
        game.dice_source = dice_from_description(state["dice"])
    except (ValueError, KeyError, TypeError):
        return None
    if game.totals != state.get("totals"):
        return None
    return game


def replayed(game: Game, events: Iterable[Any]) -> bool:
    """Apply logged ``events`` (event JSON) to ``game`` in place, each with its logged dice and
    checked to replay exactly as logged; False at the first that does not (``game`` may then
    be half-changed: drop it)."""
    try:
        for raw in events:
            action = Action.parse(raw["action"])
            shown = raw.get("dice") if isinstance(action, Roll) else None
            if game.apply(action, player=raw["player"], dice=shown).to_json() != raw:
                return False
    except (GameError, ValueError, KeyError, TypeError):
        return False
    return True


def decoded(snap: TableSnapshot) -> Game | None:
    """The game of a snapshot read from the database, replayed from its JSON."""
    return Game.from_json(snap.game.state) if snap.game.state is not None else None


def resumed(snap: TableSnapshot, entry: Entry | None) -> Game | None:
    """The game of ``snap`` (just read) from this process's ``entry`` of the table, taken out
    of the cache: the entry's own game at the same revision, the entry's game caught up when
    the same game moved on, else the game replayed from the JSON."""
    if entry is None or entry[1] is None:
        return decoded(snap)
    if entry[0].revision == snap.revision:
        return entry[1]
    if snap.game.state is not None and entry[0].game.number == snap.game.number:
        game = caught_up(entry[1], snap.game.state)
        if game is not None:
            return game
    return decoded(snap)

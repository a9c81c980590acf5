"""Correspondence tables, as pure functions: a time per move of days, the seat to act holding a
deadline, the ``medium`` bot standing in for one move when it runs out, and the seat kept by the
bot after too many missed moves (a loss, for a rated table's ratings).

A real-time table (``move_days`` None) is left exactly as it was: nothing here writes to it.
The deadline is a seat's (``seats.deadline``, indexed), not the game's: the server finds the
due ones with one query (:meth:`~yacht.web.storage.store.Store.claim_due`) instead of keeping a
timer per table in memory, so a dormant game costs a process nothing.

>>> from yacht.web.storage.models import TableRow
>>> move_seconds(TableRow(move_days=2)), move_seconds(TableRow(move_days=None))
(172800.0, None)
>>> missed_limit(TableRow(missed_limit=None)), missed_limit(TableRow(missed_limit=5))
(3, 5)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from yacht.game import Game
from yacht.web.storage.changes import Change, Notice
from yacht.web.storage.models import SeatRow, TableRow

__all__ = [
    "DAY",
    "LEASE",
    "MISSED_LIMIT",
    "MOVE_DAYS",
    "STAND_IN",
    "WAITING_DAYS",
    "clock_seats",
    "forfeit_ranks",
    "forfeited",
    "missed_limit",
    "move_seconds",
    "stand_in_columns",
]

DAY = 86400.0
MOVE_DAYS = (1, 2, 3, 7)
"""The times per move a correspondence table may have, in days."""
MISSED_LIMIT = 3
"""Missed moves after which the bot keeps the seat (a table's own setting, 1 to 10)."""
WAITING_DAYS = 7
"""Days a correspondence table may wait for its players before it is deleted."""
STAND_IN = "medium"
"""The bot that plays a move whose deadline ran out."""
LEASE = 300.0
"""Seconds a process holds a due deadline it claimed: a process that dies while acting on one
leaves it due again after this."""


def move_seconds(table: TableRow) -> float | None:
    """A correspondence table's time per move in seconds (None: a real-time table)."""
    return None if not table.move_days else table.move_days * DAY


def missed_limit(table: TableRow) -> int:
    return table.missed_limit or MISSED_LIMIT


def forfeited(table: TableRow, seat: SeatRow) -> bool:
    """Whether the bot keeps ``seat`` for the rest of the game (too many missed moves)."""
    return move_seconds(table) is not None and (seat.missed or 0) >= missed_limit(table)


def clock_seats(
    table: TableRow,
    seats: Sequence[SeatRow],
    game: Game | None,
    now: float,
    change: Change,
    *,
    new_turn: bool,
) -> None:
    """On a correspondence table, put the deadline on the seat the game waits on (a person's)
    and take it off every other, into ``change.seats``; ``new_turn``: a turn has just begun,
    so the seat to act gets a full time per move even when it held a deadline already (a game
    of one). The seats' columns already in ``change`` count (a bot handed back, taken back).

    The Web Push messages go into ``change.notices`` here too: "your turn" to the account of a
    seat a new turn comes to (not to a player of a game of one, whose turn never leaves them,
    nor to one who takes their seat back from the bot), and "game over" to every seat's
    account when ``change`` ends the game."""
    seconds = move_seconds(table)
    if seconds is None:
        return
    if game is not None and game.finished and "finished_at" in change.game:
        number = change.new_game.number if change.new_game else table.game_number
        change.notices += [
            Notice("end", row.account_id, f"{table.code}-{number}-end", now)
            for row in seats
            if row.account_id is not None
        ]
    for row in seats:
        columns = change.seats.get(row.position, {})
        kind = columns.get("kind", row.kind)
        held = columns.get("deadline", row.deadline)
        waits = (
            game is not None
            and not game.finished
            and game.current == row.position
            and kind == "human"
        )
        if waits and (held is None or new_turn):
            change.seats[row.position] = {**columns, "deadline": now + seconds}
            account = columns.get("account_id", row.account_id)
            if new_turn and held is None and account is not None:  # the turn comes to them
                tag = f"{table.code}-{row.position}-{int(now + seconds)}"
                change.notices.append(Notice("turn", account, tag, now))
        elif not waits and held is not None:
            change.seats[row.position] = {**columns, "deadline": None}


def forfeit_ranks(totals: Sequence[int], forfeits: Collection[int]) -> list[int]:
    """Final ranks where the seats in ``forfeits`` lost (they share the last place, whatever
    the bot scored for them); the others are ranked by total among themselves.

    >>> forfeit_ranks([250, 180, 200], {0})
    [3, 2, 1]
    >>> forfeit_ranks([250, 180], set())
    [1, 2]
    """
    playing = [t for i, t in enumerate(totals) if i not in forfeits]
    last = len(playing) + 1
    return [
        last if i in forfeits else 1 + sum(other > total for other in playing)
        for i, total in enumerate(totals)
    ]


def stand_in_columns(row: SeatRow, table: TableRow) -> dict[str, Any]:
    """The seat's columns when its deadline ran out: the bot plays the move (and keeps the
    seat once the missed moves reach the table's limit)."""
    missed = (row.missed or 0) + 1
    return {
        "kind": "bot",
        "bot": STAND_IN,
        "missed": missed,
        "stand_in": missed < missed_limit(table),
        "deadline": None,
    }

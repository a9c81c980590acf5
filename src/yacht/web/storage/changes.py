"""One decision's writes to a table, as one value: what the store writes in one transaction,
what the snapshot cache applies to its entry, and what the other processes are told.

>>> change = Change(game={"version": 3})
>>> change.is_move, Change(seats={0: {"name": "Ann"}}).is_move
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from yacht.game import Game
    from yacht.web.storage.models import GameRow
    from yacht.web.storage.results import Finish

__all__ = ["Change", "Notice"]


@dataclass(frozen=True)
class Notice:
    """A Web Push message a change makes for an account's devices (written to the outbox in the
    change's own transaction, see :mod:`yacht.web.storage.push`): ``kind`` turn, near or end;
    ``tag`` names the table and turn (a second copy replaces the first); ``due``: when it may
    go out (the decision's time); ``hours``: a deadline warning's."""

    kind: str
    account: int
    tag: str
    due: float
    hours: int | None = None


@dataclass
class Change:
    """Columns to set on seats (by position), on the current game and on the table row, or a new
    game to start (a rematch); ``engine``: the engine game after the change (None: none started,
    or the decision did not hand it over); ``finish``: the current game ended with signed-in
    players, whose results (and ratings, for a rated table) are written in the same transaction;
    ``notices``: Web Push messages for the outbox, written in that transaction too."""

    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    game: dict[str, Any] = field(default_factory=dict)
    new_game: GameRow | None = None
    engine: Game | None = None
    table: dict[str, Any] = field(default_factory=dict)
    finish: Finish | None = None
    notices: list[Notice] = field(default_factory=list)

    @property
    def is_move(self) -> bool:
        """A move: only the current game's own columns change (the other processes are told)."""
        return not (
            self.seats
            or self.table
            or self.new_game
            or self.finish
            or self.reviewed
            or self.notices
        )

    @property
    def reviewed(self) -> bool:
        """The current game's review is stored: its players' figures go with it."""
        return self.game.get("review") is not None

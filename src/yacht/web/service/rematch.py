"""A rematch by agreement, and the series score, as pure decisions -> Change.

One player's ``rematch`` proposes the next game; it starts once every seat played by a person
has agreed (a bot always agrees, and a seat handed to a bot is a bot's). Anyone seated may
decline, which withdraws the proposal: someone proposes again, or the table stays as it is.
Each game row keeps the wins per seat of the table's games before it (``series``), so the
series score of a table is that and the current game's winners, without reading old games.

>>> from types import SimpleNamespace as Row
>>> snap = Row(seats=[Row(position=0, kind="human"), Row(position=1, kind="bot")],
...            game=Row(series=[2, 1], status="finished", rematch=None))
>>> series(snap.game, [1], 2), people(snap)
([2, 2], frozenset({0}))
"""

from __future__ import annotations

from typing import Any, Protocol

from yacht.game import Game
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import RematchMessage
from yacht.web.service import decisions
from yacht.web.service.decisions import Context, check_token, seat_of
from yacht.web.storage.changes import Change
from yacht.web.storage.store import TableSnapshot

__all__ = ["answer", "people", "rematch_json", "series"]


class _Seat(Protocol):
    position: int
    kind: str


class _Game(Protocol):
    series: list[int] | None


def people(snap: Any) -> frozenset[int]:
    """The seats whose agreement a rematch needs: those a person plays."""
    return frozenset(s.position for s in snap.seats if s.kind != "bot")


def series(row: _Game, winners: list[int], seats: int) -> list[int]:
    """The wins per seat of the table's games up to this one (``winners``: this game's; a
    shared first place is a win for each)."""
    wins = list(row.series or [])[:seats]
    wins += [0] * (seats - len(wins))
    for seat in winners:
        if 0 <= seat < seats:
            wins[seat] += 1
    return wins


def rematch_json(snap: TableSnapshot) -> dict[str, Any] | None:
    """The proposal as the table shows it: who proposed, who agreed (bots included) and who
    is still asked; or who declined the last one (``by`` then the one who had proposed it).
    None when there is nothing to show."""
    state = snap.game.rematch
    if not state:
        return None
    agreed = set(state.get("agreed", []))
    asked = people(snap)
    bots = {s.position for s in snap.seats} - asked
    return {
        "by": state.get("by"),
        "agreed": sorted(agreed | bots) if agreed else [],
        "waiting": sorted(asked - agreed) if agreed else [],
        "declined": state.get("declined"),
    }


def answer(snap: TableSnapshot, game: Game | None, ctx: Context, msg: RematchMessage) -> Change:
    """A seated player proposes, agrees to or declines the next game after game ``msg.game``;
    the next game starts when the last person agrees. A spectator, a stale game or an
    agreement already given change nothing (refused)."""
    check_token(snap, msg.seat, msg.token)
    if msg.game != snap.game.number:
        raise TableError(
            "stale_version", f"game {snap.game.number} is already under way at this table"
        )
    if game is None or not game.finished:
        raise TableError("illegal", "a rematch is agreed once the game is over")
    state = snap.game.rematch or {}
    agreed = set(state.get("agreed", []))
    if not msg.agree:
        if not agreed:
            raise TableError("illegal", "no rematch has been proposed")
        # "by" stays: the page tells a proposer withdrawing from another player declining
        declined: dict[str, Any] = {"agreed": [], "by": state.get("by"), "declined": msg.seat}
        return Change(game={"rematch": declined}, engine=game)
    if seat_of(snap, msg.seat).kind == "bot" or msg.seat in agreed:
        raise TableError("illegal", f"seat {msg.seat + 1} has already agreed to a rematch")
    by = state.get("by") if agreed else msg.seat
    agreed.add(msg.seat)
    record = {"agreed": sorted(agreed), "by": by, "declined": None}
    if not people(snap) <= agreed:
        return Change(game={"rematch": record}, engine=game)
    change = decisions.rematch(snap, game, ctx, msg)
    change.game["rematch"] = record
    if change.new_game is not None:
        change.new_game.series = series(snap.game, game.winners(), len(snap.seats))
    return change

"""Finished games: the list, a game as a file, its review and its replay."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Query

from yacht.actions import Roll
from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.web.api.deps import INT_MAX, GameId, Service
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import Frame, GameSummary, Replay
from yacht.web.service.state import event_out, game_summary, public_game_json, rules_info
from yacht.web.service.tables import TableService
from yacht.web.storage.models import GameRow, TableRow
from yacht.web.storage.store import DAMAGE, UnreadableRowError

__all__ = ["frames", "router"]

log = logging.getLogger("yacht.web.database")

router = APIRouter(prefix="/games", tags=["games"])


@router.get("")
async def finished_games(
    service: Service,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=INT_MAX)] = 0,
) -> list[GameSummary]:
    """Finished games, newest first (a stored game that cannot be read is left out)."""
    out = []
    for row in await service.store.agames("finished", limit, offset):
        try:
            out.append(game_summary(row))
        except DAMAGE as e:
            log.warning(
                "game %s cannot be read (%s): left out of the list",
                row.id,
                type(e).__name__,
                extra={"game": row.id},
            )
    return out


async def _game(service: TableService, game_id: int) -> tuple[GameRow, TableRow, Game]:
    try:
        found = await service.store.agame(game_id)
        if found is None or found[0].state is None:
            raise TableError("not_found", f"no game {game_id}")
        row, table = found
        return row, table, Game.from_json(row.state or {})
    except (UnreadableRowError, *DAMAGE) as e:
        log.warning(
            "game %s cannot be read (%s)",
            game_id,
            e.reason if isinstance(e, UnreadableRowError) else type(e).__name__,
            extra={"game": game_id},
        )
        raise TableError("not_found", f"game {game_id} cannot be read") from None


@router.get("/{game_id}")
async def game_json(game_id: GameId, service: Service) -> dict[str, Any]:
    """A game as a file (``yacht verify`` checks it once it is finished)."""
    row, table, game = await _game(service, game_id)
    try:
        out = public_game_json(row, table, game)
    except DAMAGE:
        raise TableError("not_found", f"game {game_id} cannot be read") from None
    if table.private:  # a private table's code is its invitation: not for whoever counts ids
        out["table"]["code"] = None
    return out


@router.get("/{game_id}/review")
async def game_review(game_id: GameId, service: Service) -> dict[str, Any]:
    """Every decision of a finished game rated: the taken and the best option, the loss."""
    row, _, _ = await _game(service, game_id)
    if row.review is None:
        raise TableError("not_found", f"game {game_id} has no review yet")
    review: dict[str, Any] = row.review
    return review


@router.get("/{game_id}/replay")
async def replay(game_id: GameId, service: Service) -> Replay:
    """A finished game, event by event."""
    row, table, game = await _game(service, game_id)
    if row.status != "finished":
        raise TableError("illegal", "only finished games can be replayed")
    return Replay(
        id=row.id,
        table="" if table.private else table.code,  # a private table's code is its invitation
        number=row.number,
        rules=rules_info(game.rules),
        players=list(game.players),
        winners=game.winners(),
        frames=frames(game),
        reviewed=row.review is not None,
    )


def frames(game: Game) -> list[Frame]:
    """The game after each of its events, by replaying them on a fresh game: every roll is
    given the dice the log shows (its empty dice source is never drawn)."""
    again = Game(
        game.players,
        game.rules,
        ScriptedDice([]),
        start=game.start_rule,
        undo=game.undo_allowed,
        start_rolls=game.start_rolls,
    )
    out = [_frame(again, None)]
    for event in game.events:
        shown = event.dice if isinstance(event.action, Roll) else None
        again.apply(event.action, player=event.player, dice=shown)
        out.append(_frame(again, event_out(again.version, again.events[-1])))
    return out


def _frame(game: Game, event: Any) -> Frame:
    return Frame(
        version=game.version,
        event=event,
        round=game.round,
        current=None if game.finished else game.current,
        dice=list(game.dice) if game.dice is not None else None,
        held=sorted(game.held),
        sheets=[dict(s) for s in game.sheets],
        totals=game.totals,
    )

"""REST endpoints under ``/api``: lobby, seats, actions, finished games, texts.

The in-game endpoints take exactly the WebSocket messages (``ActionMessage``, ``HintMessage``,
...), so the OpenAPI document describes them and a client without WebSockets can play too.
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from yacht.actions import Roll
from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.i18n import LANGUAGES
from yacht.rules import preset_names, rules_by_name
from yacht.web.edge.limits import client_key
from yacht.web.protocol.messages import (
    ActionMessage,
    Catalog,
    CreateTable,
    ErrorMessage,
    Frame,
    GameSummary,
    HandToBotMessage,
    HintMessage,
    HintReply,
    Joined,
    JoinSeat,
    Preset,
    RematchMessage,
    Replay,
    SeedMessage,
    TableState,
    TableSummary,
    TakeBackMessage,
)
from yacht.web.protocol.texts import catalog
from yacht.web.service import bots as players
from yacht.web.service.play import GameService
from yacht.web.service.state import (
    event_out,
    game_summary,
    public_game_json,
    rules_info,
    table_summary,
)
from yacht.web.service.tables import TableError

__all__ = ["router"]

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorMessage, "description": what}
    for status, what in (
        (403, "spectator, bad_token or hints_off"),
        (404, "not_found"),
        (409, "stale_version, not_your_turn, illegal, not_started, game_over or seat_taken"),
        (429, "rate_limited: too many requests from one client, or too many waiting tables"),
        (503, "busy"),
    )
}
Code = Annotated[str, Path(min_length=1, max_length=12, description="the table's short code")]
# Ids and offsets are INTEGER columns: PostgreSQL refuses larger numbers with a server error.
INT_MAX = 2**31 - 1
GameId = Annotated[int, Path(ge=1, le=INT_MAX, description="a game's id")]


def service(request: Request) -> GameService:
    found: GameService = request.app.state.service
    return found


def limit(kind: str) -> Any:
    """A dependency spending one of the client's ``kind`` tokens (429 ``rate_limited``)."""

    def spend(request: Request) -> None:
        service(request).limits.take(kind, client_key(request.scope))

    spend.__name__ = f"limit_{kind}"
    return Depends(spend)


def creator_of(request: Request) -> str | None:
    """The client who opens a table, as a hash of its address (for the waiting-table cap)."""
    key = client_key(request.scope)
    if key is None or key in service(request).limits.exempt:
        return None
    return hashlib.sha256(key.encode()).hexdigest()


router = APIRouter(prefix="/api", responses=ERRORS)
ACTION = [limit("action")]


@router.get("/presets", tags=["lobby"])
async def presets() -> list[Preset]:
    return [Preset(name=n, description=rules_by_name(n).description) for n in preset_names()]


@router.get("/bots", tags=["lobby"])
async def bots() -> list[str]:
    """The bot levels a seat can be given, weakest first."""
    return players.bot_levels()


@router.get("/i18n/{lang}", tags=["texts"])
async def texts(lang: Annotated[str, Path(max_length=8)]) -> Catalog:
    """The page's texts in one language (en, fi, bg, nb)."""
    if lang not in LANGUAGES:
        raise TableError("not_found", f"no texts for language {lang!r}")
    return Catalog.model_validate(catalog(lang))


@router.post("/tables", status_code=201, tags=["lobby"], dependencies=[limit("create")])
async def create_table(body: CreateTable, request: Request) -> TableState:
    """Open a table; its ``game.commitment`` is the SHA-256 of the secret dice seed. A client
    may have 5 tables waiting for players at once; a waiting table expires after an hour."""
    created = await service(request).create(body, creator_of(request))
    return TableState.model_validate(created)


@router.get("/tables", tags=["lobby"])
async def open_tables(
    request: Request, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> list[TableSummary]:
    """Tables waiting for players, newest first."""
    snaps = await asyncio.to_thread(service(request).store.waiting_tables, limit)
    return [table_summary(s) for s in snaps]


@router.get("/tables/{code}", tags=["table"])
async def table(code: Code, request: Request) -> TableState:
    return await service(request).state(code)


@router.post("/tables/{code}/join", tags=["table"], dependencies=[limit("join")])
async def join(code: Code, body: JoinSeat, request: Request) -> Joined:
    """Take a free seat: the answer holds the seat's secret token (keep it). Send your own
    ``seed`` for the dice, made after you saw the table's ``game.commitment``."""
    return await service(request).join(code, body)


@router.post("/tables/{code}/actions", tags=["play"], dependencies=ACTION)
async def act(code: Code, body: ActionMessage, request: Request) -> TableState:
    """The WebSocket ``action`` message over HTTP: roll, hold or score."""
    return TableState.model_validate(await service(request).act(code, body))


@router.post("/tables/{code}/hint", tags=["play"], dependencies=[limit("hint")])
async def hint(code: Code, body: HintMessage, request: Request) -> HintReply:
    return await service(request).hint(code, body)


@router.post("/tables/{code}/hand-to-bot", tags=["play"], dependencies=ACTION)
async def hand_to_bot(code: Code, body: HandToBotMessage, request: Request) -> TableState:
    return TableState.model_validate(await service(request).hand_to_bot(code, body))


@router.post("/tables/{code}/take-back", tags=["play"], dependencies=ACTION)
async def take_back(code: Code, body: TakeBackMessage, request: Request) -> TableState:
    """Take your seat back from the bot playing it."""
    return TableState.model_validate(await service(request).take_back(code, body))


@router.post("/tables/{code}/seed", tags=["play"], dependencies=ACTION)
async def seed(code: Code, body: SeedMessage, request: Request) -> TableState:
    """Give your seed for the dice of the waiting game or of the next one (fair dice rule 2)."""
    return TableState.model_validate(await service(request).contribute(code, body))


@router.post("/tables/{code}/rematch", tags=["play"], dependencies=ACTION)
async def rematch(code: Code, body: RematchMessage, request: Request) -> TableState:
    return TableState.model_validate(await service(request).rematch(code, body))


@router.get("/tables/{code}/game.json", tags=["games"])
async def current_game_json(code: Code, request: Request) -> dict[str, Any]:
    """The table's current game as a file; the dice seed is in it once the game is over."""
    svc = service(request)
    snap, game = await svc.load(code)
    if game is None:
        raise TableError("not_started", "the game starts when every seat is taken")
    return public_game_json(snap.game, snap.table, game)


@router.get("/games", tags=["games"])
async def finished_games(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=INT_MAX)] = 0,
) -> list[GameSummary]:
    """Finished games, newest first."""
    rows = await asyncio.to_thread(service(request).store.games, "finished", limit, offset)
    return [game_summary(r) for r in rows]


async def _game(request: Request, game_id: int) -> tuple[Any, Any, Game]:
    found = await asyncio.to_thread(service(request).store.game, game_id)
    if found is None or found[0].state is None:
        raise TableError("not_found", f"no game {game_id}")
    row, table = found
    return row, table, Game.from_json(found[0].state or {})


@router.get("/games/{game_id}", tags=["games"])
async def game_json(game_id: GameId, request: Request) -> dict[str, Any]:
    """A game as a file (``yacht verify`` checks it once it is finished)."""
    row, table, game = await _game(request, game_id)
    return public_game_json(row, table, game)


@router.get("/games/{game_id}/review", tags=["games"])
async def game_review(game_id: GameId, request: Request) -> dict[str, Any]:
    """Every decision of a finished game rated: the taken and the best option, the loss."""
    row, _, _ = await _game(request, game_id)
    if row.review is None:
        raise TableError("not_found", f"game {game_id} has no review yet")
    review: dict[str, Any] = row.review
    return review


@router.get("/games/{game_id}/replay", tags=["games"])
async def replay(game_id: GameId, request: Request) -> Replay:
    """A finished game, event by event."""
    row, table, game = await _game(request, game_id)
    if row.status != "finished":
        raise TableError("illegal", "only finished games can be replayed")
    return Replay(
        id=row.id,
        table=table.code,
        number=row.number,
        rules=rules_info(game.rules),
        players=list(game.players),
        winners=game.winners(),
        frames=frames(game),
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

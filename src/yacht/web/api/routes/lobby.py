"""The lobby: presets, bot levels, opening a table, the tables waiting for players."""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import APIRouter, Query

from yacht.rules import preset_names, rules_by_name
from yacht.web.api.deps import Creator, Player, Service, limit
from yacht.web.protocol.messages import CreateTable, Preset, TableState, TableSummary
from yacht.web.service import bots
from yacht.web.service.accounts import Account
from yacht.web.service.state import table_summary
from yacht.web.storage.store import DAMAGE

__all__ = ["router"]

log = logging.getLogger("yacht.web.database")

router = APIRouter(tags=["lobby"])


@router.get("/presets")
async def presets() -> list[Preset]:
    return [Preset(name=n, description=rules_by_name(n).description) for n in preset_names()]


@router.get("/bots")
async def bot_levels() -> list[str]:
    """The bot levels a seat can be given, weakest first."""
    return bots.bot_levels()


@router.post("/tables", status_code=201, dependencies=[limit("create")])
async def create_table(
    body: CreateTable, service: Service, creator: Creator, player: Player
) -> TableState:
    """Open a table; its ``game.commitment`` is the SHA-256 of the secret dice seed. A client
    may have 5 tables waiting for players at once; a waiting table expires after an hour. A
    rated table (``"rated": true``) is opened signed in (401 ``unauthorized`` otherwise)."""
    account = player if isinstance(player, Account) else None
    return TableState.model_validate(await service.create(body, creator, account))


@router.get("/tables")
async def open_tables(
    service: Service, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> list[TableSummary]:
    """Tables waiting for players, newest first (a table that cannot be read is left out)."""
    out = []
    for snapshot in await service.store.awaiting_tables(limit):
        try:
            out.append(table_summary(snapshot))
        except DAMAGE as e:
            log.warning(
                "table %s cannot be read (%s): left out of the list",
                snapshot.table.code,
                type(e).__name__,
                extra={"table": snapshot.table.code},
            )
    return out

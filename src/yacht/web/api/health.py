"""The probes: ``GET /livez`` (is the process alive?) and ``GET /readyz`` (may players be sent
here?), with ``GET /health`` kept as another name for ``/readyz``.

``/livez`` answers 200 as long as the process and its event loop answer (it touches nothing
else: a supervisor restarts the process only when it is stuck). ``/readyz`` answers 200 when the
database answers a real query on the driver the moves use (the asyncpg pool on PostgreSQL,
SQLAlchemy on SQLite) and the strategy tables of the web's presets are built; otherwise 503
saying what is missing. Redis is reported but never makes a process unready: without it each
process still serves its own tables (a metric, a log line and the pages' notice say it is gone),
and pulling every process out of a balancer at once would stop every table.
"""

from __future__ import annotations

import asyncio
import time
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from yacht.web.protocol.errors import TableError
from yacht.web.service.tables import TableService
from yacht.web.service.warmup import Warmup

__all__ = ["CHECK_TIMEOUT", "Live", "Ready", "router"]

CHECK_TIMEOUT = 3.0  # seconds each check may take
TABLES_WAIT = 0.5  # seconds to wait for tables being read from the disk cache; a build takes longer


class Live(BaseModel):
    status: Literal["ok"]
    lag: float = Field(description="seconds the event loop took to run a callback just now")


class Ready(BaseModel):
    status: Literal["ok", "failing"]
    database: str = Field(description='"ok", or why the database cannot be used')
    tables: str = Field(
        description='"ok" (the strategy tables are built), "building", "off" (built on first '
        "use: prepare_tables is off), or why they could not be built"
    )
    redis: str = Field(
        description='"ok", "off" (single process, no Redis), or what failed; never makes the '
        "process unready"
    )
    seconds: float = Field(description="how long the checks took")


router = APIRouter(tags=["health"])


@router.get("/livez", response_model=Live)
async def livez() -> Live:
    """The process and its event loop answer (200, always, when they do)."""
    start = time.perf_counter()
    await asyncio.sleep(0)
    return Live(status="ok", lag=round(time.perf_counter() - start, 6))


async def check_database(service: TableService) -> str:
    try:
        await asyncio.wait_for(service.store.aping(), CHECK_TIMEOUT)
    except TimeoutError:
        return f"no answer within {CHECK_TIMEOUT:g} s"
    except TableError as e:
        cause = e.__cause__ or e
        first = str(cause).splitlines()[0] if str(cause) else ""
        return f"{type(cause).__name__}: {first}".strip()
    except Exception as e:
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".strip()
    return "ok"


async def check_tables(service: TableService) -> str:
    warmup = service.warmup
    if not warmup.started:
        return "off"
    if await warmup.wait(TABLES_WAIT):
        return "ok"
    return Warmup.error or "building"


async def check_redis(broadcaster: object) -> str:
    check = getattr(broadcaster, "check", None)
    if check is None:
        return "off"
    try:
        await asyncio.wait_for(check(), CHECK_TIMEOUT)
    except TimeoutError:
        return f"no answer within {CHECK_TIMEOUT:g} s"
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return "ok"


_FAILING = {503: {"model": Ready, "description": "the database or the strategy tables are missing"}}


@router.get("/readyz", response_model=Ready, responses=_FAILING)  # type: ignore[arg-type]
async def readyz(request: Request) -> JSONResponse:
    """Check the database and the strategy tables (and report Redis); 503 when either of the
    first two fails."""
    service: TableService = request.app.state.service
    start = time.perf_counter()
    database, tables, redis = await asyncio.gather(
        check_database(service), check_tables(service), check_redis(service.broadcaster)
    )
    ok = database == "ok" and tables in ("ok", "off")
    service.metrics.database_up.set(database == "ok")
    if redis != "off":
        service.metrics.redis_up.set(redis == "ok")
    body = Ready(
        status="ok" if ok else "failing",
        database=database,
        tables=tables,
        redis=redis,
        seconds=round(time.perf_counter() - start, 4),
    )
    return JSONResponse(body.model_dump(), status_code=200 if ok else 503)


router.add_api_route(
    "/health",
    readyz,
    methods=["GET"],
    response_model=Ready,
    responses=_FAILING,  # type: ignore[arg-type]
    summary="Health (the same as /readyz)",
)

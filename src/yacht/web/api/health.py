"""``GET /health``: is this server process able to play? (database and Redis reachable)

Answers 200 with ``status: ok`` when the database answers a query and, when the server shares
tables through Redis, Redis answers a PING and the subscriber connection is up; otherwise 503
with ``status: failing`` and what failed. Load balancers and process supervisors poll it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import Engine, text

__all__ = ["CHECK_TIMEOUT", "Health", "router"]

log = logging.getLogger("yacht.web.api.health")

CHECK_TIMEOUT = 3.0  # seconds each check may take


class Health(BaseModel):
    status: Literal["ok", "failing"]
    database: str = Field(description='"ok", or why the database cannot be used')
    redis: str = Field(description='"ok", "off" (single process, no Redis), or what failed')
    seconds: float = Field(description="how long the checks took")


router = APIRouter(tags=["health"])


def _query(engine: Engine) -> None:
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))


async def check_database(engine: Engine) -> str:
    try:
        await asyncio.wait_for(asyncio.to_thread(_query, engine), CHECK_TIMEOUT)
    except TimeoutError:
        return f"no answer within {CHECK_TIMEOUT:g} s"
    except Exception as e:
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".strip()
    return "ok"


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


@router.get(
    "/health",
    response_model=Health,
    responses={503: {"model": Health, "description": "the database or Redis cannot be used"}},
)
async def health(request: Request) -> JSONResponse:
    """Check the database and (with ``--redis``) Redis; 503 when either fails."""
    service = request.app.state.service
    start = time.perf_counter()
    database, redis = await asyncio.gather(
        check_database(service.store.engine), check_redis(service.broadcaster)
    )
    ok = database == "ok" and redis in ("ok", "off")
    service.metrics.database_up.set(database == "ok")
    if redis != "off":
        service.metrics.redis_up.set(redis == "ok")
    body = Health(
        status="ok" if ok else "failing",
        database=database,
        redis=redis,
        seconds=round(time.perf_counter() - start, 4),
    )
    if not ok:
        log.warning("health check failing", extra={"database": database, "redis": redis})
    return JSONResponse(body.model_dump(), status_code=200 if ok else 503)

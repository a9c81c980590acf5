"""``GET /metrics``: the process's metrics (:mod:`yacht.web.edge.metrics`) in Prometheus's text
format, for the server's own machine only."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST

from yacht.web.edge.limits import LOCAL
from yacht.web.protocol.errors import TableError

__all__ = ["router"]

RELAYED = ("x-forwarded-for", "forwarded", "x-real-ip")
router = APIRouter()


def from_operator(request: Request) -> bool:
    """A request from the server's own machine that no proxy relayed."""
    client = request.client
    if client is None or client.host not in LOCAL:
        return False
    return not any(header in request.headers for header in RELAYED)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """The process's metrics in Prometheus's text format; loopback only."""
    if not from_operator(request):
        raise TableError("not_found", "/metrics answers the server's own machine only")
    return Response(request.app.state.metrics.text(), media_type=CONTENT_TYPE_LATEST)

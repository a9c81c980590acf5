"""``GET /metrics``: the process's metrics (:mod:`yacht.web.edge.metrics`) in Prometheus's text
format, for the addresses the operator allows (``YACHT_METRICS_ALLOW``).

The address checked is the connection's own peer, as ``yacht serve``'s HTTP protocol saw it
(:func:`yacht.web.edge.serving.peer_address`), never one a header claims: a proxy may rewrite
the client's address from X-Forwarded-For for the rate limits, not for this. A request that a
proxy relayed (it carries ``X-Forwarded-For``, ``Forwarded`` or ``X-Real-IP``) is refused too,
so the internet cannot read the metrics through a proxy on an allowed address.
"""

from __future__ import annotations

import ipaddress
import logging
from functools import lru_cache

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST

from yacht.web.edge.serving import peer_address
from yacht.web.protocol.errors import TableError

__all__ = ["allowed_networks", "from_operator", "router"]

log = logging.getLogger("yacht.web.api.metrics")

RELAYED = ("x-forwarded-for", "forwarded", "x-real-ip")
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
router = APIRouter()


@lru_cache(maxsize=8)
def allowed_networks(allow: str) -> tuple[Network, ...]:
    """The networks of a comma-separated list of addresses and networks (an entry that is
    neither is left out, with a warning: it allows nothing).

    >>> allowed_networks("127.0.0.1, ::1, 10.0.0.0/8")
    (IPv4Network('127.0.0.1/32'), IPv6Network('::1/128'), IPv4Network('10.0.0.0/8'))
    """
    networks = []
    for entry in (e.strip() for e in allow.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            log.warning("YACHT_METRICS_ALLOW: %r is no address or network: left out", entry)
    return tuple(networks)


def from_operator(request: Request) -> bool:
    """A request whose connection comes from an allowed address and that no proxy relayed."""
    if any(header in request.headers for header in RELAYED):
        return False
    address = peer_address(request.scope)
    if address is None:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    networks = allowed_networks(request.app.state.settings.metrics_allow)
    return any(ip in network for network in networks)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """The process's metrics in Prometheus's text format; allowed addresses only."""
    if not from_operator(request):
        raise TableError("not_found", "/metrics answers the addresses YACHT_METRICS_ALLOW names")
    return Response(request.app.state.metrics.text(), media_type=CONTENT_TYPE_LATEST)

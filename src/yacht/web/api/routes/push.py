"""Web Push (docs/web/notifications.md): the server's application server key and a signed-in
player's devices' subscriptions (a change carries the session's X-CSRF-Token, as every
account route)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from yacht.web.api.deps import Service, SignedIn, limit
from yacht.web.protocol.push import PushEndpoint, PushKey, PushSubscribe, PushSubscribed

__all__ = ["router"]

router = APIRouter(tags=["push"])
CHANGE = [limit("push")]


@router.get("/push/key")
async def push_key(service: Service) -> PushKey:
    """The key a page passes to ``pushManager.subscribe`` (``applicationServerKey``): the same
    for every process of the server, and across restarts."""
    return PushKey(key=await service.push.public_key())


@router.post("/push/subscriptions", status_code=201, dependencies=CHANGE)
async def subscribe(body: PushSubscribe, service: Service, account: SignedIn) -> PushSubscribed:
    """Notify this device (its PushSubscription) of the signed-in player's correspondence
    games, in ``lang``, for the kinds of message ``kinds`` turns on. The endpoint must be on
    a push service this server sends to (https, an allowed host: 422 ``invalid``) and the keys
    usable (a P-256 point, a 16-byte secret). Sent again, it updates the device's settings."""
    columns = {
        "endpoint": body.endpoint,
        "p256dh": body.keys.p256dh,
        "auth": body.keys.auth,
        "lang": body.lang,
        "turn": body.kinds.turn,
        "near": body.kinds.near,
        "ended": body.kinds.end,
    }
    await service.push.subscribe(account.id, columns)
    return PushSubscribed(endpoint=body.endpoint, lang=body.lang, kinds=body.kinds)


@router.delete("/push/subscriptions", status_code=204, dependencies=CHANGE)
async def unsubscribe(body: PushEndpoint, service: Service, account: SignedIn) -> Response:
    """Stop notifying the device with this endpoint (404 ``not_found``: none of yours)."""
    await service.push.forget(account.id, body.endpoint)
    return Response(status_code=204)

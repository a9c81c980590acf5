"""Web Push notifications (docs/web/notifications.md): the server's VAPID key, devices'
subscriptions, and the sender that delivers the outbox.

A message is written to the outbox in the transaction of the move that makes it (a turn that
comes to a player and a game's end: :func:`~yacht.web.service.correspondence.clock_seats`),
or by the deadline warnings' look (12 hours and 1 hour before a deadline). Nothing is sent
from inside a move: each process runs :meth:`Push.watch`, which claims the due rows (``FOR
UPDATE SKIP LOCKED`` on PostgreSQL, with a lease: a process that dies holding a row leaves it
due again after ``push_lease`` seconds), delivers them, and deletes each one the push service
took. Delivery is at least once: a copy that goes out twice carries the same ``Topic`` header
and notification ``tag`` (the table, the seat and the turn's deadline), so the second replaces
the first. A failure is tried again with exponential backoff (30 s doubling to an hour, ten
attempts); a subscription the push service answers 404 or 410 is deleted.

No request forgery: the server posts only to an endpoint whose host is on the allow-list of
the browsers' push services (``push_hosts``), over https on port 443, follows no redirect, and
bounds the time (``push_timeout``) and the answer it reads (:data:`MAX_ANSWER`). Endpoints on
this machine are allowed only with ``push_loopback`` (tests).

>>> allowed_host("fcm.googleapis.com", ["fcm.googleapis.com", "*.push.apple.com"])
True
>>> allowed_host("web.push.apple.com", ["*.push.apple.com"])
True
>>> allowed_host("push.apple.com.evil.example", ["*.push.apple.com"])
False
>>> endpoint_error("http://fcm.googleapis.com/fcm/send/x", ["fcm.googleapis.com"], False)
'the endpoint must be an https URL'
>>> endpoint_error("https://fcm.googleapis.com/fcm/send/x", ["fcm.googleapis.com"], False)
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any
from urllib.parse import urlsplit

from yacht.errors import N_
from yacht.i18n import LANGUAGES, translator
from yacht.web.protocol.errors import TableError
from yacht.web.settings import Settings
from yacht.web.storage import push as rows
from yacht.web.storage.outage import Unavailable
from yacht.web.storage.store import Store

__all__ = [
    "MAX_ANSWER",
    "Push",
    "allowed_host",
    "endpoint_error",
    "message",
    "topic",
]

log = logging.getLogger("yacht.web.push")

MAX_ANSWER = 16384
"""Bytes of a push service's answer read at most (the rest is not read)."""
LOOK_EVERY = 10.0
"""Seconds between two looks at the outbox when no move wakes the sender."""
WARN_EVERY = 60.0
"""Seconds between two looks for deadlines near (12 h and 1 h before)."""
MARKS = (12, 1)
"""Hours before a deadline that a warning goes out."""
BACKOFF = 30.0
BACKOFF_CAP = 3600.0
ATTEMPTS = 10
"""A failed message is tried again after 30 s, 60 s, ... at most an hour apart, ten times."""
PARALLEL = 8
"""Messages one process sends at once."""
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
Outcome = tuple[str, float | None]
"""What came of one message: sent, gone, later (with when) or drop."""

TEXTS = {
    "turn": (N_("Your turn"), N_("Table {code}: the game is waiting for your move.")),
    "near12": (N_("Your move is due soon"), N_("Table {code}: 12 hours left for your move.")),
    "near1": (N_("Your move is due soon"), N_("Table {code}: 1 hour left for your move.")),
    "end": (N_("Game over"), N_("Table {code}: the game has ended.")),
}
"""Each kind of message's title and body (gettext domain ``yacht``)."""


def allowed_host(host: str, hosts: Sequence[str]) -> bool:
    """Whether ``host`` is on the allow-list: a name as listed, or under a ``*.`` entry."""
    host = host.lower().rstrip(".")
    for entry in hosts:
        entry = entry.strip().lower()
        if entry.startswith("*."):
            if host.endswith(entry[1:]) and len(host) > len(entry) - 1:
                return True
        elif entry and host == entry:
            return True
    return False


def endpoint_error(url: str, hosts: Sequence[str], loopback: bool) -> str | None:
    """Why the server will not post to ``url`` (None: it will)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "the endpoint is not a URL"
    host = (parts.hostname or "").lower()
    if parts.username is not None or parts.password is not None:
        return "the endpoint may not hold a user name or password"
    if loopback and host in LOOPBACK and parts.scheme in ("http", "https"):
        return None
    if parts.scheme != "https":
        return "the endpoint must be an https URL"
    if port not in (None, 443):
        return "the endpoint must use the https port, 443"
    if not allowed_host(host, hosts):
        return f"{host!r} is not a push service this server sends to"
    return None


def topic(tag: str) -> str:
    """The ``Topic`` header of a message tagged ``tag``: 32 characters of the URL-safe base64
    alphabet, as RFC 8030 allows, the same for every copy.

    >>> topic("ABC123-0-1700000000")
    'BGESKFf_CILCON-rDMvCnQv7ziNJ9GCH'
    """
    digest = hashlib.sha256(tag.encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:32]


def message(kind: str, code: str, tag: str, lang: str, hours: int | None, root: str = "") -> bytes:
    """A message's payload, in the subscription's language: what the service worker shows.

    >>> json.loads(message("turn", "ABC123", "t", "fi", None))["title"]
    'Sinun vuorosi'
    """
    key = f"near{hours}" if kind == "near" else kind
    title, body = TEXTS[key]
    say = translator(lang if lang in LANGUAGES else "en").gettext
    payload = {
        "title": say(title),
        "body": say(body).format(code=code),
        "tag": tag,
        "url": f"{root}/t/{code}",
        "kind": kind,
    }
    return json.dumps(payload, ensure_ascii=False).encode()


def _b64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return b""


def key_error(p256dh: str, auth: str) -> str | None:
    """Why the subscription's keys cannot be used (None: they can)."""
    from cryptography.hazmat.primitives.asymmetric import ec

    point = _b64(p256dh)
    if len(point) != 65 or point[0] != 4:
        return "keys.p256dh must be an uncompressed P-256 point (65 bytes, base64url)"
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return "keys.p256dh is not a point of P-256"
    if len(_b64(auth)) != 16:
        return "keys.auth must be 16 bytes, base64url"
    return None


class Push:
    """One process's Web Push: the key, subscriptions, and the sender (module docstring)."""

    def __init__(self, store: Store, settings: Settings, clock: Callable[[], float]) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.hosts = [h.strip() for h in settings.push_hosts.split(",") if h.strip()]
        self._vapid: Any = None
        self._key_lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._warned_at = float("-inf")
        self._client: Any = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

    # --- the key -----------------------------------------------------------------------------

    async def vapid(self) -> Any:
        """The server's VAPID key (py-vapid), made by the first process ever and kept in the
        database, so every process and every restart signs with the same one."""
        if self._vapid is None:
            async with self._key_lock:
                if self._vapid is None:
                    self._vapid = await self.store.guarded(asyncio.to_thread(self._load))
        return self._vapid

    def _load(self) -> Any:
        from py_vapid import Vapid02

        fresh = Vapid02()
        fresh.generate_keys()
        pem = rows.keep_key(self.store.engine, fresh.private_pem().decode(), time.time())
        return Vapid02.from_pem(pem.encode())

    async def public_key(self) -> str:
        """The application server key: the public key's uncompressed point, base64url."""
        from cryptography.hazmat.primitives import serialization

        raw = (await self.vapid()).public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    # --- subscriptions -----------------------------------------------------------------------

    async def subscribe(self, account: int, columns: dict[str, Any]) -> None:
        """Keep a device's subscription; refuses (``invalid``, nothing kept) an endpoint the
        server would not post to and keys it cannot encrypt for."""
        why = endpoint_error(columns["endpoint"], self.hosts, self.settings.push_loopback)
        why = why or key_error(columns["p256dh"], columns["auth"])
        if why is not None:
            raise TableError("invalid", why)
        await self._run(rows.subscribe, account, columns, self.clock())

    async def forget(self, account: int, endpoint: str) -> None:
        """Delete the account's subscription with this endpoint (``not_found``: none)."""
        if not await self._run(rows.forget, account, endpoint):
            raise TableError("not_found", "no subscription of yours has that endpoint")

    async def _run(self, work: Callable[..., Any], *args: Any) -> Any:
        return await self.store.guarded(asyncio.to_thread(work, self.store.engine, *args))

    # --- the sender --------------------------------------------------------------------------

    def wake(self) -> None:
        """A move wrote messages: look at the outbox now (the move does not wait for it)."""
        self._wake.set()

    async def watch(self) -> None:
        """Deliver the outbox for ever: at start (what a process that died left), then at
        once when woken, else every :data:`LOOK_EVERY` s."""
        while True:
            self._wake.clear()
            try:
                await self.look()
            except Unavailable:  # said once in the log by the store; the next look tries
                pass
            except Exception:
                log.exception("delivering push messages failed")
            with suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), LOOK_EVERY)

    async def look(self) -> int:
        """Write the deadline warnings due (once a minute at most), then deliver every due
        message, a batch at a time; returns the messages delivered."""
        moment = self.clock()
        if moment - self._warned_at >= WARN_EVERY:
            self._warned_at = moment
            await self._run(rows.warn_near, moment, MARKS, 300.0)
        sent = 0
        gate = asyncio.Semaphore(PARALLEL)

        async def one(d: rows.Delivery) -> Outcome:
            async with gate:
                return await self._attempt(d)

        for _ in range(20):
            moment = self.clock()
            batch = await self._run(rows.claim, moment, moment + self.settings.push_lease)
            if not batch:
                break
            outcomes = await asyncio.gather(*(one(d) for d in batch))
            await self._settle(list(zip(batch, outcomes, strict=True)))
            sent += sum(outcome[0] == "sent" for outcome in outcomes)
            if len(batch) < rows.CLAIM_BATCH:
                break
        return sent

    async def deliver(self, d: rows.Delivery) -> bool:
        """Send one claimed message and write down what came of it; True when delivered."""
        outcome = await self._attempt(d)
        await self._settle([(d, outcome)])
        return outcome[0] == "sent"

    async def _settle(self, done: list[tuple[rows.Delivery, Outcome]]) -> None:
        """Write down what came of a batch, in one transaction: delivered rows and dropped
        ones deleted, gone subscriptions deleted, failed rows due again later."""
        sent = [d.id for d, (what, _) in done if what in ("sent", "drop")]
        gone = sorted({d.subscription for d, (what, _) in done if what == "gone"})
        again = [(d.id, due) for d, (what, due) in done if what == "later"]
        await self._run(rows.settle, sent, gone, again)

    async def _attempt(self, d: rows.Delivery) -> Outcome:
        """Send one claimed message: ``sent``, ``gone`` (404, 410: the subscription is no
        more), ``later`` (429, 5xx, no answer: with the time to try again) or ``drop``."""
        why = endpoint_error(d.endpoint, self.hosts, self.settings.push_loopback)
        if why is not None:  # the allow-list changed since it was kept
            log.warning("push: not sent to a host off the allow-list: %s", why)
            return ("drop", None)
        try:
            status = await self._post(d)
        except Exception as e:  # a timeout, a refused connection, a TLS failure
            log.info("push: %s to %s failed: %s", d.kind, _host(d.endpoint), type(e).__name__)
            status = None
        if status is not None and 200 <= status < 300:
            return ("sent", None)
        if status in (404, 410):
            log.info("push: the subscription at %s is gone; deleted", _host(d.endpoint))
            return ("gone", None)
        if status is None or status == 429 or status >= 500:
            if d.attempts + 1 < ATTEMPTS:
                return ("later", self.clock() + min(BACKOFF_CAP, BACKOFF * 2**d.attempts))
            log.warning("push: %s to %s given up", d.kind, _host(d.endpoint))
            return ("drop", None)
        log.warning("push: %s to %s refused (%d)", d.kind, _host(d.endpoint), status)
        return ("drop", None)  # a redirect, 400, 403, 413: never better

    def _http(self) -> Any:
        """This event loop's HTTP client (connections kept between messages to one push
        service): no redirects, the timeout, no proxy from the environment."""
        import httpx

        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._client = httpx.AsyncClient(
                follow_redirects=False,
                timeout=httpx.Timeout(self.settings.push_timeout),
                trust_env=False,
                limits=httpx.Limits(max_connections=PARALLEL, max_keepalive_connections=PARALLEL),
            )
            self._client_loop = loop
        return self._client

    async def aclose(self) -> None:
        """Close the HTTP client's connections (the server stops)."""
        if self._client is not None and self._client_loop is asyncio.get_running_loop():
            client, self._client = self._client, None
            await client.aclose()

    async def _post(self, d: rows.Delivery) -> int:
        """POST the encrypted message (RFC 8291 aes128gcm, pywebpush) with its VAPID header
        (RFC 8292); the answer's status. No redirect is followed and at most
        :data:`MAX_ANSWER` bytes of the answer are read."""
        from pywebpush import WebPusher

        payload = message(d.kind, d.table_code, d.tag, d.lang, d.hours, self.settings.root_path)
        info = {"endpoint": d.endpoint, "keys": {"p256dh": d.p256dh, "auth": d.auth}}
        body = WebPusher(info).encode(payload, "aes128gcm")["body"]
        parts = urlsplit(d.endpoint)
        claims: dict[str, Any] = {"aud": f"{parts.scheme}://{parts.netloc}"}
        claims["sub"] = self._contact()
        claims["exp"] = int(time.time()) + 12 * 3600  # the push service's clock, not a test's
        headers = dict((await self.vapid()).sign(claims))
        ttl = 3600 * (d.hours or 24)
        headers.update(
            {
                "TTL": str(ttl),
                "Topic": topic(d.tag),
                "Urgency": "high" if d.kind == "near" else "normal",
                "Content-Encoding": "aes128gcm",
                "Content-Type": "application/octet-stream",
            }
        )
        async with self._http().stream("POST", d.endpoint, content=body, headers=headers) as answer:
            read = 0
            async for chunk in answer.aiter_raw():
                read += len(chunk)
                if read >= MAX_ANSWER:
                    break
            status: int = answer.status_code
            return status

    def _contact(self) -> str:
        contact = self.settings.push_contact
        if contact:
            return contact
        public = urlsplit(self.settings.public_url)
        if public.scheme == "https" and public.hostname:
            return f"https://{public.hostname}"
        return "mailto:yacht@localhost"


def _host(endpoint: str) -> str:
    """An endpoint's host, for a log line (the rest of it is the device's secret)."""
    return urlsplit(endpoint).hostname or "?"

"""The WebSocket of a table: ``/ws/tables/{code}``.

On connect the server sends the table's ``state``; after every change everyone watching gets
the new ``state``. A client sends :data:`~yacht.web.protocol.messages.ClientMessage` values; a
request
that fails is answered with an ``error`` to that client only and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel, TypeAdapter, ValidationError

from yacht.web.bus.broadcast import Inbox, table_channel
from yacht.web.edge.headers import origin_allowed, origins
from yacht.web.edge.limits import (
    CLOSE_POLICY,
    LOCAL,
    Flood,
    MessageLimits,
    client_key,
    receive_text,
)
from yacht.web.edge.serving import MAX_CONNECTIONS, OPEN
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import (
    ActionMessage,
    ClientMessage,
    CoachMessage,
    ElsewhereMessage,
    ErrorMessage,
    HandToBotMessage,
    HelloMessage,
    HintMessage,
    PingMessage,
    PongMessage,
    RematchMessage,
    SeedMessage,
    TakeBackMessage,
    WelcomeMessage,
    error_message,
    reader_language,
)
from yacht.web.service.presence import device_of
from yacht.web.service.tables import TableService

__all__ = ["HANDLERS", "table_socket"]

log = logging.getLogger("yacht.web")

CLOSE_TRY_AGAIN = 1013  # RFC 6455's "try again later": the page reconnects

CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
WATCHED: Counter[str] = Counter()
"""WebSockets of this process per table."""
ELSEWHERE = '{"type":"elsewhere"'
"""How the word goes round that a seat moved to a newer connection (on the table's channel,
to every process; each connection takes what concerns it and the pages see only their own)."""


def describe(error: ValidationError) -> str:
    """A one-line account of what is wrong with a message."""
    parts = []
    for e in error.errors()[:3]:
        where = ".".join(str(x) for x in e["loc"]) or "message"
        parts.append(f"{where}: {e['msg']}")
    return "bad message: " + "; ".join(parts)


class Connection:
    """One WebSocket watching one table; sends are serialised."""

    def __init__(self, websocket: WebSocket, service: TableService, code: str) -> None:
        self.websocket = websocket
        self.service = service
        self.code = code
        self.seats: set[int] = set()
        self.client = client_key(websocket.scope)
        self.lang = reader_language(websocket.query_params.get("lang"))  # for the reasons
        self._send_lock = asyncio.Lock()
        self.hints: set[asyncio.Task[None]] = set()  # hints being worked out for this socket
        self.id = secrets.randbits(62)  # tells its own word apart on the table's channel
        self.device = device_of(websocket.headers.get("user-agent"))
        # Seats a newer connection took: still counted present (this tab is open), not
        # played from here.
        self.elsewhere: set[int] = set()
        self.name: str | None = None
        self.watching = False  # said hello and holds no seat

    async def send(self, message: BaseModel | str) -> None:
        text = message if isinstance(message, str) else message.model_dump_json()
        async with self._send_lock:
            start = time.perf_counter()
            await self.websocket.send_text(text)
            self.service.metrics.observe("send", time.perf_counter() - start)

    async def forward(self, inbox: Inbox) -> None:
        while True:
            text = await inbox.get()
            if text is None:  # fell too far behind: start again from the current state
                inbox.overflowed = False
                text = await self.current()
            elif text.startswith(ELSEWHERE):
                text = self.moved(text)
                if text is None:
                    continue
            await self.send(text)

    def moved(self, text: str) -> str | None:
        """The ``elsewhere`` message for this page when another connection took seats it
        held (None: not its seats, or its own word)."""
        word = orjson.loads(text)
        taken = (set(word["seats"]) & self.seats) - self.elsewhere
        if word["from"] == self.id or not taken:
            return None
        self.elsewhere |= taken
        message = ElsewhereMessage(
            seats=sorted(taken), browser=word["browser"], system=word["system"]
        )
        return message.model_dump_json()

    async def tell_elsewhere(self, seats: list[int]) -> None:
        """Tell the table's other connections that ``seats`` are played from here now."""
        browser, system = self.device
        word = {"from": self.id, "seats": seats, "browser": browser, "system": system}
        text = ELSEWHERE + "," + orjson.dumps(word).decode()[1:]
        await self.service.broadcaster.publish(table_channel(self.code), text)

    def update_watching(self) -> None:
        """Count this connection as a watcher while it holds no seat (once it said hello)."""
        watching = not self.seats
        if watching:
            self.service.watch(self.code, self.id, self.name)
        elif self.watching:
            self.service.unwatch(self.code, self.id)
        self.watching = watching

    async def current(self) -> str:
        """The table's ``state`` as stored now; without the database, once it answers again
        (the socket stays open meanwhile: its page was told by a ``notice``)."""
        while True:
            try:
                return await self.service.state_text(self.code)
            except TableError as e:
                if e.code != "unavailable":
                    raise
            await self.service.store.until_up()

    async def handle(self, text: str) -> None:
        """One message (its size and rate already checked by the edge): parse, hand to the
        service, reply to this client; a refusal is an ``error`` to this client only."""
        ref = None
        start = time.perf_counter()
        try:
            try:
                msg = CLIENT_MESSAGE.validate_json(text)
            except ValidationError as e:
                raise TableError("invalid", describe(e)) from None
            ref = msg.ref
            self.service.metrics.observe("receive", time.perf_counter() - start)
            reply = await HANDLERS[type(msg)](self, msg)
            if reply is not None:
                await self.send(reply)
        except TableError as e:
            await self.send(error_message(e, self.lang, ref))

    async def hello(self, msg: HelloMessage) -> BaseModel:
        fresh = [(s.seat, s.token) for s in msg.seats if s.seat not in self.seats]
        back = [s.seat for s in msg.seats if s.seat in self.elsewhere]  # "play here" again
        for seat, _ in fresh:  # a seat reconnecting in a loop, from any number of clients
            await self.service.limits.take("seat", f"{self.code}:{seat}")
        arrived = await self.service.arrive(self.code, fresh)
        self.seats.update(arrived)
        self.elsewhere.difference_update(back)
        self.name = msg.name
        self.update_watching()
        if arrived or back:
            await self.tell_elsewhere(sorted({*arrived, *back}))
        return WelcomeMessage(seats=sorted(self.seats), ref=msg.ref)

    def check_here(self, seat: int) -> None:
        """Refuse playing a seat a newer tab or device took from this connection: two pages
        playing one seat would each move on a table the other changed."""
        if seat in self.elsewhere:
            raise TableError(
                "illegal",
                f"seat {seat + 1} is played from another tab or device now: "
                "send hello with its token to play it here",
            )

    async def action(self, msg: ActionMessage) -> None:
        self.check_here(msg.seat)
        await self.service.act(self.code, msg)  # everyone, this client too, gets the new state

    async def hint(self, msg: HintMessage) -> None:
        self.check_here(msg.seat)
        await self.service.limits.take("hint", self.client)
        # Answered beside the socket's reading, so a move sent after it is not kept waiting.
        task = asyncio.create_task(self._hint(msg))
        self.hints.add(task)
        task.add_done_callback(self.hints.discard)

    async def _hint(self, msg: HintMessage) -> None:
        try:
            await self.send(await self.service.hint(self.code, msg))
        except TableError as e:
            await self.send(error_message(e, self.lang, msg.ref))

    async def coach(self, msg: CoachMessage) -> None:
        self.check_here(msg.seat)
        await self.service.limits.take("hint", self.client)  # the coach is a hint
        task = asyncio.create_task(self._coach(msg))
        self.hints.add(task)
        task.add_done_callback(self.hints.discard)

    async def _coach(self, msg: CoachMessage) -> None:
        try:
            reply = await self.service.coach(self.code, msg)
        except TableError as e:
            await self.send(error_message(e, self.lang, msg.ref))
        except Exception:  # the page waits for its answer before the move: never leave it so
            log.exception("the live coach failed at table %s", self.code)
            busy = TableError("busy", "the coach could not weigh the move: try again")
            await self.send(error_message(busy, self.lang, msg.ref))
        else:
            if reply is not None:
                await self.send(reply)

    async def hand_to_bot(self, msg: HandToBotMessage) -> None:
        await self.service.hand_to_bot(self.code, msg)
        if msg.seat == msg.by:
            self.seats.discard(msg.seat)
            self.update_watching()

    async def take_back(self, msg: TakeBackMessage) -> None:
        await self.service.take_back(self.code, msg)

    async def seed(self, msg: SeedMessage) -> None:
        await self.service.contribute(self.code, msg)

    async def rematch(self, msg: RematchMessage) -> None:
        await self.service.rematch(self.code, msg)

    async def ping(self, msg: PingMessage) -> BaseModel:
        return PongMessage(ref=msg.ref)


HANDLERS: dict[type[Any], Callable[[Connection, Any], Awaitable[BaseModel | None]]] = {
    HelloMessage: Connection.hello,
    ActionMessage: Connection.action,
    HintMessage: Connection.hint,
    CoachMessage: Connection.coach,
    HandToBotMessage: Connection.hand_to_bot,
    TakeBackMessage: Connection.take_back,
    SeedMessage: Connection.seed,
    RematchMessage: Connection.rematch,
    PingMessage: Connection.ping,
}
"""What each kind of :data:`~yacht.web.protocol.messages.ClientMessage` asks of the service."""


async def table_socket(websocket: WebSocket, code: str) -> None:
    service: TableService = websocket.app.state.service
    client = client_key(websocket.scope)
    capped = client is not None and client not in LOCAL  # not the operator's own load tests
    settings = websocket.app.state.settings
    allowed = origins(settings.allowed_origins)
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.url.scheme, websocket.headers.get("host"), allowed):
        await websocket.close(code=CLOSE_POLICY, reason="a page of another site")
        return
    try:  # a page reconnects after a drop; a client reconnecting in a loop is refused
        await service.limits.take("connect", client)
        await service.limits.check("guess", client)  # codes are not guessed through sockets
    except TableError as e:
        await websocket.close(code=CLOSE_POLICY, reason=e.message[:120])
        return
    if capped and client is not None and not await OPEN.take(client, MAX_CONNECTIONS):
        await websocket.close(code=CLOSE_POLICY, reason="too many connections from one client")
        return
    metrics, table = service.metrics, code.upper()
    metrics.websockets.inc()
    WATCHED[table] += 1
    metrics.tables.set(len(WATCHED))
    try:
        await _serve(websocket, service, code)
    finally:
        metrics.websockets.dec()
        WATCHED[table] -= 1
        if WATCHED[table] <= 0:
            del WATCHED[table]
        metrics.tables.set(len(WATCHED))
        if capped and client is not None:
            OPEN.give(client)


async def _serve(websocket: WebSocket, service: TableService, code: str) -> None:
    await websocket.accept()
    try:
        await service.load(code)
    except TableError as e:
        lang = reader_language(websocket.query_params.get("lang"))
        await websocket.send_text(error_message(e, lang).model_dump_json())
        if e.code == "unavailable":  # no database to say whether the table exists: later
            for text in service.notices.now():
                await websocket.send_text(text)
            await websocket.close(code=CLOSE_TRY_AGAIN, reason="the database is unavailable")
        else:
            with suppress(TableError):  # refused at the next try, before it is looked up
                await service.limits.take("guess", client_key(websocket.scope))
            await websocket.close(code=4404)
        return
    code = code.upper()
    conn = Connection(websocket, service, code)
    async with service.broadcaster.subscribe(table_channel(code)) as inbox:
        with service.notices.watch(inbox.put):
            forwarder = asyncio.create_task(conn.forward(inbox))
            try:  # read after subscribing: no change can fall in between
                await conn.send(await conn.current())
                for text in service.notices.now():
                    await conn.send(text)
                limits = MessageLimits()
                while True:
                    try:
                        text = await receive_text(websocket, limits)
                    except Flood as e:  # over a limit: say so, then close (binary: refuse only)
                        await conn.send(ErrorMessage(code=e.code, message=e.message))
                        if e.close is None:
                            continue
                        await websocket.close(code=e.close, reason=e.code)
                        break
                    await conn.handle(text)
            except WebSocketDisconnect:
                pass
            finally:
                if conn.seats:
                    service.leave(code, conn.seats)
                if conn.watching:
                    service.unwatch(code, conn.id)
                forwarder.cancel()
                for task in conn.hints:
                    task.cancel()
                await asyncio.gather(forwarder, *conn.hints, return_exceptions=True)

"""Web Push: what a message costs the server.

- **Encrypt and sign**: the payload in the subscription's language, its RFC 8291 aes128gcm body
  (pywebpush: a fresh ECDH key per message) and the RFC 8292 VAPID JWT (py-vapid, ES256): the
  CPU a sender spends per message before the POST.
- **Outbox write in a move**: the ``INSERT ... SELECT`` a move that gives a seat its turn adds
  to its transaction, for an account with 3 devices (SQLite, a file in a temporary folder).
- **Delivery**: one sender (:meth:`yacht.web.service.push.Push.look`) delivering 200 messages
  to a push service on 127.0.0.1 that answers 201 at once (plain HTTP, loopback allowed), from
  the claim to the last row deleted: messages a second.

Median and worst of the runs, wall time, pinned to one core. Run: ``python -m benchmarks.push``.
"""

from __future__ import annotations

import asyncio
import base64
import os
import statistics
import tempfile
import time
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from benchmarks.machine import header, on_one_core
from yacht.web.service.push import Push, message
from yacht.web.settings import Settings
from yacht.web.storage import push as rows
from yacht.web.storage.changes import Notice
from yacht.web.storage.store import Store

MESSAGES = 300
DELIVERED = 200
RUNS = 3


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _keys() -> tuple[str, str]:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return _b64(point), _b64(os.urandom(16))


def _row(endpoint: str) -> dict[str, object]:
    p256dh, auth = _keys()
    return {"endpoint": endpoint, "p256dh": p256dh, "auth": auth, "lang": "fi"}


def _encrypt_and_sign() -> list[float]:
    from py_vapid import Vapid02
    from pywebpush import WebPusher

    vapid = Vapid02()
    vapid.generate_keys()
    p256dh, auth = _keys()
    info = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/x",
        "keys": {"p256dh": p256dh, "auth": auth},
    }
    claims = {"aud": "https://fcm.googleapis.com", "sub": "mailto:yacht@localhost"}
    walls = []
    for n in range(MESSAGES):
        start = time.perf_counter()
        payload = message("turn", "ABC123", f"ABC123-0-{n}", "fi", None)
        WebPusher(info).encode(payload, "aes128gcm")
        vapid.sign({**claims, "exp": int(time.time()) + 3600})
        walls.append(time.perf_counter() - start)
    return walls


def _outbox_write(folder: Path) -> list[float]:
    store = Store(f"sqlite:///{folder / 'write.sqlite3'}")
    store.migrate()
    for n in range(3):
        columns = {
            **_row(f"https://fcm.googleapis.com/{n}"),
            "turn": True,
            "near": True,
            "ended": True,
        }
        rows.subscribe(store.engine, 7, columns, 0.0)
    walls = []
    for n in range(MESSAGES):
        start = time.perf_counter()
        with store.engine.begin() as c:
            rows.enqueue(c, "ABC123", [Notice("turn", 7, f"ABC123-0-{n}", 0.0)])
        walls.append(time.perf_counter() - start)
    store.close()
    return walls


async def _answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A push service: reads each request whole and answers 201 (keep-alive)."""
    while True:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            return  # the sender closed the connection
        length = 0
        for line in head.decode().split("\r\n"):
            if line.lower().startswith("content-length:"):
                length = int(line.split(":")[1])
        await reader.readexactly(length)
        writer.write(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()


async def _deliver(folder: Path, run: int) -> float:
    server = await asyncio.start_server(_answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    store = Store(f"sqlite:///{folder / f'deliver{run}.sqlite3'}")
    store.migrate()
    for n in range(DELIVERED):
        columns = {
            **_row(f"http://127.0.0.1:{port}/d/{n}"),
            "turn": True,
            "near": True,
            "ended": True,
        }
        rows.subscribe(store.engine, n, columns, 0.0)
    with store.engine.begin() as c:
        rows.enqueue(c, "ABC123", [Notice("turn", n, f"t{n}", 0.0) for n in range(DELIVERED)])
    sender = Push(store, Settings(push_loopback=True), lambda: 1.0)
    await sender.vapid()
    start = time.perf_counter()
    sent = await sender.look()
    wall = time.perf_counter() - start
    assert sent == DELIVERED and rows.pending(store.engine) == 0, sent
    await sender.aclose()
    await asyncio.sleep(0)  # the service's side sees the connections close
    server.close()
    store.close()
    return wall


def _ms(walls: list[float]) -> str:
    return f"median {statistics.median(walls) * 1000:.2f} ms, worst {max(walls) * 1000:.2f} ms"


def main() -> None:
    def run() -> None:
        print(header("Web Push"))
        print(f"  encrypt and sign a message ({MESSAGES}): {_ms(_encrypt_and_sign())}")
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            writes = _ms(_outbox_write(folder))
            print(f"  outbox write in a move, 3 devices, SQLite ({MESSAGES}): {writes}")
            rates = [DELIVERED / asyncio.run(_deliver(folder, r)) for r in range(RUNS)]
        print(
            f"  delivery of {DELIVERED} messages to a push service on loopback: median "
            f"{statistics.median(rates):.0f}, worst {min(rates):.0f} messages/s ({RUNS} runs)"
        )

    on_one_core(run)


if __name__ == "__main__":
    main()

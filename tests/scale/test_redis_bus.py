"""The Redis broadcaster between two "processes" (two broadcasters with their own connections):
delivery across, order, no echo, resync when the subscriber connection drops, resend of what
the publisher had not had acknowledged, and a Redis that is not there."""

from __future__ import annotations

import asyncio

import pytest

from yacht.web.bus.redis import RedisBroadcaster

from .servers import free_port
from .services import Services


async def take(inbox: object, n: int, timeout: float = 5.0) -> list[str | None]:
    get = inbox.get  # type: ignore[attr-defined]
    return [await asyncio.wait_for(get(), timeout) for _ in range(n)]


async def test_messages_cross_in_order_and_never_echo(
    services: Services, redis_prefix: str
) -> None:
    a = RedisBroadcaster(services.redis, prefix=redis_prefix)
    b = RedisBroadcaster(services.redis, prefix=redis_prefix)
    try:
        async with a.subscribe("table:X") as on_a, b.subscribe("table:X") as on_b:
            for i in range(50):
                await a.publish("table:X", f"a{i}")
                await asyncio.sleep(0)
            assert await take(on_b, 50) == [f"a{i}" for i in range(50)]  # in order
            assert await take(on_a, 50) == [f"a{i}" for i in range(50)]
            await b.publish("table:X", "b0")
            assert await take(on_b, 1) == await take(on_a, 1) == ["b0"]
            await a.publish("table:X", "last")
            assert await take(on_a, 1) == ["last"]  # once: its own copy from Redis is ignored
            assert await take(on_b, 1) == ["last"]
            await asyncio.sleep(0.2)
            assert len(on_a) == 0
            async with b.subscribe("table:Y") as other:  # another table hears nothing of X
                await a.publish("table:X", "x")
                assert await take(on_b, 1) == ["x"]
                assert len(other) == 0
    finally:
        await a.aclose()
        await b.aclose()


async def test_a_dropped_subscriber_resyncs_then_hears_again(
    services: Services, redis_prefix: str
) -> None:
    a = RedisBroadcaster(services.redis, prefix=redis_prefix)
    b = RedisBroadcaster(services.redis, prefix=redis_prefix)
    try:
        async with b.subscribe("table:X") as on_b:
            assert b._writer is not None
            b._writer.transport.abort()  # the connection to Redis breaks
            assert await take(on_b, 1) == [None]  # re-read the table from the database
            await asyncio.wait_for(b.check(), 5)  # connected and subscribed again
            got: list[str | None] = []
            while "after" not in got:
                await a.publish("table:X", "after")
                got += await take(on_b, 1)
            assert set(got) <= {None, "after"}
    finally:
        await a.aclose()
        await b.aclose()


async def test_publishes_not_acknowledged_are_sent_again_after_a_reconnect(
    services: Services, redis_prefix: str
) -> None:
    a = RedisBroadcaster(services.redis, prefix=redis_prefix)
    b = RedisBroadcaster(services.redis, prefix=redis_prefix)
    try:
        async with b.subscribe("table:X") as on_b:
            await a.publish("table:X", "first")
            assert await take(on_b, 1) == ["first"]
            publisher = a._publisher
            assert publisher is not None and publisher._writer is not None
            publisher._writer.transport.abort()
            publisher._writer = None  # as if the break were noticed before the next publish
            for i in range(5):
                await a.publish("table:X", f"m{i}")
            got = await take(on_b, 5, timeout=10)
            assert got == [f"m{i}" for i in range(5)]
    finally:
        await a.aclose()
        await b.aclose()


async def test_without_redis_publishing_still_reaches_this_process_and_check_fails() -> None:
    bus = RedisBroadcaster(f"redis://127.0.0.1:{free_port()}/0")
    try:
        async with bus.subscribe("table:X") as inbox:
            await bus.publish("table:X", "local")  # never raises: the move is already stored
            assert await take(inbox, 1) == ["local"]
        with pytest.raises(OSError):
            await bus.check()
    finally:
        await bus.aclose()


def test_a_wrong_url_is_refused_at_once() -> None:
    with pytest.raises(ValueError, match="redis://"):
        RedisBroadcaster("http://127.0.0.1:6379")

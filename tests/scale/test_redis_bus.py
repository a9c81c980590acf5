"""The Redis broadcaster between two "processes" (two broadcasters with their own connections):
delivery across, order, no echo, resync when the subscriber connection drops, resend of what
the publisher had not had acknowledged, the URL forms (TLS with a CA and a client certificate,
a Unix socket, a password, an ACL user), and a Redis that is not there or a URL that is wrong,
named with its password hidden."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from urllib.parse import quote

import pytest
import redis
import redis.asyncio as aredis

from yacht.web.bus.redis import RedisBroadcaster, RedisURLError

from .redis_servers import PASSWORD, USER, USER_PASSWORD, RedisServer, redis_server
from .servers import free_port
from .services import Services


async def take(inbox: object, n: int, timeout: float = 5.0) -> list[str | None]:
    get = inbox.get  # type: ignore[attr-defined]
    return [await asyncio.wait_for(get(), timeout) for _ in range(n)]


def named(url: str) -> tuple[str, str]:
    """``url`` with a client name of its own (redis-py sends it with CLIENT SETNAME), so a
    test can find that broadcaster's connections in CLIENT LIST; and the name."""
    name = f"yacht-test-{uuid.uuid4().hex[:8]}"
    return f"{url}{'&' if '?' in url else '?'}client_name={name}", name


async def kill(admin: aredis.Redis, name: str, *, subscriber: bool) -> None:
    """Close, from Redis's side, the connection of the broadcaster named ``name`` that is
    (or is not) subscribed."""
    clients = [
        c
        for c in await admin.client_list()
        if c["name"] == name and ("P" in c["flags"]) == subscriber
    ]
    assert len(clients) == 1, clients
    await admin.client_kill_filter(_id=clients[0]["id"])


@pytest.fixture(scope="module")
def own_redis() -> Iterator[RedisServer]:
    """A plain redis-server of this module's own (pausing it disturbs no other test)."""
    with redis_server() as server:
        yield server


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
            assert await take(on_a, 1) == ["last"]
            assert await take(on_b, 1) == ["last"]
            # B heard "last", so Redis sent A's own copy to A before anything B says next:
            # the next thing A hears is B's, its own copy was dropped.
            await b.publish("table:X", "fence")
            assert await take(on_a, 1) == await take(on_b, 1) == ["fence"]
            async with b.subscribe("table:Y") as other:  # another table hears nothing of X
                await a.publish("table:X", "x")
                await a.publish("table:Y", "y")
                assert await take(on_b, 1) == ["x"]
                assert await take(other, 1) == ["y"]
    finally:
        await a.aclose()
        await b.aclose()


async def test_a_dropped_subscriber_resyncs_then_hears_again(
    services: Services, redis_prefix: str
) -> None:
    url, name = named(services.redis)
    a = RedisBroadcaster(services.redis, prefix=redis_prefix)
    b = RedisBroadcaster(url, prefix=redis_prefix)
    admin = aredis.Redis.from_url(services.redis)
    try:
        async with b.subscribe("table:X") as on_b:
            await kill(admin, name, subscriber=True)  # the connection to Redis breaks
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
        await admin.aclose()


async def test_publishes_not_acknowledged_are_sent_again_after_a_reconnect(
    own_redis: RedisServer,
) -> None:
    base = f"redis://:{quote(PASSWORD, safe='')}@127.0.0.1:{own_redis.port}/0"
    url, name = named(base)
    a = RedisBroadcaster(url, prefix="resend:")
    b = RedisBroadcaster(base, prefix="resend:")
    admin = aredis.Redis.from_url(base)
    try:
        async with b.subscribe("table:X") as on_b:
            await a.publish("table:X", "first")
            assert await take(on_b, 1) == ["first"]
            await admin.client_pause(10_000, all=False)  # PUBLISH waits; CLIENT does not
            try:
                for i in range(5):
                    await a.publish("table:X", f"m{i}")
                while not any(  # the first of them written and held by the pause
                    c["name"] == name and "b" in c["flags"] for c in await admin.client_list()
                ):
                    await asyncio.sleep(0.01)
                await kill(admin, name, subscriber=False)  # never carried out, never answered
            finally:
                await admin.client_unpause()
            got = await take(on_b, 5, timeout=10)
            assert got == [f"m{i}" for i in range(5)]  # written again, in order, once
    finally:
        await a.aclose()
        await b.aclose()
        await admin.aclose()


async def test_without_redis_publishing_still_reaches_this_process_and_check_fails() -> None:
    port = free_port()
    bus = RedisBroadcaster(f"redis://:hunter2@127.0.0.1:{port}/0")
    try:
        async with bus.subscribe("table:X") as inbox:
            await bus.publish("table:X", "local")  # never raises: the move is already stored
            assert await take(inbox, 1) == ["local"]
        with pytest.raises(OSError) as failed:
            await bus.check()
        assert f"redis://:***@127.0.0.1:{port}/0" in str(failed.value)
        assert "hunter2" not in str(failed.value)
    finally:
        await bus.aclose()


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://:hunter2@127.0.0.1:6379", "scheme"),
        ("redis://:hunter2@127.0.0.1:6379/0?no_such_option=1", "option"),
        ("rediss://:hunter2@127.0.0.1:6379/0?ssl_ca_certs=/no/such/ca.pem", "file"),
        ("redis://:hunter2@127.0.0.1:6379/0?db=first", "invalid"),
        ("unix://", "invalid"),
    ],
)
def test_a_wrong_url_is_refused_at_once_without_its_password(url: str, why: str) -> None:
    with pytest.raises(RedisURLError) as refused:
        RedisBroadcaster(url)
    assert refused.value.why == why
    assert "hunter2" not in str(refused.value)
    if "hunter2" in url:
        assert ":***@127.0.0.1:6379" in str(refused.value)


async def crosses(url_a: str, url_b: str) -> None:
    """A message published through ``url_a`` reaches a subscriber through ``url_b``."""
    prefix = f"forms-{uuid.uuid4().hex[:8]}:"
    a = RedisBroadcaster(url_a, prefix=prefix)
    b = RedisBroadcaster(url_b, prefix=prefix)
    try:
        await asyncio.wait_for(a.check(), 10)
        async with b.subscribe("table:X") as on_b:
            await a.publish("table:X", "hello", note="n")
            assert await take(on_b, 1) == ["hello"]
    finally:
        await a.aclose()
        await b.aclose()


async def test_a_password_an_acl_user_and_a_unix_socket(own_redis: RedisServer) -> None:
    password = quote(PASSWORD, safe="")
    tcp = f"redis://:{password}@127.0.0.1:{own_redis.port}/0"
    user = f"redis://{USER}:{USER_PASSWORD}@127.0.0.1:{own_redis.port}/0"
    unix = f"unix://{USER}:{USER_PASSWORD}@{own_redis.socket}?db=0"
    await crosses(tcp, user)
    await crosses(unix, tcp)
    for wrong in (
        f"redis://{USER}:wrong-pass@127.0.0.1:{own_redis.port}/0",
        f"redis://127.0.0.1:{own_redis.port}/0",  # no password at all
        f"unix://{USER}:wrong-pass@{own_redis.socket}",
    ):
        bus = RedisBroadcaster(wrong)
        try:
            with pytest.raises(OSError) as refused:
                await bus.check()
            assert "wrong-pass" not in str(refused.value)
            assert "***" in str(refused.value) or "wrong-pass" not in wrong
        finally:
            await bus.aclose()


@pytest.fixture(scope="module")
def tls_redis_asking_for_certificates() -> Iterator[RedisServer]:
    with redis_server(tls="yes") as server:
        yield server


async def test_tls_with_a_ca_file_and_a_client_certificate(
    tls_redis_asking_for_certificates: RedisServer,
) -> None:
    server = tls_redis_asking_for_certificates
    certs = server.certificates
    assert certs is not None
    base = f"rediss://:{quote(PASSWORD, safe='')}@127.0.0.1:{server.tls_port}/0"
    trusted = f"{base}?ssl_ca_certs={certs.ca}"
    client = f"{trusted}&ssl_certfile={certs.client_cert}&ssl_keyfile={certs.client_key}"
    await crosses(client, client)
    for refused_url in (
        base,  # the server's certificate is signed by a CA the system does not know
        trusted,  # this server asks for a client certificate
        f"redis://:{quote(PASSWORD, safe='')}@127.0.0.1:{server.tls_port}/0",  # no TLS at all
    ):
        bus = RedisBroadcaster(refused_url)
        try:
            with pytest.raises(OSError, match=r"rediss?://:\*\*\*@127\.0\.0\.1"):
                await bus.check()
        finally:
            await bus.aclose()


def test_the_test_server_really_wants_its_password(own_redis: RedisServer) -> None:
    with (
        pytest.raises(redis.AuthenticationError),
        redis.Redis(unix_socket_path=str(own_redis.socket)) as anonymous,
    ):
        anonymous.ping()

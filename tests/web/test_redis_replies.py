"""Reading Redis replies in batches (yacht.web.bus.resp.Replies): whatever way the bytes are
cut by the network, the replies come out whole and in order; a connection that closes or
speaks something else ends with ConnectionError."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yacht.web.bus.resp import RedisReplyError, Replies, encode_command

MESSAGES = [[b"message", b"yacht:table:ABC", b"o\n\n" + b"x" * n] for n in (0, 1, 70_000, 5)]
STREAM = b"".join(encode_command(*m) for m in MESSAGES) + b":2\r\n-ERR no\r\n$-1\r\n"
EXPECTED = [*MESSAGES, 2, "ERR no", None]


async def read_all(chunks: list[bytes]) -> list[object]:
    reader = asyncio.StreamReader()
    for chunk in chunks:
        reader.feed_data(chunk)
    reader.feed_eof()
    replies, got = Replies(reader), []
    with pytest.raises(ConnectionError):
        while True:
            got.extend(await replies.next())
    return [str(r) if isinstance(r, RedisReplyError) else r for r in got]


@given(st.lists(st.integers(min_value=0, max_value=len(STREAM)), max_size=12))
def test_replies_come_out_whole_however_the_bytes_are_cut(cuts: list[int]) -> None:
    bounds = [0, *sorted(cuts), len(STREAM)]
    chunks = [STREAM[a:b] for a, b in itertools.pairwise(bounds)]
    assert asyncio.run(read_all(chunks)) == EXPECTED


def test_something_that_is_not_redis_ends_the_connection() -> None:
    async def first() -> object:
        reader = asyncio.StreamReader()
        reader.feed_data(b"HTTP/1.1 200 OK\r\n")
        return await Replies(reader).next()

    with pytest.raises(ConnectionError, match="not the Redis protocol"):
        asyncio.run(first())

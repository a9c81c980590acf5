"""The limits' Redis side: what every process of one server sees alike (``yacht serve --redis``).

Without it each process counts on its own, and N processes behind one proxy give a client N
times its quota. With it:

- the rate buckets of :class:`~yacht.web.edge.limits.ClientLimits` live in Redis, under
  ``yacht:limits:``, kept by the ``limits`` package (its moving window, the same one in memory);
- every process keeps its open connections per client in a hash of its own
  (``yacht:limits:slots:<process>``) that expires after :attr:`SharedLimits.ttl` seconds unless
  the process rewrites it, which it does every third of that while it lives: a killed process
  gives its slots back within ``ttl``;
- every process has an entry in ``yacht:limits:processes`` (a sorted set scored by when it
  expires), which tells each how many processes are alive.

When Redis cannot be reached, nobody is locked out and no limit is lifted: each process falls
back to its share, the quota divided by the processes it last saw alive (at least 1), counted
in its own memory, and tries Redis again every :data:`RETRY` seconds. One log line says so when
Redis goes, one when it is back.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import time
from collections.abc import Callable, Mapping
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import ConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

__all__ = ["RETRY", "TIMEOUT", "TTL", "SharedLimits"]

log = logging.getLogger("yacht.web.edge.limits")

TTL = 30.0  # s a process's entry and slots outlive its last refresh
TIMEOUT = 1.0  # s a call to Redis may take before the process counts on its own
RETRY = 1.0  # s between two tries while Redis cannot be reached
FAILURES = (RedisError, OSError, TimeoutError)

# Register this process (ARGV[1]) until ARGV[2] ms from now, forget the expired, count the live.
_REGISTER = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])
"""

# Take a slot for client ARGV[1] in process ARGV[2] if the live processes' slots, this one's
# included, stay within ARGV[3]; ARGV[4] is the slot hashes' prefix, ARGV[5] their ttl in ms.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mine = ARGV[4] .. ARGV[2]
local total = 1 + tonumber(redis.call('HGET', mine, ARGV[1]) or '0')
for _, p in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf')) do
  if p ~= ARGV[2] then
    total = total + tonumber(redis.call('HGET', ARGV[4] .. p, ARGV[1]) or '0')
  end
end
if total > tonumber(ARGV[3]) then return 0 end
redis.call('HINCRBY', mine, ARGV[1], 1)
redis.call('PEXPIRE', mine, ARGV[5])
return 1
"""

# Give back a slot of client ARGV[1] in the hash KEYS[1].
_GIVE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
"""


class SharedLimits:
    """One process's link to the limits kept in Redis; see the module docstring.

    ``pool`` is a redis-py pool for the server's Redis URL; its connection options are used
    with a :data:`TIMEOUT` of their own and no retries (a limit never makes a request wait
    for Redis longer than that). ``slots`` gives this process's open connections per client
    (rewritten to Redis at every refresh)."""

    def __init__(
        self,
        pool: ConnectionPool,
        *,
        prefix: str = "yacht:limits:",
        ttl: float = TTL,
        slots: Callable[[], Mapping[str, int]] = dict,
    ) -> None:
        options: dict[str, Any] = {
            **pool.connection_kwargs,
            "socket_timeout": TIMEOUT,
            "socket_connect_timeout": TIMEOUT,
            "retry": Retry(NoBackoff(), 0),
        }
        self.pool = ConnectionPool(connection_class=pool.connection_class, **options)
        self.redis = Redis(connection_pool=self.pool)
        self.prefix = prefix
        self.ttl = ttl
        self.slots = slots
        self.name = f"{socket.gethostname()}:{secrets.token_hex(4)}"
        self.processes = 1
        """The live processes (this one included) as last seen in Redis."""
        self.down = False
        self._retry_at = 0.0
        self._register = self.redis.register_script(_REGISTER)
        self._take = self.redis.register_script(_TAKE)
        self._give = self.redis.register_script(_GIVE)
        self._stale = False  # a slot changed here while Redis could not be told
        self._refresher: asyncio.Task[None] | None = None
        self._writes: set[asyncio.Task[Any]] = set()

    @property
    def registry(self) -> str:
        return f"{self.prefix}processes"

    def slot_key(self, name: str | None = None) -> str:
        """The hash of a process's slots (by default this one's)."""
        return f"{self.prefix}slots:{self.name if name is None else name}"

    def share(self, amount: int) -> int:
        """What is left of ``amount`` to this process while Redis cannot be reached."""
        return max(1, amount // max(1, self.processes))

    def usable(self) -> bool:
        """Whether to ask Redis now (not while it has failed within :data:`RETRY` s)."""
        return not self.down or time.monotonic() >= self._retry_at

    def failed(self, error: BaseException) -> None:
        """Redis could not answer: count on this process's share until it can."""
        self._retry_at = time.monotonic() + RETRY
        self._stale = True
        if not self.down:
            self.down = True
            log.warning(
                "Redis cannot be reached (%s): the limits count this process's share, 1/%d",
                type(error).__name__,
                self.processes,
                extra={"processes": self.processes},
            )

    def answered(self) -> None:
        if self.down:
            self.down = False
            log.warning("Redis answers again: the limits are shared again")

    async def call(self, work: Callable[[], Any]) -> Any:
        """``await work()`` within :data:`TIMEOUT`; None when Redis cannot answer."""
        if not self.usable():
            return None
        try:
            result = await asyncio.wait_for(work(), TIMEOUT)
        except FAILURES as e:
            self.failed(e)
            return None
        self.answered()
        return result

    async def take_slot(self, client: str, cap: int) -> bool | None:
        """Take one of ``client``'s slots if its connections to every live process stay
        within ``cap`` (None: Redis cannot tell, nothing taken)."""
        args: list[str | int] = [client, self.name, cap, self.slot_key(""), int(self.ttl * 1000)]
        taken = await self.call(lambda: self._take(keys=[self.registry], args=args))
        return None if taken is None else bool(taken)

    def give_slot(self, client: str) -> None:
        """Give back one of ``client``'s slots, in the background (a write that fails is
        mended by the next refresh)."""
        if not self.usable():
            self._stale = True
            return

        async def write() -> None:
            await self._give(keys=[self.slot_key()], args=[client])

        task = asyncio.get_running_loop().create_task(self.call(write))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def refresh(self) -> None:
        """Register this process again, count the live ones, keep this process's slots (and
        write them whole from its own count after Redis missed a change, or lost them)."""

        async def write() -> int:
            key, ttl = self.slot_key(), int(self.ttl * 1000)
            held = {client: n for client, n in self.slots().items() if n > 0}
            kept = bool(await self.redis.pexpire(key, ttl))
            if self._stale or (held and not kept):
                self._stale = False
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.delete(key)
                    if held:
                        pipe.hset(key, mapping=held)  # type: ignore[arg-type]
                        pipe.pexpire(key, ttl)
                    await pipe.execute()
            count: int = await self._register(keys=[self.registry], args=[self.name, ttl])
            return count

        self._retry_at = 0.0  # the refresh is also how a process finds Redis back
        count = await self.call(write)
        if count is not None:
            self.processes = max(1, int(count))

    async def start(self) -> None:
        """Register now, then refresh every third of :attr:`ttl` (in the running loop)."""
        await self.refresh()
        if self._refresher is None:
            self._refresher = asyncio.get_running_loop().create_task(self._refresh_for_ever())

    async def _refresh_for_ever(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            await self.refresh()

    async def stop(self) -> None:
        """Stop refreshing and leave: this process's entry and slots go at once."""
        if self._refresher is not None:
            self._refresher.cancel()
            await asyncio.gather(self._refresher, return_exceptions=True)
            self._refresher = None
        await asyncio.gather(*self._writes, return_exceptions=True)

        async def leave() -> None:
            await self.redis.zrem(self.registry, self.name)
            await self.redis.delete(self.slot_key())

        if not self.down:
            await self.call(leave)
        await self.redis.aclose()
        await self.pool.disconnect()

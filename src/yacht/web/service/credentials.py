"""The secrets of accounts: argon2id hashing on a small bounded pool of threads, recovery codes
and the seat tokens an account derives.

Passwords and recovery codes are hashed with argon2id (``argon2-cffi``) in the parameters of
RFC 9106's second recommended option, the "low-memory" profile (``argon2.profiles.
RFC_9106_LOW_MEMORY``: 64 MiB, 3 passes, 4 lanes; the library's defaults too): the first
option's 2 GiB per hash is more than a small game server can give each sign-in. :class:`Hashing`
runs them on a few worker threads with a bounded queue: a flood of sign-ins is refused, it does
not stall the event loop that carries the moves (argon2 releases the GIL).
"""

from __future__ import annotations

import asyncio
import base64
import hmac
import os
import re
import secrets
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.profiles import RFC_9106_LOW_MEMORY

__all__ = [
    "WAITING",
    "WORKERS",
    "Hashing",
    "new_recovery_code",
    "password_form",
    "recovery_key",
    "seat_token",
]

T = TypeVar("T")

RECOVERY_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ0123456789"  # Crockford's: no I, L, O, U
RECOVERY_GROUPS = 4  # of 5 characters: 20 x 5 bits = 100 bits
WORKERS = max(1, (os.cpu_count() or 2) // 2)
"""Threads that hash at once: half the cores, so the moves keep the rest."""
WAITING = 8 * WORKERS
"""Hashes that may wait for a thread; one more is refused (``busy``)."""


def seat_token(seat_key: str, code: str, position: int) -> str:
    """The token of seat ``position`` at table ``code`` for the account whose key is
    ``seat_key``: the same on every device the account signs in on, so the seat follows it.

    >>> seat_token("00" * 32, "K9PWT5", 0) == seat_token("00" * 32, "K9PWT5", 0)
    True
    >>> seat_token("00" * 32, "K9PWT5", 0) == seat_token("00" * 32, "K9PWT5", 1)
    False
    """
    mac = hmac.new(bytes.fromhex(seat_key), f"yacht-seat\n{code}\n{position}".encode(), "sha256")
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def new_recovery_code() -> str:
    """A one-time recovery code: 100 random bits in four groups (``7KQ2M-...``)."""
    chars = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(5 * RECOVERY_GROUPS))
    return "-".join(chars[i : i + 5] for i in range(0, len(chars), 5))


def recovery_key(code: str) -> str:
    """A recovery code as it is hashed: case, spaces and dashes do not count.

    >>> recovery_key(" 7kq2m-abcde ") == recovery_key("7KQ2MABCDE")
    True
    """
    return re.sub(r"[\s-]", "", code).upper()


def password_form(text: str) -> str:
    """A password as it is hashed: NFKC, so that one typed on another keyboard matches."""
    return unicodedata.normalize("NFKC", text)


class Hashing:
    """argon2id hashing and verifying on a few worker threads with a bounded queue.

    ``hasher``: the ``argon2.PasswordHasher`` (tests give a cheap one and count its calls);
    ``busy``: the exception raised when ``workers + waiting`` hashes are under way already.
    """

    def __init__(
        self,
        busy: Callable[[], Exception],
        hasher: PasswordHasher | None = None,
        workers: int = WORKERS,
        waiting: int = WAITING,
    ) -> None:
        self.busy_error = busy
        self.hasher = hasher or PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)
        self.workers = workers
        self.slots = workers + waiting
        self.busy = 0
        self._pool: ThreadPoolExecutor | None = None

    async def _run(self, work: Callable[..., T], *args: Any) -> T:
        if self.busy >= self.slots:
            raise self.busy_error()
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="yacht-argon2")
        self.busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)
        finally:
            self.busy -= 1

    async def hash(self, secret: str) -> str:
        return await self._run(self.hasher.hash, secret)

    async def verify(self, stored: str | None, secret: str) -> bool:
        """Whether ``secret`` is the one ``stored`` hashes; exactly one argon2 verify either
        way (against :meth:`dummy` when ``stored`` is None, which is then False)."""
        matched = await self._run(self._check, stored or self.dummy(), secret)
        return matched and stored is not None

    def _check(self, stored: str, secret: str) -> bool:
        try:
            return bool(self.hasher.verify(stored, secret))
        except (VerificationError, InvalidHashError):
            return False

    def dummy(self) -> str:
        """A hash of no secret, with the hasher's own parameters: verifying against it costs
        what verifying against a real one does, and never succeeds."""
        h = self.hasher

        def b64(data: bytes) -> str:
            return base64.b64encode(data).rstrip(b"=").decode()

        salt, digest = os.urandom(h.salt_len), os.urandom(h.hash_len)
        params = f"m={h.memory_cost},t={h.time_cost},p={h.parallelism}"
        return f"$argon2id$v=19${params}${b64(salt)}${b64(digest)}"

    def needs_rehash(self, stored: str) -> bool:
        return bool(self.hasher.check_needs_rehash(stored))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

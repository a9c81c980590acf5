"""Accounts, optional: sign up, sign in and out, change or recover a password, delete the
account, export its data; and the :data:`Player` every request is made by (an :class:`Account`
or the :data:`GUEST`), resolved once by the API's dependency from the session cookie.

Passwords and recovery codes are hashed with argon2id on a small bounded pool of threads
(:mod:`yacht.web.service.credentials`: a flood of sign-ins is refused with ``busy``, it does not
stall the event loop that carries the moves).

Every sign-in attempt does exactly one argon2 verify, whether the name is an account's or not:
an unknown or deleted name is verified against a dummy hash of the same parameters, and the
answer is the same ``unauthorized`` refusal, byte for byte.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.profiles import RFC_9106_LOW_MEMORY
from sqlalchemy import Engine

from yacht.errors import N_, YachtError
from yacht.game import Game
from yacht.web.edge.limits import ClientLimits
from yacht.web.protocol.errors import ErrorCode, TableError
from yacht.web.protocol.names import check_name, skeleton
from yacht.web.service import bots
from yacht.web.service.credentials import (
    Hashing,
    new_recovery_code,
    password_form,
    recovery_key,
)
from yacht.web.service.state import public_game_json
from yacht.web.settings import Settings
from yacht.web.storage.accounts import (
    DELETED_NAME,
    AccountStore,
    NameTakenError,
    SignedIn,
    account_by_id,
    account_by_skeleton,
    close_session,
    create_account,
    delete_account,
    exported,
    open_session,
    replace_password,
    reset_by_operator,
    session_of,
    touch_session,
)
from yacht.web.storage.models import AccountRow
from yacht.web.storage.store import DAMAGE, Store

__all__ = [
    "GUEST",
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "RESERVED",
    "Account",
    "AccountError",
    "AccountService",
    "Guest",
    "Player",
    "account_key",
    "account_name",
    "operator_reset",
    "refusal",
]

T = TypeVar("T")

MIN_PASSWORD = 8
MAX_PASSWORD = 128
"""Characters of a password (NIST SP 800-63B: at least 8, and at least 64 allowed)."""

RESERVED = (
    "admin",
    "administrator",
    "yacht",
    "system",
    DELETED_NAME,
    "guest",
    "moderator",
)
"""Names no account may take (nor any name that looks like one), besides the bots' names."""

MARKUP = frozenset("<>&\"'`/\\@")
"""Characters an account's name may not hold (on top of the name rule): it goes into pages,
addresses (``/@/name``) and mentions, where each of these means something."""

TOUCH_EVERY = 3600.0
"""Seconds between two writes of a session's ``last_seen`` (not one write per request)."""


class AccountError(
    YachtError,
    ValueError,
    messages={
        "signin_failed": N_("wrong name or password"),
        "recovery_failed": N_("wrong name or recovery code"),
        "wrong_password": N_("wrong password"),
        "not_signed_in": N_("sign in first"),
        "csrf": N_(
            "this change needs your session's security token: reload the page and try again"
        ),
        "name_taken": N_("the name {name} is taken, or looks like a name that is"),
        "name_reserved": N_("the name {name} is reserved"),
        "name_markup": N_("an account's name cannot contain the character {char}"),
        "name_held": N_("the name {name} looks like the name of an account: sign in to use it"),
        "hashing_busy": N_("too many sign-ins at once: try again in a moment"),
        "rated_signed_in": N_("a rated table is for signed-in players: sign in first"),
        "rated_people": N_("a rated table has 2 to 6 seats, all for people"),
    },
):
    """Why an account request was refused (the message the player reads, in their language)."""


def refusal(code: ErrorCode, why: str, **params: Any) -> TableError:
    """The API's refusal ``code`` carrying the account error ``why`` (its text translated)."""
    cause = AccountError(why, **params)
    return TableError(code, str(cause), cause)


@dataclass(frozen=True)
class Account:
    """A signed-in player, as resolved for one request: the account and the session."""

    id: int
    name: str
    created_at: datetime
    session: str  # the SHA-256 of the session id
    csrf_token: str
    seat_key: str


@dataclass(frozen=True)
class Guest:
    """A player without an account (or not signed in): plays exactly as before accounts."""


GUEST = Guest()
Player = Account | Guest
"""Who makes a request: an account's session, or a guest."""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def account_key(name: str) -> str:
    """What an account's name looks like, whatever its case: the confusable skeleton of the
    case-folded name (as Unicode TR39 does for a comparison that ignores case), so that
    ``ADMIN``, ``admin`` and ``\u0430dmin`` (a Cyrillic a) are one name. (The skeleton alone
    folds case between its two mappings and maps a capital I to l: ``ADMIN`` would not be
    ``admin``.)

    >>> account_key("ADMIN") == account_key("admin") == account_key("\u0430dmin")
    True
    >>> account_key("\uff21\uff4e\uff4e") == account_key("ann")
    True
    """
    return skeleton(name.casefold())


@functools.cache
def _reserved() -> frozenset[str]:
    names = [*RESERVED]
    for level in bots.bot_levels():
        names += [level, bots.bot_name(level)]
    return frozenset(account_key(n) for n in names)


def account_name(value: str) -> str:
    """``value`` as an account's name: the name rule, no markup characters, not reserved
    (the bots' names and :data:`RESERVED`, or a name that looks like one); else
    :class:`~yacht.web.protocol.errors.TableError`.

    >>> account_name(" Ann ")
    'Ann'
    >>> account_name("ADMIN")
    Traceback (most recent call last):
    ...
    yacht.web.protocol.errors.TableError: the name 'ADMIN' is reserved
    """
    try:
        name = check_name(value)
    except ValueError as e:
        raise TableError("invalid", str(e)) from None
    bad = next((c for c in name if c in MARKUP), None)
    if bad is not None:
        raise refusal("invalid", "name_markup", char=repr(bad))
    bare = re.sub(r"\s+\d+$", "", name)  # "Medium bot 2" is the bot's name too
    if account_key(name) in _reserved() or account_key(bare) in _reserved():
        raise refusal("name_taken", "name_reserved", name=repr(name))
    return name


@dataclass(frozen=True)
class Opened:
    """A new session for a browser: the account, and the session id for its cookie (the only
    place the id is ever kept); ``recovery_code`` when one was just made (shown once)."""

    account: Account
    session_id: str
    recovery_code: str | None = None


class AccountService:
    """Everything an account can do (see the module docstring). ``limits``: the server's
    per-client limits (sign-in attempts per client and per (name, client), sign-ups)."""

    def __init__(
        self, store: Store, settings: Settings, limits: ClientLimits, hashing: Hashing | None = None
    ) -> None:
        self.store = AccountStore(store.engine, store.guarded)
        self.settings = settings
        self.limits = limits
        self.hashing = hashing or Hashing(lambda: refusal("busy", "hashing_busy"))
        self.clock: Callable[[], float] = time.time

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    def _expired_before(self) -> datetime:
        return self._now() - timedelta(days=self.settings.session_days)

    def _account(self, row: AccountRow, session: str, csrf: str) -> Account:
        assert row.seat_key is not None  # a live account has one
        return Account(row.id, row.name, row.created_at, session, csrf, row.seat_key)

    async def _open(self, row: AccountRow, replaces: str | None = None) -> Opened:
        """A new session of ``row``'s account (the browser's old one, if any, deleted)."""
        session_id = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        stored = await self.store.run(
            open_session,
            _digest(session_id),
            row.id,
            csrf,
            self._now(),
            self._expired_before(),
            replaces=None if replaces is None else _digest(replaces),
        )
        return Opened(self._account(row, stored.id_hash, csrf), session_id)

    # --- who is asking -------------------------------------------------------------------

    async def session(self, session_id: str) -> Account | None:
        """The account signed in with ``session_id`` (from the cookie); None when no live
        session has it. Its ``last_seen`` is written at most every :data:`TOUCH_EVERY` s."""
        if not session_id or len(session_id) > 100:
            return None
        id_hash = _digest(session_id)
        found: SignedIn | None = await self.store.run(session_of, id_hash, self._expired_before())
        if found is None:
            return None
        now = self._now()
        if (now - found.session.last_seen).total_seconds() > TOUCH_EVERY:
            await self.store.run(touch_session, id_hash, now)
        return self._account(found.account, id_hash, found.session.csrf_token)

    async def name_holder(self, name: str) -> str | None:
        """The name of the account (live or deleted) whose name looks like ``name``."""
        try:
            key = account_key(check_name(name))
        except ValueError:
            return None
        found = await self.store.run(account_by_skeleton, key)
        return None if found is None else found.name

    # --- signing up, in and out ----------------------------------------------------------

    async def sign_up(self, name: str, password: str, client: str | None) -> Opened:
        """A new account, signed in; the recovery code is in the answer, once."""
        name = account_name(name)
        await self.limits.take("signup", client)
        key = account_key(name)
        if await self.store.run(account_by_skeleton, key) is not None:
            raise refusal("name_taken", "name_taken", name=repr(name))
        code = new_recovery_code()
        password_hash = await self.hashing.hash(password_form(password))
        recovery_hash = await self.hashing.hash(recovery_key(code))
        try:
            row = await self.store.run(
                create_account,
                name,
                key,
                password_hash,
                recovery_hash,
                secrets.token_hex(32),
                self._now(),
            )
        except NameTakenError:  # taken while this one was hashing
            raise refusal("name_taken", "name_taken", name=repr(name)) from None
        opened = await self._open(row)
        return Opened(opened.account, opened.session_id, code)

    async def _attempt(self, name: str, client: str | None) -> AccountRow | None:
        """Spend one sign-in attempt of ``client`` and of (``name``, ``client``), and find the
        live account with that name (None: none; the caller verifies against the dummy)."""
        try:
            key = account_key(check_name(name))
        except ValueError:
            key = ""  # no account has it: the attempt still costs one verify
        await self.limits.take("signin", client)
        await self.limits.take("signin_name", f"{client}|{_digest(key)[:32]}")
        found = await self.store.run(account_by_skeleton, key) if key else None
        if found is None or found.deleted_at is not None:
            return None
        return found

    async def sign_in(
        self, name: str, password: str, client: str | None, replaces: str | None = None
    ) -> Opened:
        """A new session for the account whose name looks like ``name``, if ``password`` is
        its password: exactly one verify, and one refusal whatever was wrong. ``replaces``:
        the browser's old session id, ended (the id always changes at a sign-in)."""
        found = await self._attempt(name, client)
        stored = found.password_hash if found is not None else None
        if not await self.hashing.verify(stored, password_form(password)) or found is None:
            raise refusal("unauthorized", "signin_failed")
        assert stored is not None
        if self.hashing.needs_rehash(stored):
            rehashed = await self.hashing.hash(password_form(password))
            await self.store.run(replace_password, found.id, password_hash=rehashed)
        return await self._open(found, replaces)

    async def sign_out(self, account: Account) -> None:
        await self.store.run(close_session, account.session)

    # --- passwords -----------------------------------------------------------------------

    async def _check_password(self, account: Account, password: str, client: str | None) -> None:
        await self.limits.take("signin", client)
        row = await self.store.run(account_by_id, account.id)
        stored = row.password_hash if row is not None and row.deleted_at is None else None
        if not await self.hashing.verify(stored, password_form(password)):
            raise refusal("unauthorized", "wrong_password")

    async def change_password(
        self, account: Account, old: str, new: str, client: str | None
    ) -> Opened:
        """A new password, given the old one; every session of the account ends, and this
        browser gets a new one."""
        await self._check_password(account, old, client)
        new_hash = await self.hashing.hash(password_form(new))
        await self.store.run(replace_password, account.id, password_hash=new_hash)
        row = await self.store.run(account_by_id, account.id)
        assert row is not None
        return await self._open(row)

    async def recover(self, name: str, code: str, new: str, client: str | None) -> Opened:
        """A new password, given the recovery code (one verify, as a sign-in); the code is
        spent: the answer holds a new one. Every session of the account ends, this browser
        gets a new one."""
        found = await self._attempt(name, client)
        stored = found.recovery_hash if found is not None else None
        if not await self.hashing.verify(stored, recovery_key(code)) or found is None:
            raise refusal("unauthorized", "recovery_failed")
        fresh = new_recovery_code()
        new_hash = await self.hashing.hash(password_form(new))
        recovery_hash = await self.hashing.hash(recovery_key(fresh))
        await self.store.run(
            replace_password, found.id, password_hash=new_hash, recovery_hash=recovery_hash
        )
        opened = await self._open(found)
        return Opened(opened.account, opened.session_id, fresh)

    # --- leaving, and one's data -----------------------------------------------------------

    async def delete(self, account: Account, password: str, client: str | None) -> list[str]:
        """Delete the account, given its password; returns the codes of the tables whose
        seats it held (their players now read :data:`DELETED_NAME`)."""
        await self._check_password(account, password, client)
        return await self.store.run(delete_account, account.id, self._now())

    async def export(self, account: Account) -> dict[str, Any]:
        """Everything stored about the account, as one JSON document."""
        found = await self.store.run(exported, account.id)
        if found is None:
            raise refusal("unauthorized", "not_signed_in")
        games = []
        for row, table, seats in found.games:
            try:
                file = (
                    public_game_json(row, table, Game.from_json(row.state)) if row.state else None
                )
            except DAMAGE:
                file = None
            games.append(
                {
                    "id": row.id,
                    "table": table.code,
                    "number": row.number,
                    "status": row.status,
                    "seats": list(seats),
                    "created_at": _iso(row.created_at),
                    "finished_at": _iso(row.finished_at),
                    "file": file,
                }
            )
        return {
            "format": "yacht-account",
            "version": 1,
            "exported_at": _iso(self._now()),
            "account": {"name": found.account.name, "created_at": _iso(found.account.created_at)},
            "sessions": [
                {
                    "created_at": _iso(s.created_at),
                    "last_seen": _iso(s.last_seen),
                    "this_browser": s.id_hash == account.session,
                }
                for s in found.sessions
            ],
            "seats": [
                {
                    "table": s.table_code,
                    "seat": s.position,
                    "name": s.name,
                    "kind": s.kind,
                    "claimed_at": _iso(s.claimed_at),
                }
                for s in found.seats
            ],
            "games": games,
            "offline_games": [
                {
                    "id": g.client_id,
                    "record": g.id,
                    "seat": g.seat,
                    "total": g.total,
                    "rank": g.rank,
                    "finished_at": _iso(g.finished_at),
                    "synced_at": _iso(g.synced_at),
                    **g.record,
                }
                for g in found.offline
            ],
        }

    def close(self) -> None:
        self.hashing.close()


def operator_reset(engine: Engine, name: str) -> tuple[str, str] | None:
    """``yacht admin reset-password NAME``: the live account named like ``name`` loses its
    password and its sessions and gets a new recovery code; returns the account's name and
    the code (to give the player, who sets a new password with it), or None when there is no
    such account. ValueError when ``name`` breaks the name rule."""
    code = new_recovery_code()
    hashed = PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY).hash(recovery_key(code))
    found = reset_by_operator(engine, account_key(check_name(name)), hashed)
    return None if found is None else (found.name, code)


def _iso(when: datetime | None) -> str | None:
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.isoformat()

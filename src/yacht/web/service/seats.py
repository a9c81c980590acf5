"""A signed-in player's seats: their tokens on any device (the seat follows the account), and a
guest's seats claimed for an account once its browser signs in.

A seat an account holds records the account and the hash of the account's own token for it
(:func:`~yacht.web.service.accounts.seat_token`, derived from the account's seat key, the
table and the seat), so the server can give that token again to any browser signed in as the
account; the token the joining browser got keeps working beside it.
"""

from __future__ import annotations

from collections.abc import Mapping

from yacht.game import Game
from yacht.web.protocol.errors import TableError
from yacht.web.service import decisions
from yacht.web.service.accounts import Account
from yacht.web.service.credentials import seat_token
from yacht.web.service.decisions import hash_token
from yacht.web.service.tables import TableService
from yacht.web.storage.changes import Change
from yacht.web.storage.store import TableSnapshot

__all__ = ["MAX_CLAIMS", "claim", "mine"]

MAX_CLAIMS = 50
"""Tables one claim may name (a browser keeps the tokens of its recent tables)."""

PASSED_OVER = frozenset({"bad_token", "not_found", "invalid", "spectator"})
"""Refusals that leave a claimed table out of the answer rather than fail the claim."""


def _held(snap: TableSnapshot, account: Account, among: Mapping[int, str] | None) -> dict[int, str]:
    code = snap.table.code
    return {
        s.position: seat_token(account.seat_key, code, s.position)
        for s in snap.seats
        if s.account_id == account.id and (among is None or s.position in among)
    }


async def mine(
    service: TableService, code: str, account: Account, client: str | None
) -> dict[int, str]:
    """The tokens of the seats ``account`` holds at the table: the invite link opened signed in
    on another device opens the player's own seat. An unknown code counts as a guess, as
    :meth:`TableService.lookup` counts it (``rate_limited`` after too many)."""
    await service.limits.check("guess", client)
    try:
        snap, _ = await service.load(code)
    except TableError as e:
        if e.code == "not_found":
            await service.limits.take("guess", client)
        raise
    return _held(snap, account, None)


async def claim(
    service: TableService, account: Account, tokens: Mapping[str, Mapping[int, str]]
) -> dict[str, dict[int, str]]:
    """The seats whose tokens a guest's browser holds (table code -> seat -> token) become
    ``account``'s, one change per table: a wrong token, a table that is gone or a seat another
    account holds is passed over. Returns, per table, the account's token of each of those
    seats it holds now."""
    if len(tokens) > MAX_CLAIMS:
        raise TableError("invalid", f"at most {MAX_CLAIMS} tables in one claim")
    out: dict[str, dict[int, str]] = {}
    for code in sorted({c.upper() for c in tokens}):
        given = {k: v for c, seats in tokens.items() if c.upper() == code for k, v in seats.items()}
        hashes = {seat: hash_token(seat_token(account.seat_key, code, seat)) for seat in given}

        def decide(
            snap: TableSnapshot,
            game: Game | None,
            given: Mapping[int, str] = given,
            hashes: Mapping[int, str] = hashes,
        ) -> Change:
            return decisions.claim(snap, game, given, account.id, hashes)

        try:
            await service.change(code, decide)
        except TableError as e:
            if e.code not in PASSED_OVER:
                raise
        try:
            snap, _ = await service.load(code)
        except TableError:
            continue
        held = _held(snap, account, given)
        if held:
            out[code] = held
    return out

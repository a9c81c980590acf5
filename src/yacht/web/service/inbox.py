"""The inbox: every correspondence game waiting on a player, on all of an account's devices
(the seats the account holds) and a guest's (the seats whose tokens the browser holds).

Two set-based queries give every row (:func:`yacht.web.storage.inbox.waiting_on`: the indexed
``seats.deadline`` joined with the tables and the games' stored summaries, then the seats'
names); no game is replayed or kept in the process's snapshot cache for it. Only a game whose
summary an older server left behind (written before migration 0013, or by a process not yet
redeployed) is read and replayed, and not kept.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping

from yacht.rules import CATEGORIES
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.inbox import Inbox, InboxEntry, InboxScore
from yacht.web.service.accounts import Account
from yacht.web.service.credentials import seat_token
from yacht.web.service.decisions import hash_token
from yacht.web.service.seats import MAX_CLAIMS
from yacht.web.service.tables import TableService
from yacht.web.storage.inbox import Waiting
from yacht.web.storage.snapshots import decoded
from yacht.web.storage.store import DAMAGE

__all__ = ["inbox"]


async def inbox(
    service: TableService, account: Account | None, tokens: Mapping[str, Mapping[int, str]]
) -> Inbox:
    """The games waiting on ``account`` (None: a guest) or on the seats ``tokens`` (table code
    -> seat -> token) hold; a wrong token is passed over, as if not given. Soonest deadline
    first: the move that runs out first is the one to make first."""
    if len(tokens) > MAX_CLAIMS:
        raise TableError("invalid", f"at most {MAX_CLAIMS} tables in one inbox")
    given = {
        (code.upper(), seat): token
        for code, seats in tokens.items()
        for seat, token in seats.items()
    }
    me = None if account is None else account.id
    rows = await service.store.awaiting_on(me, list(given))
    moment = service.clock()
    games = []
    for row in rows:
        mine = me is not None and row.holder == me
        if not mine and not _holds(given.get((row.code, row.seat)), *row.hashes):
            continue
        summed = await _summed(service, row)
        if summed is None:  # deleted or over since
            continue
        round_, totals = summed
        games.append(
            InboxEntry(
                code=row.code,
                seat=row.seat,
                token=seat_token(account.seat_key, row.code, row.seat)
                if mine and account
                else None,
                preset=row.preset,
                rated=row.rated,
                opponents=[name or "" for i, name in enumerate(row.names) if i != row.seat],
                round=round_,
                rounds=len(CATEGORIES),
                scores=[
                    InboxScore(seat=i, name=name, total=totals[i] if i < len(totals) else 0)
                    for i, name in enumerate(row.names)
                ],
                deadline=row.deadline,
                seconds_left=max(0.0, row.deadline - moment),
                move_days=row.move_days,
            )
        )
    return Inbox(count=len(games), games=games)


async def _summed(service: TableService, row: Waiting) -> tuple[int, list[int]] | None:
    """The game's round and totals: from its stored summary, else (a row an older server
    wrote) from the game itself, this process's entry if it has one, else read and replayed
    here and not kept (a dormant game does not enter the snapshot cache)."""
    if row.round is not None and row.totals is not None:
        return row.round, row.totals
    entry = service.cached(row.code)
    if entry is None:
        snap = await service.store.aload(row.code)
        if snap is None:
            return None
        try:
            entry = snap, decoded(snap)
        except DAMAGE:
            return None
    snap, game = entry
    if game is None or game.finished or snap.table.move_days is None:
        return None
    return game.round, game.totals


def _holds(token: str | None, *hashes: str | None) -> bool:
    if not token:
        return False
    given = hash_token(token)
    return sum(hmac.compare_digest(h, given) for h in hashes if h is not None) > 0

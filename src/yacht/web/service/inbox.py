"""The inbox: every correspondence game waiting on a player, on all of an account's devices
(the seats the account holds) and a guest's (the seats whose tokens the browser holds).

It reads the indexed ``seats.deadline`` (one query), then each game as this process knows it
(:meth:`~yacht.web.service.tables.TableService.latest`) for its round and scores.
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
    for code, seat, deadline, holder, token_hash, account_hash in rows:
        token = given.get((code, seat))
        mine = me is not None and holder == me
        if not mine and not _holds(token, token_hash, account_hash):
            continue
        try:
            snap, game = await service.latest(code)
        except TableError:  # deleted since
            continue
        if game is None or game.finished or snap.table.move_days is None:
            continue
        totals = game.totals
        games.append(
            InboxEntry(
                code=code,
                seat=seat,
                token=seat_token(account.seat_key, code, seat) if mine and account else None,
                preset=snap.table.preset,
                rated=bool(snap.table.rated),
                opponents=[s.name or "" for s in snap.seats if s.position != seat],
                round=game.round,
                rounds=len(CATEGORIES),
                scores=[
                    InboxScore(seat=s.position, name=s.name, total=totals[s.position])
                    for s in snap.seats
                ],
                deadline=deadline,
                seconds_left=max(0.0, deadline - moment),
                move_days=snap.table.move_days,
            )
        )
    return Inbox(count=len(games), games=games)


def _holds(token: str | None, *hashes: str | None) -> bool:
    if not token:
        return False
    given = hash_token(token)
    return sum(hmac.compare_digest(h, given) for h in hashes if h is not None) > 0

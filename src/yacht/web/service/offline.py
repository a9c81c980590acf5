"""Offline games into a signed-in player's history (docs/web/offline.md, *Sync*).

The ``/play`` page plays with no server and keeps each finished game; once the network is
back and the player is signed in, it sends the games here. A client wrote them, so the server
believes nothing it cannot check: :func:`replay` plays every action again with the engine,
the dice dealt from the game's seed under fair dice rule 3 (:class:`~yacht.dice.PlacedDice`,
key ``offline``, as the page deals them), and refuses a game whose moves are illegal, whose
rolls show other dice than the seed deals, that does not end, whose totals are not the
engine's, whose seat is a bot's, or that ends in the future or before the account was made.

What it cannot check is that the page drew its seed before the game rather than after many
tries, so an offline game proves little about its player: it is stored as a record marked
offline, listed on the profile, and never rated or counted in the best score, the averages,
the skill figure or a leaderboard (it never reaches ``player_games``, ``player_stats`` or
``ratings``).

>>> from datetime import UTC, datetime
>>> game = OfflineGame(id="g1", preset="traditional", seed="00" * 32, players=["human"],
...     seat=0, moves=[], totals=[0], finished_at=datetime(2027, 1, 1, tzinfo=UTC))
>>> replay(game, datetime(2027, 1, 2, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))
Traceback (most recent call last):
...
yacht.web.service.offline.Refused: the game is not over after its 0 moves
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from yacht.actions import Action, GameError, Roll, Undo
from yacht.dice import PlacedDice
from yacht.game import Game
from yacht.rules import Category, RulesError, rules_by_name
from yacht.web.protocol.offline import OfflineGame, Synced, SyncedGame
from yacht.web.service.accounts import Account
from yacht.web.service.ratings import ranks_from_totals
from yacht.web.storage.accounts import AccountStore
from yacht.web.storage.offline import store_games

__all__ = ["KEY", "SKEW", "OfflineService", "Refused", "Replayed", "replay"]

KEY = "offline"
"""The dice key the page deals with (``offline-game.js``)."""

SKEW = timedelta(minutes=10)
"""How far ahead of the server's clock a device's clock may be."""


class Refused(ValueError):
    """An offline game that is not a real game of the engine: the message says why."""


@dataclass(frozen=True)
class Replayed:
    """A game the engine replayed: the row to store (without the account)."""

    row: dict[str, Any]


def replay(game: OfflineGame, now: datetime, since: datetime) -> Replayed:
    """Replay ``game`` with the engine; :class:`Refused` when it is not a real game, ended
    after ``now`` (give or take :data:`SKEW`) or before ``since`` (the account's making)."""
    finished = game.finished_at.astimezone(UTC)
    if finished > now + SKEW:
        raise Refused(f"the game ends in the future ({finished.isoformat()})")
    if finished < since - timedelta(days=1):
        raise Refused("the game ends before the account was made")
    try:
        rules = rules_by_name(game.preset)
    except RulesError as e:
        raise Refused(str(e)) from None
    if game.seat >= len(game.players) or game.players[game.seat] != "human":
        raise Refused(f"seat {game.seat + 1} is not a person's")
    names = [f"seat {i + 1}" for i in range(len(game.players))]
    engine = Game(names, rules, PlacedDice(game.seed, key=KEY), start="seat")
    for n, move in enumerate(game.moves, 1):
        try:
            action = Action.parse(move.action)
            if isinstance(action, Undo):
                raise Refused(f"move {n}: an offline game has no undo")
            if isinstance(action, Roll) != (move.dice is not None):
                raise Refused(f"move {n}: a roll, and only a roll, shows its dice")
            event = engine.apply(action)
        except GameError as e:
            raise Refused(f"move {n}: {e}") from None
        if move.dice is not None and list(event.dice or ()) != move.dice:
            raise Refused(f"move {n}: the dice {move.dice} are not the ones the seed deals")
    if not engine.finished:
        raise Refused(f"the game is not over after its {len(game.moves)} moves")
    totals = engine.totals
    if list(game.totals) != totals:
        raise Refused(f"the totals {game.totals} are not the game's {totals}")
    ranks = ranks_from_totals(totals)
    record = game.model_dump(mode="json", exclude={"id", "finished_at"}, exclude_none=True)
    return Replayed(
        {
            "client_id": game.id,
            "preset": rules.name,
            "players": len(game.players),
            "seat": game.seat,
            "total": totals[game.seat],
            "rank": ranks[game.seat],
            "yachts": int(engine.sheet(game.seat).get(Category.YACHT, 0) > 0),
            "record": record,
            "finished_at": finished,
            "synced_at": now,
        }
    )


class OfflineService:
    """Stores a signed-in player's offline games (see the module docstring)."""

    def __init__(self, store: AccountStore, clock: Any) -> None:
        self.store = store
        self.clock = clock

    async def sync(self, account: Account, games: list[OfflineGame]) -> Synced:
        """Each game replayed and stored once; the answer says, game by game, stored now,
        stored before (the same record), or refused and why."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        checked = await asyncio.to_thread(_check_all, games, now, account.created_at)
        rows = [c.row for c in checked if isinstance(c, Replayed)]
        stored = iter(await self.store.run(store_games, account.id, rows) if rows else [])
        out = []
        for game, c in zip(games, checked, strict=True):
            if isinstance(c, Refused):
                out.append(SyncedGame(id=game.id, status="refused", record=None, reason=str(c)))
                continue
            status, record = next(stored)
            reason = "too many offline games in one day" if status == "refused" else None
            out.append(SyncedGame(id=game.id, status=status, record=record, reason=reason))
        return Synced(games=out)


def _check_all(
    games: list[OfflineGame], now: datetime, since: datetime
) -> list[Replayed | Refused]:
    out: list[Replayed | Refused] = []
    for game in games:
        try:
            out.append(replay(game, now, since))
        except Refused as e:
            out.append(e)
    return out

"""In-game requests: actions, hints, handing a seat to a bot, rematches.

Every check happens before the engine is touched, in the order a player would ask about:
is there such a table and seat, is this your seat (token), is the game on, is the action
decided on the current version, is it your turn, and finally do the rules allow it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from yacht.actions import Action, GameError
from yacht.dice import FairDice
from yacht.game import Game
from yacht.web import players
from yacht.web.models import GameRow
from yacht.web.schemas import (
    ActionMessage,
    HandToBotMessage,
    HintMessage,
    HintOption,
    HintReply,
    RematchMessage,
)
from yacht.web.store import TableSnapshot, now
from yacht.web.tables import Change, TableError, TableService, engine_error

__all__ = ["GameService"]


def _playing(snap: TableSnapshot, game: Game | None, number: int | None = None) -> Game:
    if number is not None and number != snap.game.number:
        raise TableError(
            "stale_version",
            f"game {number} is not the table's current game ({snap.game.number})",
        )
    if game is None:
        raise TableError("not_started", "the game starts when every seat is taken")
    if game.finished:
        raise TableError("game_over", f"game {snap.game.number} is over")
    return game


class GameService(TableService):
    """The table service plus everything that happens during a game."""

    async def act(self, code: str, msg: ActionMessage) -> dict[str, Any]:
        """A player's action, checked in full; see the module docstring for the order."""

        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            self.check_token(snap, msg.seat, msg.token)
            return self._apply(snap, game, msg.seat, msg.game, msg.version, msg.action.to_action())

        return await self.change(code, decide)

    async def act_for(
        self, code: str, seat: int, number: int, version: int, action: Action
    ) -> None:
        """An action the server takes for a seat (a bot, or a turn that timed out)."""

        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            return self._apply(snap, game, seat, number, version, action)

        await self.change(code, decide)

    def _apply(
        self,
        snap: TableSnapshot,
        game: Game | None,
        seat: int,
        number: int,
        version: int,
        action: Action,
    ) -> Change:
        game = _playing(snap, game, number)
        if version != game.version:
            raise TableError(
                "stale_version",
                f"the action was made on version {version}, the game is at {game.version}",
            )
        if seat != game.current:
            raise TableError(
                "not_your_turn", f"it is {game.current_name}'s turn (seat {game.current + 1})"
            )
        try:
            event = game.apply(action, player=seat)
        except GameError as e:
            raise engine_error(e) from None
        new_turn = event.points is not None
        return Change(game=self._game_columns(snap.table, game, new_turn=new_turn), engine=game)

    async def hint(self, code: str, msg: HintMessage) -> HintReply:
        snap, game = await self.load(code)
        if not snap.table.hints:
            raise TableError("hints_off", "this table plays without hints")
        self.check_token(snap, msg.seat, msg.token)
        game = _playing(snap, game)
        if msg.seat != game.current:
            raise TableError("not_your_turn", "hints are for the player whose turn it is")
        view, version = game.view(), game.version
        if view.dice is None:
            raise TableError("illegal", "roll first: a hint needs dice on the table")
        reply = await asyncio.to_thread(players.hint_reply, view)
        return HintReply(
            seat=msg.seat,
            version=version,
            options=[HintOption(**o) for o in reply["options"]],
            exact=reply["exact"],
            ref=msg.ref,
        )

    async def hand_to_bot(self, code: str, msg: HandToBotMessage) -> dict[str, Any]:
        try:
            players.check_bot(msg.bot)
        except ValueError as e:
            raise TableError("invalid", str(e)) from None

        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            self.check_token(snap, msg.by, msg.token)
            row = self.seat_of(snap, msg.seat)
            if row.kind == "bot":
                raise TableError("illegal", f"seat {msg.seat + 1} is already played by a bot")
            if msg.seat != msg.by and msg.seat in self.connected(snap.table.code):
                raise TableError(
                    "illegal", f"seat {msg.seat + 1} is still connected: only its player can leave"
                )
            change = Change(engine=game)
            change.seats[msg.seat] = {
                "kind": "bot",
                "bot": msg.bot,
                "token_hash": None,
                "name": row.name or players.bot_name(msg.bot, msg.seat + 1),
            }
            self._start_if_full(snap, change)
            return change

        state = await self.change(code, decide)
        counts = self._presence.get(code.upper())
        if counts is not None:
            counts.pop(msg.seat, None)
        return state

    async def rematch(self, code: str, msg: RematchMessage) -> dict[str, Any]:
        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            self.check_token(snap, msg.seat, msg.token)
            if msg.game != snap.game.number:
                raise TableError(
                    "stale_version", f"game {snap.game.number} is already under way at this table"
                )
            if game is None or not game.finished:
                raise TableError("illegal", "a rematch starts once the game is over")
            seed = self.settings.seeds()
            stamp = now()
            fresh = self._start(snap, list(game.players), seed)
            row = GameRow(
                table_code=snap.table.code,
                number=snap.game.number + 1,
                server_seed=seed,
                commitment=FairDice(seed).commitment,
                created_at=stamp,
                **self._game_columns(snap.table, fresh, new_turn=True),
            )
            row.updated_at = stamp
            return Change(new_game=row, engine=fresh)

        return await self.change(code, decide)

    async def store_review(self, code: str, number: int, review: dict[str, Any]) -> None:
        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            if snap.game.number != number or snap.game.review is not None:
                raise TableError("stale_version", "the review is no longer wanted")
            return Change(game={"review": review}, engine=game)

        await self.change(code, decide)

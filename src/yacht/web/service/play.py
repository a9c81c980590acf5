"""In-game requests: actions, hints, handing a seat to a bot, rematches.

Every check happens before the engine is touched, in the order a player would ask about:
is there such a table and seat, is this your seat (token), is the game on, is the action
decided on the current version, is it your turn, and finally do the rules allow it.
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

from yacht.actions import Action, GameError
from yacht.game import Game
from yacht.web.bus.broadcast import Broadcaster
from yacht.web.protocol.messages import (
    ActionMessage,
    HandToBotMessage,
    HintMessage,
    HintOption,
    HintReply,
    RematchMessage,
    SeedMessage,
    TakeBackMessage,
)
from yacht.web.service import bots as players
from yacht.web.service import fairness
from yacht.web.service.hints import HintDesk
from yacht.web.service.presence import GRACE
from yacht.web.service.tables import Change, TableError, TableService, engine_error
from yacht.web.settings import Settings
from yacht.web.storage.models import GameRow, SeatRow
from yacht.web.storage.store import Store, TableSnapshot, now

__all__ = ["GameService"]


STALE = frozenset({"not_started", "game_over", "not_your_turn", "illegal"})
"""Refusals a snapshot a move behind may give wrongly (a hint asks the table again)."""

AWAY_BOT = "medium"
"""The level an away player's seat is handed to (only the holder picks another)."""


def _yours(row: SeatRow) -> SeatRow:
    if row.kind == "bot":
        raise TableError(
            "illegal",
            f"seat {row.position + 1} is played by a bot: take it back first (take_back)",
        )
    return row


def _level(level: str) -> str:
    try:
        return players.check_bot(level)
    except ValueError as e:
        raise TableError("invalid", str(e)) from None


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

    def __init__(self, store: Store, broadcaster: Broadcaster, settings: Settings) -> None:
        super().__init__(store, broadcaster, settings)
        self.hints = HintDesk()

    async def act(self, code: str, msg: ActionMessage) -> dict[str, Any]:
        """A player's action, checked in full; see the module docstring for the order."""

        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            _yours(self.check_token(snap, msg.seat, msg.token))
            return self._apply(snap, game, msg.seat, msg.game, msg.version, msg.action.to_action())

        state = await self.change(code, decide)
        self.presence.seen(code.upper(), [msg.seat])
        return state

    async def act_for(
        self, code: str, seat: int, number: int, version: int, action: Action, *, bot: bool = False
    ) -> None:
        """An action the server takes for a seat (a bot, or a turn that timed out)."""

        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            if bot and self.seat_of(snap, seat).kind != "bot":
                raise TableError("stale_version", f"seat {seat + 1} was taken back")
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
        """The best options of the turn; checked on this process's snapshot, and when refused
        there, once more on the table as stored (the snapshot may be a move behind: another
        process took the turn's last move and this one has not needed the table since)."""
        snap, game = await self.latest(code)
        try:
            game = self._hint_game(snap, game, msg)
        except TableError as e:
            if e.code not in STALE:
                raise
            snap, game = await self.load(code)
            game = self._hint_game(snap, game, msg)
        view, version = game.view(), game.version
        self.presence.seen(snap.table.code, [msg.seat])
        key = (snap.table.code, snap.game.number, version, msg.seat)
        reply = await self.hints.answer(key, view)
        return HintReply(
            seat=msg.seat,
            version=version,
            options=[HintOption(**o) for o in reply["options"]],
            exact=reply["exact"],
            solved=reply.get("solved"),
            ref=msg.ref,
        )

    def _hint_game(self, snap: TableSnapshot, game: Game | None, msg: HintMessage) -> Game:
        """The game a hint is asked of, or why none is given."""
        if not snap.table.hints:
            raise TableError("hints_off", "this table plays without hints")
        _yours(self.check_token(snap, msg.seat, msg.token))
        game = _playing(snap, game)
        if msg.seat != game.current:
            raise TableError("not_your_turn", "hints are for the player whose turn it is")
        if game.dice is None:
            raise TableError("illegal", "roll first: a hint needs dice on the table")
        return game

    async def hand_to_bot(self, code: str, msg: HandToBotMessage) -> dict[str, Any]:
        """Hand a seat to a bot; see :class:`~yacht.web.protocol.messages.HandToBotMessage` for who
        may."""
        level = _level(msg.bot)
        own = msg.seat == msg.by
        away = 0.0 if own else await self.presence.away_for(code.upper(), msg.seat)

        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            self.check_token(snap, msg.by, msg.token)
            row = self.seat_of(snap, msg.seat)
            if row.kind == "bot":
                raise TableError("illegal", f"seat {msg.seat + 1} is already played by a bot")
            held = row.token_hash is not None
            if held and not own and "bot" in msg.model_fields_set and level != AWAY_BOT:
                raise TableError(
                    "illegal",
                    f"only seat {msg.seat + 1}'s player picks its bot level; an away player's "
                    f"seat goes to the {AWAY_BOT!r} bot",
                )
            if held and not own:
                self._check_away(snap, game, msg.seat, row.name, away)
            change = Change(engine=game)
            change.seats[msg.seat] = {  # the token stays: its holder may take the seat back
                "kind": "bot",
                "bot": level if own or not held else AWAY_BOT,
                "name": row.name or players.bot_name(level, msg.seat + 1),
            }
            self._start_if_full(snap, change)
            return change

        state = await self.change(code, decide)
        self.presence.drop(code.upper(), msg.seat)
        return state

    def _check_away(
        self, snap: TableSnapshot, game: Game | None, seat: int, name: str | None, away: float
    ) -> None:
        """Refuse handing another player's seat unless the game has waited on it for
        :data:`GRACE` seconds with no sign of its holder, or its turn clock ran out."""
        if game is None or game.finished or game.current != seat:
            raise TableError(
                "illegal",
                f"seat {seat + 1} belongs to {name}: another player may hand it to a bot only "
                "when the game waits on it",
            )
        moved = snap.game.updated_at  # the last move: the game has waited on them since
        if moved.tzinfo is None:  # SQLite hands back naive UTC times
            moved = moved.replace(tzinfo=UTC)
        waited = min(away, self.clock() - moved.timestamp())
        if waited < GRACE and not self._timed_out(snap, game, seat):
            raise TableError(
                "illegal",
                f"seat {seat + 1} belongs to {name}, and the game has waited on them for "
                f"{waited:.0f} s: another player may hand it to a bot after {GRACE:.0f} s with "
                "no sign of them, or once its turn clock runs out",
            )

    def _timed_out(self, snap: TableSnapshot, game: Game | None, seat: int) -> bool:
        deadline = snap.game.deadline
        return (
            deadline is not None
            and game is not None
            and not game.finished
            and game.current == seat
            and self.clock() >= deadline
        )

    async def take_back(self, code: str, msg: TakeBackMessage) -> dict[str, Any]:
        """The seat's holder takes it back from the bot playing it."""

        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            row = self.check_token(snap, msg.seat, msg.token)
            if row.kind != "bot":
                raise TableError("illegal", f"seat {msg.seat + 1} is not played by a bot")
            change = Change(engine=game)
            change.seats[msg.seat] = {"kind": "human", "bot": None, "seen_at": now()}
            return change

        return await self.change(code, decide)

    async def contribute(self, code: str, msg: SeedMessage) -> dict[str, Any]:
        """A player's seed for the dice key of the waiting game or of the next one."""

        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            self.check_token(snap, msg.seat, msg.token)
            stamp, number = now().isoformat(), snap.game.number
            change = Change(engine=game)
            if msg.game == number and snap.game.status == "waiting" and snap.game.fair:
                fair = fairness.contribute(snap.game.fair, msg.seat, msg.seed, stamp)
                change.game["fair"] = fair
            elif msg.game == number + 1 and snap.table.fair_next:
                fair = fairness.contribute(snap.table.fair_next, msg.seat, msg.seed, stamp)
                change.table["fair_next"] = fair
            elif msg.game == number:
                raise TableError(
                    "illegal",
                    f"game {number} has started and its dice key is fixed: "
                    f"give your seed for game {number + 1}",
                )
            else:
                raise TableError("stale_version", f"game {msg.game} takes no seeds now")
            if fair is None:
                raise TableError(
                    "illegal", f"seat {msg.seat + 1} has given its seed for game {msg.game}"
                )
            return change

        return await self.change(code, decide)

    async def rematch(self, code: str, msg: RematchMessage) -> dict[str, Any]:
        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            self.check_token(snap, msg.seat, msg.token)
            if msg.game != snap.game.number:
                raise TableError(
                    "stale_version", f"game {snap.game.number} is already under way at this table"
                )
            if game is None or not game.finished:
                raise TableError("illegal", "a rematch starts once the game is over")
            stamp = now()
            change = Change()
            drawn = snap.table.fair_next or fairness.next_fair(
                self.settings.seeds(), stamp.isoformat()
            )  # a table from before rule 2 has none ready
            seed, commitment = drawn["seed"], drawn["commitment"]
            fair = {"rule": fairness.RULE, "at": drawn["at"], "contributions": []}
            fair["contributions"] = drawn.get("contributions", [])
            key, fair = self._fair_start(commitment, fair, change)
            fresh = self._start(snap, list(game.players), seed, key)
            row = GameRow(
                table_code=snap.table.code,
                number=snap.game.number + 1,
                server_seed=seed,
                commitment=commitment,
                created_at=stamp,
                fair=fair,
                **self._game_columns(snap.table, fresh, new_turn=True),
            )
            row.updated_at = stamp
            change.new_game, change.engine = row, fresh
            return change

        return await self.change(code, decide)

    async def store_review(self, code: str, number: int, review: dict[str, Any]) -> None:
        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            if snap.game.number != number or snap.game.review is not None:
                raise TableError("stale_version", "the review is no longer wanted")
            return Change(game={"review": review}, engine=game)

        await self.change(code, decide)

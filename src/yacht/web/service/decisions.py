"""What a request does to a table, as pure functions: (snapshot, game, context, message) -> Change.

A decision reads the table as it stands and says what to write; it does no I/O and keeps no
state, so :meth:`~yacht.web.service.tables.TableService.change` may run it again on a fresher
read. Everything is checked before the engine is touched, in the order a player would ask
about: is there such a seat, is this your seat (token), is the game on, is the action decided
on the current version, is it your turn, and finally do the rules allow it. A refusal raises
:class:`~yacht.web.protocol.errors.TableError` and changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC
from typing import Any
from weakref import WeakKeyDictionary

from yacht.actions import Action, GameError
from yacht.dice import FairDice, PlacedDice
from yacht.game import Event, Game
from yacht.game_json import game_to_json
from yacht.web.protocol.errors import TableError, engine_error
from yacht.web.protocol.messages import (
    ActionMessage,
    HandToBotMessage,
    HintMessage,
    JoinSeat,
    RematchMessage,
    SeedMessage,
    TakeBackMessage,
)
from yacht.web.protocol.names import look_alike
from yacht.web.service import bots, correspondence, fairness, ratings
from yacht.web.service.presence import GRACE
from yacht.web.storage.accounts import DELETED_NAME
from yacht.web.storage.changes import Change
from yacht.web.storage.models import GameRow, SeatRow, TableRow
from yacht.web.storage.store import TableSnapshot, now

__all__ = ["AWAY_BOT", "Context", "Decide", "hash_token"]

AWAY_BOT = "medium"
"""The level an away player's seat is handed to (only the holder picks another)."""

Decide = Callable[[TableSnapshot, Game | None], Change]


@dataclass(frozen=True)
class Context:
    """What a decision may know besides the table: the time and the source of server seeds."""

    now: float
    seeds: Callable[[], str]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --- seats and tokens ------------------------------------------------------------------------


def seat_of(snap: TableSnapshot, seat: int) -> SeatRow:
    for row in snap.seats:
        if row.position == seat:
            return row
    raise TableError("invalid", f"table {snap.table.code} has no seat {seat + 1}")


def check_token(snap: TableSnapshot, seat: int, token: str | None) -> SeatRow:
    row = seat_of(snap, seat)
    if not token:
        raise TableError("spectator", "spectators watch: take a seat to play")
    given = hash_token(token)
    held = [h for h in (row.token_hash, row.account_token_hash) if h is not None]
    # both compared, always: the answer's time says nothing of which one matched
    if not sum(hmac.compare_digest(h, given) for h in held):
        raise TableError("bad_token", f"that token does not hold seat {seat + 1}")
    return row


def _yours(row: SeatRow) -> SeatRow:
    if row.kind == "bot":
        raise TableError(
            "illegal",
            f"seat {row.position + 1} is played by a bot: take it back first (take_back)",
        )
    return row


def bot_level(level: str) -> str:
    """``level`` if it names a bot, else ``invalid``."""
    try:
        return bots.check_bot(level)
    except ValueError as e:
        raise TableError("invalid", str(e), e) from None


def playing(snap: TableSnapshot, game: Game | None, number: int | None = None) -> Game:
    """The game in play, or why there is none (``number``: the game the request was made on)."""
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


# --- starting games --------------------------------------------------------------------------


_SAVED: WeakKeyDictionary[Game, tuple[Event, list[dict[str, Any]]]] = WeakKeyDictionary()
"""Per game in play: its last event saved and every event's saved form up to it."""


def saved(game: Game) -> dict[str, Any]:
    """``game.to_json()``, each event's saved form made once: a move adds its own events to
    those the game's earlier saves made (a game's log only grows), instead of every event's
    again. The saves of one game share those forms; none of them is changed once made."""
    events = game.events
    kept = _SAVED.get(game)
    made: list[dict[str, Any]] = []
    if kept is not None and len(kept[1]) <= len(events) and events[len(kept[1]) - 1] is kept[0]:
        made = kept[1]
    if len(made) < len(events):
        made = made + [e.to_json() for e in events[len(made) :]]
        _SAVED[game] = (events[-1], made)
    return game_to_json(game, events=made)


def game_columns(table: TableRow, game: Game, ctx: Context, *, new_turn: bool) -> dict[str, Any]:
    """The current game's columns after a change to ``game`` (a new turn restarts its clock)."""
    columns: dict[str, Any] = {
        "state": saved(game),
        "version": game.version,
        "status": "finished" if game.finished else "playing",
        "summary": {"version": game.version, "round": game.round, "totals": game.totals},
    }
    if new_turn or game.finished:
        turn = table.turn_seconds
        columns["deadline"] = None if turn is None or game.finished else ctx.now + turn
    if game.finished:
        columns["finished_at"] = now()
    return columns


def _start(snap: TableSnapshot, names: list[str], seed: str, key: str, rule: int) -> Game:
    """The game's engine, its dice dealt by ``rule``: by place (3), or from one counter (a
    table whose waiting game was opened under rule 1 or 2 keeps its rule)."""
    dice = PlacedDice(seed, key) if rule == 3 else FairDice(seed, key)
    return Game(names, snap.table.preset, dice, start=snap.table.start_rule)


def _fair_start(
    commitment: str, fair: dict[str, Any] | None, change: Change, ctx: Context
) -> tuple[str, dict[str, Any]]:
    """The dice key of a game starting now from its ``fair`` record (made of the players'
    seeds; a game from before rule 2 keeps the table's client seed), the record to store, and
    the next game's seed drawn and committed to (in ``change.table``)."""
    stamp = now().isoformat()
    change.table["fair_next"] = fairness.next_fair(ctx.seeds(), stamp)
    if fair is None:
        return "", {}
    key = fairness.dice_key(commitment, fair.get("contributions", []), fair.get("rule", 2))
    return key, {**fair, "key": key, "started_at": stamp}


def start_if_full(snap: TableSnapshot, change: Change, ctx: Context) -> None:
    """Start the waiting game once every seat is taken (by a person or a bot)."""
    if snap.game.status != "waiting":
        return
    names = []
    for row in snap.seats:
        cols = change.seats.get(row.position, {})
        kind, token = cols.get("kind", row.kind), cols.get("token_hash", row.token_hash)
        if kind != "bot" and token is None:
            return
        names.append(cols.get("name", row.name) or f"Seat {row.position + 1}")
    fair = change.game.get("fair", snap.game.fair)
    key, fair = _fair_start(snap.game.commitment, fair, change, ctx)
    if not fair:  # a table opened before rule 2
        key = snap.table.client_seed
    rule = fair.get("rule", 2) if fair else 1
    game = _start(snap, names, snap.game.server_seed, key, rule)
    change.game = game_columns(snap.table, game, ctx, new_turn=True)
    if fair:
        change.game["fair"] = fair
    change.engine = game
    correspondence.clock_seats(snap.table, snap.seats, game, ctx.now, change, new_turn=True)


# --- the decisions ---------------------------------------------------------------------------


def join(
    snap: TableSnapshot,
    game: Game | None,
    ctx: Context,
    body: JoinSeat,
    token_hash: str,
    account: int | None = None,
) -> Change:
    """A person takes a free seat (with the token whose hash is ``token_hash``); a signed-in
    person's seat records their ``account`` (the token is then the account's, see
    :func:`yacht.web.service.accounts.seat_token`)."""
    row = seat_of(snap, body.seat)
    if row.kind == "bot":
        raise TableError("seat_taken", f"seat {body.seat + 1} is played by a bot")
    if row.token_hash is not None:
        raise TableError("seat_taken", f"seat {body.seat + 1} is taken by {row.name}")
    if snap.table.rated:  # (the service refuses a guest with the words why, before this)
        if account is None:
            raise TableError("unauthorized", "a rated table is for signed-in players")
        if any(r.account_id == account for r in snap.seats):
            raise TableError("seat_taken", "you have a seat at this rated table already")
    alike = look_alike(body.name, (r.name for r in snap.seats if r.position != body.seat))
    if alike is not None:
        raise TableError(
            "invalid", f"the name {body.name!r} looks like {alike!r}, who sits at this table"
        )
    change = Change(engine=game)
    stamp = now()
    change.seats[body.seat] = {
        "name": body.name,
        "token_hash": token_hash,
        "claimed_at": stamp,
        "seen_at": stamp,
    }
    if account is not None:
        change.seats[body.seat] |= {"account_id": account, "account_token_hash": token_hash}
    if body.seed and snap.game.fair is not None:
        fair = fairness.contribute(snap.game.fair, body.seat, body.seed, stamp.isoformat())
        change.game["fair"] = fair or snap.game.fair
    start_if_full(snap, change, ctx)
    return change


def claim(
    snap: TableSnapshot,
    game: Game | None,
    tokens: Mapping[int, str],
    account: int,
    hashes: Mapping[int, str],
) -> Change:
    """A signed-in player claims the seats whose tokens they hold (a guest's seats, kept by
    the browser): each records the ``account`` and the hash of the account's own token for it
    (``hashes``, by seat); the token the browser holds keeps working. A wrong token, or a
    seat an account holds already, is passed over; ``bad_token`` when nothing is claimed."""
    change = Change(engine=game)
    for seat, token in sorted(tokens.items()):
        try:
            row = check_token(snap, seat, token)
        except TableError:
            continue
        if row.account_id is None:
            change.seats[seat] = {"account_id": account, "account_token_hash": hashes[seat]}
    if not change.seats:
        raise TableError("bad_token", "none of these tokens holds a seat to claim")
    return change


def act(snap: TableSnapshot, game: Game | None, ctx: Context, msg: ActionMessage) -> Change:
    """A player's action, checked in full (see the module docstring for the order)."""
    _yours(check_token(snap, msg.seat, msg.token))
    return _apply(snap, game, ctx, msg.seat, msg.game, msg.version, msg.action.to_action())


def act_for(
    snap: TableSnapshot,
    game: Game | None,
    ctx: Context,
    seat: int,
    number: int,
    version: int,
    action: Action,
    *,
    bot: bool,
) -> Change:
    """An action the server takes for a seat (a bot, or a turn that timed out)."""
    if bot and seat_of(snap, seat).kind != "bot":
        raise TableError("stale_version", f"seat {seat + 1} was taken back")
    return _apply(snap, game, ctx, seat, number, version, action)


def _apply(
    snap: TableSnapshot,
    game: Game | None,
    ctx: Context,
    seat: int,
    number: int,
    version: int,
    action: Action,
) -> Change:
    game = playing(snap, game, number)
    if version != game.version:
        raise TableError(
            "stale_version",
            f"the action was made on version {version}, the game is at {game.version}",
        )
    if seat != game.current:
        raise TableError(
            "not_your_turn", f"it is {game.current_name}'s turn (seat {game.current + 1})"
        )
    row = seat_of(snap, seat)
    try:
        event = game.push(action, player=seat)
    except GameError as e:
        raise engine_error(e) from None
    new_turn = event.points is not None
    change = Change(game=game_columns(snap.table, game, ctx, new_turn=new_turn), engine=game)
    if new_turn and row.stand_in:  # the bot made the move that ran out: the seat goes back
        change.seats[seat] = {"kind": "human", "bot": None, "stand_in": False}
    correspondence.clock_seats(snap.table, snap.seats, game, ctx.now, change, new_turn=new_turn)
    if game.finished:
        lost = {r.position for r in snap.seats if correspondence.forfeited(snap.table, r)}
        change.finish = ratings.finish(snap.table, snap.seats, game, lost)
    return change


def miss(snap: TableSnapshot, game: Game | None, ctx: Context, seat: int) -> Change:
    """A correspondence seat's deadline ran out: the ``medium`` bot makes its move (and keeps
    the seat once its missed moves reach the table's limit). Refused unless the game still
    waits on that seat and its deadline is due, or held by a process acting on it (see
    :data:`~yacht.web.service.correspondence.LEASE`): a move made meanwhile set a new one."""
    row = seat_of(snap, seat)
    game = playing(snap, game)
    due = row.deadline is not None and row.deadline <= ctx.now + correspondence.LEASE
    if game.current != seat or row.kind != "human" or not due:
        raise TableError("stale_version", f"seat {seat + 1} has moved in time")
    change = Change(engine=game)
    change.seats[seat] = correspondence.stand_in_columns(row, snap.table)
    return change


def hint_game(snap: TableSnapshot, game: Game | None, msg: HintMessage) -> Game:
    """The game a hint is asked of, or why none is given."""
    if not snap.table.hints:
        raise TableError("hints_off", "this table plays without hints")
    _yours(check_token(snap, msg.seat, msg.token))
    game = playing(snap, game)
    if msg.seat != game.current:
        raise TableError("not_your_turn", "hints are for the player whose turn it is")
    if game.dice is None:
        raise TableError("illegal", "roll first: a hint needs dice on the table")
    return game


def hand_to_bot(
    snap: TableSnapshot,
    game: Game | None,
    ctx: Context,
    msg: HandToBotMessage,
    level: str,
    away: float,
) -> Change:
    """Hand a seat to a bot; see :class:`~yacht.web.protocol.messages.HandToBotMessage` for who
    may. ``away``: how long the seat's holder has been gone, as far as this process knows."""
    own = msg.seat == msg.by
    check_token(snap, msg.by, msg.token)
    row = seat_of(snap, msg.seat)
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
        _check_away(snap, game, ctx, msg.seat, row.name, away)
    change = Change(engine=game)
    change.seats[msg.seat] = {  # the token stays: its holder may take the seat back
        "kind": "bot",
        "bot": level if own or not held else AWAY_BOT,
        "name": row.name or bots.bot_name(level, msg.seat + 1),
    }
    if correspondence.move_seconds(snap.table) is not None:
        change.seats[msg.seat] |= {"stand_in": False, "deadline": None}
    start_if_full(snap, change, ctx)
    return change


def _check_away(
    snap: TableSnapshot, game: Game | None, ctx: Context, seat: int, name: str | None, away: float
) -> None:
    """Refuse handing another player's seat unless the game has waited on it for
    :data:`~yacht.web.service.presence.GRACE` seconds with no sign of its holder, or its turn
    clock ran out."""
    if game is None or game.finished or game.current != seat:
        raise TableError(
            "illegal",
            f"seat {seat + 1} belongs to {name}: another player may hand it to a bot only "
            "when the game waits on it",
        )
    moved = snap.game.updated_at  # the last move: the game has waited on them since
    if moved.tzinfo is None:  # SQLite hands back naive UTC times
        moved = moved.replace(tzinfo=UTC)
    waited = min(away, ctx.now - moved.timestamp())
    deadline = snap.game.deadline
    timed_out = deadline is not None and ctx.now >= deadline
    if waited < GRACE and not timed_out:
        raise TableError(
            "illegal",
            f"seat {seat + 1} belongs to {name}, and the game has waited on them for "
            f"{waited:.0f} s: another player may hand it to a bot after {GRACE:.0f} s with "
            "no sign of them, or once its turn clock runs out",
        )


def take_back(snap: TableSnapshot, game: Game | None, ctx: Context, msg: TakeBackMessage) -> Change:
    """The seat's holder takes it back from the bot playing it."""
    row = check_token(snap, msg.seat, msg.token)
    if row.kind != "bot":
        raise TableError("illegal", f"seat {msg.seat + 1} is not played by a bot")
    if correspondence.forfeited(snap.table, row):
        raise TableError(
            "illegal",
            f"seat {msg.seat + 1} missed {row.missed} moves: the bot plays it to the end",
        )
    change = Change(engine=game)
    change.seats[msg.seat] = {"kind": "human", "bot": None, "seen_at": now()}
    if correspondence.move_seconds(snap.table) is not None:
        change.seats[msg.seat]["stand_in"] = False
        correspondence.clock_seats(snap.table, snap.seats, game, ctx.now, change, new_turn=False)
    return change


def contribute(snap: TableSnapshot, game: Game | None, ctx: Context, msg: SeedMessage) -> Change:
    """A player's seed for the dice key of the waiting game or of the next one."""
    check_token(snap, msg.seat, msg.token)
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
        raise TableError("illegal", f"seat {msg.seat + 1} has given its seed for game {msg.game}")
    return change


def rematch(snap: TableSnapshot, game: Game | None, ctx: Context, msg: RematchMessage) -> Change:
    """The next game at the table, with the seed committed to during this one."""
    check_token(snap, msg.seat, msg.token)
    if msg.game != snap.game.number:
        raise TableError(
            "stale_version", f"game {snap.game.number} is already under way at this table"
        )
    if game is None or not game.finished:
        raise TableError("illegal", "a rematch starts once the game is over")
    stamp = now()
    change = Change()
    drawn = snap.table.fair_next or fairness.next_fair(
        ctx.seeds(), stamp.isoformat()
    )  # a table from before rule 2 has none ready
    seed, commitment = drawn["seed"], drawn["commitment"]
    fair = {"rule": fairness.RULE, "at": drawn["at"], "contributions": []}
    fair["contributions"] = drawn.get("contributions", [])
    key, fair = _fair_start(commitment, fair, change, ctx)
    fresh = _start(snap, list(game.players), seed, key, fairness.RULE)
    row = GameRow(
        table_code=snap.table.code,
        number=snap.game.number + 1,
        server_seed=seed,
        commitment=commitment,
        created_at=stamp,
        fair=fair,
        **game_columns(snap.table, fresh, ctx, new_turn=True),
    )
    row.updated_at = stamp
    change.new_game, change.engine = row, fresh
    if correspondence.move_seconds(snap.table) is not None:  # a new game: no move missed yet
        for seat in snap.seats:  # (a seat the bot kept stays its, until its holder takes it)
            if seat.missed or seat.stand_in:
                change.seats[seat.position] = {"missed": 0, "stand_in": False}
    correspondence.clock_seats(snap.table, snap.seats, fresh, ctx.now, change, new_turn=True)
    return change


def keep_review(
    snap: TableSnapshot, game: Game | None, number: int, review: dict[str, Any]
) -> Change:
    """Store the review of game ``number`` with the table's current game, when that is the
    game and it has none yet. Refused otherwise: once the table has moved on (a rematch) the
    review goes straight to the finished game's own row (see :mod:`~yacht.web.service.runner`)."""
    if snap.game.number != number:
        raise TableError("stale_version", f"game {number} is no longer the table's current game")
    if snap.game.review is not None:
        raise TableError("stale_version", f"game {number} has its review")
    return Change(game={"review": renamed_review(snap, review)}, engine=game)


def renamed_review(snap: TableSnapshot, review: dict[str, Any]) -> dict[str, Any]:
    """``review`` with the players whose seat is now :data:`DELETED_NAME`'s renamed too: an
    account deleted while its game's review was being made (the review was made from the game
    as it ended, under the old name)."""
    gone = {s.position for s in snap.seats if s.name == DELETED_NAME}
    players = review.get("players")
    if not gone or not isinstance(players, list):
        return review
    return {
        **review,
        "players": [
            {**p, "name": DELETED_NAME} if isinstance(p, dict) and p.get("player") in gone else p
            for p in players
        ],
    }

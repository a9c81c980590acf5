"""What players and spectators see: public views built from stored rows and the engine.

Nothing secret leaves through here before its time: the server seed appears only once the
game is finished, and tokens never.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from datetime import UTC, datetime
from functools import cache
from typing import Any

import orjson

from yacht.game import Event, Game, Phase
from yacht.rules import CATEGORIES, UPPER_CATEGORIES, Category, Rules, rules_by_name
from yacht.web.protocol.messages import (
    EventOut,
    GameState,
    GameSummary,
    RulesInfo,
    SeatState,
    TableState,
    TableSummary,
)
from yacht.web.service.coach import coached_seats
from yacht.web.service.rematch import rematch_json, series
from yacht.web.storage.models import GameRow, SeatRow, TableRow
from yacht.web.storage.store import TableSnapshot

__all__ = [
    "RECENT_EVENTS",
    "event_json",
    "event_out",
    "game_json",
    "game_state",
    "game_summary",
    "public_game_json",
    "review_summary",
    "rules_info",
    "seat_json",
    "seat_states",
    "state_json",
    "state_message",
    "table_state",
    "table_summary",
]

RECENT_EVENTS = 12


# The state of a table is built as plain JSON data (it is built and sent after every move, and
# pydantic models would cost more than the move itself); the schemas still describe it, and
# ``TableState.model_validate`` of it is what the REST endpoints return (tests check the two
# agree for every kind of state).


@cache
def _rules_json(name: str) -> dict[str, Any]:
    rules = rules_by_name(name)
    bonus = rules.upper_bonus
    return {
        "name": rules.name,
        "description": rules.description,
        "categories": [c.value for c in CATEGORIES],
        "upper_bonus": {"threshold": bonus.threshold, "points": bonus.points} if bonus else None,
    }


def rules_info(rules: Rules) -> RulesInfo:
    return RulesInfo.model_validate(_rules_json(rules.name))


def seat_json(s: SeatRow, connected: Collection[int] = ()) -> dict[str, Any]:
    return {
        "seat": s.position,
        "name": s.name,
        "kind": "bot" if s.kind == "bot" else "human",
        "bot": s.bot,
        "taken": s.kind == "bot" or s.token_hash is not None,
        "connected": s.position in connected,
        "deadline": s.deadline,
        "missed": s.missed or 0,
        "stand_in": bool(s.stand_in),
    }


def seat_states(seats: Collection[SeatRow], connected: Collection[int] = ()) -> list[SeatState]:
    return [SeatState.model_validate(seat_json(s, connected)) for s in seats]


def review_summary(review: dict[str, Any] | None) -> dict[str, Any] | None:
    """The review as the table shows it: each player's loss, accuracy and chart.

    Every decision is left out of the live state (it is most of the review's size); the page
    fetches them from ``/api/games/{id}/review`` when asked.
    """
    if review is None:
        return None
    players = [{k: v for k, v in p.items() if k != "decisions"} for p in review["players"]]
    return {**review, "players": players}


def event_json(version: int, event: Event) -> dict[str, Any]:
    return {
        "version": version,
        "seat": event.player,
        "action": str(event.action),
        "dice": list(event.dice) if event.dice is not None else None,
        "points": event.points,
    }


def event_out(version: int, event: Event) -> EventOut:
    return EventOut.model_validate(event_json(version, event))


def _sheet(sheet: Mapping[Category, int]) -> dict[str, int]:
    return {c.value: points for c, points in sheet.items()}


def game_json(row: GameRow, game: Game | None, seat_count: int, rules: Rules) -> dict[str, Any]:
    """The :class:`~yacht.web.protocol.messages.GameState` of a game row and its engine, as JSON
    data."""
    finished = row.status == "finished"
    out: dict[str, Any] = {"id": row.id, "number": row.number, "status": row.status}
    if game is None:
        out.update(
            version=0,
            round=1,
            rounds=len(CATEGORIES),
            current=None,
            phase="waiting",
            dice=None,
            held=[],
            rolls_used=0,
            rolls_left=3,
            sheets=[{} for _ in range(seat_count)],
            upper_totals=[0] * seat_count,
            bonuses=[0] * seat_count,
            totals=[0] * seat_count,
            potentials={},
            winners=[],
            deadline=row.deadline,
            start_rolls=[],
            first=None,
            recent=[],
        )
    else:
        sheets = game.sheets
        uppers = [sum(s.get(c, 0) for c in UPPER_CATEGORIES) for s in sheets]
        potentials = {}
        dice = game.dice
        if dice is not None:
            sheet, counts = sheets[game.current], Counter(dice)
            potentials = {
                c.value: rules.score_counts(counts, c) for c in CATEGORIES if c not in sheet
            }
        start = max(0, game.version - RECENT_EVENTS)
        out.update(
            version=game.version,
            round=game.round,
            rounds=len(CATEGORIES),
            current=None if game.phase is Phase.FINISHED else game.current,
            phase=game.phase.value,
            dice=list(dice) if dice is not None else None,
            held=sorted(game.held),
            rolls_used=game.rolls_used,
            rolls_left=game.rolls_left,
            sheets=[_sheet(s) for s in sheets],
            upper_totals=uppers,
            bonuses=[rules.bonus(u) for u in uppers],
            totals=game.totals,
            potentials=potentials,
            winners=game.winners(),
            deadline=row.deadline,
            start_rolls=[list(r) for r in game.start_rolls],
            first=game.first,
            recent=[event_json(i, e) for i, e in enumerate(game.events[start:], start + 1)],
        )
    out.update(
        commitment=row.commitment,
        server_seed=row.server_seed if finished else None,
        review=review_summary(row.review) if finished else None,
        coach=coached_seats(row.coach),
    )
    return out


def game_state(row: GameRow, game: Game | None, seat_count: int, rules: Rules) -> GameState:
    return GameState.model_validate(game_json(row, game, seat_count, rules))


def state_json(
    snap: TableSnapshot,
    game: Game | None,
    connected: Collection[int] = (),
    watchers: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The :class:`~yacht.web.protocol.messages.TableState` everyone may see, as JSON data
    (``watchers``: :meth:`~yacht.web.service.presence.Presence.watchers`)."""
    table = snap.table
    over = game is not None and snap.game.status == "finished"
    return {
        "code": table.code,
        "invite_path": f"/t/{table.code}",
        "rules": _rules_json(table.preset),
        "hints": table.hints,
        "rated": bool(table.rated),
        "turn_seconds": table.turn_seconds,
        "move_days": table.move_days,
        "missed_limit": table.missed_limit,
        "start_rule": table.start_rule,
        "client_seed": table.client_seed,
        "revision": table.revision,
        "seats": [seat_json(s, connected) for s in snap.seats],
        "game": {
            **game_json(snap.game, game, len(snap.seats), rules_by_name(table.preset)),
            "fair": fair_json(snap.game, table),
            "series": series(snap.game, game.winners() if over and game else [], len(snap.seats)),
            "rematch": rematch_json(snap) if over else None,
        },
        "watchers": watchers or {"count": 0, "names": []},
    }


def _public(contributions: Any) -> list[dict[str, Any]]:
    return [{"seat": c["seat"], "seed": c["seed"], "at": c["at"]} for c in contributions or ()]


def fair_json(row: GameRow, table: TableRow) -> dict[str, Any] | None:
    """The public part of fair dice for the current game (never the next seed)."""
    if row.fair is None:
        return None
    nxt = table.fair_next or {}
    return {
        "rule": row.fair.get("rule", 2),
        "contributions": _public(row.fair.get("contributions")),
        "key": row.fair.get("key"),
        "next_commitment": nxt.get("commitment"),
        "next_contributions": _public(nxt.get("contributions")),
    }


def state_message(state: dict[str, Any]) -> str:
    """The ``state`` message of :func:`state_json` data (a :class:`StateMessage`), as text."""
    # orjson: the same text as json.dumps(..., ensure_ascii=False, separators=(",", ":")) in a
    # fifteenth of the time (4.6 against 66 us half-way through a game, measured); every move
    # makes one.
    return orjson.dumps({"type": "state", "table": state}, option=orjson.OPT_NON_STR_KEYS).decode()


def table_state(
    snap: TableSnapshot, game: Game | None, connected: Collection[int] = ()
) -> TableState:
    return TableState.model_validate(state_json(snap, game, connected))


def iso(moment: datetime) -> str:
    """ISO 8601 with the time zone (SQLite hands back naive UTC times)."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def table_summary(snap: TableSnapshot) -> TableSummary:
    seats = seat_states(snap.seats)
    return TableSummary(
        code=snap.table.code,
        preset=snap.table.preset,
        seats=seats,
        free_seats=sum(not s.taken for s in seats),
        created_at=iso(snap.table.created_at),
    )


def game_summary(row: GameRow) -> GameSummary:
    state = row.state or {}
    return GameSummary(
        id=row.id,
        table=row.table_code,
        number=row.number,
        preset=str(state.get("rules", "")),
        players=list(state.get("players", [])),
        totals=list(state.get("totals", [])),
        winners=list(state.get("winners", [])),
        finished_at=iso(row.finished_at) if row.finished_at else None,
    )


def public_game_json(row: GameRow, table: TableRow, game: Game) -> dict[str, Any]:
    """The game as a JSON file anyone may have: the seed only once it is finished.

    ``yacht verify`` and the page's fairness check read exactly this.
    """
    finished = row.status == "finished"
    out = game.to_json(include_dice_source=finished)
    out["fair"] = {
        "rule": 1,
        "commitment": row.commitment,
        "client_seed": table.client_seed,
        "algorithm": "HMAC-SHA256(server_seed, f'{client_seed}:{index}:{counter}')",
    }
    if row.fair is not None:  # rules 2 and 3: the dice's key is the one the seeds make
        contributions = _public(row.fair.get("contributions"))
        rule = row.fair.get("rule", 2)
        die = (
            "face = HMAC-SHA256(server_seed, f'{key}:{seat}:{turn}:{roll}:{slot}:{counter}'), "
            "roll-off: f'{key}:rolloff:{index}:{counter}'"
            if rule == 3
            else "die = HMAC-SHA256(server_seed, f'{key}:{index}:{counter}')"
        )
        out["fair"] = {
            "rule": rule,
            "commitment": row.commitment,
            "contributions": contributions,
            "key": row.fair.get("key"),
            "algorithm": f"key = SHA-256('yacht-fair-{rule}\\n' + commitment + '\\n' + "
            "''.join(f'{seat}:{seed}\\n' for each contribution by seat)); " + die,
            "log": [
                {"event": "commitment", "commitment": row.commitment, "at": row.fair.get("at")},
                *({"event": "contribution", **c} for c in contributions),
                {"event": "start", "key": row.fair.get("key"), "at": row.fair.get("started_at")},
            ],
        }
    out["table"] = {"code": table.code, "game": row.number}
    if row.coach:  # played with the live coach: never rated
        out["coach"] = coached_seats(row.coach)
    return out

"""What players and spectators see: public views built from stored rows and the engine.

Nothing secret leaves through here before its time: the server seed appears only once the
game is finished, and tokens never.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

from yacht.game import Event, Game, Phase
from yacht.rules import CATEGORIES, UPPER_CATEGORIES, Rules, rules_by_name
from yacht.web.models import GameRow, SeatRow, TableRow
from yacht.web.schemas import (
    EventOut,
    GameState,
    GameSummary,
    RulesInfo,
    SeatState,
    TableState,
    TableSummary,
    UpperBonusInfo,
)
from yacht.web.store import TableSnapshot

__all__ = [
    "RECENT_EVENTS",
    "event_out",
    "game_state",
    "game_summary",
    "public_game_json",
    "review_summary",
    "rules_info",
    "seat_states",
    "table_state",
    "table_summary",
]

RECENT_EVENTS = 12


def rules_info(rules: Rules) -> RulesInfo:
    bonus = rules.upper_bonus
    return RulesInfo(
        name=rules.name,
        description=rules.description,
        categories=list(CATEGORIES),
        upper_bonus=UpperBonusInfo(threshold=bonus.threshold, points=bonus.points)
        if bonus
        else None,
    )


def seat_states(seats: Collection[SeatRow], connected: Collection[int] = ()) -> list[SeatState]:
    return [
        SeatState(
            seat=s.position,
            name=s.name,
            kind="bot" if s.kind == "bot" else "human",
            bot=s.bot,
            taken=s.kind == "bot" or s.token_hash is not None,
            connected=s.position in connected,
        )
        for s in seats
    ]


def review_summary(review: dict[str, Any] | None) -> dict[str, Any] | None:
    """The review as the table shows it: each player's loss, accuracy and chart.

    Every decision is left out of the live state (it is most of the review's size); the page
    fetches them from ``/api/games/{id}/review`` when asked.
    """
    if review is None:
        return None
    players = [{k: v for k, v in p.items() if k != "decisions"} for p in review["players"]]
    return {**review, "players": players}


def event_out(version: int, event: Event) -> EventOut:
    return EventOut(
        version=version,
        seat=event.player,
        action=str(event.action),
        dice=list(event.dice) if event.dice is not None else None,
        points=event.points,
    )


def game_state(row: GameRow, game: Game | None, seat_count: int, rules: Rules) -> GameState:
    finished = row.status == "finished"
    common: dict[str, Any] = {
        "id": row.id,
        "number": row.number,
        "status": row.status,
        "rounds": len(CATEGORIES),
        "deadline": row.deadline,
        "commitment": row.commitment,
        "server_seed": row.server_seed if finished else None,
        "review": review_summary(row.review) if finished else None,
    }
    if game is None:
        return GameState(
            **common,
            version=0,
            round=1,
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
            start_rolls=[],
            first=None,
            recent=[],
        )
    uppers = [sum(s.get(c, 0) for c in UPPER_CATEGORIES) for s in game.sheets]
    potentials = {}
    if game.dice is not None:
        sheet = game.sheet(game.current)
        potentials = {c: rules.score(game.dice, c) for c in CATEGORIES if c not in sheet}
    start = max(0, game.version - RECENT_EVENTS)
    return GameState(
        **common,
        version=game.version,
        round=game.round,
        current=None if game.phase is Phase.FINISHED else game.current,
        phase=game.phase.value,
        dice=list(game.dice) if game.dice is not None else None,
        held=sorted(game.held),
        rolls_used=game.rolls_used,
        rolls_left=game.rolls_left,
        sheets=[dict(s) for s in game.sheets],
        upper_totals=uppers,
        bonuses=[rules.bonus(u) for u in uppers],
        totals=game.totals,
        potentials=potentials,
        winners=game.winners(),
        start_rolls=[list(r) for r in game.start_rolls],
        first=game.first,
        recent=[event_out(i + 1, e) for i, e in enumerate(game.events) if i >= start],
    )


def table_state(
    snap: TableSnapshot, game: Game | None, connected: Collection[int] = ()
) -> TableState:
    table = snap.table
    rules = rules_by_name(table.preset)
    return TableState(
        code=table.code,
        invite_path=f"/t/{table.code}",
        rules=rules_info(rules),
        hints=table.hints,
        turn_seconds=table.turn_seconds,
        start_rule=table.start_rule,
        client_seed=table.client_seed,
        revision=table.revision,
        seats=seat_states(snap.seats, connected),
        game=game_state(snap.game, game, len(snap.seats), rules),
    )


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
        "commitment": row.commitment,
        "client_seed": table.client_seed,
        "algorithm": "HMAC-SHA256(server_seed, f'{client_seed}:{index}:{counter}')",
    }
    out["table"] = {"code": table.code, "game": row.number}
    return out

"""Opening a table: a :class:`~yacht.web.protocol.messages.CreateTable` checked, and the rows it
makes."""

from __future__ import annotations

from collections import Counter

from yacht.dice import FairDice
from yacht.rules import Rules, RulesError, rules_by_name
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import CreateTable
from yacht.web.protocol.names import look_alike
from yacht.web.service import bots, fairness
from yacht.web.storage.models import GameRow, SeatRow, TableRow
from yacht.web.storage.store import now

__all__ = ["checked", "opening_rows"]


def checked(spec: CreateTable) -> Rules:
    """The preset of a new table, its seats checked (bots from the web's list of levels)."""
    try:
        rules = rules_by_name(spec.preset)
    except RulesError as e:
        raise TableError("invalid", str(e), e) from None
    for seat in spec.seats:
        if seat.kind == "bot":
            try:
                bots.check_bot(seat.bot)
            except ValueError as e:
                raise TableError("invalid", str(e), e) from None
        elif seat.bot is not None or seat.name is not None:
            raise TableError("invalid", "a seat for a person takes no bot level or name")
    if spec.move_days is not None and spec.turn_seconds is not None:
        raise TableError(
            "invalid", "a table has a time per move in days or a turn clock in seconds, not both"
        )
    return rules


def opening_rows(
    spec: CreateTable, rules: Rules, code: str, seed: str, creator: str | None
) -> tuple[TableRow, list[SeatRow], GameRow]:
    """The new table's row, its seats (bots named) and its first game, waiting for players,
    with the commitment to ``seed`` published and no player's seed yet (fair dice rule 3)."""
    stamp = now()
    table = TableRow(
        code=code,
        preset=rules.name,
        hints=spec.hints and not spec.rated,
        turn_seconds=spec.turn_seconds,
        start_rule=spec.start,
        client_seed=spec.client_seed,
        game_number=1,
        revision=0,
        created_at=stamp,
        creator=creator,
        private=spec.private,
        rated=spec.rated,
        move_days=spec.move_days,
        missed_limit=spec.missed_moves if spec.move_days is not None else None,
    )
    levels = Counter(s.bot for s in spec.seats if s.kind == "bot")
    seen: Counter[str | None] = Counter()
    seats: list[SeatRow] = []
    for i, s in enumerate(spec.seats):
        name = None
        if s.kind == "bot":
            seen[s.bot] += 1
            name = s.name or bots.bot_name(s.bot, seen[s.bot] if levels[s.bot] > 1 else 0)
        alike = None if name is None else look_alike(name, (r.name for r in seats))
        if alike is not None:
            raise TableError("invalid", f"the bot names {alike!r} and {name!r} look alike")
        seats.append(SeatRow(table_code=code, position=i, name=name, kind=s.kind, bot=s.bot))
    game = GameRow(
        table_code=code,
        number=1,
        server_seed=seed,
        commitment=FairDice(seed).commitment,
        status="waiting",
        version=0,
        created_at=stamp,
        updated_at=stamp,
        fair={"rule": fairness.RULE, "at": stamp.isoformat(), "contributions": []},
    )
    return table, seats, game

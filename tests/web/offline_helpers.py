"""Helpers of the offline-sync tests: an offline game as the ``/play`` page sends it, made by
playing the engine with the page's dice (fair dice rule 3, key ``offline``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from yacht.dice import PlacedDice
from yacht.game import Game

from .account_helpers import Device


def offline_game(
    seed: str,
    players: tuple[str, ...] = ("human", "optimal"),
    *,
    game_id: str = "lx1-abcdef12",
    preset: str = "traditional",
    finished_at: datetime | None = None,
) -> dict[str, Any]:
    """A whole game as the page records it: each seat rolls, holds its first die and rolls
    again, then scores the open category worth most."""
    game = Game([f"p{i}" for i in range(len(players))], preset, PlacedDice(seed, key="offline"))
    moves: list[dict[str, Any]] = []
    while not game.finished:
        moves.append({"action": "roll", "dice": list(game.apply("roll").dice or ())})
        game.apply("hold 1")
        moves.append({"action": "hold 1"})
        moves.append({"action": "roll", "dice": list(game.apply("roll").dice or ())})
        view = game.view()
        best = max(view.open_categories, key=lambda c: game.potential(c) or 0)
        game.apply(f"score {best.value}")
        moves.append({"action": f"score {best.value}"})
    when = finished_at or datetime.now(UTC) - timedelta(minutes=5)
    return {
        "id": game_id,
        "preset": preset,
        "seed": seed,
        "players": list(players),
        "seat": 0,
        "moves": moves,
        "totals": game.totals,
        "finished_at": when.isoformat(),
    }


def seed(n: int) -> str:
    return f"{n:064x}"


def sync(who: Device, *games: dict[str, Any], **kwargs: Any) -> Any:
    return who.post("/api/me/offline-games", {"games": list(games)}, **kwargs)

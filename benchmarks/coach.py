"""The live coach: how long it takes to weigh a move, and what an expected point is worth in
the chance of winning.

- **Latency**: :func:`yacht.web.service.coach.weigh`, the work the web server's worker does
  before a coached roll or score, over every decision of seeded games of two medium bots
  (traditional): in expected points alone, and in the chance of winning heads-up (the win
  tables warmed first, as a serving process has them). Median and worst, wall time on one core.
- **Points to percentage points**: for each decision that gave up at least half an expected
  point, its loss in the chance of winning (percentage points) per expected point lost, as
  :func:`yacht.review.review` rates it, early (rounds 1-6) and late (7-12). The thresholds'
  defaults (1 point alone, 1 percentage point with opponents) were chosen from it.

Run: ``python -m benchmarks.coach``.
"""

from __future__ import annotations

import statistics
import time

from benchmarks.machine import header, on_one_core
from yacht.actions import Roll, Score
from yacht.bots import play_game
from yacht.game import Game, TurnView
from yacht.review import review
from yacht.web.service.coach import weigh

GAMES = 6
RATIO_GAMES = 20


def positions(game: Game) -> list[tuple[TurnView, tuple[str, object]]]:
    """Each decision of ``game`` (a roll with dice on the table, or a score): the view just
    before it and the move it made, as the coach names moves."""
    out: list[tuple[TurnView, tuple[str, object]]] = []
    again = Game(list(game.players), game.rules)
    for event in game.events:
        action = event.action
        dice = again.dice
        if dice is not None and isinstance(action, Roll) and len(again.held) < 5:
            out.append((again.view(), ("keep", tuple(sorted(dice[p - 1] for p in again.held)))))
        elif dice is not None and isinstance(action, Score):
            out.append((again.view(), ("score", action.category.value)))
        again.apply(action, dice=event.dice if isinstance(action, Roll) else None)
    return out


def _latencies(players: int, unit: str, seeds: range) -> list[float]:
    walls = []
    for seed in seeds:
        game = play_game(["medium"] * players, seed=seed)
        for view, move in positions(game):
            start = time.perf_counter()
            weigh(view, move, unit)
            walls.append(time.perf_counter() - start)
    return walls


def _ratios() -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"early": [], "late": []}
    for seed in range(RATIO_GAMES):
        for d in review(play_game(["medium", "medium"], seed=seed)).decisions:
            if d.points_loss >= 0.5:
                out["early" if d.turn <= 6 else "late"].append(100 * d.loss / d.points_loss)
    return out


def main() -> None:
    on_one_core(_run)


def _run() -> None:
    print(header("the live coach"))
    for players, unit, label in ((1, "points", "alone, points"), (2, "win", "heads-up, win")):
        # Warmed on other games: the tables a serving process has built, not these answers.
        _latencies(players, unit, range(100, 100 + GAMES))
        walls = _latencies(players, unit, range(GAMES))
        print(
            f"  weigh a move, {label:<16} {len(walls):4} decisions: median "
            f"{statistics.median(walls) * 1000:7.1f} ms, worst {max(walls) * 1000:7.1f} ms"
        )
    for part, values in _ratios().items():
        q = statistics.quantiles(values, n=4)
        print(
            f"  percentage points of P(win) per expected point, {part}: median "
            f"{statistics.median(values):.2f} (quartiles {q[0]:.2f}-{q[2]:.2f}, "
            f"{len(values)} decisions)"
        )


if __name__ == "__main__":
    main()

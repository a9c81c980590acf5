"""The core engine: scoring, whole random games, and JSON round trips.

Rows: ``score()`` calls per second over all 7776 ordered rolls x 12 categories (the public,
validating path) and ``Rules.score_counts`` on the 252 sorted rolls (the solvers' path); random
legal games per second through ``Game.apply`` with random choices from ``legal_actions()``;
``to_json`` + ``Game.from_json`` of a finished 6-player game (a replay of every event).

Run: ``python -m benchmarks.core`` (or ``make bench``).
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable

from yacht.dice import ROLLS, RandomDice
from yacht.game import Game
from yacht.rules import CATEGORIES, rules_by_name, score

BUDGET = 1.0  # seconds per row


def rate(work: Callable[[], int]) -> float:
    """Units of work per second, repeating ``work`` (which returns its units) for BUDGET."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < BUDGET:
        done += work()
    return done / elapsed


def random_game(players: int, rng: random.Random) -> Game:
    game = Game([f"p{i}" for i in range(players)], "traditional", RandomDice(rng.randrange(2**32)))
    while not game.finished:
        game.apply(rng.choice(game.legal_actions()))
    return game


def main() -> None:
    rolls = list(itertools.product(range(1, 7), repeat=5))
    rules = rules_by_name("traditional")
    counts = [Counter(r) for r in ROLLS]

    def all_scores() -> int:
        for roll in rolls:
            for c in CATEGORIES:
                score(roll, c)
        return len(rolls) * len(CATEGORIES)

    def all_counts() -> int:
        for count in counts:
            for c in CATEGORIES:
                rules.score_counts(count, c)
        return len(counts) * len(CATEGORIES)

    rng = random.Random(1)
    six = random_game(6, rng)
    data = six.to_json()
    print("core engine (traditional)")
    print(f"  score() on ordered rolls      {rate(all_scores):>12,.0f} scores/s")
    print(f"  score_counts() on sorted rolls{rate(all_counts):>12,.0f} scores/s")
    for players in (1, 2, 6):
        games = rate(lambda p=players: (random_game(p, rng), 1)[1])  # type: ignore[misc]
        print(
            f"  random legal games, {players} player{'s' * (players > 1)}  {games:>10,.1f} games/s"
        )
    replays = rate(lambda: (Game.from_json(six.to_json()), 1)[1])
    print(
        f"  to_json + from_json, 6 players ({len(data['events'])} events)"
        f"  {1000 / replays:.1f} ms per round trip"
    )


if __name__ == "__main__":
    main()

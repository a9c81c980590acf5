"""Random games per second: OpenSpiel's ``yacht`` through its Python API next to ours.

Every row plays whole games with random legal decisions for about one second. A chance node in
OpenSpiel's yacht lists up to 6^5 = 7776 (outcome, probability) pairs; its examples and MCTS
rollouts sample them with ``np.random.choice(actions, p=probabilities)`` (first row). The next
rows pick from the list by index, then draw the outcome number directly, to show where the
time goes. "Same player" rows make the same random choices in both: a reroll mask 0..31
(0 = stop), then a random open category.

Run: ``python -m benchmarks.openspiel`` (or ``make bench``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from yacht.actions import Hold, Roll, Score
from yacht.dice import RandomDice
from yacht.env import YachtEnv, raw_env
from yacht.game import Game
from yacht.rules import CATEGORIES

BUDGET = 1.0  # seconds per row


def openspiel_game(players: int, rng: random.Random, chance: str = "idiom") -> None:
    state = pyspiel.load_game("yacht", {"players": players}).new_initial_state()
    np_rng = np.random.default_rng(rng.randrange(2**63))
    while not state.is_terminal():
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        elif chance == "idiom":
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(np_rng.choice(actions, p=probabilities)))
        elif chance == "index":
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:  # equally likely outcomes: one base-6 digit per rerolled die
            history = state.history()
            rerolled = 5 if not history or history[-1] >= 32 else history[-1].bit_count()
            state.apply_action(rng.randrange(6**rerolled))


def our_game(players: int, rng: random.Random) -> None:
    """OpenSpiel's random player on our engine: a random reroll mask, 0 meaning "score"."""
    game = Game([f"p{i}" for i in range(players)], "knizia", RandomDice(rng.randrange(2**63)))
    while not game.finished:
        game.apply(Roll())
        while True:
            mask = rng.randrange(32) if game.rolls_left else 0
            if mask == 0:
                sheet = game.sheet(game.current)
                game.apply(Score(rng.choice([c for c in CATEGORIES if c not in sheet])))
                break
            hold = Hold(tuple(p + 1 for p in range(5) if not mask >> p & 1))
            if hold.positions != tuple(sorted(game.held)):
                game.apply(hold)
            game.apply(Roll())


def gym_episode(env: YachtEnv, rng: random.Random) -> None:
    np_rng = np.random.default_rng(rng.randrange(2**63))
    _, info = env.reset(seed=rng.randrange(2**63))
    terminated = False
    while not terminated:
        action = int(np_rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, _, info = env.step(action)


def aec_game(env: raw_env, rng: random.Random) -> None:
    np_rng = np.random.default_rng(rng.randrange(2**63))
    env.reset(seed=rng.randrange(2**63))
    for _ in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        env.step(None if terminated else int(np_rng.choice(np.flatnonzero(obs["action_mask"]))))


def rate(play: Callable[[random.Random], None]) -> tuple[float, int]:
    rng = random.Random(1)
    games, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < BUDGET or games < 3:
        play(rng)
        games += 1
    return games / elapsed, games


def main() -> None:
    env = YachtEnv(rules="knizia")
    rows: list[tuple[str, Callable[[random.Random], None]]] = [
        ("OpenSpiel, np.random.choice(p=...)", lambda r: openspiel_game(1, r)),
        ("OpenSpiel, chance_outcomes()[i]", lambda r: openspiel_game(1, r, "index")),
        ("OpenSpiel, outcome drawn directly", lambda r: openspiel_game(1, r, "direct")),
        ("OpenSpiel, 2 players, np.random.choice", lambda r: openspiel_game(2, r)),
        ("yacht Game, same player", lambda r: our_game(1, r)),
        ("yacht Game, same player, 2 players", lambda r: our_game(2, r)),
        ("YachtEnv (gymnasium), masked random", lambda r: gym_episode(env, r)),
        ("AEC env (pettingzoo), 2 players", lambda r: aec_game(raw_env(2, "knizia"), r)),
    ]
    print("random games per second (1 player unless noted)")
    for label, play in rows:
        per_second, games = rate(play)
        print(f"  {label:<42} {per_second:9.1f} games/s  ({games} games)")


if __name__ == "__main__":
    main()

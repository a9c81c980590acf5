"""The optimal bot, seated at the Gymnasium environment, scores the solver's expected total.

The bot acts from the observation alone (:func:`yacht.env.view_from_observation`), so this
checks the observation, the action encoding, the rewards and the seeding together against
``yacht.strategy.solve(rules).expected``, an exact value computed by the strategy package.
"""

from __future__ import annotations

import math
import random
import statistics

import gymnasium
import numpy as np
import pytest

from yacht.bots import make_bot
from yacht.env import ENV_ID, bot_action, view_from_observation
from yacht.rules import rules_by_name
from yacht.strategy import solve

GAMES = 400


def play(bot_name: str, preset: str, games: int) -> list[float]:
    """Each episode's summed reward for a bot playing through ``gymnasium.make``."""
    env = gymnasium.make(ENV_ID, rules=preset)
    rules = rules_by_name(preset)
    bot, rng = make_bot(bot_name), random.Random(0)
    totals = []
    for seed in range(games):
        obs, info = env.reset(seed=seed)
        total, terminated = 0.0, False
        while not terminated:
            view = view_from_observation(obs, rules)
            game_view = env.unwrapped.view()  # type: ignore[attr-defined]
            assert (view.dice, view.rolls_left, dict(view.sheet)) == (
                game_view.dice,
                game_view.rolls_left,
                dict(game_view.sheet),
            )
            action = bot_action(bot, view, rng)
            assert info["action_mask"][action] == 1
            obs, reward, terminated, truncated, info = env.step(np.int64(action))
            assert not truncated
            total += float(reward)
        assert total == env.unwrapped.game.totals[0]  # type: ignore[attr-defined]
        totals.append(total)
    return totals


@pytest.mark.parametrize("preset", ["traditional", "clubhouse"])
def test_optimal_bot_through_the_env_scores_the_solver_expectation(preset: str) -> None:
    totals = play("optimal", preset, GAMES)
    expected = solve(rules_by_name(preset)).expected
    error = statistics.stdev(totals) / math.sqrt(len(totals))
    assert abs(statistics.mean(totals) - expected) < 4 * error, (
        statistics.mean(totals),
        expected,
        error,
    )


def test_a_random_agent_falls_far_short_of_the_optimum() -> None:
    totals = play("random", "traditional", 100)
    expected = solve(rules_by_name("traditional")).expected
    assert statistics.mean(totals) < expected - 40

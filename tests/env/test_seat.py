"""An agent trained alone plays a PettingZoo seat exactly as it plays its own games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from yacht.env import (
    FaceCounts,
    Features,
    VectorYachtEnv,
    YachtEnv,
    raw_env,
    seat_action,
    seat_policy,
    to_solo,
)
from yacht.env.wrappers import feature_blocks
from yacht.rules import rules_by_name

Agent = Callable[[npt.NDArray[Any], npt.NDArray[Any]], int]
SEEDS = range(100, 112)


def features_agent(x: npt.NDArray[Any], mask: npt.NDArray[Any]) -> int:
    """Keeps the three largest dice (sorted holds: bits 2, 3, 4) while it may roll, unless
    some open category already pays over half its best; then scores the best-paying one."""
    names = [name for name, _ in feature_blocks(rules_by_name("traditional"))]
    assert names[3] == "points_now"
    now = x[51:63] + 1e-3 * mask[32:]  # an open category beats a filled one at 0
    if mask[0] and now.max() < 0.5:
        return 0b11100
    return 32 + int(np.argmax(np.where(mask[32:] > 0, now, -1.0)))


def solo_totals(agent: Agent, env: Any) -> list[int]:
    totals = []
    for seed in SEEDS:
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            action = agent(obs, info["action_mask"])
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        totals.append(env.unwrapped.game.totals[0])
    return totals


def seat_totals(policy: Callable[[dict[str, Any]], int], players: int) -> list[int]:
    totals = []
    table = raw_env(num_players=players, illegal_action="terminate")
    for seed in SEEDS:
        table.reset(seed=seed)
        while table.agents:
            seen, _, terminated, truncated, _ = table.last()
            table.step(None if terminated or truncated else policy(seen))
        assert table.game is not None and table.game.finished
        totals.append(table.game.totals[0])
    return totals


@pytest.mark.parametrize("players", [1, 3])
def test_a_features_agent_scores_the_same_games_in_seat_0_as_alone(players: int) -> None:
    trained = Features(YachtEnv())
    alone = solo_totals(features_agent, trained)
    seated = seat_totals(seat_policy(features_agent, like=trained), players)
    assert seated == alone  # the same dice, the same decisions: the same mean
    assert np.mean(seated) == np.mean(alone)


def test_without_seat_action_the_holds_keep_the_wrong_dice() -> None:
    trained = Features(YachtEnv())

    def observation_only(seen: dict[str, Any]) -> int:
        return features_agent(to_solo(seen, like=trained), np.asarray(seen["action_mask"]))

    assert seat_totals(observation_only, 2) != solo_totals(features_agent, trained)


def test_every_observation_option_converts_like_its_training_environment() -> None:
    table = raw_env(num_players=2, rules="clubhouse")
    table.reset(seed=9)
    seen = table.observe("player_0")
    solo = YachtEnv(rules="clubhouse")
    raw, _ = solo.reset(seed=9)
    cases: list[tuple[Any, Any]] = [
        ("raw", solo),
        (FaceCounts(YachtEnv(rules="clubhouse")), FaceCounts(YachtEnv(rules="clubhouse"))),
        (Features(YachtEnv(rules="clubhouse"), one_hot=False), None),
        (VectorYachtEnv(1, "clubhouse", observation="features"), None),
    ]
    for like, wrapped in cases:
        mine = to_solo(seen, like=like, rules="clubhouse")
        if wrapped is not None:
            assert np.array_equal(mine, wrapped.reset(seed=9)[0])
        else:
            assert mine.shape == (like.observation_space.shape[-1],)
    assert np.array_equal(to_solo(seen), raw)
    dice = seen["observation"][:5].tolist()
    smallest = seat_action(0b00001, seen, like="features")
    assert dice[smallest.bit_length() - 1] == min(dice)
    assert seat_action(0b00001, seen) == 1 and seat_action(40, seen, "features") == 40
    with pytest.raises(ValueError, match="unknown observation"):
        to_solo(seen, like="pixels")

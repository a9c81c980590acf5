"""The batched environment plays exactly the single environment's games, and its dice."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

from yacht.actions import InvalidActionError
from yacht.env import (
    CounterDice,
    FaceCounts,
    Features,
    VectorYachtEnv,
    YachtEnv,
    counter_dice,
    score_action,
)
from yacht.env.counter_dice import _GOLDEN, _faces, _mix
from yacht.rules import preset_names

SINGLE_WRAPPERS: dict[str, Any] = {
    "raw": lambda env: env,
    "features": Features,
    "face_counts": FaceCounts,
}


def play_both(
    rules: str,
    observation: str,
    *,
    games: int = 5,
    steps: int = 160,
    seed: int = 11,
    unmasked: float = 0.05,
    **settings: Any,
) -> int:
    """Step the vector env and one YachtEnv per game with the same actions; assert every
    observation, mask, reward and ending agree. Returns how many games ended."""
    vector = VectorYachtEnv(games, rules=rules, observation=observation, **settings)
    singles = [
        SINGLE_WRAPPERS[observation](YachtEnv(rules=rules, **settings)) for _ in range(games)
    ]
    obs, info = vector.reset(seed=seed)
    seen = [env.reset(seed=seed + i) for i, env in enumerate(singles)]
    restart, ended = [False] * games, 0
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        actions = []
        for i in range(games):
            assert np.array_equal(obs[i], seen[i][0])
            assert obs[i].dtype == seen[i][0].dtype
            assert np.array_equal(info["action_mask"][i], seen[i][1]["action_mask"])
            legal = np.flatnonzero(info["action_mask"][i])
            wild = rng.random() < unmasked or not len(legal)
            actions.append(int(rng.integers(44)) if wild else int(rng.choice(legal)))
        obs, rewards, terminated, truncated, info = vector.step(np.array(actions))
        for i, env in enumerate(singles):
            if restart[i]:  # NEXT_STEP: this step started the game's next episode
                seen[i], restart[i] = env.reset(), False
                assert (rewards[i], terminated[i], truncated[i]) == (0.0, False, False)
                continue
            o, reward, term, trunc, inf = env.step(actions[i])
            assert (reward, term, trunc) == (rewards[i], terminated[i], truncated[i])
            assert inf["illegal_action"] == info["illegal_action"][i]
            assert inf["total"] == info["total"][i]
            seen[i], restart[i] = (o, inf), term or trunc
            ended += term or trunc
    return ended


@pytest.mark.parametrize("rules", preset_names())
@pytest.mark.parametrize("observation", ["raw", "features", "face_counts"])
def test_the_same_seeds_and_actions_give_the_single_environments_trajectories(
    rules: str, observation: str
) -> None:
    assert play_both(rules, observation) >= 3  # episodes ended and the next ones matched too


def test_penalize_and_its_limit_match_too() -> None:
    settings: dict[str, Any] = {"illegal_limit": 6, "illegal_penalty": 2.5}
    ended = play_both(
        "clubhouse", "raw", unmasked=0.6, steps=120, illegal_action="penalize", **settings
    )
    assert ended >= 2


def test_one_hot_off_matches_the_scaled_features() -> None:
    vector = VectorYachtEnv(3, observation="features", one_hot=False)
    single = Features(YachtEnv(), one_hot=False)
    obs, _ = vector.reset(seed=5)
    assert np.array_equal(obs[2], single.reset(seed=7)[0])
    assert vector.single_observation_space == single.observation_space


def test_the_ending_step_shows_a_zero_mask_and_the_guard_makes_it_safe() -> None:
    vector = VectorYachtEnv(2)
    _, info = vector.reset(seed=3)
    for _ in range(12):  # score the first open category: twelve steps, a full sheet
        mask = info["action_mask"]
        actions = np.array([32 + int(np.flatnonzero(m[32:])[0]) for m in mask])
        _, _, terminated, _, info = vector.step(actions)
    assert terminated.all() and not info["action_mask"].any()
    guarded = info["action_mask"] | ~info["action_mask"].any(axis=1, keepdims=True)
    assert guarded.all()  # every action allowed: the next step ignores it anyway
    obs, rewards, terminated, _, info = vector.step(np.array([43, 0]))
    assert not terminated.any() and rewards.tolist() == [0.0, 0.0]
    assert info["action_mask"].sum(axis=1).tolist() == [44, 44] and obs[:, 5].tolist() == [2, 2]


def test_same_step_autoreset_never_returns_a_zero_mask_and_keeps_the_last_observation() -> None:
    vector = VectorYachtEnv(2, autoreset_mode="same_step")
    single = YachtEnv()
    _, info = vector.reset(seed=8)
    single.reset(seed=8)
    for _ in range(12):
        assert info["action_mask"].any(axis=1).all()
        action = 32 + int(np.flatnonzero(info["action_mask"][0, 32:])[0])
        last, reward, terminated, _, _ = single.step(action)
        obs, rewards, ended, _, info = vector.step(np.array([action, action]))
    assert terminated and ended.all() and rewards[0] == reward
    assert info["_final_obs"].all() and np.array_equal(info["final_obs"][0], last)
    assert info["action_mask"].all() and np.array_equal(obs[0], single.reset()[0])


def test_raise_refuses_the_whole_step_and_bad_actions_are_refused() -> None:
    vector = VectorYachtEnv(3, illegal_action="raise")
    vector.reset(seed=1)
    vector.step(np.array([32, 32, 32]))
    with pytest.raises(ValueError, match="illegal action 32 in game 1"):
        vector.step(np.array([33, 32, 33]))
    assert np.array_equal(vector.step(np.array([33, 33, 33]))[0][:, 6:8], [[1, 1]] * 3)
    for bad in (np.array([0, 44, 0]), np.array([0, 0]), np.array([0.0, 1.0, 2.0])):
        with pytest.raises(InvalidActionError):
            vector.step(bad)


def test_seeds_reset_masks_and_the_gymnasium_interface() -> None:
    vector = VectorYachtEnv(3)
    assert isinstance(vector, gymnasium.vector.VectorEnv)
    assert vector.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, _ = vector.reset(seed=[10, None, 12])
    assert np.array_equal(obs[0], YachtEnv().reset(seed=10)[0])
    assert np.array_equal(obs[2], YachtEnv().reset(seed=12)[0])
    assert obs in vector.observation_space
    vector.step(np.array([32, 32, 32]))
    again, _ = vector.reset(options={"reset_mask": np.array([True, False, False])})
    single = YachtEnv()
    single.reset(seed=10)
    assert np.array_equal(again[0], single.reset()[0])  # the next episode of seed 10
    assert again[1, 6] == 1  # not reset: its first category stays filled
    with pytest.raises(ValueError, match="num_envs"):
        VectorYachtEnv(0)
    with pytest.raises(ValueError, match="autoreset_mode"):
        VectorYachtEnv(1, autoreset_mode="disabled")


def test_the_dice_are_counter_dice_of_their_place() -> None:
    env = YachtEnv()
    env.reset(seed=21)
    env.reset()  # episode 1
    first = env.game.dice
    assert first == tuple(counter_dice(21, 1, 0, 0, np.arange(5)).tolist())
    env.step(score_action("choice"))
    assert env.game.dice == tuple(counter_dice(21, 1, 1, 0, np.arange(5)).tolist())
    env.step(1 + 4)  # hold dice 1 and 3: slots 1, 3 and 4 are rolled again (roll 1)
    rolled = counter_dice(21, 1, 1, 1, np.array([1, 3, 4])).tolist()
    assert [env.game.dice[i] for i in (1, 3, 4)] == rolled
    seat = CounterDice(21, episode=1)
    assert seat.roll_at(1, 0, 0, [2]) == [int(counter_dice(21, 1, 12, 0, 2))]


def test_a_rejected_draw_is_drawn_again_so_the_faces_stay_exactly_uniform() -> None:
    # low half 0: 6 * 0 mod 2**32 = 0 < 4, one of the four values Lemire's method rejects
    h = np.array([0, 1, 5 << 32], dtype=np.uint64)
    again = _faces(_mix(h[[0, 2]] + np.uint64(_GOLDEN))).tolist()
    assert _faces(h).tolist() == [again[0], 1, again[1]]
    faces = counter_dice(3, np.arange(60_000), 0, 0, 0)
    counts = np.bincount(faces, minlength=7)[1:]
    assert counts.min() > 9_500 and counts.max() < 10_500  # about 10,000 each (6 sigma: 550)

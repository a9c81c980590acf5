"""Stable-Baselines3 on the batched games: yacht.env.SB3VecEnv plays VectorYachtEnv's games
exactly, in SB3's conventions (reset in the ending step, terminal_observation, episode)."""

from __future__ import annotations

from importlib.util import find_spec

import numpy as np
import pytest

from yacht.env import VectorYachtEnv, YachtEnv

pytestmark = pytest.mark.rl

if find_spec("stable_baselines3") is None or find_spec("sb3_contrib") is None:
    pytest.skip(
        "Stable-Baselines3 and sb3-contrib not installed: pip install -e '.[rl]'",
        allow_module_level=True,
    )


def random_legal(rng: np.random.Generator, masks: list[np.ndarray]) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("autoreset_mode", ["same_step", "next_step"])
def test_it_plays_the_single_envs_games_in_sb3s_conventions(autoreset_mode: str) -> None:
    from yacht.env import SB3VecEnv

    venv = SB3VecEnv(
        VectorYachtEnv(3, "clubhouse", autoreset_mode=autoreset_mode), reward_scale=0.5
    )
    venv.seed(40)
    obs = venv.reset()
    singles = [YachtEnv(rules="clubhouse") for _ in range(3)]
    expected = [env.reset(seed=40 + i)[0] for i, env in enumerate(singles)]
    rng, returns, lengths, finished = np.random.default_rng(1), np.zeros(3), np.zeros(3), 0
    for _ in range(120):  # more than three games each: the resets are SB3's, in the ending step
        np.testing.assert_array_equal(obs, np.stack(expected))
        masks = venv.env_method("action_masks")
        for env, mask in zip(singles, masks, strict=True):
            np.testing.assert_array_equal(mask, env.action_masks())
        actions = random_legal(rng, masks)
        obs, rewards, dones, infos = venv.step(actions)
        for i, env in enumerate(singles):
            single_obs, reward, terminated, _, info = env.step(int(actions[i]))
            assert rewards[i] == np.float32(0.5 * float(reward))
            returns[i] += rewards[i]
            lengths[i] += 1
            assert dones[i] == terminated
            if terminated:
                finished += 1
                np.testing.assert_array_equal(infos[i]["terminal_observation"], single_obs)
                assert infos[i]["episode"]["total"] == info["total"]
                assert infos[i]["episode"]["r"] == pytest.approx(returns[i])
                assert infos[i]["episode"]["l"] == lengths[i]
                assert infos[i]["TimeLimit.truncated"] is False
                returns[i] = lengths[i] = 0
                single_obs, _ = env.reset()
            else:
                assert infos[i] == {}
            expected[i] = single_obs
    assert finished >= 9


def test_maskable_ppo_finds_the_masks_and_learns_on_it() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    from yacht.env import SB3VecEnv

    venv = SB3VecEnv(VectorYachtEnv(8, observation="features"), reward_scale=0.01)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=128, n_epochs=1, seed=0)
    model.learn(1024)
    assert len(model.ep_info_buffer) > 0  # SB3 read the games' episodes from the infos
    obs = venv.reset()
    for _ in range(80):
        masks = get_action_masks(venv)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[np.arange(8), actions].all()
        obs, *_ = venv.step(actions)


def test_dqn_runs_on_it_and_an_illegal_action_ends_that_game_only() -> None:
    from stable_baselines3 import DQN

    from yacht.env import SB3VecEnv

    venv = SB3VecEnv(VectorYachtEnv(4, observation="features"))
    DQN("MlpPolicy", venv, learning_starts=50, seed=0).learn(400)
    venv.reset()
    _, rewards, dones, infos = venv.step(np.array([32, 32, 0, 0]))  # score Ones, roll
    _, rewards, dones, infos = venv.step(np.array([32, 33, 0, 0]))  # Ones again: illegal
    assert dones.tolist() == [True, False, False, False]
    assert rewards[0] == -10.0 and infos[0]["illegal_action"] is True


def test_bad_input_is_refused_with_the_reason() -> None:
    from yacht.env import SB3VecEnv

    with pytest.raises(TypeError, match="needs a VectorYachtEnv"):
        SB3VecEnv(YachtEnv())  # type: ignore[arg-type]
    venv = SB3VecEnv(VectorYachtEnv(2))
    with pytest.raises(AttributeError, match="no per-game method 'render'"):
        venv.env_method("render")
    with pytest.raises(AttributeError, match="fixed"):
        venv.set_attr("rules", "knizia")
    assert venv.has_attr("action_masks") and not venv.has_attr("no_such_thing")
    assert venv.get_attr("rules", indices=[1]) == [venv.env.rules]

"""The standard tools on the registered id, as a researcher first runs them: Stable-Baselines3's
``check_env`` and ``make_vec_env``, sb3-contrib's MaskablePPO, Gymnasium's vector envs."""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

import gymnasium
import numpy as np
import pytest

from yacht.env import ENV_ID, FaceCounts, Features, OptimumInfo, YachtEnv
from yacht.env.picture import HEIGHT, WIDTH
from yacht.rules import preset_names

pytestmark = pytest.mark.rl

if find_spec("stable_baselines3") is None or find_spec("sb3_contrib") is None:
    pytest.skip(
        "Stable-Baselines3 and sb3-contrib not installed: pip install -e '.[rl]'",
        allow_module_level=True,
    )
# Stable-Baselines3 is imported by the tests that use it, not at collection: it brings torch,
# seconds that every pytest process would pay even where these tests are not selected.


@pytest.mark.parametrize("preset", preset_names())
def test_sb3_check_env_passes_on_the_registered_id(preset: str) -> None:
    from stable_baselines3.common.env_checker import check_env

    # check_env steps 10 unmasked random actions; before illegal_action it raised in most runs.
    for _ in range(20):
        env = gymnasium.make(ENV_ID, rules=preset).unwrapped
        check_env(env, warn=True)


def test_sb3_check_env_checks_both_render_modes() -> None:
    from stable_baselines3.common.env_checker import check_env

    check_env(YachtEnv(render_mode="rgb_array"), skip_render_check=False)
    check_env(YachtEnv(render_mode="ansi"), skip_render_check=False)


def test_sb3_check_env_passes_on_the_observation_options() -> None:
    from stable_baselines3.common.env_checker import check_env

    for _ in range(5):
        check_env(FaceCounts(YachtEnv()))
        check_env(Features(YachtEnv()))
        check_env(Features(YachtEnv(rules="clubhouse"), one_hot=False))
        check_env(OptimumInfo(Features(YachtEnv())))


def test_make_vec_env_on_the_id_steps_renders_and_masks() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(ENV_ID, n_envs=2, seed=0, env_kwargs={"rules": "clubhouse"})
    assert venv.num_envs == 2 and venv.render_mode == "rgb_array"
    obs = venv.reset()
    assert obs.shape == (2, 32)
    masks = get_action_masks(venv)
    assert masks.shape == (2, 44) and masks.all()
    image = venv.render()
    assert image is not None and image.dtype == np.uint8
    assert all(rules.name == "clubhouse" for rules in venv.get_attr("rules"))
    rng = np.random.default_rng(0)
    finished, steps = np.zeros(2, dtype=bool), 0
    while not finished.all():
        masks = get_action_masks(venv)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, _, dones, infos = venv.step(actions)
        assert not any(info["illegal_action"] for info in infos)
        for info, done in zip(infos, dones, strict=True):
            if done:  # Monitor's episode record: the return is the final total
                assert info["episode"]["r"] > 0 and 12 <= info["episode"]["l"] <= 36
        finished |= dones
        steps += 1
    assert steps <= 36
    venv.close()


def test_make_vec_env_in_subprocesses_with_the_module_prefixed_id() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    # Worker processes start without the registry of this one; "yacht.env:" imports it there.
    venv = make_vec_env(f"yacht.env:{ENV_ID}", n_envs=2, vec_env_cls=SubprocVecEnv, seed=1)
    try:
        assert venv.reset().shape == (2, 32)
        assert get_action_masks(venv).all()
        _, rewards, _, _ = venv.step(np.array([43, 32]))  # score yacht, score ones
        assert rewards.shape == (2,) and (rewards >= 0).all()
    finally:
        venv.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_make_vec_on_the_id(mode: str) -> None:
    envs = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode, rules="knizia")
    try:
        obs, info = envs.reset(seed=3)
        assert obs.shape == (2, 32) and info["action_mask"].shape == (2, 44)
        again, _ = envs.reset(seed=3)
        assert np.array_equal(obs, again)
        obs, reward, terminated, truncated, info = envs.step(np.array([43, 0]))
        assert reward[1] == 0 and not terminated.any() and not truncated.any()
        assert info["action_mask"][0][43] == 0 and info["action_mask"][1][43] == 1
    finally:
        envs.close()


def test_gymnasium_make_vec_renders_rgb_arrays() -> None:
    envs = gymnasium.make_vec(ENV_ID, num_envs=2, render_mode="rgb_array")
    envs.reset(seed=0)
    images: Any = envs.render()
    assert len(images) == 2 and images[0].shape == (HEIGHT, WIDTH, 3)
    envs.close()


def test_maskable_ppo_finds_the_masks_and_plays_only_legal_actions() -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(ENV_ID, n_envs=2, seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(128)
    env = YachtEnv(illegal_action="raise")
    obs, _ = env.reset(seed=5)
    terminated, total = False, 0.0
    while not terminated:
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        obs, reward, terminated, _, _ = env.step(int(action))  # raises if illegal
        total += float(reward)
    assert total == env.game.totals[0] and env.game.finished


def test_unmasked_ppo_learns_on_the_default_env_without_crashing() -> None:
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(ENV_ID, n_envs=2, seed=0)
    model = PPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256

"""Observation options: face counts, scaled or one-hot features, the exact optimum in info."""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter

import gymnasium
import numpy as np
import pytest

from yacht.bots import make_bot
from yacht.env import (
    HOLD_COUNT,
    FaceCounts,
    Features,
    OptimumInfo,
    YachtEnv,
    bot_action,
    observation,
    view_from_observation,
)
from yacht.env.spaces import _bounds
from yacht.env.wrappers import action_values, feature_blocks
from yacht.review import review
from yacht.rules import CATEGORIES, rules_by_name
from yacht.strategy import hint, solve


def random_states(env: gymnasium.Env, seed: int, steps: int = 40):  # type: ignore[no-untyped-def]
    """(obs, info, base game) along a masked-random game, restarting at the end."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    for _ in range(steps):
        yield obs, info, env.unwrapped.game  # type: ignore[attr-defined]
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, terminated, _, info = env.step(action)
        if terminated:
            obs, info = env.reset()


def test_face_counts_replace_the_dice_and_keep_the_rest() -> None:
    env = FaceCounts(YachtEnv(rules="clubhouse"))
    assert env.observation_space.shape == (33,)
    for obs, _, game in random_states(env, seed=1):
        assert env.observation_space.contains(obs)
        counts = Counter(game.dice)
        assert obs[:6].tolist() == [counts[f] for f in range(1, 7)]
        assert obs[6:].tolist() == observation(game)[5:].tolist()


def test_hold_bits_refer_to_the_dice_in_ascending_order() -> None:
    for wrapper in (FaceCounts, Features):
        env = wrapper(YachtEnv(illegal_action="raise"))
        rng = np.random.default_rng(2)
        checked = 0
        for _, info, game in random_states(env, seed=2, steps=60):
            if not info["action_mask"][0] or game.dice is None:
                continue
            action = int(rng.integers(HOLD_COUNT))
            before = sorted(game.dice)
            kept = sorted(before[i] for i in range(5) if action >> i & 1)
            env.step(action)
            held = sorted(game.dice[p - 1] for p in game.held)
            assert held == kept, (before, action)
            checked += 1
        assert checked > 10


def test_features_are_in_range_and_say_what_the_game_shows() -> None:
    rules = rules_by_name("clubhouse")
    best, max_total = _bounds(rules)
    for one_hot in (True, False):
        env = Features(YachtEnv(rules=rules), one_hot=one_hot)
        blocks = feature_blocks(rules, one_hot)
        assert env.observation_space.shape == (sum(n for _, n in blocks),)
        for obs, _, game in random_states(env, seed=3, steps=50):
            assert env.observation_space.contains(obs) and obs.dtype == np.float32
            parts, i = {}, 0
            for name, n in blocks:
                parts[name], i = obs[i : i + n], i + n
            counts = Counter(game.dice)
            sheet = game.sheet(0)
            if one_hot:
                grid = parts["counts"].reshape(6, 6)
                assert grid.sum(axis=1).tolist() == [1.0] * 6
                assert grid.argmax(axis=1).tolist() == [counts[f] for f in range(1, 7)]
                assert parts["rolls_left"].tolist().index(1.0) == game.rolls_left
            else:
                assert parts["counts"] * 5 == pytest.approx([counts[f] for f in range(1, 7)])
                assert parts["rolls_left"][0] * 2 == game.rolls_left
            assert parts["open"].tolist() == [float(c not in sheet) for c in CATEGORIES]
            now = [
                0.0 if c in sheet else rules.score(game.dice, c) / best[c.index] for c in CATEGORIES
            ]
            assert parts["points_now"] == pytest.approx(now)
            upper = sum(sheet.get(c, 0) for c in CATEGORIES[:6])
            assert parts["upper"][0] == pytest.approx(min(upper / 63, 1.0))
            assert parts["total"][0] == pytest.approx(game.totals[0] / max_total)


def test_wrapped_episodes_are_seeded_like_the_environment() -> None:
    a = [o.tolist() for o, _, _ in random_states(Features(YachtEnv()), seed=9)]
    b = [o.tolist() for o, _, _ in random_states(Features(YachtEnv()), seed=9)]
    c = [o.tolist() for o, _, _ in random_states(Features(YachtEnv()), seed=10)]
    assert a == b and a != c


def test_wrappers_need_a_yacht_environment() -> None:
    other = gymnasium.make("CartPole-v1")
    for wrapper in (FaceCounts, Features, OptimumInfo):
        with pytest.raises(TypeError, match="needs a YachtEnv underneath, got CartPoleEnv"):
            wrapper(other)


def test_optimum_info_rates_each_action_as_the_review_does() -> None:
    env = OptimumInfo(YachtEnv())
    rng = np.random.default_rng(4)
    for seed in range(3):
        _, info = env.reset(seed=seed)
        lost, terminated = 0.0, False
        while not terminated:
            values = info["action_values"]
            legal = info["action_mask"].astype(bool)
            assert np.isnan(values[~legal]).all() and not np.isnan(values[legal]).any()
            assert info["optimum"] == pytest.approx(np.nanmax(values))
            game = env.unwrapped.game  # type: ignore[attr-defined]
            if game.rolls_left == 2 and not game.held:  # a turn's first roll
                used = frozenset(game.sheet(0))
                upper = sum(game.sheet(0).get(c, 0) for c in CATEGORIES[:6])
                best = hint(game.rules, used, game.dice, 2, upper=upper).best.expected
                assert info["optimum"] == pytest.approx(game.totals[0] + best)
            action = int(rng.choice(np.flatnonzero(legal)))
            lost += info["optimum"] - values[action]
            _, _, terminated, _, info = env.step(action)
        assert info["optimum"] == env.unwrapped.game.totals[0]  # type: ignore[attr-defined]
        assert np.isnan(info["action_values"]).all()
        assert lost == pytest.approx(review(env.unwrapped.game).players[0].loss)  # type: ignore[attr-defined]


def test_optimum_at_the_start_averages_to_the_solvers_expectation() -> None:
    env = OptimumInfo(YachtEnv())
    starts = [env.reset(seed=s)[1]["optimum"] for s in range(400)]
    error = statistics.stdev(starts) / math.sqrt(len(starts))
    expected = solve(rules_by_name("traditional")).expected
    assert abs(statistics.mean(starts) - expected) < 4 * error


def test_optimum_info_outside_features_uses_the_learners_action_numbers() -> None:
    inner = Features(YachtEnv())
    env = OptimumInfo(inner)
    bot, rng = make_bot("optimal"), random.Random(0)
    for _, info, game in random_states(env, seed=5, steps=30):
        positional = action_values(inner.unwrapped)  # type: ignore[arg-type]
        renumbered = [inner.positional(a) for a in range(HOLD_COUNT)]
        np.testing.assert_array_equal(info["action_values"][:HOLD_COUNT], positional[renumbered])
        np.testing.assert_array_equal(info["action_values"][HOLD_COUNT:], positional[HOLD_COUNT:])
        view = view_from_observation(observation(game), "traditional")
        chosen = bot_action(bot, view, rng)  # positional: the bot's choice is worth the optimum
        assert positional[chosen] == pytest.approx(info["optimum"])

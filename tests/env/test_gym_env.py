"""The Gymnasium environment as a learner sees it: spaces, seeds, rewards, masks, errors."""

from __future__ import annotations

import copy
import random
from collections import Counter

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

import yacht.env
from yacht.actions import (
    CategoryFilledError,
    GameOverError,
    Hold,
    InvalidActionError,
    NoRollsLeftError,
    Roll,
    Score,
)
from yacht.dice import RandomDice
from yacht.env import (
    ENV_ID,
    HOLD_COUNT,
    YachtEnv,
    action_mask,
    decode_action,
    decode_observation,
    hold_action,
    score_action,
)
from yacht.env.counter_dice import CounterDice
from yacht.game import Game
from yacht.rules import CATEGORIES, UPPER_CATEGORIES, Category, preset_names

HOLDS = [decode_action(a) for a in range(HOLD_COUNT)]


def masked_random_episode(env: YachtEnv, seed: int) -> list[tuple[int, float]]:
    """Play one episode choosing uniformly among legal actions; return (action, reward)s."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps = []
    terminated = False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        steps.append((action, float(reward)))
    return steps


@pytest.mark.parametrize("preset", preset_names())
def test_check_env_passes_for_every_preset(preset: str) -> None:
    env = gymnasium.make(ENV_ID, rules=preset).unwrapped
    check_env(env)
    assert isinstance(env, YachtEnv) and env.rules.name == preset


def test_registered_id_makes_the_environment_with_documented_spaces() -> None:
    env = gymnasium.make("yacht.env:yacht/Yacht-v0", rules="knizia")
    assert isinstance(env.unwrapped, YachtEnv)
    assert env.action_space == gymnasium.spaces.Discrete(44)
    assert env.observation_space.shape == (32,)
    assert env.observation_space.dtype == np.int16
    fields = yacht.env.observation_fields(env.unwrapped.rules)
    assert [f[0] for f in fields[:7]] == [
        "dice[1]",
        "dice[2]",
        "dice[3]",
        "dice[4]",
        "dice[5]",
        "rolls_left",
        "p0.used[ones]",
    ]


def test_reset_with_a_seed_reproduces_the_whole_episode() -> None:
    first = masked_random_episode(YachtEnv(), seed=11)
    again = masked_random_episode(YachtEnv(), seed=11)
    other = masked_random_episode(YachtEnv(), seed=12)
    assert first == again
    assert first != other
    env = YachtEnv()
    a, _ = env.reset(seed=5)
    b, _ = env.reset(seed=5)
    assert np.array_equal(a, b)


def test_an_episode_is_twelve_scorings_and_rewards_add_up_to_the_total() -> None:
    env = YachtEnv()
    steps = masked_random_episode(env, seed=3)
    scorings = [a for a, _ in steps if a >= 32]
    assert sorted(scorings) == list(range(32, 44))
    assert sum(r for _, r in steps) == env.game.totals[0]
    assert all(r == 0 for a, r in steps if a < 32)
    assert env.game.finished


def test_the_environment_plays_the_real_game_and_its_log_replays() -> None:
    env = YachtEnv(rules="clubhouse")
    masked_random_episode(env, seed=8)
    data = env.game.to_json()
    assert data["dice"] == {"kind": "counter", "seed": 8, "episode": 0, "rolloffs": 0}
    replayed = Game.from_json(data, dice=CounterDice(8))
    assert replayed.totals == env.game.totals
    assert data["rules"] == "clubhouse"
    assert any(isinstance(e.action, Hold) for e in env.game.events)


def test_observation_shows_dice_rolls_left_and_sheet() -> None:
    env = YachtEnv()
    obs, _ = env.reset(seed=4)
    assert env.observation_space.contains(obs)
    seen = decode_observation(obs)
    assert seen["dice"] == env.game.dice and seen["rolls_left"] == 2
    keep = (1, 3)
    obs, reward, *_ = env.step(hold_action(keep))
    seen2 = decode_observation(obs)
    assert [seen2["dice"][p - 1] for p in keep] == [seen["dice"][p - 1] for p in keep]
    assert seen2["rolls_left"] == 1 and reward == 0
    dice = env.game.dice
    assert dice is not None
    obs, reward, *_ = env.step(score_action("fours"))
    me = decode_observation(obs)["players"][0]
    assert me["sheet"] == {Category.FOURS: 4 * dice.count(4)} == {Category.FOURS: reward}
    assert me["upper"] == reward == me["total"]
    assert decode_observation(obs)["rolls_left"] == 2


def test_action_mask_marks_exactly_the_actions_step_accepts() -> None:
    env = YachtEnv(illegal_action="raise")
    _, info = env.reset(seed=21)
    rng = np.random.default_rng(0)
    for _ in range(14):
        mask = info["action_mask"]
        assert np.array_equal(env.action_masks(), mask.astype(bool))
        for action in range(44):
            trial = copy.deepcopy(env)
            try:
                trial.step(action)
                accepted = True
            except ValueError:
                accepted = False
            assert accepted == bool(mask[action]), (action, env.game)
        _, _, _, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))


def test_action_mask_agrees_with_the_games_legal_actions_in_every_phase() -> None:
    rng = random.Random(5)
    for seed in range(3):
        game = Game(["a", "b"], "clubhouse", RandomDice(seed))
        while True:
            legal = game.legal_actions()
            expected = [int(Roll() in legal and hold in legal) for hold in HOLDS]
            expected += [int(Score(c) in legal) for c in CATEGORIES]
            assert action_mask(game).tolist() == expected, game
            if game.finished:
                break
            game.apply(rng.choice(legal))


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = YachtEnv(illegal_action="raise")
    env.reset(seed=2)
    env.step(score_action("ones"))
    before = env.game.to_json()
    with pytest.raises(CategoryFilledError, match="ones is already filled"):
        env.step(score_action("ones"))
    assert env.game.to_json() == before
    env.step(hold_action([]))
    env.step(hold_action([5]))
    before = env.game.to_json()
    with pytest.raises(NoRollsLeftError, match="no rolls left"):
        env.step(hold_action([1, 2]))
    for bad in (44, -1, "roll", 1.5, True, None):
        with pytest.raises(InvalidActionError, match="actions are integers 0 to 43"):
            env.step(bad)
    assert env.game.to_json() == before
    assert sum(isinstance(e.action, Roll) for e in env.game.events) == 4


def test_step_after_the_end_or_before_reset_is_refused() -> None:
    env = YachtEnv()
    with pytest.raises(ResetNeeded):
        env.step(0)
    masked_random_episode(env, seed=1)
    with pytest.raises(GameOverError):
        env.step(score_action("choice"))


def upper_first_action(env: YachtEnv) -> int:
    """Chase the open upper face we have most of; score it after the last roll."""
    game = env.game
    dice = game.dice
    assert dice is not None
    sheet = game.sheet(0)
    faces = [c.face for c in UPPER_CATEGORIES if c not in sheet and c.face]
    if not faces:
        best = max((c for c in CATEGORIES if c not in sheet), key=lambda c: game.potential(c) or 0)
        return score_action(best)
    count = Counter(d for d in dice if d in faces)
    face = max(faces, key=lambda f: (count[f], f))
    if game.rolls_left:
        return hold_action([i for i, d in enumerate(dice, 1) if d == face])
    return score_action(CATEGORIES[face - 1])


def test_the_step_that_earns_the_upper_bonus_is_rewarded_with_it() -> None:
    env = YachtEnv(rules="clubhouse")
    bonus = env.rules.upper_bonus
    assert bonus is not None
    earned = 0
    for seed in range(60):
        env.reset(seed=seed)
        scored: list[tuple[Category, float]] = []
        terminated = False
        while not terminated:
            action = upper_first_action(env)
            _, reward, terminated, _, _ = env.step(action)
            decoded = decode_action(action)
            if isinstance(decoded, Score):
                scored.append((decoded.category, float(reward)))
        sheet = env.game.sheet(0)
        upper, expected = 0, []
        for category, _ in scored:
            crossed = 0
            if category in UPPER_CATEGORIES:
                crossed = bonus.points if upper < bonus.threshold <= upper + sheet[category] else 0
                upper += sheet[category]
            expected.append((category, float(sheet[category] + crossed)))
        assert scored == expected
        assert sum(r for _, r in scored) == env.game.totals[0]
        earned += upper >= bonus.threshold
    assert earned >= 5


def test_render_ansi_shows_the_dice_and_sheet() -> None:
    env = gymnasium.make(ENV_ID, render_mode="ansi")
    env.reset(seed=9)
    env.step(score_action("yacht"))
    text = env.render()
    assert isinstance(text, str)
    game = env.unwrapped.game  # type: ignore[attr-defined]
    assert " ".join(map(str, game.dice)) in text and "yacht" in text
    with pytest.raises(ValueError, match="unknown render mode 'human'"):
        YachtEnv(render_mode="human")


def test_rolls_left_in_the_observation_space_is_0_to_2_as_observed() -> None:
    env = YachtEnv()
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Box)
    assert (space.low[5], space.high[5]) == (0, 2)
    seen = set()
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            assert space.contains(obs)
            seen.add(int(obs[5]))
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, terminated, _, info = env.step(action)
    assert seen == {0, 1, 2}

"""What an unmasked learner meets (illegal_action) and what a recorder sees (render modes)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from yacht.actions import GameOverError, InvalidActionError, NoRollsLeftError, Score
from yacht.dice import ScriptedDice
from yacht.env import ENV_ID, ILLEGAL_LIMIT, YachtEnv, hold_action, score_action
from yacht.env.picture import HEIGHT, PIP, WIDTH, dark_pixels, picture
from yacht.game import Game
from yacht.rules import CATEGORIES, Category


def test_terminate_is_the_default_it_ends_the_episode_with_the_penalty() -> None:
    env = YachtEnv()
    assert (env.illegal_action, env.illegal_penalty) == ("terminate", 10.0)
    env.reset(seed=2)
    env.step(score_action("ones"))
    before, seen = env.game.to_json(), env.game.dice
    obs, reward, terminated, truncated, info = env.step(score_action("ones"))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-10.0, True, False, True)
    assert env.game.to_json() == before and not env.game.finished
    assert tuple(obs[:5]) == seen
    with pytest.raises(GameOverError, match="episode is over"):
        env.step(score_action("twos"))
    _, info = env.reset()
    _, reward, terminated, _, info = env.step(score_action("twos"))
    assert not terminated and not info["illegal_action"] and float(reward) >= 0


def test_penalize_changes_nothing_but_the_reward() -> None:
    env = YachtEnv(illegal_action="penalize")
    env.reset(seed=2)
    env.step(score_action("ones"))
    before, seen = env.game.to_json(), env.game.dice
    obs, reward, terminated, truncated, info = env.step(score_action("ones"))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-10.0, False, False, True)
    assert env.game.to_json() == before
    assert tuple(obs[:5]) == seen and info["action_mask"][score_action("ones")] == 0
    _, reward, _, _, info = env.step(score_action("twos"))
    assert info["illegal_action"] is False and reward == env.game.sheet(0)[Category.TWOS]


def test_penalize_with_no_rolls_left_and_a_custom_penalty() -> None:
    env = YachtEnv(illegal_action="penalize", illegal_penalty=5)
    env.reset(seed=4)
    env.step(hold_action([]))
    env.step(hold_action([]))
    assert env.game.rolls_left == 0
    before = env.game.to_json()
    _, reward, _, _, info = env.step(hold_action([1, 2]))
    assert reward == -5.0 and info["illegal_action"]
    assert env.game.to_json() == before
    assert info["action_mask"][:32].sum() == 0


@pytest.mark.parametrize("limit", [ILLEGAL_LIMIT, 7])
def test_penalize_truncates_a_stuck_policy_and_refuses_steps_after_it(limit: int) -> None:
    env = YachtEnv(illegal_action="penalize", illegal_penalty=0, illegal_limit=limit)
    env.reset(seed=1)
    env.step(score_action("yacht"))
    truncated, steps = False, 0
    while not truncated:
        _, reward, terminated, truncated, _ = env.step(score_action("yacht"))
        assert reward == 0.0 and not terminated
        steps += 1
    assert steps == limit
    with pytest.raises(GameOverError, match="episode is over"):
        env.step(score_action("ones"))
    _, info = env.reset(seed=1)
    _, _, _, truncated, info = env.step(score_action("ones"))
    assert not truncated and not info["illegal_action"]


@pytest.mark.parametrize("bad", [{"illegal_limit": 0}, {"illegal_action": "ignore"}])
def test_settings_no_environment_accepts_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="illegal_"):
        YachtEnv(**bad)  # type: ignore[arg-type]


def test_out_of_space_actions_and_steps_after_the_end_raise_in_every_mode() -> None:
    for mode in ("terminate", "penalize", "raise"):
        env = YachtEnv(illegal_action=mode)
        _, info = env.reset(seed=3)
        for bad in (44, -1, "roll"):
            with pytest.raises(InvalidActionError):
                env.step(bad)
        terminated = False
        rng = np.random.default_rng(3)
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, terminated, _, info = env.step(action)
        with pytest.raises(GameOverError):
            env.step(score_action("choice"))
    strict = YachtEnv(illegal_action="raise")
    strict.reset(seed=4)
    strict.step(hold_action([]))
    strict.step(hold_action([]))
    with pytest.raises(NoRollsLeftError):
        strict.step(hold_action([1]))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"illegal_action": "ignore"}, "unknown illegal_action 'ignore'"),
        ({"illegal_penalty": -1}, "illegal_penalty must be a number >= 0"),
        ({"illegal_penalty": float("nan")}, "illegal_penalty must be a number >= 0"),
        ({"render_mode": "human"}, "unknown render mode 'human'"),
    ],
)
def test_bad_constructor_options_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        YachtEnv(**kwargs)  # type: ignore[arg-type]


def test_rgb_array_shows_the_dice_pips_and_the_sheet() -> None:
    env = gymnasium.make(ENV_ID, render_mode="rgb_array")
    env.reset(seed=9)
    image = env.render()
    assert isinstance(image, np.ndarray)
    assert image.shape == (HEIGHT, WIDTH, 3) and image.dtype == np.uint8
    game = env.unwrapped.game  # type: ignore[attr-defined]
    assert [dark_pixels(image, k) // PIP**2 for k in range(5)] == list(game.dice)
    env.step(score_action("choice"))
    after = env.render()
    assert isinstance(after, np.ndarray)
    assert [dark_pixels(after, k) // PIP**2 for k in range(5)] == list(game.dice)
    assert not np.array_equal(image, after)


def test_the_picture_draws_each_filled_category_and_the_game_over() -> None:
    game = Game(["A"], dice=ScriptedDice([6, 6, 6, 6, 6] + [1, 1, 1, 1, 1] * 11))
    game.apply("roll")
    fresh = picture(game)
    game.apply("score yacht")
    game.apply("roll")
    scored = picture(game)
    # The yacht row changed (a bar and digits); the ones row shows what 1 1 1 1 1 would score.
    assert not np.array_equal(fresh, scored)
    assert [dark_pixels(scored, k) for k in range(5)] == [PIP**2] * 5
    game.apply("score ones")
    while not game.finished:
        game.apply("roll")
        open_ = [c for c in CATEGORIES if c not in game.sheet(0)]
        game.apply(Score(open_[0]))
    over = picture(game)
    assert [dark_pixels(over, k) for k in range(5)] == [0] * 5


def test_ansi_render_is_text() -> None:
    env = YachtEnv(render_mode="ansi")
    env.reset(seed=9)
    text = env.render()
    assert isinstance(text, str) and "rolls left" in text
    assert YachtEnv().render() is None

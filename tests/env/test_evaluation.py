"""yacht.env.evaluate: N games of a policy, rated against the exact optimum."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import yacht.env
from yacht.bots import make_bot
from yacht.env import Features, bot_action, score_action, view_from_observation
from yacht.env.evaluation import Evaluation, masked_random
from yacht.review import review
from yacht.rules import RulesError, rules_by_name
from yacht.strategy import solve


def bot_policy(name: str, rules: str = "traditional") -> Any:
    bot, rng = make_bot(name), random.Random(0)

    def act(obs: Any, info: dict[str, Any]) -> int:
        return bot_action(bot, view_from_observation(obs, rules), rng)

    return act


def test_the_optimal_bot_loses_nothing_per_decision() -> None:
    result = yacht.env.evaluate(bot_policy("optimal", "clubhouse"), 30, "clubhouse", seed=5)
    assert isinstance(result, Evaluation)
    assert result.games == 30 and result.loss_per_decision == 0.0 and result.illegal == 0
    assert 12 * 30 <= result.decisions <= 36 * 30
    assert result.optimum == solve(rules_by_name("clubhouse")).expected
    assert "points lost per decision 0.000" in str(result)


def test_the_random_policy_loses_points_that_explain_its_gap_to_the_optimum() -> None:
    result = yacht.env.evaluate(masked_random(1), 200, seed=0, name="masked-random")
    assert result.loss_per_decision > 1.0
    # E[final total] = optimum - E[points lost]: the review's losses account for the gap.
    assert abs(result.mean + result.loss_per_game - result.optimum) < 4 * result.standard_error
    assert result.mean < result.optimum - 80
    pct = list(result.percentiles().values())
    assert pct == sorted(pct) and min(result.totals) <= pct[0] and pct[-1] <= max(result.totals)
    gaps = result.category_gaps()
    assert list(gaps) == [c.value for c in yacht.rules.CATEGORIES]
    assert sum(m for m, _ in gaps.values()) == pytest.approx(result.mean)  # no bonus here
    assert sum(o for _, o in gaps.values()) == pytest.approx(result.optimum, abs=0.5)
    text = str(result).splitlines()
    assert text[0].startswith("masked-random under traditional: mean ")
    assert text[1].startswith("percentiles: p5 ") and len(text) == 4 + 12


def test_same_seed_same_games_and_the_json_report() -> None:
    a = yacht.env.evaluate(masked_random(3), 5, seed=7)
    b = yacht.env.evaluate(masked_random(3), 5, seed=7)
    assert a.totals == b.totals and a.loss == b.loss
    data = a.to_json()
    assert data["games"] == 5 and data["mean"] == round(a.mean, 3)
    assert set(data["categories"]["yacht"]) == {"mean", "optimal"}


def test_a_wrapped_policy_and_the_review_agree() -> None:
    env = Features(yacht.env.YachtEnv())
    seen: list[Any] = []

    def first_open(obs: Any, info: dict[str, Any]) -> int:
        seen.append(obs)
        return int(np.flatnonzero(info["action_mask"][32:])[0]) + 32

    result = yacht.env.evaluate(first_open, 2, wrap=Features, name="first-open")
    assert seen[0].shape == env.observation_space.shape and seen[0].dtype == np.float32
    assert result.decisions == 24  # one decision per turn: score at once
    assert result.loss > 0


def test_illegal_actions_are_counted_and_a_stuck_policy_ends() -> None:
    result = yacht.env.evaluate(
        lambda obs, info: score_action("yacht"), 1, seed=0, illegal_action="penalize"
    )
    assert result.illegal == yacht.env.ILLEGAL_LIMIT
    assert result.totals[0] == result.points[0][-1]
    assert (result.unfinished, result.decisions, result.loss) == (1, 0, 0.0)


def test_unfinished_games_are_counted_and_not_rated() -> None:
    calls = {"n": 0}

    def stuck_in_the_first_game(obs: Any, info: dict[str, Any]) -> int:
        calls["n"] += 1
        if calls["n"] <= 2:  # the first game: yacht, then yacht again (illegal: it ends)
            return score_action("yacht")
        return int(np.flatnonzero(info["action_mask"][32:])[0]) + 32

    result = yacht.env.evaluate(stuck_in_the_first_game, 3, seed=0, name="stuck")
    assert (result.games, result.unfinished, result.finished, result.illegal) == (3, 1, 2, 1)
    assert result.decisions == 24  # the two finished games' turns only
    assert result.loss_per_game == pytest.approx(result.loss / 2)
    assert "UNFINISHED games: 1 of 3" in str(result)
    assert result.to_json()["unfinished_games"] == 1


def test_bad_arguments_are_refused() -> None:
    for games in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="games must be a whole number >= 1"):
            yacht.env.evaluate(masked_random(), games)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown rules preset"):
        yacht.env.evaluate(masked_random(), 1, "yahtzee")


def test_review_is_what_rates_the_games() -> None:
    result = yacht.env.evaluate(bot_policy("greedy"), 3, seed=2)
    env = yacht.env.YachtEnv()
    policy, loss = bot_policy("greedy"), 0.0
    for i in range(3):
        obs, info = env.reset(seed=2 + i)
        done = False
        while not done:
            obs, _, done, _, info = env.step(policy(obs, info))
        loss += review(env.game).players[0].loss
    assert result.loss == pytest.approx(loss, abs=1e-6)

"""The PettingZoo AEC environment: PettingZoo's own checks, then a full game as agents see it."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from yacht.actions import CategoryFilledError, InvalidActionError
from yacht.bots import make_bot
from yacht.env import (
    CounterDice,
    YachtEnv,
    aec_env,
    bot_action,
    decode_observation,
    hold_action,
    raw_env,
    score_action,
    solo_observation,
    view_from_observation,
)
from yacht.game import Game
from yacht.rules import RulesError


# Both warnings come with every {"observation", "action_mask"} dict (so in PettingZoo's classic
# games too).
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize("players", [1, 2, 6])
def test_pettingzoo_api_test_passes(players: int) -> None:
    api_test(aec_env(num_players=players), num_cycles=1000)


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize("players", [1, 3])
def test_the_documented_parallel_conversion_passes_parallel_api_test(players: int) -> None:
    table = turn_based_aec_to_parallel(raw_env(num_players=players))
    parallel_api_test(table, num_cycles=200)
    observations, _ = table.reset(seed=2)
    assert set(observations) == {f"player_{i}" for i in range(players)}


@pytest.mark.parametrize("players", [1, 2, 6])
def test_pettingzoo_seed_test_passes(players: int) -> None:
    seed_test(lambda: aec_env(num_players=players, rules="clubhouse"), num_cycles=200)


def play_masked_game(players: int, seed: int, rules: str = "traditional") -> raw_env:
    env = raw_env(num_players=players, rules=rules)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


def test_a_full_game_pays_each_agent_its_points_and_ends_for_all() -> None:
    env = raw_env(num_players=3, rules="clubhouse")
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    earned = dict.fromkeys(env.possible_agents, 0.0)
    order = []
    while env.agents:
        agent = env.agent_selection
        obs, _, terminated, _, _ = env.last()
        if terminated:
            assert obs["action_mask"].sum() == 0
            env.step(None)
            continue
        assert env.observe(agent)["action_mask"].sum() > 0
        others = [a for a in env.possible_agents if a != agent]
        assert all(env.observe(a)["action_mask"].sum() == 0 for a in others)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        for a, r in env.rewards.items():
            earned[a] += r
        if action >= 32:
            order.append(agent)
    game = env.game
    assert game is not None and game.finished
    assert order == [f"player_{i % 3}" for i in range(36)]  # one scoring per turn, in seat order
    assert list(earned.values()) == [float(t) for t in game.totals]
    assert Game.from_json(game.to_json(), dice=CounterDice(7)).totals == game.totals


def test_each_agent_observes_its_own_sheet_first() -> None:
    env = raw_env(num_players=2)
    env.reset(seed=1)
    env.step(score_action("choice"))  # player_0 scores; player_1 to play
    mine = decode_observation(env.observe("player_1")["observation"], 2)
    theirs = decode_observation(env.observe("player_0")["observation"], 2)
    assert mine["turn"] == 0 and theirs["turn"] == 1
    assert mine["players"][0]["sheet"] == {} and theirs["players"][1]["sheet"] == {}
    assert mine["players"][1] == theirs["players"][0]
    assert mine["players"][1]["total"] == env.rewards["player_0"] > 0


def test_same_seed_same_game_different_seed_different_game() -> None:
    a = play_masked_game(2, seed=4).game
    b = play_masked_game(2, seed=4).game
    c = play_masked_game(2, seed=5).game
    assert a is not None and b is not None and c is not None
    assert a.to_json()["events"] == b.to_json()["events"]
    assert a.to_json()["events"] != c.to_json()["events"]


def ones_and_twos_scored(env: raw_env) -> tuple[Game, dict[str, Any]]:
    """``env`` reset, player_0 having scored ones and player_1 twos: its game and the game's
    JSON then (player_0 to move)."""
    env.reset(seed=3)
    env.step(score_action("ones"))
    env.step(score_action("twos"))
    game = env.game
    assert game is not None
    return game, game.to_json()


def test_illegal_actions_raise_and_change_nothing() -> None:
    env = raw_env(num_players=2)
    game, before = ones_and_twos_scored(env)
    with pytest.raises(CategoryFilledError):
        env.step(score_action("ones"))
    with pytest.raises(InvalidActionError):
        env.step(99)
    assert game.to_json() == before and env.agent_selection == "player_0"
    env.step(hold_action([1]))
    assert env.agent_selection == "player_0" and env.rewards == {"player_0": 0, "player_1": 0}


def test_penalized_illegal_actions_change_nothing_and_keep_the_move() -> None:
    env = raw_env(num_players=2, illegal_action="penalize", illegal_penalty=2.5)
    game, before = ones_and_twos_scored(env)
    env.step(score_action("ones"))  # filled: refused, penalized, still player_0's move
    assert game.to_json() == before and env.agent_selection == "player_0"
    assert env.rewards == {"player_0": -2.5, "player_1": 0}
    assert env.infos["player_0"]["illegal_action"] is True
    assert env.infos["player_1"]["illegal_action"] is False
    _, _, _, truncated, info = env.last()
    assert not truncated and info["illegal_action"] is True
    with pytest.raises(InvalidActionError):  # outside the space: an error in every mode
        env.step(99)
    env.step(score_action("choice"))  # legal again: play goes on
    assert env.agent_selection == "player_1" and env.rewards["player_0"] > 0
    assert env.infos["player_0"]["illegal_action"] is False


def test_a_stuck_policy_is_truncated_after_the_illegal_limit() -> None:
    env = raw_env(num_players=2, illegal_action="penalize", illegal_limit=3)
    env.reset(seed=3)
    env.step(score_action("ones"))
    env.step(score_action("ones"))
    for _ in range(3):
        env.step(score_action("ones"))  # player_1 tries the filled box again and again
    assert env.truncations == {"player_0": True, "player_1": True}
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(score_action("twos"))


def test_terminate_ends_the_game_for_every_agent_with_the_penalty() -> None:
    env = raw_env(num_players=2, illegal_action="terminate", illegal_penalty=3)
    env.reset(seed=3)
    env.step(score_action("ones"))
    env.step(score_action("ones"))
    env.step(score_action("ones"))  # player_0 again: filled
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards["player_0"] == -3.0 and env.infos["player_0"]["illegal_action"]


def test_the_win_reward_pays_only_at_the_end() -> None:
    env = raw_env(num_players=3, reward="win")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    paid: list[dict[str, float]] = []
    while env.agents:
        obs, _, terminated, _, _ = env.last()
        action = None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        if action is not None:
            paid.append(dict(env.rewards))
    game = env.game
    assert game is not None and game.finished
    assert all(set(r.values()) == {0.0} for r in paid[:-1])
    best = max(game.totals)
    winners = [i for i, t in enumerate(game.totals) if t == best]
    expected = {
        f"player_{i}": (1.0 if len(winners) == 1 else 0.0) if i in winners else -1.0
        for i in range(3)
    }
    assert paid[-1] == expected and sorted(expected.values())[0] == -1.0
    with pytest.raises(ValueError, match="unknown reward"):
        raw_env(reward="rank")


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize("players", [1, 2])
def test_pettingzoo_api_test_passes_when_penalizing(players: int) -> None:
    api_test(aec_env(num_players=players, illegal_action="penalize"), num_cycles=200)


def test_render_rgb_array_shows_the_mover_sheet() -> None:
    table = raw_env(num_players=2, render_mode="rgb_array")
    table.reset(seed=0)
    first = table.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.shape[2] == 3
    table.step(score_action("choice"))  # player_1 to move: its empty sheet, new dice
    second = table.render()
    assert second.shape == first.shape and not np.array_equal(first, second)
    gym = YachtEnv(render_mode="rgb_array")
    gym.reset(seed=0)
    assert gym.render().shape == first.shape  # the same picture as the Gymnasium env's


def test_bad_construction_is_refused_clearly() -> None:
    for players in (0, 7, 2.5):
        with pytest.raises(ValueError, match="num_players must be"):
            raw_env(num_players=players)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown rules preset"):
        raw_env(rules="yahtzee")
    with pytest.raises(ValueError, match="unknown render mode"):
        raw_env(render_mode="rgb")
    with pytest.raises(ValueError, match="unknown illegal_action 'ignore'"):
        raw_env(illegal_action="ignore")
    with pytest.raises(ValueError, match="illegal_penalty must be a number >= 0"):
        raw_env(illegal_action="penalize", illegal_penalty=-1)
    with pytest.raises(ValueError, match=r"call reset\(\) before"):
        raw_env().step(0)


def test_render_ansi_lists_every_player() -> None:
    env = raw_env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    env.step(score_action("choice"))
    text = env.render()
    assert isinstance(text, str) and "player_0" in text and "player_1" in text


def test_solo_observation_lets_a_one_player_policy_play_any_seat() -> None:
    env = raw_env(num_players=3, rules="clubhouse")
    env.reset(seed=2)
    solo_space = YachtEnv(rules="clubhouse").observation_space
    bot, rng = make_bot("greedy"), random.Random(0)
    for agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        mine = solo_observation(obs)
        assert mine.shape == (32,) and solo_space.contains(mine)
        assert np.array_equal(mine, solo_observation(obs["observation"]))
        view = view_from_observation(mine, "clubhouse")
        game = env.game
        assert game is not None
        seat = env.possible_agents.index(agent)
        assert (view.dice, view.rolls_left) == (game.dice, game.rolls_left)
        assert dict(view.sheet) == dict(game.sheet(seat))
        env.step(bot_action(bot, view, rng))
    batch = np.stack([observation_of(env, a) for a in env.possible_agents])
    assert solo_observation(batch).shape == (3, 32)


def observation_of(env: raw_env, agent: str) -> npt.NDArray[np.int16]:
    return np.asarray(env.observe(agent)["observation"])


def test_solo_observation_refuses_what_is_not_an_observation() -> None:
    for bad in (np.zeros(33), np.zeros(58), np.int16(3), np.zeros((2, 40))):
        with pytest.raises(ValueError, match="not an observation vector"):
            solo_observation(bad)
    one = YachtEnv().reset(seed=0)[0]
    assert np.array_equal(solo_observation(one), one)

"""A PettingZoo AEC environment: 1 to 6 players take turns on one table, as in the game.

Agents are ``player_0`` .. ``player_{n-1}`` in seating order; ``player_0`` starts. Each agent
observes ``{"observation": vector, "action_mask": 0/1 per action}`` as PettingZoo's classic
games do: the vector is :func:`yacht.env.spaces.observation` from that agent's seat (its own
sheet first). Actions are those of the Gymnasium environment; the turn's first roll is
automatic. The reward of a step goes to the agent that acted: the points it added to its total.
Every agent terminates when the last sheet is full. ``reward="win"`` instead gives nothing
during the game and, at its end, +1 to a sole winner, 0 to each of tied winners and -1 to
every other player (for self-play aimed at winning rather than at points).

Illegal actions (in the space but not allowed now) follow ``illegal_action``, as in the
Gymnasium environment: ``"raise"`` (the default here: the game's ``ValueError``, nothing
changes), ``"terminate"`` (the agent gets ``-illegal_penalty``, its
``infos[agent]["illegal_action"]`` is True and the game ends for every agent) or
``"penalize"`` (nothing changes, the agent gets ``-illegal_penalty`` and it is still its move;
after ``illegal_limit`` of them in one game every agent is truncated).

The dice are :func:`yacht.env.counter_dice` of (seed, episode, ``seat * 12 + turn``, roll,
slot), seeded as :class:`~yacht.env.YachtEnv` is: so seat 0 after ``reset(seed=s)`` gets the
dice of the solo game after ``reset(seed=s)``, and an agent trained alone can be compared
game by game (:func:`yacht.env.to_solo` gives it its observation). A parallel API is
PettingZoo's ``turn_based_aec_to_parallel(raw_env(...))`` (tested with its
``parallel_api_test``; ``aec_to_parallel`` refuses turn-based games).
``render_mode`` is ``"ansi"``, ``"human"`` (the text, printed) or ``"rgb_array"`` (the
Gymnasium environment's picture: the dice and the sheet of the player to move).

>>> e = env(num_players=2)
>>> e.reset(seed=3)
>>> e.agent_selection, int(e.observe("player_0")["action_mask"].sum())
('player_0', 44)
>>> e.step(score_action("choice"))
>>> e.agent_selection, e.rewards["player_0"] > 0
('player_1', True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.agent_selector import AgentSelector

from yacht.actions import Hold, Roll
from yacht.env.counter_dice import CounterDice
from yacht.env.gym_env import ILLEGAL_LIMIT, ILLEGAL_PENALTY, check_illegal, render_text
from yacht.env.spaces import (
    ACTION_COUNT,
    action_mask,
    action_space,
    decode_action,
    observation,
    observation_space,
    score_action,
)
from yacht.game import MAX_PLAYERS, Game
from yacht.rules import Rules, rules_by_name

__all__ = ["REWARDS", "env", "raw_env", "score_action"]

REWARDS = ("points", "win")


def env(
    num_players: int = 2,
    rules: Rules | str = "traditional",
    render_mode: str | None = None,
    illegal_action: str = "raise",
    illegal_penalty: float = ILLEGAL_PENALTY,
    illegal_limit: int = ILLEGAL_LIMIT,
    reward: str = "points",
) -> AECEnv:
    """The AEC environment wrapped in PettingZoo's order-enforcing wrapper."""
    table = raw_env(
        num_players,
        rules,
        render_mode,
        illegal_action,
        illegal_penalty,
        illegal_limit=illegal_limit,
        reward=reward,
    )
    return wrappers.OrderEnforcingWrapper(table)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type hints
    """The unwrapped AEC environment; see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's API)
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "yacht_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 2,
        rules: Rules | str = "traditional",
        render_mode: str | None = None,
        illegal_action: str = "raise",
        illegal_penalty: float = ILLEGAL_PENALTY,
        *,
        illegal_limit: int = ILLEGAL_LIMIT,
        reward: str = "points",
    ) -> None:
        super().__init__()
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise ValueError(f"num_players must be an integer, got {num_players!r}")
        if not 1 <= num_players <= MAX_PLAYERS:
            raise ValueError(f"num_players must be 1 to {MAX_PLAYERS}, got {num_players}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"unknown render mode {render_mode!r} (use 'ansi', 'human', 'rgb_array' or None)"
            )
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r} (use 'points' or 'win')")
        self.illegal_penalty = check_illegal(illegal_action, illegal_penalty, illegal_limit)
        self.illegal_action = illegal_action
        self.illegal_limit = illegal_limit
        self.reward = reward
        self.seed: int | None = None
        self.episode = 0
        self._illegal = 0
        self.rules = rules_by_name(rules)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        vector = observation_space(self.rules, num_players)
        mask = spaces.Box(0, 1, shape=(ACTION_COUNT,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": vector, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: action_space() for a in self.possible_agents}
        self._np_random, _ = seeding.np_random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            self.seed, self.episode = int(seed) % 2**64, 0
        elif self.seed is None:
            self.seed, self.episode = int(self._np_random.integers(2**63 - 1)), 0
        else:
            self.episode += 1
        dice = CounterDice(self.seed, self.episode)
        self.game = Game(self.possible_agents, self.rules, dice)
        self.game.apply(Roll())
        self._illegal = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def _table(self) -> Game:
        if self.game is None:
            raise ValueError("call reset() before using the environment")
        return self.game

    def observe(self, agent: str) -> dict[str, Any]:
        game = self._table()
        seat = self._seat[agent]
        mask = action_mask(game) if seat == game.current and not game.finished else None
        return {
            "observation": observation(game, seat),
            "action_mask": mask if mask is not None else np.zeros(ACTION_COUNT, dtype=np.int8),
        }

    def step(self, action: Any) -> None:
        game = self._table()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        decoded = decode_action(action)
        if self.illegal_action != "raise" and not action_mask(game)[int(action)]:
            self._penalize(agent)
            return
        before = game.totals[seat]
        if isinstance(decoded, Hold):
            if game.rolls_left == 0:
                game.apply(decoded, player=seat)  # raises the game's error for this state
            if decoded.positions != tuple(sorted(game.held)):
                game.apply(decoded, player=seat)
            game.apply(Roll(), player=seat)
        else:
            game.apply(decoded, player=seat)
            if not game.finished:
                game.apply(Roll())
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.reward == "points":
            self.rewards[agent] = float(game.totals[seat] - before)
        if game.finished:
            self.terminations = dict.fromkeys(self.agents, True)
            if self.reward == "win":
                self.rewards = self._outcome(game)
        if game.finished or self.possible_agents[game.current] != agent:
            self.agent_selection = self._selector.next()
        for name in self.agents:
            self.infos[name]["illegal_action"] = False
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _penalize(self, agent: str) -> None:
        """An illegal action under ``"penalize"``: the game is left as it was."""
        self._illegal += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.rewards[agent] = -self.illegal_penalty
        for name in self.agents:
            self.infos[name]["illegal_action"] = name == agent
        if self.illegal_action == "terminate":
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._illegal >= self.illegal_limit:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def _outcome(self, game: Game) -> dict[str, float]:
        """``reward="win"``: +1 a sole winner, 0 tied winners, -1 the others."""
        winners = game.winners()
        alone = 1.0 if len(winners) == 1 else 0.0
        return {a: alone if i in winners else -1.0 for i, a in enumerate(self.possible_agents)}

    def render(self) -> Any:
        """The text (``"ansi"``; printed for ``"human"``) or the picture of the dice and the
        mover's sheet (``"rgb_array"``, ``uint8[h, w, 3]``)."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            from yacht.env.picture import picture

            game = self._table()
            return picture(game, game.current)
        text = render_text(self._table())
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        pass

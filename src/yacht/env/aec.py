"""A PettingZoo AEC environment: 1 to 6 players take turns on one table, as in the game.

Agents are ``player_0`` .. ``player_{n-1}`` in seating order; ``player_0`` starts. Each agent
observes ``{"observation": vector, "action_mask": 0/1 per action}`` as PettingZoo's classic
games do: the vector is :func:`yacht.env.spaces.observation` from that agent's seat (its own
sheet first). Actions are those of the Gymnasium environment; the turn's first roll is
automatic. The reward of a step goes to the agent that acted: the points it added to its total.
Every agent terminates when the last sheet is full.

Illegal actions (in the space but not allowed now) follow ``illegal_action``, as in the
Gymnasium environment: ``"raise"`` (the default here: the game's ``ValueError``, nothing
changes) or ``"penalize"`` (nothing changes, the agent gets ``-illegal_penalty``,
``infos[agent]["illegal_action"]`` is True and it is still its move; after
:data:`~yacht.env.gym_env.ILLEGAL_LIMIT` of them in one game every agent is truncated).
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
from yacht.dice import RandomDice
from yacht.env.gym_env import ILLEGAL_ACTIONS, ILLEGAL_LIMIT, render_text
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

__all__ = ["env", "raw_env", "score_action"]


def env(
    num_players: int = 2,
    rules: Rules | str = "traditional",
    render_mode: str | None = None,
    illegal_action: str = "raise",
    illegal_penalty: float = 1.0,
) -> AECEnv:
    """The AEC environment wrapped in PettingZoo's order-enforcing wrapper."""
    table = raw_env(num_players, rules, render_mode, illegal_action, illegal_penalty)
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
        illegal_penalty: float = 1.0,
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
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(
                f"unknown illegal_action {illegal_action!r} (use 'raise' or 'penalize')"
            )
        penalty = float(illegal_penalty)
        if not penalty >= 0:
            raise ValueError(f"illegal_penalty must be a number >= 0, got {illegal_penalty!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = penalty
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
        dice = RandomDice(int(self._np_random.integers(2**63 - 1)))
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
        if self.illegal_action == "penalize" and not action_mask(game)[int(action)]:
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
        self.rewards[agent] = float(game.totals[seat] - before)
        if game.finished:
            self.terminations = dict.fromkeys(self.agents, True)
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
        if self._illegal >= ILLEGAL_LIMIT:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

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

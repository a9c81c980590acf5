"""A Gymnasium environment: one player fills a sheet under any preset.

An episode is one solo game of twelve turns, driven by the real :class:`yacht.game.Game`. The
turn's first roll is automatic, so every observation shows dice to decide on. Each step is one
decision: hold some dice and roll the others (actions 0..31), or score a category (32..43);
see :mod:`yacht.env.spaces`. The reward is the points the step added to the sheet's total: the
category's points, plus the upper bonus in the step that earns it (presets with a bonus).

>>> env = YachtEnv(rules="traditional")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, int(info["action_mask"].sum())
((32,), 44)
>>> obs, reward, terminated, truncated, info = env.step(score_action("choice"))
>>> reward == info["total"], terminated
(True, False)
>>> env.step(score_action("choice"))
Traceback (most recent call last):
...
yacht.actions.CategoryFilledError: cannot 'score choice': choice is already filled with ...

An illegal action raises a ``ValueError`` subclass (the game's own error) and changes nothing.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.error import ResetNeeded

from yacht.actions import Hold, Roll
from yacht.dice import RandomDice
from yacht.env.spaces import (
    action_mask,
    action_space,
    decode_action,
    observation,
    observation_space,
    score_action,
)
from yacht.game import Game, TurnView
from yacht.rules import Rules, rules_by_name

__all__ = ["ENV_ID", "YachtEnv", "score_action"]

ENV_ID = "yacht/Yacht-v0"

Observation = npt.NDArray[np.int16]


class YachtEnv(gymnasium.Env[Observation, np.int64]):
    """One player, twelve turns, one preset. ``info["action_mask"]`` marks the legal actions."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium's API)

    def __init__(self, rules: Rules | str = "traditional", render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render mode {render_mode!r} (use 'ansi' or None)")
        self.rules = rules_by_name(rules)
        self.render_mode = render_mode
        self.action_space = action_space()
        self.observation_space = observation_space(self.rules)
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """The game being played (read it; act through :meth:`step`)."""
        if self._game is None:
            raise ResetNeeded("call reset() before using the environment")
        return self._game

    def view(self) -> TurnView:
        """The player's view of the game, as bots get it."""
        return self.game.view()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as booleans (the name sb3-contrib's MaskablePPO looks for)."""
        return action_mask(self.game).astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        dice = RandomDice(int(self.np_random.integers(2**63 - 1)))
        self._game = Game(["agent"], self.rules, dice)
        self._game.apply(Roll())
        return observation(self._game), self._info()

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        decoded = decode_action(action)
        before = game.totals[0]
        if isinstance(decoded, Hold):
            if game.rolls_left == 0 or game.finished:
                game.apply(decoded)  # raises the game's error for this state
            if decoded != Hold(tuple(sorted(game.held))):
                game.apply(decoded)
            game.apply(Roll())
        else:
            game.apply(decoded)
            if not game.finished:
                game.apply(Roll())
        reward = float(game.totals[0] - before)
        return observation(game), reward, game.finished, False, self._info()

    def _info(self) -> dict[str, Any]:
        game = self.game
        return {"action_mask": action_mask(game), "total": game.totals[0]}

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return render_text(self.game)


def render_text(game: Game) -> str:
    """The dice, the rolls left and each sheet, as plain text."""
    lines = []
    if not game.finished and game.dice is not None:
        dice = " ".join(map(str, game.dice))
        lines.append(f"{game.current_name}: dice {dice}, {game.rolls_left} rolls left")
    else:
        lines.append("game over")
    for p, name in enumerate(game.players):
        sheet = game.sheet(p)
        filled = ", ".join(f"{c.value} {pts}" for c, pts in sheet.items())
        lines.append(f"{name} ({game.rules.total(sheet)}): {filled or '-'}")
    return "\n".join(lines) + "\n"

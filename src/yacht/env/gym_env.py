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

**Illegal actions** (legal in the action space, not now: a hold with no rolls left, a filled
category) follow the constructor's ``illegal_action``:

* ``"terminate"`` (the default): the episode ends there (``terminated``), the reward is
  ``-illegal_penalty`` (default :data:`ILLEGAL_PENALTY`, 10 points) and
  ``info["illegal_action"]`` is True (False on every other step). The game's remaining points
  are lost with it and 10 more, so an illegal action is worth clearly less than any legal
  one, even late in a game where every legal move is worth next to nothing: a value learner
  (SB3's DQN with its defaults) does not learn to loop on them or end games with them, and
  Stable-Baselines3's ``check_env`` (random unmasked actions) passes.
* ``"penalize"``: nothing changes, the reward is ``-illegal_penalty``. After ``illegal_limit``
  (default :data:`ILLEGAL_LIMIT`) illegal actions in one episode it is truncated, so a stuck
  policy cannot loop for ever. A value learner can find a no-op that costs a point or two
  worth almost as much as the state itself (SB3's DQN looped on them at a penalty of 1).
* ``"raise"``: the game's own error (a ``ValueError``) is raised and nothing changes.

The mask (``info["action_mask"]``, :meth:`YachtEnv.action_masks`) is the way to avoid them.
Anything outside the action space raises ``InvalidActionError`` in every mode, and so does a
step after the episode ended, terminated or truncated (``GameOverError``).

>>> obs, reward, terminated, truncated, info = env.step(score_action("choice"))
>>> reward, info["illegal_action"], terminated
(-10.0, True, True)
>>> env.step(score_action("yacht"))
Traceback (most recent call last):
...
yacht.actions.GameOverError: cannot score yacht: the episode is over (call reset())
>>> strict = YachtEnv(illegal_action="raise")
>>> _ = strict.reset(seed=1)
>>> _ = strict.step(score_action("choice"))
>>> strict.step(score_action("choice"))
Traceback (most recent call last):
...
yacht.actions.CategoryFilledError: cannot 'score choice': choice is already filled with ...

**Dice.** ``reset(seed=s)`` starts episode 0 of seed ``s``; each ``reset()`` without a seed
starts the next episode of the same seed. Every die is :func:`yacht.env.counter_dice` of
(seed, episode, turn, roll, slot), the function :class:`yacht.env.VectorYachtEnv` deals from
in batch, so sub-environment ``i`` of a vector reset with seed ``s`` plays exactly what
``YachtEnv`` plays after ``reset(seed=s + i)``.

``render_mode`` is ``"ansi"`` (text) or ``"rgb_array"`` (a small picture of the dice and the
sheet, :mod:`yacht.env.picture`).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.error import ResetNeeded

from yacht.actions import GameOverError, Hold, Roll
from yacht.env.counter_dice import CounterDice
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

__all__ = [
    "ENV_ID",
    "ILLEGAL_ACTIONS",
    "ILLEGAL_LIMIT",
    "ILLEGAL_PENALTY",
    "YachtEnv",
    "check_illegal",
    "score_action",
]

ENV_ID = "yacht/Yacht-v0"
ILLEGAL_ACTIONS = ("terminate", "penalize", "raise")
ILLEGAL_LIMIT = 1000
"""The default ``illegal_limit``: illegal actions in one episode after which ``"penalize"``
truncates it (a legal game takes at most 36 steps; a uniformly random unmasked policy makes
about 150 illegal ones)."""
ILLEGAL_PENALTY = 10.0
"""The default ``illegal_penalty``, in points. Chosen by SB3's DQN with its default settings
(``examples/compare_algorithms.py``, 16 games, rewards / 100, 5 CPU minutes, seed 0): at 1
its greedy play still ended 246 of 1,000 games with an illegal action (late in a game, where
-0.01 is close to what every legal move is worth); at 10, none from 3.5 minutes on; at 100
none either, but it learned more slowly (91.7 at the end against 112 or more)."""


def check_illegal(illegal_action: str, illegal_penalty: float, illegal_limit: int) -> float:
    """The penalty as a float, or ValueError for a setting no environment accepts."""
    if illegal_action not in ILLEGAL_ACTIONS:
        raise ValueError(
            f"unknown illegal_action {illegal_action!r} (use 'terminate', 'penalize' or 'raise')"
        )
    penalty = float(illegal_penalty)
    if not np.isfinite(penalty) or penalty < 0:
        raise ValueError(f"illegal_penalty must be a number >= 0, got {illegal_penalty!r}")
    if isinstance(illegal_limit, bool) or not isinstance(illegal_limit, int) or illegal_limit < 1:
        raise ValueError(f"illegal_limit must be a whole number >= 1, got {illegal_limit!r}")
    return penalty


Observation = npt.NDArray[np.int16]


class YachtEnv(gymnasium.Env[Observation, np.int64]):
    """One player, twelve turns, one preset. ``info["action_mask"]`` marks the legal actions."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}  # noqa: RUF012 (gymnasium's API)

    def __init__(
        self,
        rules: Rules | str = "traditional",
        render_mode: str | None = None,
        *,
        illegal_action: str = "terminate",
        illegal_penalty: float = ILLEGAL_PENALTY,
        illegal_limit: int = ILLEGAL_LIMIT,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"unknown render mode {render_mode!r} (use 'ansi', 'rgb_array' or None)"
            )
        penalty = check_illegal(illegal_action, illegal_penalty, illegal_limit)
        self.illegal_limit = illegal_limit
        self.rules = rules_by_name(rules)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_penalty = penalty
        self.action_space = action_space()
        self.observation_space = observation_space(self.rules)
        self._game: Game | None = None
        self._illegal = 0
        self._over = False
        self.seed: int | None = None
        """The seed of the dice (modulo 2**64), set by the first reset."""
        self.episode = 0
        """The episode of :attr:`seed` being played: 0 after ``reset(seed=...)``."""

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
        if seed is not None:
            self.seed, self.episode = int(seed) % 2**64, 0
        elif self.seed is None:
            self.seed, self.episode = int(self.np_random.integers(2**63 - 1)), 0
        else:
            self.episode += 1
        self._game = Game(["agent"], self.rules, CounterDice(self.seed, self.episode))
        self._game.apply(Roll())
        self._illegal = 0
        self._over = False
        return observation(self._game), self._info()

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        decoded = decode_action(action)
        if self._over or game.finished:
            raise GameOverError(f"cannot {decoded!s}: the episode is over (call reset())")
        if self.illegal_action != "raise" and not action_mask(game)[int(action)]:
            self._illegal += 1
            terminated = self.illegal_action == "terminate"
            truncated = not terminated and self._illegal >= self.illegal_limit
            self._over = terminated or truncated
            info = self._info(illegal=True)
            return observation(game), -self.illegal_penalty, terminated, truncated, info
        before = game.totals[0]
        if isinstance(decoded, Hold):
            if game.rolls_left == 0:
                game.apply(decoded)  # raises the game's error for this state
            if decoded != Hold(tuple(sorted(game.held))):
                game.apply(decoded)
            game.apply(Roll())
        else:
            game.apply(decoded)
            if not game.finished:
                game.apply(Roll())
        reward = float(game.totals[0] - before)
        self._over = game.finished
        return observation(game), reward, game.finished, False, self._info()

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        game = self.game
        mask = action_mask(game)
        return {"action_mask": mask, "total": game.totals[0], "illegal_action": illegal}

    def render(self) -> Any:
        """The text (``"ansi"``) or the picture (``"rgb_array"``, ``uint8[h, w, 3]``)."""
        if self.render_mode == "ansi":
            return render_text(self.game)
        if self.render_mode == "rgb_array":
            from yacht.env.picture import picture

            return picture(self.game)
        return None


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

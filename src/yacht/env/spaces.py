"""The action and observation encoding shared by the Gymnasium and PettingZoo environments.

Actions are the integers 0..43:

* ``0..31`` hold and roll: bit ``i`` of the action set means "hold die ``i + 1``"; the other dice
  are rolled. ``0`` rolls all five again; ``31`` holds all five and spends the roll.
* ``32..43`` score: ``32 + category.index``, in sheet order (ones .. yacht).

>>> hold_action([1, 3])
5
>>> decode_action(5)
Hold(positions=(1, 3))
>>> decode_action(score_action("full_house"))
Score(category=Category.FULL_HOUSE)
>>> describe_action(0), describe_action(43)
('hold, roll', 'score yacht')
>>> decode_action(44)
Traceback (most recent call last):
...
yacht.actions.InvalidActionError: invalid action: 44 (actions are integers 0 to 43)

The observation is one flat integer vector (see :func:`observation_fields`): the dice, the rolls
left, for several players whose turn it is, then one block per player, the observer first: the
used categories, the points in each category, the upper subtotal and the total.
:func:`solo_observation` cuts the observer's own 32 values out of a multi-player vector, so a
policy trained alone on the raw vector plays a PettingZoo seat unchanged; one trained under a
wrapper plays it through :func:`yacht.env.to_solo` and :func:`yacht.env.seat_action` (holds
by sorted dice).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from yacht.actions import Hold, InvalidActionError, Score
from yacht.dice import ROLLS
from yacht.game import MAX_ROLLS, Game
from yacht.rules import CATEGORIES, UPPER_CATEGORIES, Category, Rules

__all__ = [
    "ACTION_COUNT",
    "HOLD_COUNT",
    "OBSERVATION_DTYPE",
    "action_mask",
    "action_space",
    "decode_action",
    "decode_observation",
    "describe_action",
    "hold_action",
    "observation",
    "observation_fields",
    "observation_space",
    "score_action",
    "solo_observation",
]

HOLD_COUNT = 32
ACTION_COUNT = HOLD_COUNT + len(CATEGORIES)
OBSERVATION_DTYPE = np.int16
UPPER_MAX = 5 * sum(range(1, 7))  # five of every face in Ones..Sixes: 105

_HOLDS = tuple(Hold(tuple(p + 1 for p in range(5) if a >> p & 1)) for a in range(HOLD_COUNT))


def hold_action(positions: Iterable[int]) -> int:
    """The action that holds the dice at these 1-based positions and rolls the others."""
    return sum(1 << (p - 1) for p in Hold(tuple(positions)).positions)


def score_action(category: Category | str) -> int:
    """The action that scores the current dice in ``category``."""
    return HOLD_COUNT + Category.parse(category).index


def _check(action: Any) -> int:
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = int(action)
        else:
            raise InvalidActionError(
                f"invalid action: {action!r} (actions are integers 0 to {ACTION_COUNT - 1})"
            )
    if not 0 <= action < ACTION_COUNT:
        raise InvalidActionError(
            f"invalid action: {action!r} (actions are integers 0 to {ACTION_COUNT - 1})"
        )
    return int(action)


def decode_action(action: Any) -> Hold | Score:
    """The game action an integer stands for: a :class:`Hold` (then roll) or a :class:`Score`."""
    a = _check(action)
    return _HOLDS[a] if a < HOLD_COUNT else Score(CATEGORIES[a - HOLD_COUNT])


def describe_action(action: Any) -> str:
    """The action as text, in the game's own words (``hold 1 3, roll`` or ``score fives``)."""
    decoded = decode_action(action)
    return f"{decoded}, roll" if isinstance(decoded, Hold) else str(decoded)


def action_mask(game: Game) -> npt.NDArray[np.int8]:
    """1 for every action the current player may take now.

    The same as asking ``game.legal_actions()`` for a roll, the holds and the scorings (a test
    checks it), read from the game's state because building 32 holds per step is slow.
    """
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    if game.finished or game.dice is None:
        return mask
    if game.rolls_left > 0:
        mask[:HOLD_COUNT] = 1
    sheet = game.sheet(game.current)
    for c in CATEGORIES:
        if c not in sheet:
            mask[HOLD_COUNT + c.index] = 1
    return mask


def action_space() -> spaces.Discrete[np.int64]:
    return spaces.Discrete(ACTION_COUNT)


@functools.lru_cache(maxsize=32)
def _bounds(rules: Rules) -> tuple[tuple[int, ...], int]:
    """The best points of each category and the best total under a preset."""
    counts = [Counter(r) for r in ROLLS]
    best = tuple(max(rules.score_counts(c, cat) for c in counts) for cat in CATEGORIES)
    return best, rules.max_total()


def observation_fields(rules: Rules, num_players: int = 1) -> list[tuple[str, int, int]]:
    """The observation vector's entries in order, as ``(name, low, high)``.

    >>> from yacht.rules import rules_by_name
    >>> fields = observation_fields(rules_by_name("traditional"))
    >>> len(fields), fields[0], fields[5], fields[6]
    (32, ('dice[1]', 0, 6), ('rolls_left', 0, 2), ('p0.used[ones]', 0, 1))
    >>> fields[-2:]
    [('p0.upper', 0, 105), ('p0.total', 0, 297)]
    """
    out = [(f"dice[{i}]", 0, 6) for i in range(1, 6)]
    out.append(("rolls_left", 0, MAX_ROLLS - 1))  # the turn's first roll is made for the player
    if num_players > 1:
        out.append(("turn", 0, num_players - 1))
    best, max_total = _bounds(rules)
    for p in range(num_players):
        out += [(f"p{p}.used[{c.value}]", 0, 1) for c in CATEGORIES]
        out += [(f"p{p}.sheet[{c.value}]", 0, best[c.index]) for c in CATEGORIES]
        out.append((f"p{p}.upper", 0, UPPER_MAX))
        out.append((f"p{p}.total", 0, max_total))
    return out


def observation_space(rules: Rules, num_players: int = 1) -> spaces.Box[np.int16]:
    """A Box of small integers, bounds from :func:`observation_fields`."""
    fields = observation_fields(rules, num_players)
    low = np.array([f[1] for f in fields], dtype=OBSERVATION_DTYPE)
    high = np.array([f[2] for f in fields], dtype=OBSERVATION_DTYPE)
    return spaces.Box(low, high, dtype=OBSERVATION_DTYPE)


def observation(game: Game, observer: int = 0) -> npt.NDArray[np.int16]:
    """The game from ``observer``'s seat: dice and rolls of the turn, then every sheet.

    Player blocks start with the observer and follow the seating order; ``turn`` is how many
    seats after the observer the current player sits. Once the game is over the dice are 0.
    """
    n = len(game.players)
    done = game.finished
    values: list[int] = list(game.dice or (0,) * 5) if not done else [0] * 5
    values.append(0 if done else game.rolls_left)
    if n > 1:
        values.append((game.current - observer) % n)
    for k in range(n):
        sheet = game.sheet((observer + k) % n)
        values += [int(c in sheet) for c in CATEGORIES]
        values += [sheet.get(c, 0) for c in CATEGORIES]
        values.append(sum(sheet.get(c, 0) for c in UPPER_CATEGORIES))
        values.append(game.rules.total(sheet))
    return np.array(values, dtype=OBSERVATION_DTYPE)


def decode_observation(obs: npt.ArrayLike, num_players: int = 1) -> dict[str, Any]:
    """An observation vector as named values, for reading and for bots.

    >>> from yacht.dice import ScriptedDice
    >>> game = Game(["A"], dice=ScriptedDice([6, 6, 6, 5, 5]))
    >>> _ = game.apply("roll")
    >>> seen = decode_observation(observation(game))
    >>> seen["dice"], seen["rolls_left"], seen["players"][0]["total"]
    ((6, 6, 6, 5, 5), 2, 0)
    """
    v = [int(x) for x in np.asarray(obs).ravel()]
    out: dict[str, Any] = {"dice": tuple(v[:5]), "rolls_left": v[5]}
    i = 6
    if num_players > 1:
        out["turn"], i = v[6], 7
    players = []
    for _ in range(num_players):
        used, points = v[i : i + 12], v[i + 12 : i + 24]
        sheet: Mapping[Category, int] = {c: points[c.index] for c in CATEGORIES if used[c.index]}
        players.append({"sheet": dict(sheet), "upper": v[i + 24], "total": v[i + 25]})
        i += 26
    out["players"] = players
    return out


SOLO_SIZE = 32
"""Length of the one-player observation: dice (5), rolls left, then one 26-value block."""


def solo_observation(obs: npt.ArrayLike | Mapping[str, Any]) -> npt.NDArray[np.int16]:
    """The observer's one-player view of a PettingZoo observation vector (or a batch of them).

    A multi-player vector is the dice, the rolls left, ``turn``, then 26 values per player, the
    observer first; the one-player vector drops ``turn`` and the other players' blocks. A
    one-player vector comes back as it is. The last axis is the observation's, so a batch
    ``(n, length)`` works too, and so does PettingZoo's ``{"observation": ..., "action_mask": ...}``
    dict. Note that the opponents' sheets and whose turn it is are lost:
    only the observer's own turns can be played from it.

    >>> from yacht.dice import ScriptedDice
    >>> game = Game(["A", "B"], dice=ScriptedDice([6, 6, 6, 5, 5]))
    >>> _ = game.apply("roll")
    >>> seat = observation(game, observer=0)
    >>> seat.shape, solo_observation(seat).shape
    ((59,), (32,))
    >>> mine = decode_observation(solo_observation(seat))
    >>> mine["dice"], mine["rolls_left"], len(mine["players"])
    ((6, 6, 6, 5, 5), 2, 1)
    """
    v = np.asarray(obs["observation"] if isinstance(obs, Mapping) else obs)
    size = v.shape[-1] if v.ndim else 0
    if size == SOLO_SIZE:
        return v.astype(OBSERVATION_DTYPE, copy=False)
    players, extra = divmod(size - 7, 26)
    if v.ndim == 0 or extra or players < 2:
        raise ValueError(
            f"not an observation vector: last axis has {size} values "
            f"(one player: {SOLO_SIZE}; n players: 7 + 26 n)"
        )
    return np.concatenate([v[..., :6], v[..., 7 : 7 + 26]], axis=-1).astype(
        OBSERVATION_DTYPE, copy=False
    )

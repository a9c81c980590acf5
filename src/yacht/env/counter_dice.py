"""Counter-based dice for the environments: a die is a pure function of where it falls.

The face of slot ``slot`` (0-4) at roll ``roll`` (0-2) of turn ``turn`` in episode ``episode``
of seed ``seed`` is :func:`counter_dice` of those five integers, so a batch of games is one
array expression and any single game can be replayed from its seed alone. Both
:class:`~yacht.env.YachtEnv` (through :class:`CounterDice`) and
:class:`~yacht.env.VectorYachtEnv` deal from it, which is what makes their trajectories equal.
A PettingZoo table passes ``turn = seat * 12 + turn``, so seat 0 sees the solo game's dice.

The hash is SplitMix64: the ``n``-th output of a SplitMix64 stream whose start is the mixed
seed, ``n`` counting the dice of episode after episode (:data:`DICE_PER_EPISODE` each). A
64-bit output becomes a face by Lemire's multiply-and-shift with rejection, exactly uniform:
its low 32 bits ``u`` give ``(6 u >> 32) + 1`` unless ``6 u mod 2**32 < 4`` (4 = 2**32 mod 6);
then the output plus SplitMix's increment is mixed and tried again. A retry happens for one die in
about a billion, so the array code loops over the few rejected dice only (almost always none).

>>> counter_dice(7, 0, 0, 0, np.arange(5)).tolist()
[5, 5, 5, 4, 4]
>>> int(counter_dice(7, 0, 0, 0, 3)), int(counter_dice(7, 0, 1, 0, 3))
(4, 3)
>>> CounterDice(7).roll_at(0, 0, 0, [0, 3])
[5, 4]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["DICE_PER_EPISODE", "TURN_SLOTS", "CounterDice", "counter_dice", "episode_dice"]

TURN_SLOTS = 6 * 12
"""Turn numbers an episode has room for: six seats of twelve turns."""
DICE_PER_EPISODE = TURN_SLOTS * 3 * 5

_GOLDEN = 0x9E3779B97F4A7C15
_SEED_SALT = 0x5941434854454E56  # "YACHTENV": the dice stream is not the seed's raw SplitMix
_ROLLOFF_SALT = 0x524F4C4C4F464653  # a start's roll-off deals from a stream of its own
_REJECT = 2**32 % 6  # Lemire's threshold: low products under it would favour some faces
_LOW = 0xFFFFFFFF

U64 = npt.NDArray[np.uint64]


def _mix(x: U64) -> U64:
    """SplitMix64's output function (Stafford's Mix13), on arrays of uint64 (wrapping)."""
    x = np.atleast_1d(x)
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _u64(value: npt.ArrayLike) -> U64:
    """Integers as uint64, wrapping modulo 2**64 (negative seeds included)."""
    a = np.asarray(value)
    if a.dtype == np.uint64:
        return a
    if a.dtype.kind in "iu":
        return a.astype(np.int64).view(np.uint64) if a.dtype.kind == "i" else a.astype(np.uint64)
    # Python ints beyond int64 arrive as objects
    wrapped: U64 = np.vectorize(lambda v: int(v) % 2**64, otypes=[np.uint64])(a)
    return wrapped


def _faces(h: U64) -> npt.NDArray[np.uint8]:
    low = h & np.uint64(_LOW)
    scaled = low * np.uint64(6)
    faces = (scaled >> np.uint64(32)).astype(np.uint8)
    faces += np.uint8(1)
    rejected = (scaled & np.uint64(_LOW)) < np.uint64(_REJECT)
    if rejected.any():  # about one die in a billion: the next value of a stream from here
        again = np.flatnonzero(rejected)
        faces.flat[again] = _faces(_mix(h.flat[again] + np.uint64(_GOLDEN)))
    return faces


def stream_start(seed: npt.ArrayLike) -> U64:
    """Where a seed's SplitMix64 stream starts (the mixed seed)."""
    return _mix(np.atleast_1d(_u64(seed)) ^ np.uint64(_SEED_SALT))


def stream_faces(start: U64, n: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The faces of dice number ``n`` of the streams that start at ``start`` (broadcast)."""
    number = np.atleast_1d(_u64(n))
    state = start + (number + np.uint64(1)) * np.uint64(_GOLDEN)
    shape = np.broadcast_shapes(np.shape(start), np.shape(_u64(n)))
    return _faces(_mix(state)).reshape(shape)


def dice_number(
    episode: npt.ArrayLike, turn: npt.ArrayLike, roll: npt.ArrayLike, slot: npt.ArrayLike
) -> U64:
    """The place's number in a seed's stream (:data:`DICE_PER_EPISODE` per episode)."""
    place = (_u64(turn) * np.uint64(3) + _u64(roll)) * np.uint64(5) + _u64(slot)
    return np.atleast_1d(_u64(episode)) * np.uint64(DICE_PER_EPISODE) + place


def counter_dice(
    seed: npt.ArrayLike,
    episode: npt.ArrayLike,
    turn: npt.ArrayLike,
    roll: npt.ArrayLike,
    slot: npt.ArrayLike,
) -> npt.NDArray[np.uint8]:
    """The faces (1..6, ``uint8``) at these places; the arguments broadcast as numpy arrays.

    ``turn`` is 0..71 (:data:`TURN_SLOTS`), ``roll`` 0..2, ``slot`` 0..4; ``seed`` is any
    integer (taken modulo 2**64), ``episode`` counts from 0 (a reset without a seed adds one).
    """
    shape = np.broadcast_shapes(*(np.shape(x) for x in (seed, episode, turn, roll, slot)))
    number = dice_number(episode, turn, roll, slot)
    start = stream_start(seed).reshape(np.shape(_u64(seed)) or (1,))
    return stream_faces(start, number).reshape(shape)


def episode_dice(seed: npt.ArrayLike, episode: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Every die of solo episodes at once: ``uint8[..., 12, 3, 5]`` by turn, roll and slot."""
    s = _u64(seed)[..., None, None, None]
    e = _u64(episode)[..., None, None, None]
    t = np.arange(12, dtype=np.uint64)[:, None, None]
    r = np.arange(3, dtype=np.uint64)[None, :, None]
    p = np.arange(5, dtype=np.uint64)[None, None, :]
    return counter_dice(s, e, t, r, p)


class CounterDice:
    """A placed dice source (:class:`yacht.dice.PlacedDiceSource`) dealing :func:`counter_dice`.

    ``roll_at(seat, turn, roll, slots)`` deals turn ``seat * 12 + turn``; ``roll(n)`` (a
    start's roll-off) deals die after die from a stream of the seed's own.
    """

    def __init__(self, seed: int, episode: int = 0, rolloffs: int = 0) -> None:
        self.seed = int(seed) % 2**64
        self.episode = int(episode)
        self.rolloffs = int(rolloffs)

    def roll_at(self, seat: int, turn: int, roll: int, slots: Sequence[int]) -> list[int]:
        faces = counter_dice(self.seed, self.episode, seat * 12 + turn, roll, np.asarray(slots))
        return [int(f) for f in np.atleast_1d(faces)]

    def roll(self, n: int) -> list[int]:
        dice = np.arange(self.rolloffs, self.rolloffs + n)
        self.rolloffs += n
        faces = counter_dice(self.seed ^ _ROLLOFF_SALT, self.episode, 0, 0, dice)
        return [int(f) for f in faces]

    def describe(self) -> dict[str, Any]:
        return {
            "kind": "counter",
            "seed": self.seed,
            "episode": self.episode,
            "rolloffs": self.rolloffs,
        }

    def __repr__(self) -> str:
        return f"CounterDice(seed={self.seed!r}, episode={self.episode!r})"

"""Dice: sorted roll and keep multisets with exact probabilities, and dice sources.

Rolls are the 252 sorted multisets of five faces; keeps are the 462 sorted multisets of
0 to 5 faces. Probabilities are exact multinomials, as Fractions.

>>> len(ROLLS), len(KEEPS)
(252, 462)
>>> outcome_probability((), (1, 2, 3, 4, 5))
Fraction(5, 324)
>>> src = ScriptedDice([6, 6, 6, 1, 2])
>>> src.roll(5)
[6, 6, 6, 1, 2]

Dice sources are injected into a game; there is no global randomness. Every source can
describe itself as JSON and be rebuilt from that description at the same point.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeGuard, runtime_checkable

from yacht.errors import N_, YachtError
from yacht.fields import is_int, is_kind, kind_message

__all__ = [
    "KEEPS",
    "ROLLS",
    "DiceExhaustedError",
    "DiceSource",
    "FairDice",
    "PlacedDice",
    "PlacedDiceSource",
    "RandomDice",
    "ScriptedDice",
    "deals_by_place",
    "dice_from_description",
    "outcome_probability",
    "outcomes",
    "sub_keeps",
]

Multiset = tuple[int, ...]

ROLLS: tuple[Multiset, ...] = tuple(itertools.combinations_with_replacement(range(1, 7), 5))
KEEPS: tuple[Multiset, ...] = tuple(
    k for n in range(6) for k in itertools.combinations_with_replacement(range(1, 7), n)
)


def outcomes(n: int) -> list[tuple[Multiset, Fraction]]:
    """Every sorted result of rolling ``n`` dice, with its exact probability.

    >>> [(m, str(p)) for m, p in outcomes(2)][:2]
    [((1, 1), '1/36'), ((1, 2), '1/18')]
    >>> sum(p for _, p in outcomes(5))
    Fraction(1, 1)
    """
    result = []
    for m in itertools.combinations_with_replacement(range(1, 7), n):
        ways = math.factorial(n)
        for c in Counter(m).values():
            ways //= math.factorial(c)
        result.append((m, Fraction(ways, 6**n)))
    return result


def outcome_probability(keep: Sequence[int], roll: Sequence[int]) -> Fraction:
    """P(the five dice show ``roll`` after keeping ``keep`` and rolling the rest).

    >>> outcome_probability((6, 6, 6, 6), (6, 6, 6, 6, 6))
    Fraction(1, 6)
    >>> outcome_probability((6,), (1, 1, 1, 1, 1))
    Fraction(0, 1)
    """
    rest = Counter(roll)
    rest.subtract(Counter(keep))
    if any(v < 0 for v in rest.values()):
        return Fraction(0)
    n = sum(rest.values())
    ways = math.factorial(n)
    for c in rest.values():
        ways //= math.factorial(c)
    return Fraction(ways, 6**n)


def sub_keeps(roll: Sequence[int]) -> list[Multiset]:
    """The distinct sorted sub-multisets of a roll (what can be kept from it).

    >>> sub_keeps((1, 1, 2))
    [(), (1,), (2,), (1, 1), (1, 2), (1, 1, 2)]
    """
    roll = tuple(sorted(roll))
    seen = {sub for n in range(len(roll) + 1) for sub in itertools.combinations(roll, n)}
    return sorted(seen, key=lambda k: (len(k), k))


class DiceExhaustedError(
    YachtError,
    RuntimeError,
    messages={
        "exhausted": N_("scripted dice exhausted: {n} needed at position {position} of {size}")
    },
):
    """A scripted dice source ran out of faces."""


class DiceSourceError(
    YachtError,
    ValueError,
    messages={
        "scripted_faces": N_("scripted faces must be 1..6, got {faces!r}"),
        "scripted_position": N_("scripted position {position!r} is outside 0..{size}"),
        "description_field": N_("bad dice source description: {desc!r} ({key}: need {kind})"),
        "description_not_object": N_("bad dice source description: {desc!r} (need a JSON object)"),
        "description_drawn": N_("bad dice source description: {desc!r} (drawn: 0 to {most})"),
        "description_scripted": N_("bad dice source description: {reason}"),
        "description_unknown": N_("unknown dice source description: {desc!r}"),
    },
):
    """Scripted faces or a saved dice source that cannot be dice."""


class DiceSource(Protocol):
    """Where dice come from. ``roll(n)`` returns n faces in 1..6."""

    def roll(self, n: int) -> list[int]: ...

    def describe(self) -> dict[str, Any]:
        """JSON that :func:`dice_from_description` turns back into this source, at this point."""
        ...


class RandomDice:
    """A seeded pseudo-random source; the same seed gives the same dice everywhere."""

    def __init__(self, seed: int | None = None, drawn: int = 0) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)
        self.drawn = 0
        for _ in range(drawn):
            self._draw()

    def _draw(self) -> int:
        self.drawn += 1
        return self._rng.randint(1, 6)

    def roll(self, n: int) -> list[int]:
        return [self._draw() for _ in range(n)]

    def describe(self) -> dict[str, Any]:
        return {"kind": "random", "seed": self.seed, "drawn": self.drawn}

    def __repr__(self) -> str:
        return f"RandomDice(seed={self.seed!r}, drawn={self.drawn!r})"


class ScriptedDice:
    """Faces given in advance, for tests and replays."""

    def __init__(self, faces: Iterable[int], position: int = 0) -> None:
        self.faces = list(faces)
        bad = [f for f in self.faces if not (is_int(f) and 1 <= f <= 6)]
        if bad:
            raise DiceSourceError("scripted_faces", faces=bad[:5])
        if not (is_int(position) and 0 <= position <= len(self.faces)):
            raise DiceSourceError("scripted_position", position=position, size=len(self.faces))
        self.position = position

    def roll(self, n: int) -> list[int]:
        if self.position + n > len(self.faces):
            raise DiceExhaustedError("exhausted", n=n, position=self.position, size=len(self.faces))
        out = self.faces[self.position : self.position + n]
        self.position += n
        return out

    def describe(self) -> dict[str, Any]:
        return {"kind": "scripted", "faces": list(self.faces), "position": self.position}

    def __repr__(self) -> str:
        return f"ScriptedDice({self.faces!r}, position={self.position!r})"


class FairDice:
    """Provably fair dice: die number i is derived from HMAC-SHA256(server_seed, client_seed:i).

    The SHA-256 of the server seed (:attr:`commitment`) is published before play; the seed is
    revealed at the end and anyone can re-derive every die with :meth:`die`.

    >>> d = FairDice("00" * 32, client_seed="table-7")
    >>> d.roll(5) == [FairDice.die("00" * 32, "table-7", i) for i in range(5)]
    True
    """

    def __init__(self, server_seed: str | None = None, client_seed: str = "", drawn: int = 0):
        if server_seed is None:
            server_seed = random.SystemRandom().randbytes(32).hex()
        self.server_seed = server_seed
        self.client_seed = client_seed
        self.drawn = drawn

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, hex; publish this before the first roll."""
        return hashlib.sha256(self.server_seed.encode()).hexdigest()

    @staticmethod
    def die(server_seed: str, client_seed: str, index: int) -> int:
        """The face of die number ``index`` (0-based), by rejection sampling on HMAC bytes."""
        counter = 0
        while True:
            msg = f"{client_seed}:{index}:{counter}".encode()
            digest = hmac.digest(server_seed.encode(), msg, "sha256")
            for byte in digest:
                if byte < 252:  # 252 = 6 * 42: keeps every face equally likely
                    return byte % 6 + 1
            counter += 1

    def roll(self, n: int) -> list[int]:
        out = [self.die(self.server_seed, self.client_seed, self.drawn + i) for i in range(n)]
        self.drawn += n
        return out

    def describe(self) -> dict[str, Any]:
        return {
            "kind": "fair",
            "server_seed": self.server_seed,
            "client_seed": self.client_seed,
            "drawn": self.drawn,
        }

    def __repr__(self) -> str:
        return f"FairDice(commitment={self.commitment[:12]!r}..., drawn={self.drawn!r})"


@runtime_checkable
class PlacedDiceSource(DiceSource, Protocol):
    """A dice source that deals each die by its place in the game, not by how many came before
    (fair dice rule 3): the game asks it for the dice of given slots of a seat's roll."""

    def roll_at(self, seat: int, turn: int, roll: int, slots: Sequence[int]) -> list[int]:
        """The faces of ``slots`` (0-4) at roll ``roll`` (0-2) of seat ``seat``'s turn ``turn``
        (0-11)."""
        ...


def deals_by_place(source: DiceSource) -> TypeGuard[PlacedDiceSource]:
    """``isinstance(source, PlacedDiceSource)``, read from the one method that protocol adds
    (a runtime protocol check walks every member of the protocol, and the game asks on every
    roll).

    >>> deals_by_place(PlacedDice("seed")), deals_by_place(RandomDice(seed=1))
    (True, False)
    """
    return callable(getattr(source, "roll_at", None))


class PlacedDice:
    """Provably fair dice keyed by place (rule 3 of docs/web/fairness.md).

    The face of slot p (0-4) at roll r (0-2) of seat s's turn t (0-11) is the first byte
    b < 252 of HMAC-SHA256(server_seed, f"{key}:{s}:{t}:{r}:{p}:{counter}"), as b % 6 + 1, the
    counter counting from 0 until a digest has such a byte; the start's roll-off draws its i-th
    die from the labels f"{key}:rolloff:{i}:{counter}". A held slot's value for that roll is
    simply not used. So no other seat's moves can change a player's dice, and a player's holds
    change only which slots are rerolled, never what a slot shows.

    >>> d = PlacedDice("00" * 32, key="k")
    >>> d.roll_at(0, 0, 1, [1, 3]) == [d.roll_at(0, 0, 1, range(5))[i] for i in (1, 3)]
    True
    >>> PlacedDice.face("00" * 32, "k:0:0:0:0")
    5
    """

    rule = 3

    def __init__(self, server_seed: str | None = None, key: str = "", rolloffs: int = 0) -> None:
        if server_seed is None:
            server_seed = random.SystemRandom().randbytes(32).hex()
        self.server_seed = server_seed
        self.key = key
        self.rolloffs = rolloffs

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, hex; publish this before the first roll."""
        return hashlib.sha256(self.server_seed.encode()).hexdigest()

    @staticmethod
    def face(server_seed: str, label: str) -> int:
        """The face a label deals: the first HMAC byte under 252, counter by counter."""
        secret, counter = server_seed.encode(), 0
        while True:
            digest = hmac.digest(secret, f"{label}:{counter}".encode(), "sha256")
            for byte in digest:
                if byte < 252:  # 252 = 6 * 42: keeps every face equally likely
                    return byte % 6 + 1
            counter += 1

    def roll_at(self, seat: int, turn: int, roll: int, slots: Sequence[int]) -> list[int]:
        return [self.face(self.server_seed, f"{self.key}:{seat}:{turn}:{roll}:{p}") for p in slots]

    def roll(self, n: int) -> list[int]:
        """The next ``n`` dice of the start's roll-off."""
        start, self.rolloffs = self.rolloffs, self.rolloffs + n
        labels = (f"{self.key}:rolloff:{i}" for i in range(start, start + n))
        return [self.face(self.server_seed, label) for label in labels]

    def describe(self) -> dict[str, Any]:
        return {
            "kind": "placed",
            "server_seed": self.server_seed,
            "key": self.key,
            "rolloffs": self.rolloffs,
        }

    def __repr__(self) -> str:
        return f"PlacedDice(commitment={self.commitment[:12]!r}..., key={self.key!r})"


MAX_DRAWN = 1_000_000
"""Dice a described source may already have drawn (a whole game draws about a thousand)."""


def dice_from_description(desc: Mapping[str, Any]) -> DiceSource:
    """Rebuild a dice source from :meth:`DiceSource.describe` output.

    >>> src = RandomDice(seed=7); _ = src.roll(3)
    >>> again = dice_from_description(src.describe())
    >>> again.roll(5) == src.roll(5)
    True
    >>> dice_from_description({"kind": "random", "seed": "7"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    yacht.dice.DiceSourceError: bad dice source description: {...} (seed: need an integer)
    """

    def field(key: str, kind: type, default: Any = None) -> Any:
        value = desc.get(key, default)
        if not is_kind(value, kind):
            raise DiceSourceError("description_field", desc=desc, key=key, kind=kind_message(kind))
        return value

    if not isinstance(desc, Mapping):
        raise DiceSourceError("description_not_object", desc=desc)
    kind = desc.get("kind")
    if kind in ("random", "fair"):
        drawn = field("drawn", int, 0)
        if not 0 <= drawn <= MAX_DRAWN:
            raise DiceSourceError("description_drawn", desc=desc, most=MAX_DRAWN)
        if kind == "random":
            return RandomDice(field("seed", int), drawn=drawn)
        return FairDice(field("server_seed", str), field("client_seed", str, ""), drawn)
    if kind == "placed":
        rolloffs = field("rolloffs", int, 0)
        if not 0 <= rolloffs <= MAX_DRAWN:
            raise DiceSourceError("description_drawn", desc=desc, most=MAX_DRAWN)
        return PlacedDice(field("server_seed", str), field("key", str, ""), rolloffs)
    if kind == "scripted":
        try:
            return ScriptedDice(field("faces", list), position=field("position", int, 0))
        except ValueError as e:
            raise DiceSourceError("description_scripted", reason=e) from None
    raise DiceSourceError("description_unknown", desc=desc)

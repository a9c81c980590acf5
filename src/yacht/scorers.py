"""Scorers: what a category pays for five dice, as small declarative values.

A scorer gets face counts (``counts[f]`` for f in 1..6) and returns points; ``describe(_)``
says what it does through a gettext function, so every preset gets a rules table in every
language without a line of preset-specific text. Being frozen dataclasses, scorers compare,
hash and ``repr`` as code, which is what lets :meth:`yacht.rules.Rules.fingerprint` and the
presets' ``repr`` work.

>>> from collections import Counter
>>> FullHouse()(Counter([3, 3, 3, 3, 3])), FullHouse(yacht_counts=True)(Counter([3, 3, 3, 3, 3]))
(0, 15)
>>> OfAKind(4)(Counter([6, 6, 6, 6, 2])), OfAKind(4, all_dice=True)(Counter([6, 6, 6, 6, 2]))
(24, 26)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "Choice",
    "FaceSum",
    "FullHouse",
    "OfAKind",
    "Scorer",
    "Straight",
    "Translate",
    "UpperBonus",
    "YachtScorer",
]


Translate = Callable[[str], str]
"""A gettext function: ``translator(lang).gettext`` from :mod:`yacht.i18n`, or the identity."""


def _same(message: str) -> str:
    return message


class Scorer(Protocol):
    """Points for five dice in one category. Scorers get face counts: counts[f] for f in 1..6.

    ``describe(_)`` says what the scorer does, through the gettext function ``_``, so every
    preset gets a rules table in every language without a line of preset-specific text.
    """

    def __call__(self, counts: Mapping[int, int]) -> int: ...

    def describe(self, _: Translate = _same) -> str: ...


@dataclass(frozen=True)
class FaceSum:
    """Upper section: the sum of the dice showing ``face``.

    >>> FaceSum(5).describe()
    'the sum of the dice showing 5'
    """

    face: int

    def __call__(self, counts: Mapping[int, int]) -> int:
        return self.face * counts.get(self.face, 0)

    def describe(self, _: Translate = _same) -> str:
        return _("the sum of the dice showing {face}").format(face=self.face)


@dataclass(frozen=True)
class FullHouse:
    """Three of one face and two of another, scoring the sum of all dice (or ``fixed`` points).

    ``yacht_counts``: whether five of a kind also counts as a full house.

    >>> FullHouse().describe()
    'three of one face and two of another: the sum of all five dice; five of a kind does not count'
    """

    yacht_counts: bool = False
    fixed: int | None = None

    def __call__(self, counts: Mapping[int, int]) -> int:
        shape = sorted(n for n in counts.values() if n)
        if shape == [2, 3] or (self.yacht_counts and shape == [5]):
            return self.fixed if self.fixed is not None else _total(counts)
        return 0

    def describe(self, _: Translate = _same) -> str:
        if self.fixed is None:
            what = _("three of one face and two of another: the sum of all five dice")
        else:
            what = _("three of one face and two of another: {points} points")
        if self.yacht_counts:
            tail = _("five of a kind also counts")
        else:
            tail = _("five of a kind does not count")
        return what.format(points=self.fixed) + "; " + tail


@dataclass(frozen=True)
class OfAKind:
    """At least ``n`` dice of one face. Scores ``n`` x face, or the sum of all dice.

    >>> OfAKind(4).describe()
    'at least 4 dice of one face: 4 x that face; the other dice do not count'
    """

    n: int = 4
    all_dice: bool = False

    def __call__(self, counts: Mapping[int, int]) -> int:
        for face in range(6, 0, -1):
            if counts.get(face, 0) >= self.n:
                return _total(counts) if self.all_dice else self.n * face
        return 0

    def describe(self, _: Translate = _same) -> str:
        if self.all_dice:
            return _("at least {n} dice of one face: the sum of all five dice").format(n=self.n)
        return _(
            "at least {n} dice of one face: {n} x that face; the other dice do not count"
        ).format(n=self.n)


@dataclass(frozen=True)
class Straight:
    """``length`` consecutive faces, starting at one of ``starts``; ``points`` fixed.

    >>> Straight(5, (1,), 30).describe()
    'exactly 1-2-3-4-5: 30 points'
    >>> Straight(4, (1, 2, 3), 15).describe()
    'any 4 in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6): 15 points'
    """

    length: int
    starts: tuple[int, ...]
    points: int

    def __call__(self, counts: Mapping[int, int]) -> int:
        for start in self.starts:
            if all(counts.get(f, 0) >= 1 for f in range(start, start + self.length)):
                return self.points
        return 0

    def runs(self) -> list[str]:
        """The qualifying runs as text: ``['1-2-3-4-5']``."""
        return ["-".join(str(f) for f in range(s, s + self.length)) for s in self.starts]

    def describe(self, _: Translate = _same) -> str:
        runs = self.runs()
        if self.length == 5 and len(runs) == 1:
            return _("exactly {run}: {points} points").format(run=runs[0], points=self.points)
        shown = (
            runs[0]
            if len(runs) == 1
            else _("{runs} or {last}").format(runs=", ".join(runs[:-1]), last=runs[-1])
        )
        return _("any {length} in a row ({runs}): {points} points").format(
            length=self.length, runs=shown, points=self.points
        )


@dataclass(frozen=True)
class Choice:
    """Any dice: the sum of all five.

    >>> Choice().describe()
    'any dice: the sum of all five dice'
    """

    def __call__(self, counts: Mapping[int, int]) -> int:
        return _total(counts)

    def describe(self, _: Translate = _same) -> str:
        return _("any dice: the sum of all five dice")


@dataclass(frozen=True)
class YachtScorer:
    """Five of a kind: fixed points.

    >>> YachtScorer().describe()
    'five of a kind: 50 points'
    """

    points: int = 50

    def __call__(self, counts: Mapping[int, int]) -> int:
        return self.points if 5 in counts.values() else 0

    def describe(self, _: Translate = _same) -> str:
        return _("five of a kind: {points} points").format(points=self.points)


@dataclass(frozen=True)
class UpperBonus:
    """``points`` once Ones..Sixes total at least ``threshold``.

    >>> UpperBonus().describe()
    '35 points when Ones to Sixes total at least 63'
    """

    threshold: int = 63
    points: int = 35

    def describe(self, _: Translate = _same) -> str:
        return _("{points} points when Ones to Sixes total at least {threshold}").format(
            points=self.points, threshold=self.threshold
        )


def _total(counts: Mapping[int, int]) -> int:
    return sum(face * n for face, n in counts.items())

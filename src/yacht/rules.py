"""Categories and rule presets (their scorers are in :mod:`yacht.scorers`).

A preset is a frozen value: a name, one scorer per category and an optional upper bonus.
Scorers are small declarative dataclasses, so a preset's ``repr`` pastes back as code and
its content can be fingerprinted. Nothing anywhere branches on a preset's name.

>>> score([5, 5, 5, 2, 1], "fives")
15
>>> score([3, 3, 3, 3, 3], Category.FULL_HOUSE)
0
>>> score([3, 3, 3, 3, 3], "full_house", rules="knizia")
15
>>> score([4, 4, 4, 4, 1], "four_of_a_kind", rules="all-dice-four")
17
>>> rules_by_name("traditional").max_total()
297
"""

from __future__ import annotations

import enum
import hashlib
import itertools
import numbers
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from yacht.errors import N_, YachtError
from yacht.scorers import (
    Choice,
    FaceSum,
    FullHouse,
    OfAKind,
    Scorer,
    Straight,
    Translate,
    UpperBonus,
    YachtScorer,
)

__all__ = [
    "CATEGORIES",
    "UPPER_CATEGORIES",
    "Category",
    "Choice",
    "FaceSum",
    "FullHouse",
    "InvalidDiceError",
    "OfAKind",
    "Rules",
    "RulesError",
    "Scorer",
    "Straight",
    "Translate",
    "UpperBonus",
    "YachtScorer",
    "preset_names",
    "register",
    "rules_by_name",
    "score",
    "validate_dice",
]


class Category(enum.Enum):
    """The twelve rows of the score sheet, in sheet order. Values are the snake_case names."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    LITTLE_STRAIGHT = "little_straight"
    BIG_STRAIGHT = "big_straight"
    CHOICE = "choice"
    YACHT = "yacht"

    @classmethod
    def parse(cls, name: str | Category) -> Category:
        """A category from its snake_case name (dashes, spaces and case forgiven).

        >>> Category.parse("Full-House")
        Category.FULL_HOUSE
        >>> Category.parse("bonus")
        Traceback (most recent call last):
        ...
        yacht.rules.RulesError: unknown category: 'bonus' (expected one of ones, twos, ...)
        """
        if isinstance(name, Category):
            return name
        key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
        try:
            return cls(key)
        except ValueError:
            raise RulesError("unknown_category", name=name, names=list(cls)) from None

    @property
    def index(self) -> int:
        """Position on the sheet, 0..11; also the bit of this category in a used-mask."""
        return _INDEX[self]

    @property
    def face(self) -> int | None:
        """The face an upper category counts (1..6), or None."""
        return self.index + 1 if self.index < 6 else None

    def __repr__(self) -> str:
        return f"Category.{self.name}"


CATEGORIES: tuple[Category, ...] = tuple(Category)
UPPER_CATEGORIES: tuple[Category, ...] = CATEGORIES[:6]
_INDEX = {c: i for i, c in enumerate(CATEGORIES)}


class RulesError(
    YachtError,
    ValueError,
    messages={
        "unknown_category": N_("unknown category: {name!r} (expected one of {names})"),
        "unknown_preset": N_("unknown rules preset: {name!r} (known: {known})"),
        "preset_incomplete": N_("preset {name!r} has no scorer for {missing}"),
        "preset_taken": N_("a preset named {name!r} is already registered"),
    },
):
    """A rules lookup failed: unknown category or preset."""


class InvalidDiceError(
    YachtError,
    ValueError,
    messages={"invalid_dice": N_("invalid dice: {dice!r} (need five faces from 1 to 6)")},
):
    """Dice that are not five faces from 1 to 6."""


def validate_dice(dice: Iterable[int]) -> tuple[int, ...]:
    """Five faces 1..6 as a tuple, or InvalidDiceError quoting the input.

    >>> validate_dice([6, 1, 3, 3, 2])
    (6, 1, 3, 3, 2)
    >>> validate_dice([1, 2, 7, 1, 1])
    Traceback (most recent call last):
    ...
    yacht.rules.InvalidDiceError: invalid dice: [1, 2, 7, 1, 1] (need five faces from 1 to 6)
    """
    try:
        as_list = list(dice)
    except TypeError:
        raise InvalidDiceError("invalid_dice", dice=dice) from None
    if len(as_list) != 5 or not all(
        isinstance(d, numbers.Integral) and not isinstance(d, bool) and 1 <= d <= 6 for d in as_list
    ):
        raise InvalidDiceError("invalid_dice", dice=as_list)
    return tuple(int(d) for d in as_list)


@dataclass(frozen=True)
class Rules:
    """A rule preset: a name, a scorer per category and an optional upper bonus."""

    name: str
    scorers: Mapping[Category, Scorer] = field(hash=False)
    upper_bonus: UpperBonus | None = None
    description: str = ""

    def __post_init__(self) -> None:
        missing = [c.value for c in CATEGORIES if c not in self.scorers]
        if missing:
            raise RulesError("preset_incomplete", name=self.name, missing=", ".join(missing))

    def score(self, dice: Iterable[int], category: Category | str) -> int:
        """Points for five dice in a category under this preset."""
        return self.scorers[Category.parse(category)](Counter(validate_dice(dice)))

    def score_counts(self, counts: Mapping[int, int], category: Category) -> int:
        """Like :meth:`score` for already-validated face counts (the solvers' fast path)."""
        return self.scorers[category](counts)

    def bonus(self, upper_total: int) -> int:
        """The upper bonus earned by an upper-section total."""
        b = self.upper_bonus
        return b.points if b is not None and upper_total >= b.threshold else 0

    def total(self, sheet: Mapping[Category, int]) -> int:
        """The sheet's total: filled boxes plus any upper bonus earned."""
        upper = sum(sheet.get(c, 0) for c in UPPER_CATEGORIES)
        return sum(sheet.values()) + self.bonus(upper)

    def max_total(self) -> int:
        """The best possible total: each category's best roll, plus the bonus if reachable."""
        best = {c: max(self.scorers[c](Counter(r)) for r in _ALL_SORTED_ROLLS) for c in CATEGORIES}
        return self.total(best)

    def fingerprint(self) -> str:
        """A digest of what this preset does (every roll's score and the bonus), not its name.

        Two presets that score identically share a fingerprint, so caches keyed by it stay
        right when code is refactored and change when scoring changes.
        """
        cached: str | None = self.__dict__.get("_fingerprint")
        if cached is None:
            h = hashlib.sha256()
            for roll in _ALL_SORTED_ROLLS:
                counts = Counter(roll)
                h.update(bytes(self.scorers[c](counts) for c in CATEGORIES))
            b = self.upper_bonus
            h.update(repr((b.threshold, b.points) if b else None).encode())
            cached = h.hexdigest()[:16]
            object.__setattr__(self, "_fingerprint", cached)  # a frozen value: compute once
        return cached

    def __repr__(self) -> str:
        return (
            f"rules_by_name({self.name!r})"
            if _REGISTRY.get(self.name) is self
            else (
                f"Rules(name={self.name!r}, scorers={dict(self.scorers)!r}, "
                f"upper_bonus={self.upper_bonus!r})"
            )
        )


_ALL_SORTED_ROLLS = tuple(itertools.combinations_with_replacement(range(1, 7), 5))

_REGISTRY: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    """Add a preset to the registry (its name must be new) and return it."""
    if rules.name in _REGISTRY:
        raise RulesError("preset_taken", name=rules.name)
    _REGISTRY[rules.name] = rules
    return rules


def rules_by_name(name: str | Rules) -> Rules:
    """A registered preset by name (a Rules value passes through).

    >>> rules_by_name("clubhouse").upper_bonus
    UpperBonus(threshold=63, points=35)
    >>> rules_by_name("yahtzee")
    Traceback (most recent call last):
    ...
    yacht.rules.RulesError: unknown rules preset: 'yahtzee' (known: traditional, ...)
    """
    if isinstance(name, Rules):
        return name
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise RulesError("unknown_preset", name=name, known=", ".join(_REGISTRY)) from None


def preset_names() -> list[str]:
    """Names of the registered presets, the default first."""
    return list(_REGISTRY)


def score(dice: Iterable[int], category: Category | str, rules: Rules | str = "traditional") -> int:
    """Points for five dice in a category.

    >>> score([6, 6, 6, 5, 5], "full_house")
    28
    >>> score([6, 6, 6, 6, 2], Category.FOUR_OF_A_KIND)
    24
    """
    return rules_by_name(rules).score(dice, category)


def _upper() -> dict[Category, Scorer]:
    return {c: FaceSum(i + 1) for i, c in enumerate(UPPER_CATEGORIES)}


def _preset(
    name: str,
    description: str,
    *,
    four: OfAKind,
    full_house: FullHouse,
    little: Straight,
    big: Straight,
    upper_bonus: UpperBonus | None = None,
) -> Rules:
    scorers: dict[Category, Scorer] = {
        **_upper(),
        Category.FULL_HOUSE: full_house,
        Category.FOUR_OF_A_KIND: four,
        Category.LITTLE_STRAIGHT: little,
        Category.BIG_STRAIGHT: big,
        Category.CHOICE: Choice(),
        Category.YACHT: YachtScorer(50),
    }
    return register(Rules(name, scorers, upper_bonus, description))


LITTLE_STRAIGHT = Straight(5, (1,), 30)
BIG_STRAIGHT = Straight(5, (2,), 30)

TRADITIONAL = _preset(
    "traditional",
    N_(
        "Traditional Yacht (1938): no bonuses; Four of a Kind counts four dice; "
        "five of a kind is not a Full House."
    ),
    four=OfAKind(4, all_dice=False),
    full_house=FullHouse(yacht_counts=False),
    little=LITTLE_STRAIGHT,
    big=BIG_STRAIGHT,
)
ALL_DICE_FOUR = _preset(
    "all-dice-four",
    N_("Traditional, but Four of a Kind scores the sum of all five dice."),
    four=OfAKind(4, all_dice=True),
    full_house=FullHouse(yacht_counts=False),
    little=LITTLE_STRAIGHT,
    big=BIG_STRAIGHT,
)
KNIZIA = _preset(
    "knizia",
    N_(
        "OpenSpiel's Yacht: Four of a Kind scores all five dice; "
        "five of a kind is also a Full House."
    ),
    four=OfAKind(4, all_dice=True),
    full_house=FullHouse(yacht_counts=True),
    little=LITTLE_STRAIGHT,
    big=BIG_STRAIGHT,
)
CLUBHOUSE = _preset(
    "clubhouse",
    N_(
        "Modern Yacht Dice: 35 bonus at 63 in Ones..Sixes; Little Straight is any four in a "
        "row (15), Big Straight any five (30); Full House and Four of a Kind score all dice."
    ),
    four=OfAKind(4, all_dice=True),
    full_house=FullHouse(yacht_counts=True),
    little=Straight(4, (1, 2, 3), 15),
    big=Straight(5, (1, 2), 30),
    upper_bonus=UpperBonus(63, 35),
)

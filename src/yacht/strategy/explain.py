"""Why an option wins, in exact numbers: what a keep plays for, and this turn against later.

For the top options of a hint (the same ranking), :func:`explain` gives each one's
:class:`Outlook`: the exact distribution of how the turn ends when the rest of it is played
optimally (the policy that maximises the expected final total, ties broken as the engine
breaks them: the continuation :meth:`yacht.strategy.Solution.turn_policy` gives), summarised
as

- ``chances``: for each open *pattern* category (one that some rolls score 0 in and that is not
  in the upper section: Full House, Four of a Kind, the straights, Yacht), the probability
  that the turn's last roll makes it (four of a kind counts a Yacht too, as the scoring does);
- ``scores``: the probability that the continuation ends up scoring each category;
- ``now`` and ``later``: the expected points scored this turn (an upper bonus earned by it
  included) and the expected value of what stays open (the state after the turn), so that
  ``now + later == expected`` and the difference between two options splits into this turn's
  score and the value of what stays open.

:meth:`Explanation.reasons` turns the facts into :class:`Reason` values, a code and its
arguments, which each face renders as a whole sentence in the player's language. Nothing here
samples: every figure comes from the tables (``TRANSITION``, the turn policy, the state values).

>>> e = explain("traditional", [], [6, 6, 6, 2, 3], rolls_left=2, top=3)
>>> best = e.outlooks[0]
>>> best.option.keep, [(c.value, round(p, 4)) for c, p in best.chances[:2]]
((6, 6, 6), [('four_of_a_kind', 0.4923), ('full_house', 0.1682)])
>>> round(best.now + best.later - best.option.expected, 9)
0.0
>>> (why,) = e.reasons()[0]
>>> why.code, why.args["category"], why.args["category2"]
('keep_two', 'four_of_a_kind', 'full_house')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from yacht.rules import CATEGORIES, Category, Rules, rules_by_name
from yacht.strategy.errors import StrategyError
from yacht.strategy.hints import Hint, Option, hint
from yacht.strategy.solver import Solution, solve
from yacht.strategy.tables import F64, KEEP_INDEX, ROLL_INDEX, TRANSITION

__all__ = [
    "Explanation",
    "Outlook",
    "Reason",
    "compare",
    "end_distribution",
    "explain",
    "pattern_categories",
    "plays_for",
    "reasons_for",
]

SHOWN = 0.005
"""Chances below this (0.5 %) are left out of the reasons (the facts keep them all)."""


@dataclass(frozen=True)
class Reason:
    """One sentence's worth: a ``code`` (which sentence) and its ``args`` (plain data:
    numbers, category names, dice), rendered by each face in the player's language."""

    code: str
    args: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "args": {k: _plain(v) for k, v in self.args.items()}}


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class Outlook:
    """One option's facts (see the module docstring): ``chances`` and ``scores`` are
    ``(category, probability)`` pairs, most likely first; a score option has no chances and
    scores its category with probability 1. ``ends[r]``: P(the turn ends on roll r), over
    :data:`yacht.dice.ROLLS`."""

    option: Option
    now: float
    later: float
    chances: tuple[tuple[Category, float], ...]
    scores: tuple[tuple[Category, float], ...]
    ends: F64 = field(repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "option": self.option.to_json(),
            "now": self.now,
            "later": self.later,
            "chances": {c.value: p for c, p in self.chances},
            "scores": {c.value: p for c, p in self.scores},
        }


@dataclass(frozen=True)
class Explanation:
    """The :class:`Outlook` of each of the hint's top options, best first."""

    hint: Hint
    outlooks: tuple[Outlook, ...]

    def reasons(self) -> list[tuple[Reason, ...]]:
        """Per option, best first, the sentences to show under it: what a keep plays for, or
        what the best score leaves open (:func:`plays_for`), then, for an option that is not
        the best, how it compares with the best (:func:`compare`)."""
        best = self.outlooks[0]
        out = []
        for o in self.outlooks:
            own = plays_for(o) if o is best or o.option.action == "keep" else None
            versus = compare(o, best) if o is not best else None
            out.append(tuple(r for r in (own, versus) if r is not None))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "outlooks": [o.to_json() for o in self.outlooks],
            "reasons": [[r.to_json() for r in rs] for rs in self.reasons()],
        }


def pattern_categories(rules: Rules | str) -> tuple[Category, ...]:
    """The categories a roll either makes or not: outside the upper section, scoring 0 for
    some roll (Choice scores every roll, so it is no pattern).

    >>> [c.value for c in pattern_categories("traditional")]
    ['full_house', 'four_of_a_kind', 'little_straight', 'big_straight', 'yacht']
    """
    preset = rules_by_name(rules)
    table = solve(preset).table
    return tuple(
        c for c in CATEGORIES if c.face is None and bool((table.points[:, c.index] == 0).any())
    )


def end_distribution(
    solution: Solution, mask: int, upper: int, keep: tuple[int, ...], rolls_left: int
) -> F64:
    """P(the turn ends on each roll) after keeping ``keep`` with ``rolls_left`` (1 or 2),
    the rest of the turn played optimally (the engine's turn policy for the state)."""
    after = TRANSITION[KEEP_INDEX[tuple(sorted(keep))]]
    if rolls_left == 1:
        first: F64 = after.copy()
        return first
    policy = solution.turn_policy(mask, upper)
    out: F64 = after @ TRANSITION[policy.keep1]
    return out


def _score_now_later(
    solution: Solution, mask: int, upper: int, roll: int, category: int
) -> tuple[float, float]:
    table = solution.table
    points = int(table.points[roll, category])
    gain = int(table.bonus_gain(upper, category, points))
    raised = int(table.raise_upper(upper, category, points))
    return float(points + gain), float(solution.state_values[mask | 1 << category, raised])


def _outlook(
    solution: Solution, patterns: tuple[Category, ...], h: Hint, mask: int, upper: int, o: Option
) -> Outlook:
    if o.action == "score":
        assert o.category is not None
        r = ROLL_INDEX[tuple(sorted(h.dice))]
        now, later = _score_now_later(solution, mask, upper, r, o.category.index)
        ends = np.zeros(len(ROLL_INDEX))
        ends[r] = 1.0
        return Outlook(o, now, later, (), ((o.category, 1.0),), ends)
    ends = end_distribution(solution, mask, upper, o.keep or (), h.rolls_left)
    scored = solution.turn_policy(mask, upper).category
    table = solution.table
    rolls = np.arange(len(ROLL_INDEX))
    points = table.points[rolls, scored]
    cats = np.unique(scored)
    gain = np.zeros(len(ROLL_INDEX))
    later_by_roll = np.zeros(len(ROLL_INDEX))
    for c in cats:
        at = scored == c
        gain[at] = table.bonus_gain(upper, int(c), points[at])
        raised = table.raise_upper(upper, int(c), points[at])
        later_by_roll[at] = solution.state_values[mask | 1 << int(c), raised]
    now = float(ends @ (points + gain))
    later = float(ends @ later_by_roll)
    scores = [(CATEGORIES[int(c)], float(ends[scored == c].sum())) for c in cats]
    chances = [
        (c, float(ends[table.points[:, c.index] > 0].sum()))
        for c in patterns
        if not mask >> c.index & 1
    ]
    return Outlook(
        o,
        now,
        later,
        tuple(sorted(chances, key=lambda x: (-x[1], x[0].index))),
        tuple(sorted(((c, p) for c, p in scores if p > 0), key=lambda x: (-x[1], x[0].index))),
        ends,
    )


class Choice(Protocol):
    """An option as any hint gives it (:class:`Option`, a win hint's option)."""

    @property
    def action(self) -> str: ...
    @property
    def keep(self) -> tuple[int, ...] | None: ...
    @property
    def category(self) -> Category | None: ...
    @property
    def points(self) -> int | None: ...


def _key(o: Choice) -> tuple[str, tuple[int, ...] | None, Category | None, int | None]:
    return (o.action, tuple(o.keep) if o.keep is not None else None, o.category, o.points)


def explain(
    rules: Rules | str,
    used: Iterable[Category | str] | int,
    dice: Iterable[int],
    rolls_left: int,
    *,
    upper: int = 0,
    top: int = 3,
    options: Iterable[Choice] | None = None,
) -> Explanation:
    """The facts behind the ``top`` best options of :func:`yacht.strategy.hint` for the same
    position (same arguments, same ranking), or behind ``options`` when given (e.g. the ones a
    face shows, or a decision a review prices next to the best one; the hint's best comes
    first either way).

    Bad input raises what :func:`~yacht.strategy.hint` raises; ``top`` must be at least 1.

    >>> e = explain("traditional", ["yacht"], [2, 3, 4, 5, 5], rolls_left=2, top=1)
    >>> [(c.value, round(p, 3)) for c, p in e.outlooks[0].chances[:2]]
    [('little_straight', 0.278), ('big_straight', 0.278)]
    """
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise StrategyError("explain_top", top=top)
    preset = rules_by_name(rules)
    h = hint(preset, used, dice, rolls_left, upper=upper)
    solution = solve(preset)
    mask, up = solution.state(used, upper)
    patterns = pattern_categories(preset)
    chosen: list[Choice] = list(h.options[:top]) if options is None else [h.best, *options]
    seen: list[Option] = []
    for o in chosen:
        found = [x for x in h.options if _key(x) == _key(o)]
        if not found:
            raise StrategyError("explain_option", option=str(o))
        if found[0] not in seen:
            seen.append(found[0])
    outlooks = tuple(_outlook(solution, patterns, h, mask, up, o) for o in seen)
    return Explanation(h, outlooks)


def compare(outlook: Outlook, best: Outlook) -> Reason:
    """How an option that is not the best compares with the best, this turn against later.

    ``score_keeps_open``: both score and the best scores fewer points now, keeping this
    option's category open (``lost`` points now, worth ``later`` more later, ``net`` more in
    all). Otherwise ``vs_keep``, ``vs_all`` (reroll all five) or ``vs_score`` with ``now`` and
    ``later``: this option's expected points this turn and later minus the best's.
    """
    o, b = outlook.option, best.option
    now, later = outlook.now - best.now, outlook.later - best.later
    if o.action == "score" and b.action == "score" and now > 0:
        assert o.category is not None and b.category is not None
        return Reason(
            "score_keeps_open",
            {
                "points": b.points,
                "category": b.category.value,
                "other": o.category.value,
                "lost": now,
                "later": -later,
                "net": -(now + later),
            },
        )
    if o.action == "score":
        assert o.category is not None
        return Reason(
            "vs_score",
            {"points": o.points, "category": o.category.value, "now": now, "later": later},
        )
    if o.keep:
        return Reason("vs_keep", {"dice": o.keep, "now": now, "later": later})
    return Reason("vs_all", {"now": now, "later": later})


def plays_for(outlook: Outlook) -> Reason:
    """What a keep plays for: ``keep_two`` / ``keep_one``, the chances of the one or two
    open patterns the continuation scores most often (each chance is that of the pattern,
    e.g. four of a kind or better); ``keep_ends``, the category it most often ends in when it
    scores no pattern; ``all_two``, ``all_one``, ``all_ends`` the same for rerolling all five.
    A score: ``score_now``, its points and the value of what it leaves open (``later``).
    """
    o = outlook.option
    if o.action == "score":
        assert o.category is not None
        return Reason(
            "score_now", {"points": o.points, "category": o.category.value, "later": outlook.later}
        )
    prefix = "keep" if o.keep else "all"
    dice: dict[str, Any] = {"dice": o.keep} if o.keep else {}
    order = {c: i for i, (c, _) in enumerate(outlook.scores)}
    aims = [(c, p) for c, p in outlook.chances if c in order and p >= SHOWN]
    aims.sort(key=lambda x: order[x[0]])
    if len(aims) >= 2:
        (c1, p1), (c2, p2) = sorted(aims[:2], key=lambda x: (-x[1], x[0].index))
        args = {"chance": p1, "category": c1.value, "chance2": p2, "category2": c2.value}
        return Reason(f"{prefix}_two", {**dice, **args})
    if aims:
        c1, p1 = aims[0]
        return Reason(f"{prefix}_one", {**dice, "chance": p1, "category": c1.value})
    c1, p1 = outlook.scores[0]
    return Reason(f"{prefix}_ends", {**dice, "chance": p1, "category": c1.value})


def reasons_for(
    rules: Rules | str,
    used: Iterable[Category | str] | int,
    dice: Iterable[int],
    rolls_left: int,
    choices: Sequence[Choice],
    *,
    upper: int = 0,
    versus: bool = True,
) -> list[tuple[Reason, ...]]:
    """The reasons of each of ``choices`` (options of this position from any hint, e.g. a
    win hint's, in the order given): what a keep plays for; with ``versus``, what the best
    score (by expected points) leaves open and how any other choice differs from the best.
    A choice that is no option of the hint (keeping all five dice) gets none.

    >>> h = hint("traditional", [], [1, 2, 3, 4, 6], 1)
    >>> [str(o) for o in h.options[:2]]
    ['keep 1 2 3 4', 'keep 2 3 4 6']
    >>> [[r.code for r in rs] for rs in reasons_for("traditional", [], [1, 2, 3, 4, 6], 1,
    ...                                               h.options[:2])]
    [['keep_one'], ['keep_one', 'vs_keep']]
    """
    dice = tuple(dice)
    h = hint(rules, used, dice, rolls_left, upper=upper)
    known = {_key(o) for o in h.options}
    shown = [c for c in choices if _key(c) in known]
    e = explain(rules, used, dice, rolls_left, upper=upper, options=shown)
    by_key = {_key(o.option): o for o in e.outlooks}
    best = e.outlooks[0]
    out: list[tuple[Reason, ...]] = []
    for c in choices:
        outlook = by_key.get(_key(c))
        if outlook is None:
            out.append(())
            continue
        reasons: list[Reason] = []
        if outlook.option.action == "keep" or (versus and outlook is best):
            reasons.append(plays_for(outlook))
        if versus and outlook is not best:
            reasons.append(compare(outlook, best))
        out.append(tuple(reasons))
    return out

"""Exact strategy: optimal play for every preset, hints, score distributions, target play.

Everything is computed exactly (floating point aside) by backward induction over turn-start
states: the used categories (a 12-bit mask, bit ``Category.index``) plus, for presets with
an upper bonus, the upper subtotal capped at the threshold. A turn works on the 252 sorted
rolls and 462 keeps of :mod:`yacht.dice` with exact multinomial probabilities.

Values (:func:`solve`)
    ``solve(rules) -> Solution``: built on first use (about 0.1 s for traditional), kept in
    memory and cached on disk (``$YACHT_CACHE_DIR`` or the user cache dir), keyed by
    ``rules.fingerprint()``. ``Solution.expected`` is the expected final total of a new game
    under optimal play; ``Solution.value(used, upper=0)`` the expected points still to come
    from a turn's start (``used``: categories, names or an int mask; sheet points excluded,
    bonus to come included); ``Solution.values()`` the whole table ``[mask, upper]``.

Hints (:func:`hint`, :func:`hint_for_view`)
    ``hint(rules, used, dice, rolls_left, *, upper=0, target=None, banked=0) -> Hint``:
    ``Hint.options`` lists every :class:`Option` (keep 0-4 dice while rolls are left, or
    score an open category) best first; ``Hint.best``; ``Hint.to_json()``.
    ``Option.expected``: points still to come from this decision on, this turn included.

Policies for simulators (:meth:`Solution.turn_policy`)
    ``Solution.turn_policy(used, upper) -> TurnPolicy`` with numpy arrays over the 252 rolls
    (``yacht.dice.ROLLS`` order): ``keep2[r]`` and ``keep1[r]``, the index in
    ``yacht.dice.KEEPS`` of the dice to keep at 2 and 1 rolls left (a five-dice keep,
    ``ROLL_KEEP + r``, means stop), and ``category[r]``, the ``Category.index`` to score at 0
    rolls left (or on stopping). ``Solution.turn_policies(masks, uppers)`` does many states
    at once (arrays ``[roll, state]``, uppers capped). :data:`TRANSITION` ``[k, r]`` is
    P(roll r | keep k).

Score distribution (:func:`distribution`)
    ``distribution(rules) -> Distribution``: ``probabilities[t]`` = P(final total = t) under
    the optimal policy from a new game; ``mean``, ``stdev``, ``percentiles``,
    ``at_least(t)``, ``to_json()``.

Target play (:func:`target_table`, :func:`target_probability`)
    ``target_probability(rules, used, needed, *, upper=0)``: the best P(scoring at least
    ``needed`` more points) from a turn's start. ``target_table(rules, needed=None, *,
    base=0) -> TargetTable`` holds it for every state after ``base`` (a used-mask) and every
    number of points needed up to ``needed`` (default: all); ``TargetTable.probability(used,
    needed, upper=0)`` and ``TargetTable.turn_policy(used, upper, needed)`` (the target
    policy for one turn, as :class:`TurnPolicy`). ``hint(..., target=T, banked=B)`` gives
    every option its ``probability`` of a final total >= T and orders by it.

>>> from yacht.rules import rules_by_name
>>> round(solve(rules_by_name("traditional")).expected, 7)
166.9550677
"""

from yacht.strategy.distribution import Distribution, distribution
from yacht.strategy.hints import Hint, Option, hint, hint_for_view
from yacht.strategy.solver import Solution, TurnPolicy, mask_of, solve
from yacht.strategy.tables import FIRST_ROLL, ROLL_KEEP, TRANSITION
from yacht.strategy.target import TargetTable, target_probability, target_table

__all__ = [
    "FIRST_ROLL",
    "ROLL_KEEP",
    "TRANSITION",
    "Distribution",
    "Hint",
    "Option",
    "Solution",
    "TargetTable",
    "TurnPolicy",
    "distribution",
    "hint",
    "hint_for_view",
    "mask_of",
    "solve",
    "target_probability",
    "target_table",
]

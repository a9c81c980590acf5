"""Who starts a game: in seat order, by a roll-off, or at random.

The roll-off is the one the rules pages describe: everyone rolls one die, the highest starts,
and the tied roll again among themselves. ``random`` rolls one die until it names a seat, so
each of n seats starts with chance 1/n. The dice rolled are returned too, so a saved game
can show and check them.

>>> from yacht.dice import ScriptedDice
>>> choose_first("roll-off", 3, ScriptedDice([5, 6, 6, 2, 4]))
(2, [[5, 6, 6], [2, 4]])
>>> choose_first("random", 2, ScriptedDice([5, 2]))
(1, [[5], [2]])

A replay gives the rolls instead, and gets the seat they decide:

>>> replay_start("roll-off", 3, [[5, 6, 6], [2, 4]])
2
>>> replay_start("roll-off", 3, [[5, 6, 6]])
Traceback (most recent call last):
...
yacht.start.SetupError: start rolls [[5, 6, 6]] are not a roll-off start for 3 players
"""

from __future__ import annotations

from collections.abc import Sequence

from yacht.dice import DiceExhaustedError, DiceSource, ScriptedDice
from yacht.errors import N_, YachtError

__all__ = ["START_RULES", "SetupError", "choose_first", "replay_start"]

START_RULES = ("seat", "roll-off", "random")


class SetupError(
    YachtError,
    ValueError,
    messages={
        "players": N_("a game needs 1 to {most} named players, got {names!r}"),
        "start_rule": N_("unknown start rule {rule!r} (use one of {rules})"),
        "start_rolls_type": N_("start rolls must be lists of faces, got {rolls!r}"),
        "start_rolls": N_("start rolls {rolls!r} are not a {rule} start for {n} players"),
    },
):
    """A game cannot start as asked: its players, its start rule or its start's rolls."""


def choose_first(rule: str, n: int, source: DiceSource) -> tuple[int, list[list[int]]]:
    """The seat (0-based) that starts under ``rule`` with ``n`` players, and the dice rolled."""
    if rule not in START_RULES:
        raise SetupError("start_rule", rule=rule, rules=", ".join(START_RULES))
    if rule == "seat":
        return 0, []
    rolls: list[list[int]] = []
    if rule == "random":
        while True:
            (face,) = source.roll(1)
            rolls.append([face])
            if face <= n:
                return face - 1, rolls
    contenders = list(range(n))
    while True:
        faces = source.roll(len(contenders))
        rolls.append(faces)
        top = max(faces)
        contenders = [p for p, f in zip(contenders, faces, strict=True) if f == top]
        if len(contenders) == 1:
            return contenders[0], rolls


def replay_start(rule: str, n: int, rolls: Sequence[Sequence[int]]) -> int:
    """The seat that starts when the start's dice showed ``rolls``; ValueError unless they are
    exactly the rolls that decide a ``rule`` start for ``n`` players."""
    if not all(isinstance(r, Sequence) and not isinstance(r, str) for r in rolls):
        raise SetupError("start_rolls_type", rolls=rolls)
    given = [list(r) for r in rolls]
    try:
        first, replayed = choose_first(rule, n, ScriptedDice(f for r in given for f in r))
    except DiceExhaustedError:
        replayed = None  # the rolls end before anyone has won the start
    if replayed != given:
        raise SetupError("start_rolls", rolls=given, rule=rule, n=n)
    return first

"""The proficiency test: a fixed, versioned set of positions, so results compare across
players, and a report of the errors by kind of decision and the mean loss per choice.

The set covers every kind of decision (:data:`yacht.training.THEMES`: straights, Yacht
chases, the upper section, the rest of the lower section, zeroing) early, in the middle and
late in the game (:data:`yacht.training.PHASES`). Its positions were taken by
:func:`build_set` from games of the ``easy`` bot with seeds from 0, keeping only positions
with a clear best answer (the second-best option gives up at least :data:`CLEAR` points), in
the order met, up to :data:`PER_CLASS` for each (theme, phase). The set is stored in the
package (``proficiency-1.json``) and never changes under its version: a test checks that
:func:`build_set` still makes it.

A player's result is their mean loss per choice (expected points given up against the best
option, over all the positions) and their errors (answers that are not best) by theme and
by phase. A strong player's mean loss per choice is under 0.2 points.

>>> test = load_set()
>>> test.version, len(test.positions)
(1, 30)
>>> report = grade(test, [p.position.hint().best for p in test.positions])
>>> report.errors, report.mean_loss
(0, 0.0)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from yacht.strategy import Option
from yacht.training import PHASES, THEMES, Position, TrainingError, Verdict, classify, judge

__all__ = [
    "CLEAR",
    "PER_CLASS",
    "VERSION",
    "ClassResult",
    "Item",
    "ProficiencySet",
    "Report",
    "bot_answers",
    "build_set",
    "grade",
    "load_set",
]

VERSION = 1
"""The set's version: a result names it, and results of one version compare."""

CLEAR = 0.5
"""A position is in the set only if the second-best option gives up at least this much."""

PER_CLASS = 2
"""Positions per (theme, phase): 5 themes x 3 phases x 2 = 30."""

GAMES_LIMIT = 2000
"""build_set looks through at most this many games for the rarer classes."""


@dataclass(frozen=True)
class Item:
    """One question of the set: its number (from 1), position, theme and phase."""

    number: int
    position: Position
    theme: str
    phase: str


@dataclass(frozen=True)
class ProficiencySet:
    version: int
    positions: tuple[Item, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "made_by": "yacht.training.proficiency.build_set",
            "positions": [
                {**i.position.to_json(), "number": i.number, "theme": i.theme, "phase": i.phase}
                for i in self.positions
            ],
        }


def _candidates(rules: str) -> Iterator[Position]:
    from yacht.bots import play_game

    for seed in range(GAMES_LIMIT):
        yield from _positions(play_game(["easy"], rules, seed=seed), f"easy bot, seed {seed}")


def _positions(game: Any, source: str) -> Iterator[Position]:
    """Every decision's position in a game, in order (the mistakes' walk, keeping all)."""
    from yacht.actions import Hold, Roll, Score
    from yacht.game import MAX_ROLLS
    from yacht.rules import Category

    sheet: dict[Category, int] = {}
    dice: tuple[int, ...] | None = None
    held: frozenset[int] = frozenset()
    rolls = 0
    for e in game.events:
        action = e.action
        if isinstance(action, Hold):
            held = frozenset(action.positions)
            continue
        if dice is not None and isinstance(action, Roll | Score) and len(held) < 5:
            yield Position(
                game.rules.name,
                dict(sheet),
                dice,
                MAX_ROLLS - rolls,
                f"{source}, round {len(sheet) + 1}, roll {rolls}",
            )
        if isinstance(action, Roll):
            dice, rolls = e.dice, rolls + 1
        if isinstance(action, Score):
            sheet[action.category] = e.points or 0
            dice, held, rolls = None, frozenset(), 0


def build_set(rules: str = "traditional", per_class: int = PER_CLASS) -> ProficiencySet:
    """Make the set from the ``easy`` bot's games (seed 0 on), as described above."""
    wanted = {(t, p): per_class for t in THEMES for p in PHASES}
    taken: list[tuple[Position, str, str]] = []
    seen: set[str] = set()
    for position in _candidates(rules):
        options = position.hint().options
        if len(options) < 2 or options[0].expected - options[1].expected < CLEAR:
            continue
        theme, phase = classify(position)
        if wanted[theme, phase] == 0 or position.key() in seen:
            continue
        wanted[theme, phase] -= 1
        seen.add(position.key())
        taken.append((position, theme, phase))
        if not any(wanted.values()):
            break
    order = {(t, p): i for i, (t, p) in enumerate((t, p) for p in PHASES for t in THEMES)}
    taken.sort(key=lambda x: order[x[1], x[2]])
    items = tuple(Item(n, pos, t, ph) for n, (pos, t, ph) in enumerate(taken, 1))
    return ProficiencySet(VERSION, items)


def load_set(version: int = VERSION) -> ProficiencySet:
    """The stored set of ``version``; TrainingError for a version this yacht does not have."""
    name = f"proficiency-{version}.json"
    try:
        text = resources.files("yacht.training").joinpath(name).read_text("utf-8")
    except (FileNotFoundError, OSError):
        raise TrainingError("position", reason=f"no proficiency set version {version}") from None
    data = json.loads(text)
    items = tuple(
        Item(int(p["number"]), Position.from_json(p), str(p["theme"]), str(p["phase"]))
        for p in data["positions"]
    )
    return ProficiencySet(int(data["version"]), items)


@dataclass(frozen=True)
class ClassResult:
    """One kind of decision: how many positions, how many answered wrong, points lost."""

    positions: int = 0
    errors: int = 0
    loss: float = 0.0

    def add(self, verdict: Verdict) -> ClassResult:
        return ClassResult(
            self.positions + 1, self.errors + (not verdict.solved), self.loss + verdict.loss
        )

    @property
    def mean_loss(self) -> float:
        return self.loss / self.positions if self.positions else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "positions": self.positions,
            "errors": self.errors,
            "loss": round(self.loss, 6),
            "mean_loss": round(self.mean_loss, 6),
        }


@dataclass(frozen=True)
class Report:
    """A result of the test: every verdict, and the sums by theme and by phase."""

    version: int
    verdicts: tuple[Verdict, ...]
    themes: dict[str, ClassResult]
    phases: dict[str, ClassResult]

    @property
    def errors(self) -> int:
        return sum(not v.solved for v in self.verdicts)

    @property
    def mean_loss(self) -> float:
        """Mean points given up per choice (0 for a perfect test)."""
        return sum(v.loss for v in self.verdicts) / len(self.verdicts) if self.verdicts else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "positions": len(self.verdicts),
            "errors": self.errors,
            "mean_loss": round(self.mean_loss, 6),
            "themes": {k: v.to_json() for k, v in self.themes.items()},
            "phases": {k: v.to_json() for k, v in self.phases.items()},
            "answers": [v.to_json() for v in self.verdicts],
        }


def grade(test: ProficiencySet, answers: Sequence[Option | Verdict]) -> Report:
    """Grade one answer per position, in the set's order: each an option of the position's
    hint (or an already judged verdict). TrainingError if the count differs or an answer is
    not an option of its position."""
    if len(answers) != len(test.positions):
        raise TrainingError(
            "position", reason=f"{len(answers)} answers for {len(test.positions)} positions"
        )
    themes = {t: ClassResult() for t in THEMES}
    phases = {p: ClassResult() for p in PHASES}
    verdicts = []
    for item, answer in zip(test.positions, answers, strict=True):
        if isinstance(answer, Verdict):
            verdict = answer
        elif answer.action == "keep":
            verdict = judge(item.position, keep=answer.keep or ())
        else:
            verdict = judge(item.position, category=answer.category)
        verdicts.append(verdict)
        themes[item.theme] = themes[item.theme].add(verdict)
        phases[item.phase] = phases[item.phase].add(verdict)
    return Report(test.version, tuple(verdicts), themes, phases)


def bot_answers(test: ProficiencySet, bot: str, seed: int = 0) -> list[Verdict]:
    """A bot's answers to the set (``yacht.bots.make_bot`` names; a random bot's choices from
    ``seed``), judged: what the test says of the bots, so a player can compare.

    >>> report = grade(load_set(), bot_answers(load_set(), "optimal"))
    >>> report.errors, report.mean_loss
    (0, 0.0)
    """
    import random

    from yacht.bots import make_bot
    from yacht.bots.base import DecidingBot
    from yacht.game import MAX_ROLLS, TurnView

    player = make_bot(bot)
    if not isinstance(player, DecidingBot):
        raise TrainingError("position", reason=f"the {bot} bot does not answer positions")
    rng = random.Random(seed)
    out = []
    for item in test.positions:
        p = item.position
        view = TurnView(
            p.rules_obj, 0, p.sheet, (p.sheet,), p.dice, frozenset(), MAX_ROLLS - p.rolls_left
        )
        move = player.decide(view, rng)
        if isinstance(move, tuple):
            out.append(judge(p, keep=move))
        else:
            out.append(judge(p, category=move))
    return out

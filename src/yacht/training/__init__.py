"""Training: positions to solve, judged by the exact strategy.

A :class:`Position` is one decision of a game seen from the player's seat: the preset, the
player's filled categories and their points, the five dice and the rolls left. The question
is always the same, *what is best here?*, and :func:`judge` answers it exactly: every option
with its expected points still to come (the hint's measure, alone at the table), the best
one, and how many points the answer gave up against it.

Positions come from finished games (:func:`mistakes`: the decisions that lost the most, for
practice) or from the fixed, versioned set of :mod:`yacht.training.proficiency`.

>>> from yacht.rules import Category
>>> p = Position("traditional", {}, (1, 2, 3, 4, 6), rolls_left=2)
>>> v = judge(p, keep=(1, 2, 3, 4))
>>> v.best.keep, v.solved, v.loss
((1, 2, 3, 4), True, 0.0)
>>> v = judge(p, category=Category.CHOICE)
>>> v.solved, round(v.loss, 3)
(False, 12.349)
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from yacht.actions import Hold, Roll, Score
from yacht.errors import N_, YachtError
from yacht.game import MAX_ROLLS, Event, Game
from yacht.review import settled
from yacht.rules import (
    CATEGORIES,
    UPPER_CATEGORIES,
    Category,
    Rules,
    rules_by_name,
    validate_dice,
)
from yacht.strategy import Hint, Option, hint
from yacht.strategy.explain import Reason

__all__ = [
    "PHASES",
    "SOLVED",
    "THEMES",
    "Mistake",
    "Position",
    "TrainingError",
    "Verdict",
    "classify",
    "judge",
    "mistakes",
    "position_at",
    "practice_positions",
]

SOLVED = 1e-9
"""An answer that gives up less than this (float rounding of equal options) is solved: the
review's :data:`yacht.review.TOLERANCE`, so a practice answer and a game's decision agree."""

THEMES = ("straight", "yacht", "upper", "lower", "zero")
"""What the best option is about: keeping or scoring a straight, chasing or scoring a
Yacht, the upper section, the rest of the lower section, or scoring a zero."""

PHASES = ("early", "middle", "late")
"""When in the game: up to 3 categories filled, 4 to 7, or 8 and more."""

STRAIGHTS = frozenset({Category.LITTLE_STRAIGHT, Category.BIG_STRAIGHT})


class TrainingError(
    YachtError,
    ValueError,
    messages={
        "position": N_("not a position: {reason}"),
        "answer": N_("not an option here: {answer}"),
        "answer_both": N_("an answer keeps dice or scores a category, not both"),
        "over": N_("the game is over in this position: every category is filled"),
    },
):
    """A position or an answer that cannot be judged; its text is in the user's language
    at the face (:func:`yacht.i18n.error_text`)."""


@dataclass(frozen=True)
class Position:
    """One decision from the player's seat: ``sheet`` maps each filled category to its
    points; ``dice`` are the five dice as rolled; ``rolls_left`` is 0, 1 or 2. ``source``
    says where it comes from (a game, a set), for the player; it is not part of the question.
    """

    rules: str
    sheet: Mapping[Category, int]
    dice: tuple[int, ...]
    rolls_left: int
    source: str = ""

    def __post_init__(self) -> None:
        try:
            rules_by_name(self.rules)
            validate_dice(self.dice)
        except ValueError as e:
            raise TrainingError("position", reason=e) from None
        rolls = self.rolls_left
        if isinstance(rolls, bool) or not isinstance(rolls, int) or not 0 <= rolls < MAX_ROLLS:
            raise TrainingError("position", reason=f"rolls left {self.rolls_left!r}")
        for category, points in self.sheet.items():
            if not isinstance(category, Category) or category not in CATEGORIES:
                raise TrainingError("position", reason=f"category {category!r}")
            if isinstance(points, bool) or not isinstance(points, int) or points < 0:
                raise TrainingError("position", reason=f"{category.value} = {points!r}")
        if len(self.sheet) >= len(CATEGORIES):
            raise TrainingError("over")

    @property
    def rules_obj(self) -> Rules:
        return rules_by_name(self.rules)

    @property
    def filled(self) -> int:
        return len(self.sheet)

    @property
    def phase(self) -> str:
        """``early``, ``middle`` or ``late`` (:data:`PHASES`)."""
        return "early" if self.filled <= 3 else "middle" if self.filled <= 7 else "late"

    @property
    def open_categories(self) -> list[Category]:
        return [c for c in CATEGORIES if c not in self.sheet]

    def hint(self) -> Hint:
        """Every option, best first, by expected points still to come (computed once)."""
        return self._hint

    @functools.cached_property
    def _hint(self) -> Hint:
        rules = self.rules_obj
        upper = sum(self.sheet.get(c, 0) for c in UPPER_CATEGORIES)
        return hint(
            rules,
            list(self.sheet),
            self.dice,
            self.rolls_left,
            upper=upper if rules.upper_bonus is not None else 0,
            banked=rules.total(self.sheet),
        )

    def key(self) -> str:
        """The position as one line, the same for the same question wherever it comes from:
        ``traditional|sixes=24,yacht=0|1 2 3 4 6|2`` (dice sorted, since their order does
        not change the question)."""
        sheet = ",".join(f"{c.value}={self.sheet[c]}" for c in CATEGORIES if c in self.sheet)
        dice = " ".join(map(str, sorted(self.dice)))
        return f"{self.rules}|{sheet}|{dice}|{self.rolls_left}"

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "sheet": {c.value: self.sheet[c] for c in CATEGORIES if c in self.sheet},
            "dice": list(self.dice),
            "rolls_left": self.rolls_left,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: object) -> Position:
        """A position from :meth:`to_json`'s form; TrainingError for anything else."""
        if not isinstance(data, Mapping):
            raise TrainingError("position", reason="not an object")
        try:
            sheet_in = data.get("sheet", {})
            if not isinstance(sheet_in, Mapping):
                raise TypeError("sheet is not an object")
            sheet = {Category(k): v for k, v in sheet_in.items()}
            dice = data["dice"]
            if not isinstance(dice, list):
                raise TypeError("dice is not a list")
            source = data.get("source", "")
            if not isinstance(source, str):
                raise TypeError("source is not a string")
            return cls(str(data["rules"]), sheet, tuple(dice), data["rolls_left"], source)
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, TrainingError):
                raise
            raise TrainingError("position", reason=e) from None


@dataclass(frozen=True)
class Verdict:
    """An answer to a position, judged: the option ``taken``, the ``best`` one and every
    option (best first), in expected points still to come."""

    position: Position
    taken: Option
    best: Option
    options: tuple[Option, ...]

    @property
    def loss(self) -> float:
        """Expected points the answer gives up against the best option (0 for it)."""
        return max(0.0, self.best.expected - self.taken.expected)

    @property
    def solved(self) -> bool:
        return self.loss < SOLVED

    def reasons(self) -> tuple[tuple[Reason, ...], tuple[Reason, ...]]:
        """Why, in exact numbers (:mod:`yacht.strategy.explain`, codes and arguments each face
        writes as sentences): the best option's reasons, then the answer's (how it differs
        from the best, this turn against later; none when the answer is the best).

        >>> v = judge(Position("traditional", {}, (1, 2, 3, 4, 6), 2), category="choice")
        >>> best, taken = v.reasons()
        >>> [r.code for r in best], [r.code for r in taken]
        (['keep_one'], ['vs_score'])
        """
        from yacht.strategy.explain import reasons_for

        p = self.position
        upper = sum(p.sheet.get(c, 0) for c in UPPER_CATEGORIES)
        upper = upper if p.rules_obj.upper_bonus is not None else 0
        choices = [self.best] if self.solved else [self.best, self.taken]
        found = reasons_for(p.rules, list(p.sheet), p.dice, p.rolls_left, choices, upper=upper)
        return found[0], (found[1] if len(found) > 1 else ())

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position.to_json(),
            "taken": self.taken.to_json(),
            "best": self.best.to_json(),
            "loss": self.loss,
            "solved": self.solved,
            "options": [
                {**o.to_json(), "loss": max(0.0, self.best.expected - o.expected)}
                for o in self.options
            ],
        }


def judge(
    position: Position,
    *,
    keep: Iterable[int] | None = None,
    category: Category | str | None = None,
) -> Verdict:
    """Judge an answer: ``keep`` the faces kept to roll the rest (0-4 of the dice, only with
    rolls left), or score ``category``. TrainingError when it is not an option here.

    Keeping all five dice is no different from scoring now, so it is not an option: the
    score options stand for it, as in the hint.
    """
    if (keep is None) == (category is None):
        raise TrainingError("answer_both")
    h = position.hint()
    if keep is not None:
        kept = tuple(sorted(keep))
        found = [o for o in h.options if o.action == "keep" and o.keep == kept]
        answer = "keep " + " ".join(map(str, kept))
    else:
        try:
            cat = Category(category) if isinstance(category, str) else category
        except ValueError:
            raise TrainingError("answer", answer=f"score {category}") from None
        found = [o for o in h.options if o.action == "score" and o.category is cat]
        answer = f"score {getattr(cat, 'value', cat)}"
    if not found:
        raise TrainingError("answer", answer=answer)
    return Verdict(position, found[0], h.best, h.options)


def classify(position: Position) -> tuple[str, str]:
    """``(theme, phase)``: what the position's best option is about (:data:`THEMES`) and
    when in the game it comes (:data:`PHASES`).

    >>> classify(Position("traditional", {}, (1, 2, 3, 4, 6), rolls_left=2))
    ('straight', 'early')
    """
    best = position.hint().best
    open_ = set(position.open_categories)
    if best.action == "score":
        assert best.category is not None
        if best.points == 0:
            theme = "zero"
        elif best.category in STRAIGHTS:
            theme = "straight"
        elif best.category is Category.YACHT:
            theme = "yacht"
        elif best.category in UPPER_CATEGORIES:
            theme = "upper"
        else:
            theme = "lower"
        return theme, position.phase
    kept = best.keep or ()
    counts = Counter(kept)
    run = _longest_run(set(kept))
    if run >= 3 and len(counts) == len(kept) and open_ & STRAIGHTS:
        theme = "straight"
    elif counts and max(counts.values()) >= 3 and Category.YACHT in open_:
        theme = "yacht"
    elif len(counts) == 1 and UPPER_CATEGORIES[kept[0] - 1] in open_:
        theme = "upper"
    else:
        theme = "lower"
    return theme, position.phase


def _longest_run(faces: set[int]) -> int:
    best = run = 0
    for face in range(1, 7):
        run = run + 1 if face in faces else 0
        best = max(best, run)
    return best


@dataclass(frozen=True)
class Mistake:
    """A decision of a finished game: the ``position``, the ``player`` (seat index) and
    their name, the answer they gave (``verdict.taken``) and what it lost."""

    position: Position
    player: int
    name: str
    turn: int
    verdict: Verdict

    @property
    def loss(self) -> float:
        return self.verdict.loss


def mistakes(
    game: Game, *, players: Iterable[int] | None = None, source: str = ""
) -> list[Mistake]:
    """Every decision of ``game`` by the seats ``players`` (all by default), biggest loss
    first, judged in expected points alone at the table (each position's question is the
    same whoever else sat at the table). Decisions that lost nothing are left out; so are
    rolls of all five dice held, which change nothing but the rolls left.

    >>> from yacht.bots import play_game
    >>> found = mistakes(play_game(["easy"], seed=3))
    >>> len(found) > 0 and found[0].loss >= found[-1].loss > 0
    True
    """
    out: list[Mistake] = []
    for player, turn, position, answer in _decisions(game, players, source):
        if answer is None:
            continue
        verdict = judge(position, **answer)
        if not verdict.solved and math.isfinite(verdict.loss):
            out.append(Mistake(position, player, game.players[player], turn, verdict))
    out.sort(key=lambda m: (-m.loss, m.player, m.turn, -m.position.rolls_left))
    return out


def practice_positions(
    games: Iterable[tuple[Game, Iterable[int], str]],
    solved: Iterable[str] = (),
    *,
    bot_source: str = "easy bot, seed {seed}",
    bot_games: int = 1000,
) -> Iterator[Mistake]:
    """Positions to practise, costliest first and each once: the decisions of the seats
    given with each game (``(game, seats, source)``: a player's own), then every other
    seat's in those games, then the ``easy`` bot's games (seeds 0 to ``bot_games`` - 1, named
    by ``bot_source``), so a new player has some too. Positions in ``solved`` (their keys)
    are left out.

    >>> from yacht.bots import play_game
    >>> game = play_game(["easy", "greedy"], seed=2)
    >>> found = practice_positions([(game, [1], "game 1")])
    >>> first = next(found)
    >>> first.name, first.position.source, first.loss == mistakes(game, players=[1])[0].loss
    ('greedy', 'game 1', True)
    """
    from yacht.bots import play_game

    seen = set(solved)
    listed = [(g, set(own), where) for g, own, where in games]

    def fresh(found: Iterable[Mistake]) -> Iterator[Mistake]:
        for m in found:
            if m.position.key() not in seen:
                seen.add(m.position.key())
                yield m

    own = [m for g, seats, where in listed for m in mistakes(g, players=seats, source=where)]
    yield from fresh(sorted(own, key=lambda m: -m.loss))
    others = [
        m
        for g, seats, where in listed
        for m in mistakes(g, players=set(range(len(g.players))) - seats, source=where)
    ]
    yield from fresh(sorted(others, key=lambda m: -m.loss))
    for seed in range(bot_games):
        game = play_game(["easy"], seed=seed)
        yield from fresh(mistakes(game, source=bot_source.format(seed=seed)))


def position_at(
    game: Game, player: int, turn: int, rolls_left: int, source: str = ""
) -> Position | None:
    """The position of seat ``player``'s decision in round ``turn`` with ``rolls_left``
    (what :class:`Mistake` names), or None when the game has no such decision.

    >>> from yacht.bots import play_game
    >>> game = play_game(["easy"], seed=3)
    >>> m = mistakes(game)[0]
    >>> position_at(game, m.player, m.turn, m.position.rolls_left) == m.position
    True
    """
    for seat, round_, position, _answer in _decisions(game, [player], source):
        if seat == player and round_ == turn and position.rolls_left == rolls_left:
            return position
    return None


_Answer = dict[str, Any]


def _decisions(
    game: Game, players: Iterable[int] | None, source: str
) -> Iterator[tuple[int, int, Position, _Answer | None]]:
    """Each decision of the seats ``players`` that stands (undone scorings left out), in
    order: (seat, round, position, the answer given as :func:`judge`'s keywords, or None
    for a roll of all five dice held)."""
    wanted = set(range(len(game.players)) if players is None else players)
    sheets: list[dict[Category, int]] = [{} for _ in game.players]
    turn: list[Event] = []
    for event in settled(game.events):
        turn.append(event)
        if isinstance(event.action, Score):
            if event.player in wanted:
                yield from _turn(game, sheets[event.player], event.player, turn, source)
            sheets[event.player][event.action.category] = event.points or 0
            turn = []


def _turn(
    game: Game, sheet: Mapping[Category, int], player: int, turn: Sequence[Event], source: str
) -> Iterator[tuple[int, int, Position, _Answer | None]]:
    dice: tuple[int, ...] | None = None
    held: frozenset[int] = frozenset()
    rolls = 0
    for e in turn:
        action = e.action
        if isinstance(action, Hold):
            held = frozenset(action.positions)
            continue
        if dice is not None and isinstance(action, Roll | Score):
            position = Position(game.rules.name, dict(sheet), dice, MAX_ROLLS - rolls, source)
            answer: _Answer | None
            if isinstance(action, Score):
                answer = {"category": action.category}
            elif len(held) < 5:
                answer = {"keep": tuple(dice[p - 1] for p in held)}
            else:
                answer = None
            yield player, len(sheet) + 1, position, answer
        if isinstance(action, Roll):
            assert e.dice is not None
            dice, rolls = e.dice, rolls + 1

"""Playing to win: each option's probability of finishing first against the actual sheets.

For the player to move in a game of 1-6 players, :func:`win_hint` lists every option after
a roll (each distinct keep of 0-4 dice while rolls are left, and scoring each open category)
with ``win_probability``, the chance of finishing first (a first place shared by k players
counts 1/k), and ``expected``, the expected points still to come (as in
:func:`yacht.strategy.hint`). The opponents are taken to play optimally from their sheets.
The ``winner`` bot takes the best option (:func:`decide`).

Heads-up, once both players have at most :data:`~yacht.strategy.endgame.DEFAULT_DEPTH`
categories open (and any upper bonus is settled), the probabilities are exact under best
play by both (``exact`` is true). Otherwise they come from the opponents' exact score
distributions and this player's target table, with a separate best plan for each total it
might need: a slight overestimate early in a game, exact when one total matters. See
:mod:`yacht.strategy.win_tables` for the method.

>>> from yacht.rules import Category as C
>>> me = {c: 0 for c in CATEGORIES if c is not C.YACHT}  # only the Yacht left to score
>>> other = {c: 0 for c in CATEGORIES} | {C.CHOICE: 29, C.FOURS: 20}  # done, 49 ahead
>>> h = win_hint("traditional", me, [other], [6, 6, 6, 6, 1], rolls_left=2, depth=1)
>>> h.best.keep, h.exact, round(h.best.win_probability, 4)  # 1 - (5/6)**2
((6, 6, 6, 6), True, 0.3056)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from yacht.dice import KEEPS
from yacht.game import TurnView
from yacht.rules import CATEGORIES, Category, Rules, rules_by_name, validate_dice
from yacht.strategy.endgame import FULL, endgame, play_depth
from yacht.strategy.errors import StrategyError
from yacht.strategy.hints import option_json, option_text
from yacht.strategy.lookahead import lookahead_scores
from yacht.strategy.remaining import remaining
from yacht.strategy.solver import solve
from yacht.strategy.tables import F64, I64, ROLL_INDEX, SUB_KEEPS, score_table
from yacht.strategy.win_tables import (
    DEFAULT_PLAN,
    F32,
    PLANS,
    TIE_BREAK,
    Seat,
    choose,
    decode,
    endgame_columns,
    expected_rows,
    finish_chances,
    heads_up_endgame,
    option_matrices,
    rollout_columns,
    row_layout,
    score_matrices,
    seat_of,
)

__all__ = [
    "PositionValues",
    "WinHint",
    "WinOption",
    "decide",
    "parse_sheets",
    "position_values",
    "prepare",
    "seat_hint",
    "win_hint",
    "win_hint_for_view",
]


@dataclass(frozen=True)
class WinOption:
    """One choice after a roll with its chance of finishing first.

    ``keep``: the faces kept (0-4 dice) for a keep; ``category`` and ``points`` for a score.
    ``win_probability``: P(finishing first) after it; ``expected``: points still to come.
    """

    action: str
    keep: tuple[int, ...] | None
    category: Category | None
    points: int | None
    win_probability: float
    expected: float

    def to_json(self) -> dict[str, Any]:
        """``{"action": "keep", "keep": [...], ...}`` or ``{"action": "score", "category":
        name, "points": n, ...}``, each with ``"win_probability"`` and ``"expected"``."""
        out = option_json(self.action, self.keep, self.category, self.points)
        out["win_probability"] = self.win_probability
        out["expected"] = self.expected
        return out

    def __str__(self) -> str:
        return option_text(self.action, self.keep, self.category, self.points)


@dataclass(frozen=True)
class WinHint:
    """Every option of a situation, best first. ``exact``: the probabilities come from the
    endgame table (best play by both players) rather than the target-table estimate;
    ``solved``: heads-up, from the solved two-player table (``yacht duel solve``), exact at
    every position."""

    rules: Rules
    dice: tuple[int, ...]
    rolls_left: int
    players: int
    exact: bool
    options: tuple[WinOption, ...]
    solved: bool = False

    @property
    def best(self) -> WinOption:
        return self.options[0]

    def to_json(self) -> dict[str, Any]:
        """``{"best": OPTION, "options": [OPTION, ...], "exact": bool}``."""
        return {
            "best": self.best.to_json(),
            "options": [o.to_json() for o in self.options],
            "exact": self.exact,
        }


@functools.lru_cache(maxsize=1024)
def _matrix(rules: Rules, plan: str, used: int, upper: int) -> F32:
    build = option_matrices if plan == "targets" else score_matrices  # lookahead: rollout
    return build(rules, np.array([used]), np.array([upper]))[0]


def _score_matrices(rules: Rules, keys: I64) -> dict[int, F32]:
    uppers = score_table(rules).uppers
    return {k: _matrix(rules, "rollout", *divmod(k, uppers)) for k in keys.tolist()}


@dataclass(frozen=True, eq=False)
class PositionValues:
    """Per option row (:func:`~yacht.strategy.win_tables.row_layout`) of a turn: ``win``,
    P(finishing first); ``expected``, the expected points to come; ``ranking``, what the
    ``winner`` bot maximises (``win`` with a :data:`TIE_BREAK` weight on expected points).
    ``exact``: ``win`` comes from the endgame table."""

    win: F64
    expected: F64
    ranking: F64
    exact: bool


def position_values(
    rules: Rules,
    me: Seat,
    opponents: Sequence[Seat],
    *,
    depth: int | None = None,
    plan: str = DEFAULT_PLAN,
) -> PositionValues:
    """Every option's value for the player ``me`` against ``opponents`` (turn starts).

    ``depth``: the endgame table to use heads-up (0: none; None: see
    :func:`~yacht.strategy.endgame.play_depth`). The last few answers are kept (read-only
    arrays): the rolls of one turn, and a review going over the hints a player was shown,
    ask for the same position again."""
    return _position_values(rules, me, tuple(opponents), depth, plan)


@functools.lru_cache(maxsize=32)
def _position_values(
    rules: Rules, me: Seat, opponents: tuple[Seat, ...], depth: int | None, plan: str
) -> PositionValues:
    values = _compute_values(rules, me, opponents, depth=depth, plan=plan)
    for array in (values.win, values.expected, values.ranking):
        array.setflags(write=False)
    return values


def _compute_values(
    rules: Rules,
    me: Seat,
    opponents: Sequence[Seat],
    *,
    depth: int | None,
    plan: str,
) -> PositionValues:
    if me.used == FULL:
        raise StrategyError("all_used")
    if plan not in PLANS:
        raise StrategyError("plan", plan=plan, plans=", ".join(PLANS))
    used = np.array([me.used])
    expected = expected_rows(rules, used, np.array([me.upper]))[:, 0]
    if not opponents:  # alone: first place is certain, so play for points
        return PositionValues(np.ones_like(expected), expected, expected, False)
    if len(opponents) == 1 and play_depth(rules, depth) > 0:
        other = opponents[0]
        game = heads_up_endgame(rules, me, other, play_depth(rules, depth))
        if game is not None:
            lead = np.array([me.total - other.total])
            win = endgame_columns(game, rules, used, lead, np.array([other.used]))[:, 0]
            return PositionValues(win, expected, win + TIE_BREAK * expected, True)
    matrix = _matrix(rules, plan, me.used, me.upper).astype(np.float64)
    columns = [(np.array([o.used]), np.array([o.upper]), np.array([o.total])) for o in opponents]
    width = matrix.shape[1] - (0 if plan == "targets" else 1)
    chances = finish_chances(remaining(rules), np.array([me.total]), columns, width)[0]
    if plan == "targets":
        win = np.clip(chances[0] + matrix[:, 1:] @ np.diff(chances), 0.0, 1.0)
        return PositionValues(win, expected, win + TIE_BREAK * expected, False)
    table = score_table(rules)
    if plan == "lookahead":
        args = (table, functools.partial(_score_matrices, rules), used, np.array([me.upper]))
        ranking_scores = lookahead_scores(*args, chances[None, :])
        win_scores = lookahead_scores(*args, chances[None, :], tie_break=0.0)
    else:
        ranking_scores = matrix @ np.concatenate([[TIE_BREAK], chances])[:, None]
        win_scores = matrix[:, 1:] @ chances[:, None]
    ranking = rollout_columns(table, ranking_scores, used)[:, 0]
    win = rollout_columns(table, win_scores, used)[:, 0]
    return PositionValues(np.clip(win, 0.0, 1.0), expected, ranking, False)


def win_hint(
    rules: Rules | str,
    sheet: Mapping[Category, int],
    opponents: Sequence[Mapping[Category, int]],
    dice: Iterable[int],
    rolls_left: int,
    *,
    depth: int | None = None,
    plan: str = DEFAULT_PLAN,
) -> WinHint:
    """Every option for ``dice`` with ``rolls_left`` (0, 1 or 2), best first, for the player
    with score sheet ``sheet`` against opponents with sheets ``opponents``."""
    preset = rules_by_name(rules)
    me = seat_of(preset, sheet)
    others = [seat_of(preset, s) for s in opponents]
    return seat_hint(preset, me, others, dice, rolls_left, depth=depth, plan=plan)


def seat_hint(
    rules: Rules | str,
    me: Seat,
    opponents: Sequence[Seat],
    dice: Iterable[int],
    rolls_left: int,
    *,
    depth: int | None = None,
    plan: str = DEFAULT_PLAN,
) -> WinHint:
    """Like :func:`win_hint`, with each player given as a :class:`Seat` (used categories,
    upper subtotal, total)."""
    preset = rules_by_name(rules)
    faces = validate_dice(dice)
    roll = tuple(sorted(faces))
    if isinstance(rolls_left, bool) or rolls_left not in (0, 1, 2):
        raise StrategyError("rolls_left", rolls=rolls_left)
    if len(opponents) > 5:
        raise StrategyError("too_many_players", n=len(opponents) + 1)
    # depth=None: the best table there is; an explicit depth (0: none) is what was asked for.
    solved = _solved(preset, me, opponents) if depth is None else None
    values = solved or position_values(preset, me, opponents, depth=depth, plan=plan)
    table = score_table(preset)
    layout = row_layout(table)
    r = ROLL_INDEX[roll]
    rows: list[tuple[int, WinOption]] = []
    if rolls_left:
        base = layout.keep2 if rolls_left == 2 else layout.keep1
        for k in sorted({int(k) for k in SUB_KEEPS[r]}):
            row = base + k
            rows.append((row, WinOption("keep", KEEPS[k], None, None, *_pair(values, row))))
    for c in CATEGORIES:
        if me.used >> c.index & 1:
            continue
        row = layout.score[c.index] + int(table.value_index[c.index][r])
        points = int(table.points[r, c.index])
        rows.append((row, WinOption("score", None, c, points, *_pair(values, row))))
    rows.sort(key=lambda item: (-values.ranking[item[0]], item[1].action == "keep"))
    options = tuple(o for _, o in rows)
    players = len(opponents) + 1
    return WinHint(preset, faces, rolls_left, players, values.exact, options, solved is not None)


def _solved(rules: Rules, me: Seat, opponents: Sequence[Seat]) -> PositionValues | None:
    """Heads-up values from the solved two-player table when it is built (exact, so they
    replace the estimate); None otherwise."""
    if len(opponents) != 1:
        return None
    from yacht.strategy.duel.hints import option_values

    other = opponents[0]
    win = option_values(rules, me.used, other.used, me.total - other.total)
    if win is None:
        return None
    expected = expected_rows(rules, np.array([me.used]), np.array([me.upper]))[:, 0]
    return PositionValues(win, expected, win + TIE_BREAK * expected, True)


def parse_sheets(
    text: str,
    rules: Rules | str = "traditional",
    category: Callable[[str], Category] = Category.parse,
) -> list[dict[Category, int]]:
    """Opponents' score sheets from text: a JSON list of ``{category: points}`` objects, or
    one sheet per opponent separated by ``;``, each ``category=points`` pairs separated by
    commas (``empty`` for an empty sheet). Points must be a score the category can make.
    ``category`` reads a category's name (a face passes one that knows the user's language).

    >>> parse_sheets("ones=3,yacht=50;empty")
    [{Category.ONES: 3, Category.YACHT: 50}, {}]
    >>> parse_sheets('[{"choice": 23}]')
    [{Category.CHOICE: 23}]
    >>> parse_sheets("ones=7")
    Traceback (most recent call last):
    ...
    yacht.strategy.errors.StrategyError: opponent 1: ones cannot score 7 under traditional
    """
    preset = rules_by_name(rules)
    text = text.strip()
    raw: list[dict[str, object]] = []
    if text.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise StrategyError("sheets_json", line=e.lineno, column=e.colno) from None
        if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
            raise StrategyError("sheets_list", example='[{"ones": 3, "yacht": 50}]')
        raw = data
    else:
        for part in text.split(";"):
            part = part.strip()
            sheet: dict[str, object] = {}
            for pair in [] if part.lower() in ("", "-", "empty") else part.split(","):
                name, eq, given = pair.partition("=")
                if not eq:
                    raise StrategyError("sheets_pair", pair=pair.strip())
                if name.strip() in sheet:
                    raise StrategyError("sheets_twice", name=name.strip())
                sheet[name.strip()] = given.strip()
            raw.append(sheet)
    if not 1 <= len(raw) <= 5:
        raise StrategyError("sheets_count", n=len(raw))
    table = score_table(preset)
    out = []
    for i, sheet in enumerate(raw, 1):
        parsed: dict[Category, int] = {}
        for name, value in sheet.items():
            c = category(name)
            try:
                points = int(str(value))
            except ValueError:
                raise StrategyError("opponent_points", i=i, category=c, value=value) from None
            if points not in table.values[c.index]:
                raise StrategyError(
                    "opponent_cannot", i=i, category=c, points=points, rules=preset.name
                )
            if c in parsed:
                raise StrategyError("opponent_twice", i=i, category=c)
            parsed[c] = points
        out.append(parsed)
    return out


def _pair(values: PositionValues, row: int) -> tuple[float, float]:
    return float(values.win[row]), float(values.expected[row])


def _view_sheets(view: TurnView) -> list[Mapping[Category, int]]:
    return [s for i, s in enumerate(view.sheets) if i != view.player]


def win_hint_for_view(
    view: TurnView, *, depth: int | None = None, plan: str = DEFAULT_PLAN
) -> WinHint:
    """The win hint for the current player of a game, from :meth:`yacht.game.Game.view`."""
    if view.dice is None:
        raise StrategyError("no_dice")
    return win_hint(
        view.rules,
        view.sheet,
        _view_sheets(view),
        view.dice,
        view.rolls_left,
        depth=depth,
        plan=plan,
    )


def decide(
    view: TurnView, *, depth: int | None = None, plan: str = DEFAULT_PLAN
) -> tuple[int, ...] | Category:
    """The ``winner`` bot's decision: the keep (0-4 faces) or category with the best chance
    of finishing first (an exact tie goes to the higher expected score)."""
    if view.dice is None:
        raise StrategyError("no_dice")
    me = seat_of(view.rules, view.sheet)
    others = [seat_of(view.rules, s) for s in _view_sheets(view)]
    values = position_values(view.rules, me, others, depth=depth, plan=plan)
    table = score_table(view.rules)
    roll = np.array([ROLL_INDEX[tuple(sorted(view.dice))]])
    rows, _ = choose(table, values.ranking[:, None], roll, view.rolls_left, np.array([me.used]))
    return decode(table, int(rows[0]))


def prepare(rules: Rules | str, players: int) -> None:
    """Build (or load) the tables the first win hint or ``winner`` decision of a game of
    ``players`` players needs, so a face can do it in the background when a table opens.

    That is the solver's values, every state's remaining-points distribution (the long one
    with an upper bonus: about 30 s for clubhouse, once per machine) and, heads-up, the
    endgame table the bot plays with. Alone nothing is needed beyond the solver's values.
    """
    preset = rules_by_name(rules)
    solve(preset)
    if players < 2:
        return
    remaining(preset)
    depth = play_depth(preset)
    if players == 2 and depth > 0:
        endgame(preset, depth)

"""The ``duel`` bots and exact heads-up option values, on the endgame layers of the tables
(built into the test cache directory, as ``yacht duel solve`` does)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from yacht.bots import make_bot
from yacht.dice import KEEPS, RandomDice
from yacht.game import Game, TurnView
from yacht.rules import CATEGORIES, Category, rules_by_name
from yacht.strategy.cache import ENV_VAR
from yacht.strategy.duel import MINIMAX, Kind
from yacht.strategy.duel.hints import decide, option_values
from yacht.strategy.duel.response import FIRST, SECOND
from yacht.strategy.duel.store import error_bound
from yacht.strategy.duel.table import open_table
from yacht.strategy.endgame import endgame
from yacht.strategy.remaining import remaining
from yacht.strategy.tables import score_table
from yacht.strategy.win_tables import endgame_columns, row_layout

from .test_duel_response import best_response, others_turn
from .test_endgame import used_except

TRADITIONAL = rules_by_name("traditional")
ME = (Category.YACHT, Category.SIXES)
OTHER = (Category.CHOICE, Category.BIG_STRAIGHT)


@pytest.fixture(scope="module", autouse=True)
def tables(duel_layers: Callable[[Kind], Path]) -> Iterator[None]:
    """The tables' endgame layers, in their cache of their own (``duel_layers``: in the
    session's cache they would answer every later heads-up hint of the session as a solved
    table) as this module's cache. The endgame table and the remaining-points table these
    tests play with come from the session's cache first (kept in memory), so that they are
    not built again into that folder."""
    folders = [duel_layers(kind) for kind in (MINIMAX, FIRST, SECOND)]
    folder = folders[0].parent  # where the three tables sit, as a cache
    endgame(TRADITIONAL, 2)
    remaining(TRADITIONAL)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ENV_VAR, str(folder))
        yield


def test_exact_options_equal_the_endgame_table() -> None:
    me, other = used_except(*ME), used_except(*OTHER)
    got = option_values(TRADITIONAL, me, other, -10)
    assert got is not None
    game = endgame(TRADITIONAL, 2)
    want = endgame_columns(game, TRADITIONAL, np.array([me]), np.array([-10]), np.array([other]))[
        :, 0
    ]
    assert np.abs(got - want).max() <= error_bound(21) + 2e-6


def test_best_response_options_equal_plain_expectimax() -> None:
    me, other = used_except(*ME), used_except(*OTHER)
    got = option_values(TRADITIONAL, me, other, 4, "optimal")
    assert got is not None
    rows = row_layout(score_table(TRADITIONAL))
    for c in ME:
        for k, points in enumerate(score_table(TRADITIONAL).values[c.index]):
            want = others_turn(frozenset(ME) - {c}, frozenset(OTHER), 4 + int(points))
            assert got[rows.score[c.index] + k] == pytest.approx(want, abs=error_bound(21))
    # the turn's start is worth its best first roll: the table's own start value
    start = open_table(TRADITIONAL, "response-first", lowest=20)
    assert start is not None
    assert start.win_probability(me, other, 4) == pytest.approx(
        best_response(frozenset(ME), frozenset(OTHER), 4), abs=error_bound(20)
    )


def view(dice: tuple[int, ...], rolls_used: int, players: int = 2) -> TurnView:
    mine = {c: 0 for c in CATEGORIES if c not in ME}
    theirs = {c: 0 for c in CATEGORIES if c not in OTHER}
    sheets = (mine, theirs, *([theirs] * (players - 2)))
    return TurnView(TRADITIONAL, 0, mine, sheets, dice, frozenset(), rolls_used)


def test_duel_decides_like_the_exact_endgame() -> None:
    # 0 to 0, Yacht and Sixes left: four sixes with a roll left are kept for the Yacht
    assert decide(view((6, 6, 6, 6, 2), 2)) == (6, 6, 6, 6)
    # no roll left: a Yacht is scored where it is worth 50
    assert decide(view((3, 3, 3, 3, 3), 3)) is Category.YACHT
    assert decide(view((3, 3, 3, 3, 3), 3, players=3)) is None  # heads-up only
    with pytest.raises(ValueError, match="no dice"):
        decide(TurnView(TRADITIONAL, 0, {}, ({}, {}), None, frozenset(), 0))


def test_without_the_table_there_is_no_exact_value() -> None:
    empty: dict[Category, int] = {}
    assert option_values(TRADITIONAL, 0, 0, 0) is None  # layers 1+ are not built here
    assert option_values(rules_by_name("clubhouse"), 0, 0, 0) is None
    fresh = TurnView(TRADITIONAL, 0, empty, (empty, empty), (1, 2, 3, 4, 5), frozenset(), 1)
    assert decide(fresh) is None
    with pytest.raises(ValueError, match="against"):
        option_values(TRADITIONAL, 0, 0, 0, "nobody")


def prefix(lead: int) -> Game:
    """A two-player game where the players have only ``ME`` / ``OTHER`` open and the first
    is ``lead`` points ahead and to move: the first 20 turns scored with given dice."""
    game = Game(["duel", "optimal"], dice=RandomDice(seed=0), start="seat")
    fill = [
        [c for c in CATEGORIES if c not in ME],
        [c for c in CATEGORIES if c not in OTHER],
    ]
    for turn in range(10):
        for player in (0, 1):
            c = fill[player][turn]
            game.apply("roll", dice=[1, 1, 2, 2, 3])
            game.apply(f"score {c.value}")
    assert game.totals[0] - game.totals[1] == lead
    assert game.current == 0
    return game


def test_duel_optimal_wins_at_its_exact_rate_against_optimal() -> None:
    start = prefix(9)  # Choice's 9 points: the first player 9 ahead
    table = open_table(TRADITIONAL, "response-first", lowest=20)
    assert table is not None
    exact = table.win_probability(used_except(*ME), used_except(*OTHER), 9)
    bots = [make_bot("duel:optimal"), make_bot("optimal")]
    assert bots[0].name == "duel:optimal"
    games, wins = 300, 0.0
    rng = random.Random(1)
    for seed in range(games):
        game = start.copy(dice=RandomDice(seed=seed))
        while not game.finished:
            game.apply(bots[game.current].act(game.view(), rng))
        won = game.winners()
        wins += 1.0 / len(won) if 0 in won else 0.0
    rate = wins / games
    se = math.sqrt(exact * (1 - exact) / games)
    assert abs(rate - exact) <= 4 * se, (rate, exact, se)


def test_heads_up_hints_are_exact_from_the_table_and_say_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yacht.cli import main
    from yacht.strategy.win import win_hint

    mine: dict[Category, int] = {c: 0 for c in CATEGORIES if c not in ME}
    theirs: dict[Category, int] = {c: 0 for c in CATEGORIES if c not in OTHER}
    h = win_hint(TRADITIONAL, mine, [theirs], (6, 6, 6, 6, 2), 2)
    assert h.exact and h.solved and h.best.keep == (6, 6, 6, 6)
    want = option_values(TRADITIONAL, used_except(*ME), used_except(*OTHER), 0)
    assert want is not None
    rows = row_layout(score_table(TRADITIONAL))
    keep = rows.keep2 + KEEPS.index((6, 6, 6, 6))
    assert h.best.win_probability == pytest.approx(float(want[keep]))
    # three categories open each: scoring leads to layer 19, not built here: today's method
    fewer: dict[Category, int] = {c: p for c, p in mine.items() if c is not Category.ONES}
    others: dict[Category, int] = {c: p for c, p in theirs.items() if c is not Category.ONES}
    three = win_hint(TRADITIONAL, fewer, [others], (1, 2, 3, 4, 5), 1, depth=2)
    assert not three.solved
    used = ",".join(c.value for c in mine)
    args = ["hint", "--dice", "6", "6", "6", "6", "2", "--rolls-left", "2", "--used", used]
    sheet = ",".join(f"{c.value}=0" for c in theirs)
    assert main([*args, "--banked", "0", "--opponents", sheet]) == 0
    out = capsys.readouterr().out
    assert "2 players (exact: solved table)" in out and "* keep 6 6 6 6" in out

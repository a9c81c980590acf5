"""Our ``knizia`` preset against OpenSpiel's ``yacht`` game (open_spiel/games/yacht/yacht.cc).

OpenSpiel encodes a decision as 0..31 = "reroll the dice whose bits are set" (0 = stop rolling
and go to scoring) and 32 + c = score category c in its own order (Ones..Sixes, Chance, Four of
a Kind, Full House, Small Straight, Large Straight, Yacht). A chance outcome gives the rerolled
dice, lowest position first, as the base-6 digits of the outcome, least significant first.
OpenSpiel shows per-category points only in its text form, which is parsed here.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pyspiel
import pytest

from yacht.actions import Hold, Roll, Score
from yacht.dice import RandomDice
from yacht.game import Game
from yacht.rules import CATEGORIES, Category, rules_by_name

KNIZIA = rules_by_name("knizia")
STOP = 0  # OpenSpiel: keep all dice and go to scoring
FIRST_SCORE = 32

# OpenSpiel's names, in ActionToString ("Score in ...") and in ToString (the sheet).
LONG_NAMES = {
    "Ones": Category.ONES,
    "Twos": Category.TWOS,
    "Threes": Category.THREES,
    "Fours": Category.FOURS,
    "Fives": Category.FIVES,
    "Sixes": Category.SIXES,
    "Chance": Category.CHOICE,
    "Four of a Kind": Category.FOUR_OF_A_KIND,
    "Full House": Category.FULL_HOUSE,
    "Small Straight": Category.LITTLE_STRAIGHT,
    "Large Straight": Category.BIG_STRAIGHT,
    "Yacht": Category.YACHT,
}
SHORT_NAMES = {
    **{k: v for k, v in LONG_NAMES.items() if " " not in k},
    "4Kind": Category.FOUR_OF_A_KIND,
    "Full": Category.FULL_HOUSE,
    "SmStr": Category.LITTLE_STRAIGHT,
    "LgStr": Category.BIG_STRAIGHT,
}


def load(players: int) -> Any:
    return pyspiel.load_game("yacht", {"players": players})


def category_order(state: Any) -> list[Category]:
    """OpenSpiel's category numbering, read from its own action names."""
    player = state.current_player()
    names = [state.action_to_string(player, FIRST_SCORE + c) for c in range(12)]
    return [LONG_NAMES[n.removeprefix("Score in ")] for n in names]


def chance_outcome(dice: Sequence[int], positions: Sequence[int]) -> int:
    """The OpenSpiel chance outcome that gives these faces at these 0-based positions."""
    return sum((dice[p] - 1) * 6**k for k, p in enumerate(sorted(positions)))


def dice_shown(state: Any) -> list[int]:
    match = re.search(r"^Dice: ([\d ]+)$", str(state), re.M)
    assert match, str(state)
    return [int(d) for d in match.group(1).split()]


def sheets_shown(state: Any) -> list[tuple[int, dict[Category, int]]]:
    """Each player's (total, {category: points}) from OpenSpiel's text form."""
    out: list[tuple[int, dict[Category, int]]] = []
    for line in str(state).splitlines():
        head = re.match(r"^Player \d+ \(total: (-?\d+)\):$", line)
        row = re.match(r"^  (\w+): (-?\d+)$", line)
        if head:
            out.append((int(head.group(1)), {}))
        elif row:
            out[-1][1][SHORT_NAMES[row.group(1)]] = int(row.group(2))
    return out


def choose(game: Game, rng: random.Random) -> Hold | Score:
    """A random decision, half the time a sensible one so that every category gets points."""
    sheet = game.sheet(game.current)
    open_ = [c for c in CATEGORIES if c not in sheet]
    dice = game.dice
    assert dice is not None
    if rng.random() < 0.5:
        if game.rolls_left and rng.random() < 0.6:
            face, _ = Counter(dice).most_common(1)[0]
            return Hold(tuple(i for i, d in enumerate(dice, 1) if d == face))
        return Score(max(open_, key=lambda c: KNIZIA.score(dice, c)))
    # Holding all five and rolling has no OpenSpiel counterpart (its 0 means "stop").
    options: list[Hold | Score] = [Score(c) for c in open_]
    if game.rolls_left:
        options += [Hold(tuple(p for p in range(1, 6) if m >> (p - 1) & 1)) for m in range(31)]
    return rng.choice(options)


def play_both(seed: int, players: int) -> tuple[Game, Any]:
    """One random game played on both implementations with the same dice and decisions."""
    rng = random.Random(seed)
    game = Game([f"p{i}" for i in range(players)], KNIZIA, RandomDice(seed))
    state = load(players).new_initial_state()
    order = None
    while not game.finished:
        assert state.is_chance_node()
        rolled = game.apply(Roll()).dice
        assert rolled is not None
        state.apply_action(chance_outcome(rolled, range(5)))
        assert dice_shown(state) == list(rolled)
        assert state.current_player() == game.current
        order = order or category_order(state)
        while True:
            decision = choose(game, rng)
            if isinstance(decision, Score):
                if game.rolls_left:
                    state.apply_action(STOP)
                game.apply(decision)
                state.apply_action(FIRST_SCORE + order.index(decision.category))
                break
            if decision.positions != tuple(sorted(game.held)):
                game.apply(decision)
            reroll = [p for p in range(5) if p + 1 not in decision.positions]
            state.apply_action(sum(1 << p for p in reroll))
            rolled = game.apply(Roll()).dice
            assert rolled is not None
            state.apply_action(chance_outcome(rolled, reroll))
            assert dice_shown(state) == list(rolled)
    return game, state


@pytest.fixture(scope="module")
def openspiel_scores() -> dict[tuple[int, ...], dict[Category, int]]:
    """OpenSpiel's points for each of the 7776 ordered rolls in each category, fresh sheet."""
    root = load(1).new_initial_state()
    order = None
    table = {}
    for outcome in range(6**5):
        dice = tuple(outcome // 6**i % 6 + 1 for i in range(5))
        state = root.child(outcome)
        assert dice_shown(state) == list(dice)
        state.apply_action(STOP)
        order = order or category_order(state)
        row = {}
        for c, category in enumerate(order):
            ((total, sheet),) = sheets_shown(state.child(FIRST_SCORE + c))
            assert sheet == {category: total}
            row[category] = total
        table[dice] = row
    assert order is not None and sorted(order, key=lambda c: c.index) == list(CATEGORIES)
    return table


def test_every_roll_scores_the_same_in_every_category(
    openspiel_scores: dict[tuple[int, ...], dict[Category, int]],
) -> None:
    differences = [
        (dice, c.value, points, KNIZIA.score(dice, c))
        for dice, row in openspiel_scores.items()
        for c, points in row.items()
        if points != KNIZIA.score(dice, c)
    ]
    assert len(openspiel_scores) == 7776
    assert differences == []


@pytest.mark.parametrize(
    ("preset", "differing"),
    [
        ("traditional", {Category.FOUR_OF_A_KIND, Category.FULL_HOUSE}),
        ("all-dice-four", {Category.FULL_HOUSE}),
        ("clubhouse", {Category.LITTLE_STRAIGHT, Category.BIG_STRAIGHT}),
    ],
)
def test_other_presets_differ_from_openspiel_where_their_rules_say(
    openspiel_scores: dict[tuple[int, ...], dict[Category, int]],
    preset: str,
    differing: set[Category],
) -> None:
    # The README's preset table, seen from OpenSpiel: proof the comparison can tell rules apart.
    rules = rules_by_name(preset)
    found = {
        c
        for dice, row in openspiel_scores.items()
        for c, points in row.items()
        if points != rules.score(dice, c)
    }
    assert found == differing


@pytest.mark.parametrize(("players", "games"), [(1, 2000), (2, 800), (6, 100)])
def test_random_games_agree_on_every_category_and_total(players: int, games: int) -> None:
    max_total = KNIZIA.max_total()  # OpenSpiel's solo return is total / its best total (305)
    for seed in range(games):
        game, state = play_both(seed * 7 + players, players)
        assert state.is_terminal()
        shown = sheets_shown(state)
        assert [total for total, _ in shown] == game.totals, seed
        assert [sheet for _, sheet in shown] == [dict(s) for s in game.sheets], seed
        returns = state.returns()
        if players == 1:
            assert returns == [pytest.approx(game.totals[0] / max_total)]
        else:
            assert [p for p, r in enumerate(returns) if r == max(returns)] == (game.winners()), seed


def test_the_random_games_score_points_in_every_category() -> None:
    # The decisions above are varied enough to exercise every scorer, Yacht included.
    scored: Counter[Category] = Counter()
    for seed in range(200):
        game, _ = play_both(seed * 7 + 1, 1)
        scored.update(c for c, points in game.sheet(0).items() if points > 0)
    assert set(scored) == set(CATEGORIES), scored

"""Playing to win: opponents' distributions, first-place chances, win hints."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from yacht.dice import ROLLS
from yacht.rules import CATEGORIES, Category, rules_by_name
from yacht.strategy import hint, mask_of, solve
from yacht.strategy.distribution import distribution
from yacht.strategy.endgame import FULL, endgame, play_depth
from yacht.strategy.remaining import remaining
from yacht.strategy.tables import FIRST_ROLL
from yacht.strategy.win import parse_sheets, position_values, prepare, seat_hint, win_hint
from yacht.strategy.win_tables import Seat, choose, finish_chances

TRADITIONAL = rules_by_name("traditional")
C = Category


def only(*open_: Category, **points: int) -> dict[Category, int]:
    """A sheet with ``open_`` still open; the rest scored 0 unless given in ``points``."""
    sheet = {c: 0 for c in CATEGORIES if c not in open_}
    sheet.update({C.parse(name): p for name, p in points.items()})
    return sheet


@pytest.mark.parametrize(
    "used", [[], ["yacht"], ["ones", "twos", "choice", "yacht", "full_house"], FULL & ~1]
)
def test_remaining_rows_are_distributions_with_the_solver_means(used: list[str] | int) -> None:
    rest = remaining("traditional")
    p = rest.pmf(used)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    assert p.size == rest.most_to_come(used) + 1
    assert float(p @ np.arange(p.size)) == pytest.approx(solve("traditional").value(used), 1e-9)


def test_remaining_new_game_row_is_the_final_total_distribution() -> None:
    # computed forwards from a new game by the solver's distribution, backwards here
    want = distribution("traditional").probabilities
    got = remaining("traditional").pmf([])
    assert float(abs(got - want).max()) < 1e-12
    assert remaining("traditional").pmf(FULL).tolist() == [1.0]


def test_remaining_window_gives_exact_and_fewer_than_probabilities() -> None:
    rest = remaining("traditional")
    yacht_only = FULL & ~(1 << C.YACHT.index)
    p = rest.pmf(yacht_only)
    pmf, below = rest.window(np.array([yacht_only]), np.array([0]), np.array([-1]), 53)
    x = np.arange(-1, 52)
    assert pmf[0].tolist() == [p[v] if 0 <= v < p.size else 0.0 for v in x]
    assert below[0].tolist() == pytest.approx([float(p[: max(v, 0)].sum()) for v in x])


def test_first_place_shared_by_k_players_counts_one_kth() -> None:
    rest = remaining("traditional")
    yacht_only = FULL & ~(1 << C.YACHT.index)
    q = float(rest.pmf(yacht_only)[50])  # P(a Yacht in the last turn)
    own, totals = 100, (100, 120)
    width = 80
    got = finish_chances(
        rest,
        np.array([own]),
        [(np.array([yacht_only]), np.array([0]), np.array([t])) for t in totals],
        width,
    )[0]
    for n in range(width):
        m = own + n
        want = 0.0
        for hits in itertools.product((0, 1), repeat=2):
            p = float(np.prod([q if h else 1 - q for h in hits]))
            finals = [t + 50 * h for t, h in zip(totals, hits, strict=True)]
            if m >= max(finals):
                want += p / (1 + finals.count(m))
        assert got[n] == pytest.approx(want, abs=1e-12), n


def test_heads_up_endgame_hint_gambles_exactly_when_behind() -> None:
    # Only Choice left; the other player is done and 28 ahead. 6 6 6 5 4 makes 27: scoring
    # it loses for sure. Rerolling the 4 wins on a 6 and ties on a 5: 1/6 + 1/12 = 1/4.
    me, other = only(C.CHOICE), only(choice=28)
    h = win_hint("traditional", me, [other], [6, 6, 6, 5, 4], rolls_left=1, depth=1)
    assert h.exact and h.players == 2
    assert h.best.keep == (5, 6, 6, 6)
    assert h.best.win_probability == pytest.approx(0.25, abs=1e-6)
    stop = next(o for o in h.options if o.category is C.CHOICE)
    assert stop.win_probability == 0.0 and stop.points == 27
    assert hint("traditional", FULL & ~(1 << C.CHOICE.index), [6, 6, 6, 5, 4], 1).best.category
    assert h.to_json()["best"] == {
        "action": "keep",
        "keep": [5, 6, 6, 6],
        "win_probability": h.best.win_probability,
        "expected": h.best.expected,
    }


def test_many_players_last_turn_is_exact_without_the_table() -> None:
    # the same gamble at a table of three: one opponent 28 ahead, one far behind
    me = only(C.CHOICE)
    h = win_hint("traditional", me, [only(choice=28), only()], [6, 6, 6, 5, 4], rolls_left=1)
    assert not h.exact and h.players == 3
    assert h.best.keep == (5, 6, 6, 6)
    assert h.best.win_probability == pytest.approx(0.25, abs=1e-6)


def test_best_first_roll_averages_to_the_table_value_at_the_turn_start() -> None:
    table = endgame("traditional", 2)
    me = Seat(FULL & ~(1 << C.YACHT.index) & ~(1 << C.FOURS.index), 0, 150)
    other = Seat(FULL & ~(1 << C.CHOICE.index), 0, 160)
    want = table.win_probability(me.used, other.used, me.total - other.total)
    got = sum(
        float(p) * seat_hint("traditional", me, [other], roll, 2, depth=2).best.win_probability
        for roll, p in zip(ROLLS, FIRST_ROLL, strict=True)
    )
    assert got == pytest.approx(want, abs=1e-5)
    assert 0.05 < want < 0.95


def test_rollout_values_scoring_by_both_players_distributions() -> None:
    # Away from the table: scoring s now and playing the rest for points wins with
    # sum over x of P(rest = x) * u(b + s + x), u from the opponent's exact distribution.
    me = Seat(mask_of([c for c in CATEGORIES if c not in (C.YACHT, C.SIXES)]), 0, 120)
    other = Seat(mask_of([c for c in CATEGORIES if c not in (C.CHOICE, C.FOURS)]), 0, 140)
    h = seat_hint("traditional", me, [other], [6, 6, 6, 6, 2], rolls_left=0, depth=0)
    sixes = next(o for o in h.options if o.category is C.SIXES)
    rest = remaining("traditional")
    mine = rest.pmf(me.used | 1 << C.SIXES.index)
    theirs = rest.pmf(other.used)
    want = 0.0
    for x, p in enumerate(mine):
        final = me.total + 24 + x
        for y, q in enumerate(theirs):
            theirs_final = other.total + y
            want += p * q * (1.0 if final > theirs_final else 0.5 if final == theirs_final else 0)
    assert sixes.win_probability == pytest.approx(want, abs=1e-6)
    assert sixes.expected == pytest.approx(24 + solve("traditional").value(me.used | 1 << 5))


@pytest.mark.parametrize("dice", [[1, 2, 3, 4, 6], [6, 6, 6, 6, 1], [2, 2, 3, 3, 5]])
def test_alone_the_win_hint_plays_for_points(dice: list[int]) -> None:
    h = win_hint("traditional", {}, [], dice, rolls_left=2)
    best = hint("traditional", [], dice, rolls_left=2).best
    assert (h.best.keep, h.best.category) == (best.keep, best.category)
    assert h.best.expected == pytest.approx(best.expected, abs=1e-4)
    assert all(o.win_probability == pytest.approx(1.0, abs=1e-6) for o in h.options)


def test_sheets_parse_in_both_forms_and_bad_ones_are_refused() -> None:
    assert parse_sheets("ones=3, yacht = 50 ; empty ;choice=30") == [
        {C.ONES: 3, C.YACHT: 50},
        {},
        {C.CHOICE: 30},
    ]
    assert parse_sheets('[{"Full House": 28}, {}]') == [{C.FULL_HOUSE: 28}, {}]
    for bad, message in [
        ("ones=3,ones=4", "given twice"),
        ("ones", "not category=points"),
        ("bonus=3", "unknown category"),
        ("yacht=49", "cannot score 49"),
        ("ones=x", "not a number"),
        ("[1, 2]", "JSON list of"),
        ("[{", "not valid JSON"),
        (";".join(["-"] * 6), "1 to 5 opponents"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_sheets(bad)


def test_bad_situations_are_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="five faces"):
        win_hint("traditional", {}, [{}], [1, 2, 3], 2)
    with pytest.raises(ValueError, match="rolls left"):
        win_hint("traditional", {}, [{}], [1, 2, 3, 4, 5], 3)
    with pytest.raises(ValueError, match="nothing left"):
        win_hint("traditional", only(), [{}], [1, 2, 3, 4, 5], 0)
    with pytest.raises(ValueError, match="at most 6 players"):
        win_hint("traditional", {}, [{}] * 6, [1, 2, 3, 4, 5], 0)
    with pytest.raises(ValueError, match="unknown plan"):
        win_hint("traditional", {}, [{}], [1, 2, 3, 4, 5], 0, plan="luck")


def test_lookahead_is_exact_over_the_last_two_turns() -> None:
    # The opponent is done, so this player's last two turns are a one-player problem: the
    # lookahead plan must find its exact optimum (a plain recursion over sorted rolls), and
    # the rollout plan (the last turn played for points) can only do worse.
    import functools

    from yacht.dice import outcomes, sub_keeps

    other = Seat(FULL, 0, 200)
    me = Seat(FULL & ~(1 << C.FULL_HOUSE.index) & ~(1 << C.CHOICE.index), 0, 160)

    def u(total: int) -> float:
        return 1.0 if total > other.total else 0.5 if total == other.total else 0.0

    @functools.cache
    def turn(open_: frozenset[Category], banked: int) -> float:
        if not open_:
            return u(banked)

        @functools.cache
        def roll_value(roll: tuple[int, ...], left: int) -> float:
            best = max(turn(open_ - {c}, banked + TRADITIONAL.score(roll, c)) for c in open_)
            for keep in sub_keeps(roll) if left else []:
                if len(keep) < 5:
                    best = max(best, keep_value(keep, left))
            return best

        @functools.cache
        def keep_value(keep: tuple[int, ...], left: int) -> float:
            return sum(
                float(p) * roll_value(tuple(sorted(keep + rest)), left - 1)
                for rest, p in outcomes(5 - len(keep))
            )

        return keep_value((), 3)

    want = turn(frozenset({C.FULL_HOUSE, C.CHOICE}), me.total)
    rolls = np.arange(len(ROLLS))
    table = solve("traditional").table
    for plan in ("lookahead", "rollout"):
        values = position_values(TRADITIONAL, me, [other], depth=0, plan=plan)
        ranking = np.repeat(values.ranking[:, None], rolls.size, axis=1)
        best, _ = choose(table, ranking, rolls, 2, np.full(rolls.size, me.used))
        got = float(FIRST_ROLL @ values.win[best])
        if plan == "lookahead":
            assert got == pytest.approx(want, abs=1e-5)
        else:
            assert got < want - 0.02  # 0.4005 against 0.4316


def test_prepare_builds_what_the_first_win_hint_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A face calls prepare() when a table opens; the first hint then builds nothing."""
    from yacht.strategy import endgame as endgame_module
    from yacht.strategy import remaining as remaining_module

    monkeypatch.setattr(remaining_module, "_KNOWN", {})
    monkeypatch.setattr(endgame_module, "_BUILT", {})
    prepare("traditional", 1)  # alone: the solver's values are all a hint needs
    assert not remaining_module._KNOWN and not endgame_module._BUILT
    prepare("traditional", 2)
    assert len(remaining_module._KNOWN) == 1
    assert [depth for _, depth in endgame_module._BUILT] == [play_depth("traditional")]

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("a table was built after prepare()")

    monkeypatch.setattr(remaining_module, "build_cells", no_build)
    monkeypatch.setattr(endgame_module, "build_endgame", no_build)
    hint = win_hint(
        "traditional", only(C.ONES, C.YACHT), [only(C.TWOS, C.SIXES)], [1, 1, 1, 2, 3], 2
    )
    assert hint.exact and 0.0 < hint.best.win_probability < 1.0

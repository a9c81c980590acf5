"""The coach's facts (yacht.strategy.explain) against a brute force over every reroll.

The brute force rolls the free dice as ordered outcomes (6**n of them, each 1/6**n, in
exact fractions), follows the engine's continuation (the turn policy's keep with one roll
left, the policy's category at the end) and scores with the rules themselves, not the
tables: so the chances, the category scored and the split of the value into this turn and
later are checked against a computation that shares only the policy with the code.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections import defaultdict
from fractions import Fraction

import pytest

from yacht.dice import KEEPS
from yacht.rules import CATEGORIES, Category, rules_by_name
from yacht.strategy import solve
from yacht.strategy.errors import StrategyError
from yacht.strategy.explain import explain, pattern_categories, reasons_for
from yacht.strategy.tables import ROLL_INDEX, ROLL_KEEP

PRESETS = ["traditional", "all-dice-four", "knizia", "clubhouse"]


def rerolls(keep: tuple[int, ...]) -> dict[tuple[int, ...], Fraction]:
    """Every roll the kept dice can become, by enumerating the free dice's ordered faces."""
    free = 5 - len(keep)
    out: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
    for faces in itertools.product(range(1, 7), repeat=free):
        out[tuple(sorted(keep + faces))] += Fraction(1, 6**free)
    return out


def brute_ends(
    rules: str, mask: int, upper: int, keep: tuple[int, ...], rolls_left: int
) -> dict[tuple[int, ...], Fraction]:
    """P(the turn ends on each roll) after keeping ``keep``, by enumeration."""
    policy = solve(rules).turn_policy(mask, upper)
    ends: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
    for roll, p in rerolls(keep).items():
        if rolls_left == 1:
            ends[roll] += p
            continue
        k = int(policy.keep1[ROLL_INDEX[roll]])
        if k >= ROLL_KEEP:  # stop with one roll left
            ends[roll] += p
            continue
        for last, q in rerolls(KEEPS[k]).items():
            ends[last] += p * q
    return ends


def positions(count: int) -> list[tuple[str, int, tuple[int, ...], int, int]]:
    """A fixed sample: each preset, used masks of every size, 1 or 2 rolls left."""
    rng = random.Random(31)
    out = []
    for i in range(count):
        rules = PRESETS[i % len(PRESETS)]
        used = rng.sample(range(12), rng.randrange(0, 11))
        mask = sum(1 << c for c in used)
        upper = 0
        table = solve(rules).table
        if table.cap:
            upper = rng.choice(sorted(table.possible_uppers(mask)))
            upper = min(upper, table.cap)
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        out.append((rules, mask, dice, 1 + i % 2, upper))
    return out


@pytest.mark.parametrize(("rules", "mask", "dice", "rolls_left", "upper"), positions(12))
def test_chances_match_a_brute_force(
    rules: str, mask: int, dice: tuple[int, ...], rolls_left: int, upper: int
) -> None:
    preset = rules_by_name(rules)
    policy = solve(rules).turn_policy(mask, upper)
    e = explain(rules, mask, dice, rolls_left, upper=upper, top=3)
    assert [o.option for o in e.outlooks] == list(e.hint.options[:3])
    for outlook in e.outlooks:
        o = outlook.option
        assert outlook.now + outlook.later == pytest.approx(o.expected, abs=1e-9)
        if o.action == "score":
            assert outlook.chances == ()
            continue
        ends = brute_ends(rules, mask, upper, o.keep or (), rolls_left)
        assert sum(ends.values()) == 1
        for c, p in outlook.chances:
            made = sum(q for roll, q in ends.items() if preset.score(roll, c) > 0)
            assert p == pytest.approx(float(made), abs=1e-12), (o, c)
        scored: dict[Category, Fraction] = defaultdict(Fraction)
        for roll, q in ends.items():
            scored[CATEGORIES[int(policy.category[ROLL_INDEX[roll]])]] += q
        assert dict(outlook.scores) == pytest.approx(
            {c: float(q) for c, q in scored.items() if q}, abs=1e-12
        )
        open_patterns = {c for c in pattern_categories(rules) if not mask >> c.index & 1}
        assert {c for c, _ in outlook.chances} == open_patterns


def test_reasons_say_what_a_keep_plays_for_and_split_the_difference() -> None:
    e = explain("traditional", [], [6, 6, 6, 2, 3], rolls_left=2, top=2)
    first, second = e.reasons()
    assert first[0].code == "keep_two"
    assert first[0].args["category"] == "four_of_a_kind"
    assert first[0].args["chance2"] > 0
    assert [r.code for r in second] == ["keep_two", "vs_keep"]
    lost = second[1].args["now"] + second[1].args["later"]
    assert lost == pytest.approx(e.outlooks[1].option.expected - e.outlooks[0].option.expected)
    # Late: a zero in Yacht keeps Fives open, worth more later than the 5 points now.
    used = "little_straight big_straight choice full_house ones threes fours four_of_a_kind twos"
    late = explain("traditional", used.split(), [1, 4, 4, 4, 5], rolls_left=0, top=2)
    best, other = late.outlooks
    assert best.option.category is Category.YACHT and other.option.category is Category.FIVES
    (keeps_open,) = late.reasons()[1]
    assert keeps_open.code == "score_keeps_open"
    assert keeps_open.args["lost"] == 5 and keeps_open.args["other"] == "fives"
    assert keeps_open.args["net"] == pytest.approx(3.2902722, abs=1e-7)
    assert keeps_open.args["net"] == pytest.approx(keeps_open.args["later"] - 5)
    assert keeps_open.to_json()["args"]["category"] == "yacht"


def test_chosen_options_come_after_the_best() -> None:
    h = explain("traditional", [], [1, 2, 3, 4, 6], 2, top=1).hint
    worst = h.options[-1]
    e = explain("traditional", [], [1, 2, 3, 4, 6], 2, options=[worst])
    assert [o.option for o in e.outlooks] == [h.best, worst]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"top": 0}, "top must be a whole number of options >= 1, got 0"),
        ({"dice": [1, 2, 3]}, "dice"),
        ({"rolls_left": 3}, "rolls left must be 0, 1 or 2, got 3"),
    ],
)
def test_bad_input_is_a_clear_error(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"rules": "traditional", "used": [], "dice": [1, 2, 3, 4, 5]}
    args["rolls_left"] = 1
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        explain(**args)  # type: ignore[arg-type]


def test_an_option_not_of_the_position_is_refused() -> None:
    other = explain("traditional", [], [6, 6, 6, 6, 6], 1, top=1).hint.best
    with pytest.raises(StrategyError, match="is not an option of this position"):
        explain("traditional", [], [1, 2, 3, 4, 5], 1, options=[other])


def test_the_line_mode_explains_the_best_options_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yacht.cli import main

    dice = ["--dice", "6", "6", "6", "2", "3", "--rolls-left", "2"]
    assert main(["hint", *dice, "--explain", "2"]) == 0
    out = capsys.readouterr().out
    why = out[out.index("Why:") :].splitlines()
    assert why[1:3] == [
        "* keep 6 6 6",
        "    Keep 6 6 6: 49% chance of Four of a Kind and 17% of Full House, the rest of the "
        "turn played best.",
    ]
    assert why[-1].startswith(
        "    Keeping 3 6 6 6 instead changes this turn's expected points by -1.5"
    )
    assert main(["hint", *dice, "--explain", "--lang", "fi"]) == 0
    out = capsys.readouterr().out
    assert "Pidä 6 6 6: Neljä samaa 49\xa0%:n ja Full House 17\xa0%:n todennäköisyydellä" in out
    assert main(["hint", *dice, "--explain", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (reasons,) = data["explanation"]["reasons"]
    assert reasons[0]["code"] == "keep_two" and reasons[0]["args"]["dice"] == [6, 6, 6]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--explain", "0"], "--explain: must be from 1 to 20, got 0"),
        (["--explain", "2", "--target", "100"], "--explain explains the hint by expected points"),
    ],
)
def test_the_line_mode_refuses_a_bad_explain(
    capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    from yacht.cli import main

    try:
        status = main(["hint", "--dice", "1", "2", "3", "4", "6", "--rolls-left", "1", *extra])
    except SystemExit as e:  # argparse rejects the argument itself
        status = int(str(e.code))
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and message in err and err.count("\n") == 1


def test_with_opponents_a_keep_says_what_it_plays_for_and_nothing_is_compared() -> None:
    h = explain("traditional", [], [6, 6, 6, 2, 3], 2, top=3).hint
    five = dataclasses.replace(h.best, keep=(2, 3, 6, 6, 6))  # holding all five: no option
    chosen = [h.options[2], h.options[0], five]
    alone = reasons_for("traditional", [], [6, 6, 6, 2, 3], 2, chosen)
    against = reasons_for("traditional", [], [6, 6, 6, 2, 3], 2, chosen, versus=False)
    assert [[r.code for r in rs] for rs in alone] == [["keep_two", "vs_keep"], ["keep_two"], []]
    assert [[r.code for r in rs] for rs in against] == [["keep_two"], ["keep_two"], []]

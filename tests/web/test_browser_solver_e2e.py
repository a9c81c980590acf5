"""The exact solver in the browser (static/js/solver.js, in Chromium) against yacht.strategy:
the same rolls, keeps and chances, every preset's scores from its rules as data, and on 10,000
random positions over every preset the same options in the same order (so the same best
choice) with the same expected points, to 1e-9 as the issue asks and in fact to the bit.

The engine is read with the values that ship with the package, the very numbers of the
browser's files (a test cache built by another numpy could differ by 1e-13)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import Page
from starlette.testclient import TestClient

from yacht.dice import KEEPS, ROLLS
from yacht.rules import CATEGORIES, Category, Rules, preset_names, rules_by_name
from yacht.scorers import Choice, FaceSum, FullHouse, OfAKind, Straight, YachtScorer
from yacht.strategy import browser, hint, solve, solver
from yacht.strategy.tables import FIRST_ROLL, TRANSITION, score_table

from .live import LiveServer
from .pages import Pages

POSITIONS = 10_000
SEED = 29


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """yacht.strategy reads the shipped values (an empty cache), as the browser's files do."""
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(solver, "_SOLVED", {})


def in_page(page: Page, body: str, arg: Any = None) -> Any:
    """Run ``body`` in the page with the module as ``s`` and the argument as ``arg``."""
    return page.evaluate(
        f"async (arg) => {{ const s = await import('/static/js/solver.js'); {body} }}", arg
    )


def open_page(pages: Pages, server: LiveServer) -> Page:
    page = pages.open(f"{server.url}/")
    assert in_page(page, "return s.FORMAT;") == browser.FORMAT
    return page


def test_the_dice_and_their_chances_are_the_engines(pages: Pages, server: LiveServer) -> None:
    page = open_page(pages, server)
    got = in_page(
        page,
        """const chances = [];
        s.KEEPS.forEach((k, i) => s.ROLLS.forEach((r, j) => {
          const p = s.outcomeProbability(k, r);
          if (p) chances.push([i, j, p]);
        }));
        return {rolls: s.ROLLS, keeps: s.KEEPS, first: [...s.FIRST_ROLL], chances,
                starts: s.KEEP_START};""",
    )
    assert [tuple(r) for r in got["rolls"]] == list(ROLLS)
    assert [tuple(k) for k in got["keeps"]] == list(KEEPS)
    assert got["starts"] == [0, 1, 7, 28, 84, 210, 462]
    assert got["first"] == FIRST_ROLL.tolist()  # the same floats: ways / 6**n, correctly rounded
    i, j = np.nonzero(TRANSITION)
    assert len(got["chances"]) == len(i) == 4368
    assert got["chances"] == [
        [a, b, float(TRANSITION[a, b])] for a, b in zip(i.tolist(), j.tolist(), strict=True)
    ]


def points(rules: Rules) -> list[int]:
    return [rules.score_counts(Counter(r), c) for r in ROLLS for c in CATEGORIES]


def test_every_preset_scores_as_the_engine_from_its_rules_as_data(
    pages: Pages, server: LiveServer
) -> None:
    page = open_page(pages, server)
    index = json.loads((browser.TABLES / "index.json").read_text())
    for entry in index["presets"]:
        got = in_page(page, "return [...s.scoreTable(arg)];", entry)
        assert got == score_table(rules_by_name(entry["name"])).points.ravel().tolist()
    # rules no preset has: the scorers are read from the data, not known by a preset's name
    made_up = Rules(
        "made-up",
        {
            **{c: FaceSum(c.index + 1) for c in CATEGORIES[:6]},
            Category.FULL_HOUSE: FullHouse(yacht_counts=True, fixed=25),
            Category.FOUR_OF_A_KIND: OfAKind(3, all_dice=True),
            Category.LITTLE_STRAIGHT: Straight(4, (1, 2, 3), 15),
            Category.BIG_STRAIGHT: Straight(5, (1, 2), 40),
            Category.CHOICE: Choice(),
            Category.YACHT: YachtScorer(100),
        },
    )
    got = in_page(page, "return [...s.scoreTable(arg)];", browser.rules_data(made_up))
    assert got == points(made_up)
    assert got != points(rules_by_name("clubhouse"))


def test_rounding_to_nine_decimals_is_pythons(pages: Pages, server: LiveServer) -> None:
    rng = random.Random(SEED)
    xs = [rng.uniform(0, 400) for _ in range(2000)]
    xs += [n + k / 1024 for n in (0, 1, 166, 299) for k in range(1, 1024, 2)]  # exact ties
    xs += [2.0**-30, 5e-10, 1.5e-9, 2.5e-9, 0.1 + 0.2, 1e-300, 5e-324, 123456789.123456789]
    xs += [-x for x in xs[:50]] + [0.0, 1e300]
    got = in_page(
        page := open_page(pages, server), "return arg.map((x) => s.roundDecimal(x, 9));", xs
    )
    assert got == [round(x, 9) for x in xs]
    few = xs[:200]
    for digits in (0, 1, 3, 12):
        body = f"return arg.map((x) => s.roundDecimal(x, {digits}));"
        assert in_page(page, body, few) == [round(x, digits) for x in few]


def random_positions(name: str, count: int, rng: random.Random) -> list[list[Any]]:
    """``[used, upper, dice, rolls left]``: turns early and late evenly, any dice, 0-2 rolls
    left, a possible upper subtotal (with a bonus); used as a mask, or as names every fifth."""
    bonus = rules_by_name(name).upper_bonus is not None
    out: list[list[Any]] = []
    for i in range(count):
        used = rng.sample(range(len(CATEGORIES)), i % len(CATEGORIES))
        upper = sum((c + 1) * rng.randint(0, 5) for c in used if c < 6) if bonus else 0
        dice = [rng.randint(1, 6) for _ in range(5)]
        names: Any = [CATEGORIES[c].value for c in used]
        mask = sum(1 << c for c in used)
        out.append([names if i % 5 == 0 else mask, upper, dice, rng.randint(0, 2)])
    return out


def option_id(o: dict[str, Any]) -> str:
    if o["action"] == "keep":
        return "keep " + "".join(map(str, o["keep"]))
    return f"score {o['category']} ({o['points']})"


# As JSON text: Playwright's own serialising of 50,000 objects took 20 s a preset, and
# JSON.stringify writes each float so that json.loads reads back the same float.
JS_HINTS = """const solver = await s.loadSolver(arg.name);
return JSON.stringify(arg.positions.map(([used, upper, dice, rolls]) => {
  const h = s.hint(solver, used, dice, rolls, upper);
  if (h.best !== h.options[0]) throw new Error("best is not the first option");
  return h.options;
}));"""


def test_ten_thousand_positions_equal_the_engine(
    pages: Pages, server: LiveServer, shipped: None
) -> None:
    page = open_page(pages, server)
    rng = random.Random(SEED)
    names = preset_names()
    checked = options = exact = 0
    worst = 0.0
    for n, name in enumerate(names):
        count = POSITIONS // len(names) + (n < POSITIONS % len(names))
        positions = random_positions(name, count, rng)
        got = json.loads(in_page(page, JS_HINTS, {"name": name, "positions": positions}))
        for position, mine in zip(positions, got, strict=True):
            used, upper, dice, rolls = position
            theirs = [o.to_json() for o in hint(name, used, dice, rolls, upper=upper).options]
            where = f"{name} {position}"
            assert [option_id(o) for o in mine] == [option_id(o) for o in theirs], where
            assert option_id(mine[0]) == option_id(theirs[0]), where  # the best choice
            for a, b in zip(mine, theirs, strict=True):
                assert abs(a["expected"] - b["expected"]) <= 1e-9, where
                worst = max(worst, abs(a["expected"] - b["expected"]))
                exact += int(a == b)
            checked += 1
            options += len(mine)
    assert checked == POSITIONS
    assert worst <= 1e-9
    assert exact == options, f"{options - exact} of {options} options differ in the last bits"


def test_the_start_of_a_game_is_worth_the_engines_expected_score(
    pages: Pages, server: LiveServer, shipped: None
) -> None:
    page = open_page(pages, server)
    rng = random.Random(SEED)
    for name in preset_names():
        solution = solve(name)
        states = [[0, 0]]
        for _ in range(30):
            picked = rng.sample(range(len(CATEGORIES)), rng.randint(1, 11))
            upper = sum((c + 1) * rng.randint(0, 5) for c in picked if c < 6)
            states.append([sum(1 << c for c in picked), upper])
        got = in_page(
            page,
            """const solver = await s.loadSolver(arg.name);
            return arg.states.map(([used, upper]) =>
              [s.value(solver, used, upper), s.startValue(solver, used, upper)]);""",
            {"name": name, "states": states},
        )
        for (used, upper), (read, computed) in zip(states, got, strict=True):
            assert read == solution.value(used, upper)  # the table, to the bit
            # a turn solved here from the states after it: 252 products summed in roll order,
            # where numpy's matrix product sums in its own order
            assert abs(computed - read) <= 1e-9, (name, used, upper)
        assert got[0][1] == pytest.approx(solution.expected, abs=1e-9)
    assert round(solve("traditional").expected, 7) == 166.9550677


BAD = """const solver = await s.loadSolver("traditional");
const club = await s.loadSolver("clubhouse");
const index = await s.loadIndex();
const before = JSON.stringify(s.hint(solver, 0, [1, 2, 3, 4, 6], 2));
const asks = {
  face7: () => s.hint(solver, 0, [1, 2, 3, 4, 7], 2),
  four_dice: () => s.hint(solver, 0, [1, 2, 3, 4], 2),
  half_die: () => s.hint(solver, 0, [1, 2, 3, 4, 2.5], 2),
  three_rolls: () => s.hint(solver, 0, [1, 2, 3, 4, 5], 3),
  all_used: () => s.hint(solver, 4095, [1, 2, 3, 4, 5], 0),
  unknown_category: () => s.hint(solver, ["bonus"], [1, 2, 3, 4, 5], 0),
  big_mask: () => s.hint(solver, 5000, [1, 2, 3, 4, 5], 0),
  impossible_upper: () => s.hint(club, ["ones"], [1, 2, 3, 4, 5], 0, 7),
  upper_not_whole: () => s.hint(club, ["ones"], [1, 2, 3, 4, 5], 0, 1.5),
  short_file: () => s.makeSolver(index, "traditional", new ArrayBuffer(8 * 4095)),
  other_format: () => s.makeSolver({...index, format: 2}, "traditional", new ArrayBuffer(8)),
  unknown_preset: () => s.makeSolver(index, "yahtzee", new ArrayBuffer(8)),
  unknown_scorer: () => s.scoreTable({scorers: [{kind: "Doubles", face: 1}]}),
};
const out = {};
for (const [name, ask] of Object.entries(asks)) {
  try { ask(); out[name] = "answered"; } catch (e) { out[name] = [e.name, e.code, e.message]; }
}
out.after = JSON.stringify(s.hint(solver, 0, [1, 2, 3, 4, 6], 2)) === before;
out.fine = s.hint(club, ["ones"], [1, 2, 3, 4, 5], 0, 3).best;
return out;"""


def test_bad_input_is_refused_with_a_clear_error_and_changes_nothing(
    pages: Pages, server: LiveServer
) -> None:
    got = in_page(open_page(pages, server), BAD)
    assert got.pop("after") is True
    assert got.pop("fine")["action"] in ("keep", "score")
    codes = {name: error[1] for name, error in got.items()}
    assert codes == {
        "face7": "invalid_dice",
        "four_dice": "invalid_dice",
        "half_die": "invalid_dice",
        "three_rolls": "rolls_left",
        "all_used": "all_used",
        "unknown_category": "unknown_category",
        "big_mask": "used_mask",
        "impossible_upper": "upper_impossible",
        "upper_not_whole": "upper_type",
        "short_file": "tables",
        "other_format": "tables",
        "unknown_preset": "unknown_preset",
        "unknown_scorer": "scorer",
    }
    assert all(error[0] == "SolverError" for error in got.values())
    assert got["face7"][2] == "invalid dice: [1,2,3,4,7] (need five faces from 1 to 6)"
    assert got["three_rolls"][2] == "rolls left must be 0, 1 or 2, got 3"
    assert "4095 values, not 4096 x 1" in got["short_file"][2]
    # the engine refuses the same questions
    asks: list[tuple[Any, list[int], int, int, str]] = [
        (0, [1, 2, 3, 4, 7], 2, 0, "traditional"),
        (0, [1, 2, 3, 4, 5], 3, 0, "traditional"),
        (4095, [1, 2, 3, 4, 5], 0, 0, "traditional"),
        (["bonus"], [1, 2, 3, 4, 5], 0, 0, "traditional"),
        (5000, [1, 2, 3, 4, 5], 0, 0, "traditional"),
        (["ones"], [1, 2, 3, 4, 5], 0, 7, "clubhouse"),
    ]
    for used, dice, rolls, upper, preset in asks:
        with pytest.raises(ValueError):
            hint(preset, used, dice, rolls, upper=upper)


def test_the_server_serves_the_tables_as_written(client: TestClient) -> None:
    index = client.get("/static/tables/index.json")
    assert index.status_code == 200 and index.headers["content-type"] == "application/json"
    assert index.content == (browser.TABLES / "index.json").read_bytes()
    for entry in index.json()["presets"]:
        r = client.get(f"/static/tables/{entry['values']['file']}")
        assert r.status_code == 200 and r.headers["content-type"] == "application/octet-stream"
        assert r.content == (browser.TABLES / entry["values"]["file"]).read_bytes()
        assert "etag" in r.headers  # a page asks again only whether it changed
    assert client.get("/static/tables/values-nothing-v1.bin").status_code == 404

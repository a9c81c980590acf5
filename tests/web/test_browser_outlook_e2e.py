"""The outlook in the browser (static/js/outlook.js and outlook-target.js, in Chromium) against
yacht.strategy: on every preset /play offers, on 150 random positions each, the distribution of
the final total under optimal play (every probability, the mean, the standard deviation and the
percentiles) and, with a target, the best chance of reaching it and every option's chance, to
1e-9, and the best option by that chance the engine's.

The engine is read with the values that ship with the package, the very numbers of the
browser's files: the optimal policy breaks near-ties by exact values, so a cache built by
another numpy (1e-13 apart) could pick another keep of equal value and another distribution."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import Page

from yacht.rules import CATEGORIES, preset_names, rules_by_name
from yacht.strategy import hint, remaining, solve, solver, target
from yacht.strategy.distribution import Distribution, turn_outcomes
from yacht.strategy.tables import F64, FULL, ROLL_INDEX, TRANSITION

from .live import LiveServer
from .pages import Pages

POSITIONS = 150  # a preset
SEED = 2929
# Per preset the used categories every position includes (the tables are built for the states
# after them, as the page builds them for the states after its position) and the most points a
# target may still need: clubhouse's tables from a new game are 64 times larger.
BASES = {
    "traditional": ([3, 9], 100),
    "all-dice-four": ([2, 7, 10], 100),
    "knizia": ([0, 5, 11], 100),
    "clubhouse": ([0, 1, 6, 7, 8, 10], 90),
}


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """yacht.strategy reads the shipped values (an empty cache), as the browser's files do."""
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(solver, "_SOLVED", {})
    monkeypatch.setattr(remaining, "_KNOWN", {})
    monkeypatch.setattr(target, "_TABLES", {})


IMPORTS = """const s = await import('/static/js/solver.js');
const o = await import('/static/js/outlook.js');
const tg = await import('/static/js/outlook-target.js');"""

# As JSON text: JSON.stringify writes each float so that json.loads reads back the same float.
JS_OUTLOOK = (
    IMPORTS
    + """
const solver = await s.loadSolver(arg.name);
const rem = o.remainingTable(solver, arg.base);
const tt = tg.targetTable(solver, arg.limit, arg.base);
return JSON.stringify(arg.positions.map((p) => {
  const toCome = o.pointsToCome(rem, p.used, p.upper, p.dice, p.rolls);
  const totals = o.finalTotals(toCome, p.banked);
  const out = {totals: [...totals], summary: o.summary(totals)};
  if (p.dice === null) out.chance = tg.targetChance(tt, p.used, p.upper, p.target, p.banked);
  else out.hint = tg.targetHint(tt, p.used, p.dice, p.rolls, p.upper, p.target, p.banked);
  return out;
}));"""
)


def in_page(page: Page, body: str, arg: Any = None) -> Any:
    return page.evaluate(f"async (arg) => {{ {body} }}", arg)


def positions(name: str, rng: random.Random) -> list[dict[str, Any]]:
    """Positions after the preset's base: a turn's start (every fourth) or dice showing with 0-2
    rolls left, a possible upper subtotal, points on the sheet and a target they still need
    at most the base's limit for (some already reached)."""
    base, limit = BASES[name]
    bonus = rules_by_name(name).upper_bonus is not None
    out = []
    for i in range(POSITIONS):
        rest = [c for c in range(len(CATEGORIES)) if c not in base]
        used = base + rng.sample(rest, rng.randint(0, len(rest) - 1))
        upper = sum((c + 1) * rng.randint(0, 5) for c in used if c < 6) if bonus else 0
        banked = rng.randint(0, 20 * len(used))
        needed = rng.randint(-5, limit)
        dice = None if i % 4 == 0 else [rng.randint(1, 6) for _ in range(5)]
        out.append(
            {
                "used": sum(1 << c for c in used),
                "upper": upper,
                "dice": dice,
                "rolls": 0 if dice is None else rng.randint(0, 2),
                "banked": banked,
                "target": max(0, banked + needed),
            }
        )
    return out


def to_come(name: str, mask: int, upper: int, dice: list[int] | None, rolls: int) -> F64:
    """The engine's P(x more points): yacht.strategy.remaining for the three small presets;
    for clubhouse (a whole table of 28 million cells) the same backward pass over the states
    after the position only, from the engine's own turn outcomes."""
    if name != "clubhouse":
        r = remaining.remaining(name)
        if dice is None:
            return r.pmf(mask, upper)
        return r.pmf_after_roll(mask, dice, rolls, upper)
    return _club_to_come(mask, min(upper, 63), None if dice is None else tuple(sorted(dice)), rolls)


_CLUB: dict[tuple[int, int], F64] = {}


def _club_row(mask: int, up: int) -> F64:
    if (mask, up) not in _CLUB:
        solution = solve("clubhouse")
        if mask == FULL:
            _CLUB[mask, up] = np.ones(1)
        else:
            outcomes = turn_outcomes(solution, np.array([mask]), np.array([up]))[0]
            _CLUB[mask, up] = _after(solution.table, mask, up, outcomes)
    return _CLUB[mask, up]


def _after(table: Any, mask: int, up: int, outcomes: F64) -> F64:
    out = np.zeros(table.most_to_come(mask, up) + 1)
    for c, pts in zip(*np.nonzero(outcomes), strict=True):
        raised = int(table.raise_upper(up, int(c), int(pts)))
        shift = int(pts) + int(table.bonus_gain(up, int(c), int(pts)))
        row = _club_row(mask | (1 << int(c)), raised)
        out[shift : shift + row.size] += outcomes[c, pts] * row
    return out


def _club_to_come(mask: int, up: int, roll: tuple[int, ...] | None, rolls: int) -> F64:
    solution = solve("clubhouse")
    if roll is None:
        return _club_row(mask, up)
    policy = solution.turn_policy(mask, up)
    chances = np.zeros(len(ROLL_INDEX))
    chances[ROLL_INDEX[roll]] = 1.0
    for keep in (policy.keep2, policy.keep1)[2 - rolls :]:
        chances = TRANSITION.T @ np.bincount(keep, weights=chances, minlength=TRANSITION.shape[0])
    table = solution.table
    outcomes = np.zeros((len(CATEGORIES), int(table.points.max()) + 1))
    for r in np.nonzero(chances)[0]:
        c = policy.category[r]
        outcomes[c, table.points[r, c]] += chances[r]
    return _after(table, mask, up, outcomes)


def option_id(o: dict[str, Any]) -> str:
    if o["action"] == "keep":
        return "keep " + "".join(map(str, o["keep"]))
    return f"score {o['category']}"


@pytest.mark.parametrize("name", preset_names())
def test_the_outlook_equals_the_engine(
    name: str, pages: Pages, server: LiveServer, shipped: None
) -> None:
    page = pages.open(f"{server.url}/")
    rng = random.Random(f"{SEED}-{name}")
    base, limit = BASES[name]
    mask = sum(1 << c for c in base)
    target.target_table(name, limit, base=mask)  # what the engine answers every position from
    asked = positions(name, rng)
    got = json.loads(
        in_page(page, JS_OUTLOOK, {"name": name, "base": mask, "limit": limit, "positions": asked})
    )
    worst = 0.0
    for p, mine in zip(asked, got, strict=True):
        where = f"{name} {p}"
        theirs = to_come(name, p["used"], p["upper"], p["dice"], p["rolls"])
        totals = np.concatenate([np.zeros(p["banked"]), theirs])
        assert len(mine["totals"]) == totals.size, where
        worst = max(worst, float(np.abs(np.array(mine["totals"]) - totals).max()))
        d = Distribution(rules_by_name(name), totals, 0.0)
        assert abs(mine["summary"]["mean"] - d.mean) <= 1e-9, where
        assert abs(mine["summary"]["stdev"] - d.stdev) <= 1e-9, where
        assert {int(q): t for q, t in mine["summary"]["percentiles"].items()} == d.percentiles
        if p["dice"] is None:
            expected = target.target_probability(
                name, p["used"], p["target"] - p["banked"], upper=p["upper"]
            )
            assert abs(mine["chance"] - expected) <= 1e-9, where
            continue
        h = hint(
            name,
            p["used"],
            p["dice"],
            p["rolls"],
            upper=p["upper"],
            target=p["target"],
            banked=p["banked"],
        )
        engine = {option_id(o.to_json()): o.probability for o in h.options}
        page_says = {option_id(o): o["probability"] for o in mine["hint"]["options"]}
        assert page_says.keys() == engine.keys(), where
        for key, chance in page_says.items():
            assert chance is not None and abs(chance - engine[key]) <= 1e-9, (where, key)
        assert option_id(mine["hint"]["best"]) == option_id(h.best.to_json()), where
    assert worst <= 1e-9


BANDED = (
    IMPORTS
    + """
const out = [];
for (const [name, base, limit] of arg) {
  const solver = await s.loadSolver(name);
  const banded = tg.targetTable(solver, limit, base, true);
  const full = tg.targetTable(solver, limit, base);
  let cells = 0, differ = 0, refused = 0, asked = 0;
  for (const [mask, up] of o.statesAfter(solver, base)) {
    const st = mask * solver.uppers + up;
    const top = Math.min(full.most[st], limit);
    const low = banded.low(mask, up);
    for (let n = low; n <= top; n++) {
      cells++;
      const mine = banded.cells[banded.offsets[st] + n];
      if (!Object.is(mine, full.cells[full.offsets[st] + n])) differ++;
    }
    if (low > 1 && low - 1 <= top) {
      asked++;
      if (!tg.answers(banded, mask, low - 1, up) && tg.answers(full, mask, low - 1, up)) refused++;
    }
  }
  out.push({cells, differ, refused, asked, all: full.cells.length});
}
return out;"""
)


def test_a_banded_target_table_is_the_whole_one_where_it_answers(
    pages: Pages, server: LiveServer
) -> None:
    """The page builds a target table only for the cells its game can reach (a banded table:
    needing no fewer points than the target less the best of every category used since, and the
    bonus once the subtotal has it); those cells are the whole table's to the bit, and a
    position needing fewer is not answered from it (the page builds again)."""
    club = (1 << 6) | (1 << 7) | (1 << 8) | (1 << 10) | (1 << 11)  # the bonus still to play for
    cases = [
        ["traditional", (1 << 3) | (1 << 9) | (1 << 11), 150],
        ["clubhouse", club | (1 << 9), 80],
    ]
    got = in_page(pages.open(f"{server.url}/"), BANDED, cases)
    for case in got:
        assert case["differ"] == 0 and case["refused"] == case["asked"] > 0, case
        assert 0 < case["cells"] < case["all"], case


BAD = (
    IMPORTS
    + """
const solver = await s.loadSolver("traditional");
// the states after Fours to Choice used (Ones, Twos, Threes and Yacht open: 80 points at most)
const club = await s.loadSolver("clubhouse");
const rem = o.remainingTable(solver, 2040);
const tt = tg.targetTable(solver, 40, 2040);
const before = JSON.stringify([...o.pointsToCome(rem, 2044, 0, [1, 2, 3, 4, 6], 2)]);
const asks = {
  face7: () => o.pointsToCome(rem, 2044, 0, [1, 2, 3, 4, 7], 2),
  four_dice: () => o.pointsToCome(rem, 2044, 0, [1, 2, 3, 4], 2),
  all_used: () => o.pointsToCome(rem, 4095, 0, [1, 2, 3, 4, 5], 0),
  before_base: () => o.pointsToCome(rem, 4080, 0, null, 0),
  beyond_limit: () => tg.targetChance(tt, 2040, 0, 41, 0),
  hint_beyond_limit: () => tg.targetHint(tt, 2040, [1, 2, 3, 4, 5], 2, 0, 41, 0),
  club_new_game: () => o.remainingTable(club, 0),
  club_target: () => tg.targetTable(club, 250, 0),
};
const out = {};
for (const [name, ask] of Object.entries(asks)) {
  try { ask(); out[name] = "answered"; } catch (e) { out[name] = [e.name, e.code]; }
}
out.after = JSON.stringify([...o.pointsToCome(rem, 2044, 0, [1, 2, 3, 4, 6], 2)]) === before;
out.cells = [o.remainingCells(club, 0), tg.targetCells(club, 250, 0), o.MAX_CELLS];
out.reached = tg.targetChance(tt, 2040, 0, 30, 35);
out.out_of_reach = tg.targetChance(tt, 2040, 0, 400, 0);
return out;"""
)


def test_bad_questions_are_refused_with_a_code_and_change_nothing(
    pages: Pages, server: LiveServer
) -> None:
    got = in_page(pages.open(f"{server.url}/"), BAD)
    assert got.pop("after") is True
    assert got.pop("reached") == 1.0 and got.pop("out_of_reach") == 0.0
    club, club_target, most = got.pop("cells")
    assert club > most and club_target > most  # clubhouse from a new game: too much to hold
    assert got == {
        "face7": ["SolverError", "invalid_dice"],
        "four_dice": ["SolverError", "invalid_dice"],
        "all_used": ["SolverError", "all_used"],
        "before_base": ["SolverError", "needed_base"],
        "beyond_limit": ["SolverError", "needed_limit"],
        "hint_beyond_limit": ["SolverError", "needed_limit"],
        "club_new_game": ["SolverError", "too_large"],
        "club_target": ["SolverError", "too_large"],
    }
    r = remaining.remaining("traditional")
    for dice, rolls in (([1, 2, 3, 4, 7], 2), ([1, 2, 3, 4, 5], 3)):
        with pytest.raises(ValueError):
            r.pmf_after_roll(2044, dice, rolls)
    with pytest.raises(ValueError):
        r.pmf_after_roll(FULL, [1, 2, 3, 4, 5], 0)

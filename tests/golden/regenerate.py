"""Write the golden games: ``python -m tests.golden.regenerate`` (``--check`` only compares).

Each golden game is a seeded game played by a small fixed policy (a seeded ``random.Random``
picks among sensible holds and scorings, and takes back some scorings in games with the undo
house rule). Its file is exactly what ``Game.to_json()`` writes, one event per line, plus
``about`` and ``states``: the state after each event (phase, turn, round, dice, held, rolls,
totals), so a replay can be checked step by step.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from yacht import Game, RandomDice
from yacht.rules import CATEGORIES, Category

FOLDER = Path(__file__).parent


@dataclass(frozen=True)
class Spec:
    name: str
    players: tuple[str, ...]
    rules: str
    seed: int
    start: str = "seat"
    undo: bool = False

    @property
    def about(self) -> str:
        n = len(self.players)
        undo = ", undo house rule" if self.undo else ""
        return (
            f"{n} player{'s' * (n > 1)}, preset {self.rules}, start {self.start}, "
            f"RandomDice(seed={self.seed}){undo}"
        )

    def new_game(self) -> Game:
        return Game(
            self.players, self.rules, RandomDice(self.seed), start=self.start, undo=self.undo
        )


SPECS = (
    Spec("solo-traditional", ("Ann",), "traditional", seed=1),
    Spec("duo-knizia-roll-off", ("Ann", "Bob"), "knizia", seed=2, start="roll-off"),
    Spec("duo-all-dice-four-undo", ("Ann", "Bob"), "all-dice-four", seed=3, undo=True),
    Spec(
        "six-clubhouse-random-undo",
        ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"),
        "clubhouse",
        seed=6,
        start="random",
        undo=True,
    ),
)


def state(g: Game) -> dict[str, Any]:
    """What a player sees after an event."""
    return {
        "phase": g.phase.value,
        "turn": g.current_name,
        "round": g.round,
        "dice": list(g.dice) if g.dice is not None else None,
        "held": sorted(g.held),
        "rolls": g.rolls_used,
        "totals": g.totals,
    }


class Policy:
    """Keeps the most common face (the higher on ties) and scores the best open category;
    with undo on, sometimes takes a scoring back and then scores the second best."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.undone: set[int] = set()  # turns (by number of scorings) already taken back

    def next(self, g: Game) -> str:
        turn = sum(len(s) for s in g.sheets)
        if g.dice is None:
            can_undo = "undo" in map(str, g.legal_actions()) and turn - 1 not in self.undone
            if can_undo and self.rng.random() < 0.25:
                self.undone.add(turn - 1)
                return "undo"
            return "roll"
        sheet = g.sheet(g.current)
        open_ = [c for c in CATEGORIES if c not in sheet]
        ranked = sorted(open_, key=lambda c: (-(g.potential(c) or 0), c.index))
        if g.rolls_left and (g.potential(ranked[0]) or 0) < 25 and self.rng.random() < 0.85:
            counts = Counter(g.dice)
            face = max(counts, key=lambda f: (counts[f], f))
            hold = sorted(i for i, d in enumerate(g.dice, start=1) if d == face)
            if set(hold) != g.held:
                return " ".join(["hold", *map(str, hold)])
            return "roll"
        pick = ranked[1] if turn in self.undone and len(ranked) > 1 else ranked[0]
        return f"score {Category(pick).value}"


def play(spec: Spec) -> tuple[Game, list[dict[str, Any]]]:
    g = spec.new_game()
    policy = Policy(spec.seed)
    states = []
    while not g.finished:
        g.apply(policy.next(g))
        states.append(state(g))
    return g, states


def render(spec: Spec) -> str:
    """The golden file's text: the game's JSON with one event and one state per line."""
    g, states = play(spec)
    data = g.to_json()
    lines = ["{", f'  "about": {json.dumps(spec.about)},']
    for key, value in data.items():
        if key == "events":
            lines.append('  "events": [')
            lines += [f"    {json.dumps(e)}," for e in value]
            lines[-1] = lines[-1].rstrip(",")
            lines.append("  ],")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "states": [')
    lines += [f"    {json.dumps(s)}," for s in states]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["  ]", "}", ""]
    return "\n".join(lines)


def path(spec: Spec) -> Path:
    return FOLDER / f"{spec.name}.json"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for spec in SPECS:
        text = render(spec)
        if path(spec).exists() and path(spec).read_text(encoding="utf-8") == text:
            continue
        stale.append(path(spec).name)
        if not check:
            path(spec).write_text(text, encoding="utf-8")
    verb = "differ" if check else "written"
    print(f"{len(stale)} of {len(SPECS)} golden games {verb}: {', '.join(stale) or '-'}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

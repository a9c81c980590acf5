"""Property tests: random legal games always finish right; random illegal actions and garbage
never change anything; JSON round-trips exactly at every step."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yacht import Action, Game, GameError, Hold, RandomDice, Roll, Score, Undo
from yacht.rules import CATEGORIES, UPPER_CATEGORIES, preset_names

EVERY_ACTION: list[Action] = [
    Roll(),
    Undo(),
    *(Hold(tuple(p for p in range(1, 6) if mask >> (p - 1) & 1)) for mask in range(32)),
    *(Score(c) for c in CATEGORIES),
]

GARBAGE: list[Any] = [
    None,
    0,
    3.5,
    b"roll",
    ["roll"],
    {"action": "roll"},
    object(),
    Roll,
    Action(),
    "",
    "hold 6",
    "hold 1 1",
    "score bonus",
    "roll roll",
    "yacht!",
]

games = st.fixed_dictionaries(
    {
        "players": st.integers(1, 6),
        "rules": st.sampled_from(preset_names()),
        "seed": st.integers(0, 2**32),
        "start": st.sampled_from(["seat", "roll-off", "random"]),
        "undo": st.booleans(),
    }
)


def new_game(setup: dict[str, Any]) -> Game:
    names = [f"P{i}" for i in range(setup["players"])]
    return Game(
        names,
        setup["rules"],
        RandomDice(setup["seed"]),
        start=setup["start"],
        undo=setup["undo"],
    )


def random_step(g: Game, rng: random.Random) -> Action:
    """A random legal action; undo is taken rarely so games keep moving."""
    legal = g.legal_actions()
    choices = [a for a in legal if not isinstance(a, Undo)] or legal
    if Undo() in legal and rng.random() < 0.1:
        return Undo()
    return rng.choice(choices)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=games, rng=st.randoms(use_true_random=False))
def test_random_legal_games_end_after_twelve_scorings_per_player(
    setup: dict[str, Any], rng: random.Random
) -> None:
    g = new_game(setup)
    n = setup["players"]
    while not g.finished:
        assert g.legal_actions(), "a game that is not over always has a legal action"
        event = g.apply(random_step(g, rng))
        assert g.version == len(g.events) and g.events[-1] is event
    scorings = sum(isinstance(e.action, Score) for e in g.events)
    undos = sum(isinstance(e.action, Undo) for e in g.events)
    assert scorings - undos == 12 * n
    assert g.legal_actions() == []
    for p in range(n):
        sheet = g.sheet(p)
        assert set(sheet) == set(CATEGORIES)
        upper = sum(sheet[c] for c in UPPER_CATEGORIES)
        assert g.totals[p] == sum(sheet.values()) + g.rules.bonus(upper)
    best = max(g.totals)
    assert g.winners() == [p for p in range(n) if g.totals[p] == best]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=games, rng=st.randoms(use_true_random=False), junk=st.text(max_size=12))
def test_random_illegal_actions_and_garbage_never_change_the_state(
    setup: dict[str, Any], rng: random.Random, junk: str
) -> None:
    g = new_game(setup)
    steps = (
        rng.randrange(0, 40 * setup["players"]) if rng.random() < 0.8 else 10**6
    )  # or to the end
    for _ in range(steps):
        if g.finished:
            break
        g.apply(random_step(g, rng))
    legal = g.legal_actions()
    attempts: list[tuple[Any, int | None]] = [(a, None) for a in EVERY_ACTION if a not in legal]
    attempts += [(thing, None) for thing in [*GARBAGE, junk]]
    others = [p for p in range(setup["players"]) if p != g.current]
    attempts += [(a, rng.choice(others)) for a in legal if others and not isinstance(a, Undo)]
    for thing, player in rng.sample(attempts, min(len(attempts), 30)):
        if isinstance(thing, str):
            try:
                if Action.parse(thing) in legal and player is None:
                    continue  # hypothesis wrote a legal action
            except GameError:
                pass
        before = g.to_json()
        try:
            g.apply(thing, player=player)
        except GameError:
            pass
        else:
            raise AssertionError(f"{thing!r} by {player} was accepted in {g!r}")
        assert g.to_json() == before
        assert g.legal_actions() == legal


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=games, rng=st.randoms(use_true_random=False))
def test_json_round_trip_is_exact_at_every_step(setup: dict[str, Any], rng: random.Random) -> None:
    setup = {**setup, "players": 1 + setup["players"] % 2}  # whole games, kept short
    g = new_game(setup)
    while True:
        data = g.to_json()
        again = Game.from_json(data)
        assert again.to_json() == data
        assert (again.phase, again.current, again.dice, again.held, again.rolls_used) == (
            g.phase,
            g.current,
            g.dice,
            g.held,
            g.rolls_used,
        )
        if g.finished:
            break
        g.apply(random_step(g, rng))

"""Golden games (tests/golden/*.json): replayed whole through Game.from_json and event by event
from their seed; both must give exactly the recorded events and states."""

from __future__ import annotations

import json
from typing import Any

import pytest

from golden.regenerate import SPECS, Spec, path, render, state
from yacht import Game, RandomDice

EXTRA_KEYS = ("about", "states")


def load(spec: Spec) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path(spec).read_text(encoding="utf-8"))
    return data


def test_the_golden_games_cover_one_two_and_six_players_every_preset_and_undo() -> None:
    games = [load(spec) for spec in SPECS]
    assert sorted({len(g["players"]) for g in games}) == [1, 2, 6]
    assert {g["rules"] for g in games} == {"traditional", "all-dice-four", "knizia", "clubhouse"}
    assert {g["start"]["rule"] for g in games} == {"seat", "roll-off", "random"}
    assert any(e["action"] == "undo" for g in games for e in g["events"])


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_from_json_rebuilds_the_recorded_game(spec: Spec) -> None:
    data = load(spec)
    recorded = {k: v for k, v in data.items() if k not in EXTRA_KEYS}
    game = Game.from_json(data)
    assert game.finished
    assert game.to_json() == recorded
    assert state(game) == data["states"][-1]


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_event_by_event_replay_from_the_seed_gives_every_recorded_state(spec: Spec) -> None:
    data = load(spec)
    assert len(data["events"]) == len(data["states"])
    game = Game(
        data["players"],
        data["rules"],
        RandomDice(data["dice"]["seed"]),
        start=data["start"]["rule"],
        undo=data["house_rules"]["undo"],
    )
    assert game.first == data["start"]["first"]
    for i, (raw, expected) in enumerate(zip(data["events"], data["states"], strict=True)):
        event = game.apply(raw["action"], player=raw["player"])
        assert event.to_json() == raw, f"event {i}"
        assert state(game) == expected, f"state after event {i}"
    assert game.totals == data["totals"] and game.winners() == data["winners"]
    assert game.dice_source.describe() == data["dice"]


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_the_regenerator_writes_exactly_the_committed_file(spec: Spec) -> None:
    # If this fails after an intended change: python -m tests.golden.regenerate
    assert render(spec) == path(spec).read_text(encoding="utf-8")

"""Versioned JSON: exact round trips, replay, and clear errors for malformed or tampered input."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from yacht import Game, RandomDice, ScriptedDice
from yacht.dice import FairDice
from yacht.game import FORMAT_VERSION
from yacht.game_json import GameFileError


def sample(start: str = "roll-off", undo: bool = True) -> Game:
    g = Game(["Ann", "Bob", "Cy"], "clubhouse", RandomDice(seed=9), start=start, undo=undo)
    script = ["roll", "hold 1 2", "roll", "score twos", "undo", "hold 1", "roll", "score threes"]
    for text in [*script, "roll", "score choice", "roll", "hold 5", "roll", "hold", "roll"]:
        g.apply(text)
    return g


def test_round_trip_is_exact_at_every_step() -> None:
    g = Game(["Ann", "Bob"], "knizia", RandomDice(seed=4), start="roll-off", undo=True)
    script = ["roll", "hold 2 3", "roll", "score fives", "undo", "roll", "score sixes"]
    for text in script * 2 + ["roll", "score yacht"]:
        try:
            g.apply(text)
        except ValueError:
            continue  # the script is blind to the dice; only legal steps count
        data = json.loads(json.dumps(g.to_json()))
        again = Game.from_json(data)
        assert again.to_json() == g.to_json()
        assert (again.dice, again.held, again.rolls_used, again.current) == (
            g.dice,
            g.held,
            g.rolls_used,
            g.current,
        )
        # The rebuilt game's dice source continues exactly where the original's is.
        if g.rolls_left:
            assert again.apply("roll") == g.apply("roll")


def test_the_json_says_what_the_game_is() -> None:
    data = sample().to_json()
    assert data["format"] == "yacht-game" and data["version"] == FORMAT_VERSION
    assert data["rules"] == "clubhouse" and len(data["rules_fingerprint"]) == 16
    assert data["players"] == ["Ann", "Bob", "Cy"]
    assert data["start"]["rule"] == "roll-off" and data["house_rules"] == {"undo": True}
    assert data["dice"] == {"kind": "random", "seed": 9, "drawn": data["dice"]["drawn"]}
    assert data["events"][3]["action"] == "score twos" and "points" in data["events"][3]
    assert data["events"][4] == {"player": data["events"][3]["player"], "action": "undo"}
    assert "dice" not in sample().to_json(include_dice_source=False)


def test_other_dice_sources_round_trip_and_a_given_source_wins() -> None:
    for dice in (ScriptedDice([3, 1, 4, 1, 5, 2, 6, 5, 3, 5] * 3), FairDice("seed", "client")):
        g = Game(["Ann"], dice=dice)
        g.apply("roll")
        g.apply("hold 1")
        g.apply("roll")
        assert Game.from_json(g.to_json()).to_json() == g.to_json()
    g = Game(["Ann"], dice=RandomDice(seed=1))
    g.apply("roll")
    again = Game.from_json(g.to_json(include_dice_source=False), dice=ScriptedDice([6] * 5))
    assert again.apply("roll").dice == (6, 6, 6, 6, 6)


Tamper = Callable[[dict[str, Any]], object]


def setitem(path: list[Any], value: Any) -> Tamper:
    def tamper(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return tamper


def delitem(path: list[Any]) -> Tamper:
    def tamper(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return tamper


TAMPERED: list[tuple[str, Tamper, str]] = [
    ("format", setitem(["format"], "chess"), "not a yacht game"),
    ("version", setitem(["version"], 2), "unsupported game format version 2"),
    ("version bool", setitem(["version"], True), "unsupported game format version True"),
    ("rules", setitem(["rules"], "yahtzee"), "unknown rules preset"),
    ("rules type", setitem(["rules"], ["clubhouse"]), "'rules' must be a string"),
    ("other preset", setitem(["rules"], "knizia"), "scores differently"),
    ("fingerprint", setitem(["rules_fingerprint"], "0" * 16), "scores differently"),
    ("players str", setitem(["players"], "AnnBobCy"), "'players' must be a list"),
    ("players count", setitem(["players"], []), "1 to 6 named players"),
    ("player name", setitem(["players", 1], 7), "1 to 6 named players"),
    ("no players", delitem(["players"]), "missing 'players'"),
    ("start type", setitem(["start"], 5), "'start' must be an object"),
    ("start rule", setitem(["start", "rule"], "dice"), "unknown start rule"),
    ("start first", setitem(["start", "first"], 2), "does not follow from its rolls"),
    ("start rolls", setitem(["start", "rolls"], [[1, 1, 1]]), "are not a roll-off start"),
    ("start roll face", setitem(["start", "rolls"], [[9, 1, 1]]), "scripted faces"),
    ("start rolls type", setitem(["start", "rolls"], [5]), "lists of faces"),
    ("undo type", setitem(["house_rules", "undo"], "yes"), "'undo' must be true or false"),
    ("undo off", setitem(["house_rules", "undo"], False), "undo house rule is off"),
    ("events type", setitem(["events"], {}), "'events' must be a list"),
    ("event type", setitem(["events", 0], "roll"), "event 0 is not an object"),
    ("event player", setitem(["events", 0, "player"], "0"), "'player' must be an integer"),
    ("event turn", setitem(["events", 0, "player"], 9), "is illegal"),
    ("event action", setitem(["events", 1, "action"], "hold 7"), "dice positions are 1 to 5"),
    ("roll dice face", setitem(["events", 0, "dice", 0], 7), "invalid dice"),
    ("roll without dice", delitem(["events", 0, "dice"]), "missing 'dice'"),
    ("points", setitem(["events", 3, "points"], 99), "replays as"),
    ("score dice", setitem(["events", 3, "dice"], [6, 6, 6, 6, 6]), "replays as"),
    ("extra field", setitem(["events", 1, "dice"], [1, 2, 3, 4, 5]), "replays as"),
    ("held die changed", setitem(["events", 2, "dice"], [7, 7, 7, 7, 7]), "invalid dice"),
    ("totals", setitem(["totals"], [0, 0, 0]), "totals [0, 0, 0] do not match"),
    ("winners", setitem(["winners"], [1]), "winners [1] do not match"),
    ("dice kind", setitem(["dice", "kind"], "loaded"), "unknown dice source"),
    ("dice drawn", setitem(["dice", "drawn"], -5), "drawn: 0 to"),
    ("dice type", setitem(["dice"], "random"), "need a JSON object"),
]


@pytest.mark.parametrize(("name", "tamper", "why"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_malformed_or_tampered_json_is_a_clear_value_error(
    name: str, tamper: Tamper, why: str
) -> None:
    data = copy.deepcopy(sample().to_json())
    tamper(data)
    with pytest.raises(ValueError) as raised:
        Game.from_json(data)
    # one kind of error for a file, whatever inside it was wrong, and its English text
    assert type(raised.value) is GameFileError, name
    assert why in str(raised.value)


def test_a_held_die_that_changes_on_replay_is_caught() -> None:
    data = sample().to_json()
    roll = data["events"][2]  # the roll after "hold 1 2": dice 1 and 2 must stay
    assert roll["action"] == "roll"
    roll["dice"][0] = roll["dice"][0] % 6 + 1
    with pytest.raises(ValueError, match="changes held dice"):
        Game.from_json(data)


@pytest.mark.parametrize("thing", [None, [], "game", 5, {"format": "yacht-game"}])
def test_things_that_are_not_games(thing: Any) -> None:
    with pytest.raises(ValueError, match=r"not a yacht game|unsupported game format"):
        Game.from_json(thing)

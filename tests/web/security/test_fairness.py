"""Fair dice every player can check (rule 3, docs/web/fairness.md), so no one, the server
included, can choose the rolls.

The commitment is published before any player's seed is known; every person who takes a
seat gives a seed after seeing it; the dice key is made of the commitment and all the seeds,
fixed when the game starts; a rematch has a new commitment (published when the game before
it started) and new seeds; and a server seed chosen after the seeds is caught."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from yacht.cli import main
from yacht.dice import FairDice, PlacedDice
from yacht.game import Game
from yacht.rules import CATEGORIES
from yacht.web.service.fairness import dice_key, verify

from ..helpers import Table


def join(t: Table, seat: int, name: str, seed: str) -> dict[str, Any]:
    r = t.post("join", {"seat": seat, "name": name, "seed": seed})
    assert r.status_code == 200, r.text
    t.tokens[seat] = r.json()["token"]
    table: dict[str, Any] = r.json()["table"]
    return table


def give(t: Table, seat: int, game: int, seed: str) -> Any:
    body = {"type": "seed", "seat": seat, "token": t.tokens[seat], "game": game, "seed": seed}
    return t.post("seed", body)


def test_commitment_then_seeds_then_the_first_roll(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = Table.create(client, "human", "human", "greedy")
    seen = t.game["commitment"]  # what Ann and Bob see before they give anything
    assert t.game["fair"]["contributions"] == [] and t.game["fair"]["key"] is None
    waiting = join(t, 0, "Ann", "ann-dice-7")
    assert [c["seed"] for c in waiting["game"]["fair"]["contributions"]] == ["ann-dice-7"]
    started = join(t, 1, "Bob", "bob-9f3e")["game"]
    fair = started["fair"]
    assert started["status"] == "playing" and started["commitment"] == seen
    assert fair["key"] == dice_key(seen, fair["contributions"])
    assert fair["next_commitment"] and fair["next_commitment"] != seen
    r = give(t, 0, 1, "too-late")  # the key of a started game is fixed
    assert (r.status_code, r.json()["code"]) == (409, "illegal")
    final = t.play_to_end()
    data = client.get(f"/api/games/{final['id']}").json()
    assert [e["event"] for e in data["fair"]["log"]] == [
        "commitment",
        "contribution",
        "contribution",
        "start",
    ]
    assert data["dice"]["key"] == fair["key"] and data["fair"]["rule"] == 3
    assert verify(data, commitment=seen, seed="bob-9f3e").fair
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert main(["verify", str(path), "--commitment", seen, "--seed", "ann-dice-7"]) == 0
    assert main(["verify", str(path), "--seed", "eve"]) == 1  # not a seed of this game
    assert "your seed is not among" in capsys.readouterr().out


def test_a_rematch_has_a_new_commitment_and_new_seeds(client: TestClient) -> None:
    t = Table.create(client, "human", "greedy")
    join(t, 0, "Ann", "first-game")
    upcoming = t.game["fair"]["next_commitment"]
    r = give(t, 0, 2, "second-game")  # during game 1, for game 2, after its commitment
    assert r.status_code == 200, r.text
    assert r.json()["game"]["fair"]["next_contributions"][0]["seed"] == "second-game"
    assert give(t, 0, 2, "again").json()["code"] == "illegal"  # once per seat and game
    assert give(t, 0, 3, "far-ahead").json()["code"] == "stale_version"
    t.play_to_end()
    r = t.post("rematch", {"type": "rematch", "seat": 0, "token": t.tokens[0], "game": 1})
    game = r.json()["game"]
    assert game["number"] == 2 and game["commitment"] == upcoming
    assert [c["seed"] for c in game["fair"]["contributions"]] == ["second-game"]
    assert game["fair"]["key"] == dice_key(upcoming, game["fair"]["contributions"])
    assert game["fair"]["next_commitment"] not in (None, upcoming)


def rigged(seed: str, commitment: str, seeds: list[str], rule: int = 3) -> dict[str, Any]:
    """A finished game file whose dice come from ``seed``, claiming ``commitment``."""
    contributions = [
        {"seat": i, "seed": s, "at": "2026-12-01T10:00:01+00:00"} for i, s in enumerate(seeds)
    ]
    key = dice_key(commitment, contributions, rule)
    g = Game(["Ann"], dice=PlacedDice(seed, key) if rule == 3 else FairDice(seed, key))
    for category in CATEGORIES:
        g.apply("roll")
        g.apply(f"score {category.value}")
    return g.to_json() | {
        "fair": {"rule": rule, "commitment": commitment, "contributions": contributions, "key": key}
    }


def test_a_server_seed_chosen_after_the_seeds_is_caught() -> None:
    honest = "11" * 32
    seen = FairDice(honest).commitment  # published before Ann gave her seed
    # The server, knowing Ann's seed, tries seeds until the dice suit it:
    chosen = next(
        s
        for s in (hashlib.sha256(f"try {i}".encode()).hexdigest() for i in range(1000))
        if rigged(s, FairDice(s).commitment, ["ann"])["totals"][0] < 150
    )
    # 1. it keeps the published commitment: the revealed seed does not match it
    kept = rigged(chosen, seen, ["ann"])
    verdict = verify(kept)
    problem = str(verdict.problems[0])
    assert not verdict.fair and "does not match the published commitment" in problem
    # 2. it rewrites the commitment in the file: consistent alone, caught by what Ann saw
    rewritten = rigged(chosen, FairDice(chosen).commitment, ["ann"])
    assert verify(rewritten).fair
    caught = verify(rewritten, commitment=seen, seed="ann")
    assert not caught.fair and "not the one you saw" in str(caught.problems[0])
    # 3. it drops Ann's seed from the key: caught by her seed
    dropped = rigged(honest, seen, [])
    assert not verify(dropped, commitment=seen, seed="ann").fair
    # 4. honest: passes every check
    assert verify(rigged(honest, seen, ["ann"]), commitment=seen, seed="ann").fair


def test_a_key_that_does_not_follow_from_the_seeds_is_caught() -> None:
    data = rigged("22" * 32, FairDice("22" * 32).commitment, ["ann", "bob"])
    data["fair"]["contributions"][1]["seed"] = "someone else"
    assert "dice key is not the one" in str(verify(data).problems[0])


def test_old_games_keep_verifying_by_their_rule(client: TestClient) -> None:
    g = Game(["Ann"], dice=FairDice("33" * 32, "agreed"))
    for category in CATEGORIES:
        g.apply("roll")
        g.apply(f"score {category.value}")
    data = g.to_json() | {"fair": {"rule": 1, "commitment": FairDice("33" * 32).commitment}}
    verdict = verify(data)  # every die re-derives, but the server drew its seed after the key
    assert verdict.rule == 1 and verdict.alone and not verdict.fair and not verdict.problems
    assert verify(data, seed="mine").problems  # rule 1 took no player's seed
    old = rigged("33" * 32, FairDice("33" * 32).commitment, ["ann"], rule=2)
    verdict = verify(old, seed="ann")
    assert verdict.fair and verdict.rule == 2 and verdict.seeds == 1


def test_a_forged_file_without_its_rule_is_not_fair() -> None:
    """The forgery: after seeing Ann's seed the server draws a new seed whose dice suit it,
    re-chooses the key, rewrites the commitment, and drops ``fair.rule`` so that no check
    recomputes the key from the seeds. Read without a rule, the file used to pass as rule 1."""
    seen = PlacedDice("66" * 32).commitment
    honest = rigged("66" * 32, seen, ["ann"])
    chosen = "77" * 32
    forged = copy.deepcopy(honest)
    g = Game(["Ann"], dice=FairDice(chosen, "any key it likes"))
    for category in CATEGORIES:
        g.apply("roll")
        g.apply(f"score {category.value}")
    forged |= g.to_json()
    forged["fair"] = {
        "commitment": PlacedDice(chosen).commitment,
        "contributions": honest["fair"]["contributions"],
    }
    verdict = verify(forged)
    assert not verdict.fair and not verdict.alone
    assert str(verdict.problems[0]).startswith("the file names no fair dice rule")
    forged["fair"]["rule"] = "1"  # a rule this check does not know is no better
    assert "unknown fair dice rule" in str(verify(forged).problems[0])
    forged["fair"]["rule"] = 3  # and under its true rule the re-chosen key is caught
    assert "dice" in str(verify(forged).problems[0])

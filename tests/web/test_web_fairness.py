"""Provably fair dice: ``yacht verify`` passes a finished game and fails a tampered one.

Exit status: 0 fair, 1 not fair, 2 the file cannot be checked.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from yacht.cli import main
from yacht.dice import PlacedDice

from .helpers import Table


def finished_game(
    client: TestClient, *seats: str, seeds: bool = True, **options: Any
) -> dict[str, Any]:
    """A game played to its end; every person who sits gives a seed (as the page does) unless
    ``seeds`` is false."""
    t = Table.create(client, *seats, **options)
    for seat, kind in enumerate(seats):
        if kind == "human":
            body: dict[str, Any] = {"seat": seat, "name": f"P{seat + 1}"}
            if seeds:
                body["seed"] = f"seed-of-seat-{seat}"
            r = client.post(f"/api/tables/{t.code}/join", json=body)
            assert r.status_code == 200, r.text
            t.tokens[seat] = r.json()["token"]
    final = t.play_to_end()
    data: dict[str, Any] = client.get(f"/api/games/{final['id']}").json()
    return data


def verify(tmp_path: Path, data: Any, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    status = main(["verify", str(path)])
    out = capsys.readouterr()
    return status, out.out + out.err


def test_a_finished_game_is_fair(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = finished_game(client, "human", client_seed="we agreed")
    assert data["fair"]["commitment"] == PlacedDice(data["dice"]["server_seed"]).commitment
    assert data["fair"]["rule"] == 3  # each die by its place, the key of the players' seeds
    assert data["dice"]["kind"] == "placed"
    assert data["dice"]["key"] == data["fair"]["key"] != "we agreed"
    status, out = verify(tmp_path, data, capsys)
    rolls = sum(e["action"] == "roll" for e in data["events"])
    assert status == 0 and out.startswith("fair by rule 3:"), out
    assert "its key of 1 player seed," in out and f"all {rolls} rolls" in out


def test_start_roll_offs_are_checked_too(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = finished_game(client, "human", "greedy", "greedy", start="roll-off")
    assert data["start"]["rolls"] and data["dice"]["rolloffs"]
    assert verify(tmp_path, data, capsys)[0] == 0
    tampered = copy.deepcopy(data)
    tampered["start"]["rolls"][0][0] = tampered["start"]["rolls"][0][0] % 6 + 1
    status, out = verify(tmp_path, tampered, capsys)
    assert status == 1 and "start" in out


@pytest.mark.parametrize(
    ("seats", "seeds"),
    [(("greedy", "greedy"), True), (("human", "greedy"), False), (("human", "human"), False)],
)
def test_a_key_without_a_players_seed_is_dealt_by_the_server_alone(
    client: TestClient,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    seats: tuple[str, ...],
    seeds: bool,
) -> None:
    """A table of bots, or people who gave no seed: every die re-derives, yet nobody but the
    server had a say in them, so the check never says fair."""
    data = finished_game(client, *seats, seeds=seeds)
    assert data["fair"]["contributions"] == []
    status, out = verify(tmp_path, data, capsys)
    assert status == 1 and out.startswith("dealt by the server alone (rule 3):"), out
    assert "fair:" not in out and "NOT fair" not in out
    assert main(["verify", str(tmp_path / "game.json"), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["verdict"] == "server alone" and verdict["fair"] is False


def _tamper_die(data: dict[str, Any]) -> None:
    event = next(e for e in data["events"] if e["action"] == "roll")
    event["dice"][0] = event["dice"][0] % 6 + 1


def _tamper_points(data: dict[str, Any]) -> None:
    event = next(e for e in data["events"] if e["action"].startswith("score"))
    event["points"] += 1


def _tamper_seed(data: dict[str, Any]) -> None:
    data["dice"]["server_seed"] = "0" * 64


def _tamper_commitment(data: dict[str, Any]) -> None:
    data["fair"]["commitment"] = "f" * 64


def _tamper_key(data: dict[str, Any]) -> None:
    data["dice"]["key"] = "something else"


def _tamper_player_seed(data: dict[str, Any]) -> None:
    data["fair"]["contributions"][0]["seed"] = "not what I gave"


def _drop_rule(data: dict[str, Any]) -> None:
    del data["fair"]["rule"]


def _unknown_rule(data: dict[str, Any]) -> None:
    data["fair"]["rule"] = 4


def _rule_2_read_of_rule_3_dice(data: dict[str, Any]) -> None:
    data["fair"]["rule"] = 2


def _tamper_totals(data: dict[str, Any]) -> None:
    data["totals"][0] += 50


def _drop_last_event(data: dict[str, Any]) -> None:
    data["events"].pop()


@pytest.mark.parametrize(
    "tamper",
    [
        _tamper_die,
        _tamper_points,
        _tamper_seed,
        _tamper_commitment,
        _tamper_key,
        _tamper_player_seed,
        _drop_rule,
        _unknown_rule,
        _rule_2_read_of_rule_3_dice,
        _tamper_totals,
        _drop_last_event,
    ],
)
def test_a_tampered_game_is_not_fair(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str], tamper: Any
) -> None:
    data = finished_game(client, "human")
    tamper(data)
    status, out = verify(tmp_path, data, capsys)
    assert status == 1 and out.startswith("NOT fair:"), out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not JSON"),
        ('{"format": "chess"}', "not a yacht game"),
        ('{"format": "yacht-game", "version": 1}', "no revealed dice seed"),
    ],
)
def test_unreadable_files_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    status, out = verify(tmp_path, content, capsys)
    assert status == 2 and message in out


def test_an_unfinished_game_has_no_seed_to_check(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = Table.create(client, "human")
    t.join(0, "Ann")
    t.ok(0, {"kind": "roll"})
    data = client.get(f"/api/tables/{t.code}/game.json").json()
    status, out = verify(tmp_path, data, capsys)
    assert status == 2 and "revealed" in out
    assert main(["verify", str(tmp_path / "missing.json")]) == 2


def test_verify_from_the_command_line(client: TestClient, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_game(client, "human")))
    run = subprocess.run(
        [sys.executable, "-m", "yacht", "verify", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    verdict = json.loads(run.stdout)
    assert verdict["fair"] is True and verdict["problems"] == [] and verdict["rolls"] == 12

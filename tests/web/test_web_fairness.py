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
from yacht.dice import FairDice

from .helpers import Table


def finished_game(client: TestClient, *seats: str, **options: Any) -> dict[str, Any]:
    t = Table.create(client, *seats, **options)
    for seat, kind in enumerate(seats):
        if kind == "human":
            t.join(seat, f"P{seat + 1}")
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
    assert data["fair"]["commitment"] == FairDice(data["dice"]["server_seed"]).commitment
    assert data["fair"]["rule"] == 2  # the dice key is made of the players' seeds
    assert data["dice"]["client_seed"] == data["fair"]["key"] != "we agreed"
    status, out = verify(tmp_path, data, capsys)
    rolls = sum(e["action"] == "roll" for e in data["events"])
    assert status == 0 and out.startswith("fair:") and f"all {rolls} rolls" in out


def test_start_roll_offs_are_checked_too(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = finished_game(client, "greedy", "greedy", "greedy", start="roll-off")
    assert data["start"]["rolls"]
    assert verify(tmp_path, data, capsys)[0] == 0
    tampered = copy.deepcopy(data)
    tampered["start"]["rolls"][0][0] = tampered["start"]["rolls"][0][0] % 6 + 1
    status, out = verify(tmp_path, tampered, capsys)
    assert status == 1 and "start" in out


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


def _tamper_client_seed(data: dict[str, Any]) -> None:
    data["dice"]["client_seed"] = "something else"


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
        _tamper_client_seed,
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

"""The command line on hostile input: numbers out of range, files that are not files or are
huge, names that would steer the terminal, a damaged record book. Each is one line and exit
status 2 (or the command's own answer), never a traceback, a hang or raw control characters."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from yacht.cli import main
from yacht.cli.files import MAX_FILE
from yacht.dice import RandomDice
from yacht.game import Game
from yacht.rules import CATEGORIES

ESC_NAME = "Eve\x1b]0;owned\x07\x1b[2J\x9b31m\u202eevil\u2066"
"""ESC, an OSC title, a screen clear, a C1 CSI and two bidi controls."""


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("YACHT_LANG", "en")
    monkeypatch.setenv("YACHT_DATA_DIR", str(tmp_path / "data"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as e:  # argparse's refusals
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def one_line(status: int, err: str) -> None:
    assert "Traceback" not in err and "internal error" not in err, err
    assert status == 2, (status, err)
    assert err.count("\n") == 1 and err.startswith("yacht: error: "), err


def safe(text: str) -> None:
    """Nothing a terminal would obey: no C0 but newline, no DEL or C1, no bidi control."""
    bad = [c for c in text if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) <= 0x9F]
    bad += [c for c in text if c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"]
    assert not bad, bad


@pytest.mark.parametrize(
    "argv",
    [
        "replay 9223372036854775808 --plain",
        "replay -1 --plain",
        "history --limit 9223372036854775808",
        "history --limit 0",
        "simulate --bot target:99999999999999999999 --games 1",
        "simulate --games 99999999999999999999",
        "simulate --seed -1 --games 1",
        "match --games 99999999999999999999",
        "match --depth 99999999999999999999",
        "match --seed 1e9",
        "endgame --depth 13",
        "duel solve --jobs 99999999999999999999",
        "duel solve --depth 0",
        "duel match --games 0",
        "duel match --bots target:99999999999999999999,optimal",
        "hint --dice 1 2 3 4 5 --rolls-left 1 --target 99999999999999999999",
        "hint --dice 1 2 3 4 5 --rolls-left 1 --banked -1",
        "hint --dice 1 2 3 4 5 --rolls-left 1 --upper 99999999999999999999 --rules clubhouse",
        "solve --target 1" + "0" * 5000,
        "play --plain --seed 99999999999999999999999",
        "play --plain --bot-delay nan",
        "play --plain --bot-delay inf",
        "play --plain --bot-delay -1",
        "admin tables list --limit 9223372036854775808",
    ],
)
def test_a_number_out_of_range_is_one_line_and_status_2(
    argv: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, *argv.split())
    one_line(status, err)
    assert out == "" and len(err) < 300
    assert "must be from" in err or "is not a whole number" in err or "is not a number" in err


def test_the_range_is_said_in_the_users_language(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "history", "--limit", "0", "--lang", "fi")
    assert status == 2
    assert err == "yacht: virhe: argumentti --limit: on oltava 1\u2013100000, annettiin 0\n"


def test_a_number_in_range_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "simulate", "--bot", "target:150", "--games", "2", "--seed", "3")
    assert status == 0 and "target 150" in out


def not_files(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    return {"/dev/zero": "/dev/zero", "fifo": str(fifo), "folder": str(tmp_path)}


@pytest.mark.parametrize("command", ["verify", "review"])
@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "folder"])
def test_a_fifo_or_device_is_refused_before_it_is_read(
    command: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Opening a FIFO with no writer would wait forever, /dev/zero would be read until
    memory ran out: neither is opened for reading as a file."""
    path = not_files(tmp_path)[kind]
    status, _, err = run(capsys, command, path)
    one_line(status, err)
    assert f"{path} is not a regular file" in err


@pytest.mark.parametrize("command", ["verify", "review"])
def test_a_file_over_the_cap_is_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.json"
    path.write_text('{"players": ["' + "A" * MAX_FILE + '"]}')
    status, _, err = run(capsys, command, str(path))
    one_line(status, err)
    assert "is larger than 4 MiB" in err


def finished(names: list[str]) -> Game:
    game = Game(names, dice=RandomDice(5))
    for category in CATEGORIES:
        for _name in names:
            game.apply("roll")
            game.apply(f"score {category.value}")
    return game


def test_review_prints_names_escaped_and_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = "L" * 1_000_000
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished([ESC_NAME, long]).to_json()))
    status, out, err = run(capsys, "review", str(path), "--all")
    assert status == 0, err
    safe(out)
    assert "Eve\\x1b]0;owned\\x07\\x1b[2J\\x9b31m" in out
    assert "L" * 39 + "…" in out and "L" * 41 not in out
    assert len(out) < 20_000


def records_with(names: list[str]) -> Any:
    from yacht.tui.records import Records
    from yacht.tui.seats import Seat

    records = Records.open_default()
    for name in names:
        records.add(finished([name]), [Seat(name)])
    return records


def test_history_and_replay_print_names_escaped_and_cut(
    capsys: pytest.CaptureFixture[str],
) -> None:
    records_with([ESC_NAME, "N" * 100_000])
    status, out, err = run(capsys, "history")
    assert status == 0 and err == ""
    safe(out)
    assert "Eve\\x1b]0;owned" in out and "N" * 39 + "…" in out and "N" * 41 not in out
    for game_id in ("1", "2"):
        status, out, err = run(capsys, "replay", game_id, "--plain", "--no-review")
        assert status == 0 and err == ""
        safe(out)
        assert "N" * 41 not in out


def test_history_leaves_out_unreadable_rows_with_one_line_each(
    capsys: pytest.CaptureFixture[str],
) -> None:
    records = records_with(["Ann", "Bob", "Cat", "Dan"])
    with sqlite3.connect(records.path) as db:
        db.execute("UPDATE games SET game = '{broken' WHERE id = 2")
        db.execute("UPDATE games SET game = '[1, 2]' WHERE id = 3")
        db.execute("UPDATE scores SET total = 'many' WHERE game_id = 4")
    status, out, err = run(capsys, "history")
    assert status == 0
    assert err.splitlines() == [
        f"yacht: stored game {n} is not a readable game; left out" for n in (4, 3, 2)
    ]
    assert "#1 " in out and "Ann" in out
    for n in (2, 3, 4):
        assert f"#{n} " not in out
    status, _, err = run(capsys, "replay", "2", "--plain")
    one_line(status, err)
    assert "stored game 2 is not a readable game: its game is not JSON" in err
    status, out, _ = run(capsys, "replay", "1", "--plain", "--no-review")
    assert status == 0 and "Ann" in out


def test_a_damaged_record_book_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = records_with(["Ann"])
    records.path.write_bytes(os.urandom(8192))
    for argv in (["history"], ["replay", "1", "--plain"]):
        status, _, err = run(capsys, *argv)
        one_line(status, err)
        assert f"the record book {records.path} cannot be read" in err


def test_verify_quotes_a_hostile_file_escaped_and_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from .test_files import fair_game

    data = fair_game()
    data["fair"]["rule"] = ESC_NAME + "R" * 100_000
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "verify", str(path))
    assert status == 1 and err == ""
    safe(out)
    assert out.startswith("NOT fair: ") and out.endswith("…\n") and len(out) <= 2001


def test_admin_lists_a_stored_name_escaped_and_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Names are checked before they are stored; one written into the database by other
    means is still printed safely."""
    from sqlalchemy import create_engine, text
    from starlette.testclient import TestClient

    from ..helpers import Table, make_app

    db = tmp_path / "yacht.sqlite3"
    with TestClient(make_app(db)) as client:
        code = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 2}).json()["code"]
        Table(client, code).join(0, "Ann")
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as c:
        c.execute(text("UPDATE seats SET name = :name WHERE name = 'Ann'"), {"name": ESC_NAME * 9})
    engine.dispose()
    status, out, err = run(capsys, "admin", "tables", "list", "--database", f"sqlite:///{db}")
    assert status == 0, err
    safe(out)
    assert "Eve\\x1b]0;owned" in out and "…" in out and len(out.splitlines()[-1]) < 200

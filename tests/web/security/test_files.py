"""``yacht verify``, ``yacht review`` and ``yacht replay`` answer any file that
is not a readable game with exit status 2 and one line, never a traceback (exit 1 of
``verify`` means "not fair", so a broken file must not look like that)."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yacht.cli import main
from yacht.dice import FairDice
from yacht.game import Game
from yacht.rules import CATEGORIES

SEED = "ab" * 32
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def fair_game() -> dict[str, Any]:
    g = Game(["Ann"], dice=FairDice(SEED, "agreed"))
    for category in CATEGORIES:
        g.apply("roll")
        g.apply(f"score {category.value}")
    return g.to_json() | {"fair": {"rule": 1, "commitment": FairDice(SEED).commitment}}


GAME = fair_game()


def paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            out += paths(v, (*here, i))
    return out


PATHS = paths(GAME)[1:]


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.err


def check(status: int, err: str, allowed: tuple[int, ...] = (2,)) -> None:
    assert "Traceback" not in err and "internal error" not in err, err
    assert status in allowed, (status, err)
    if status == 2:
        assert err.count("\n") == 1 and err.startswith("yacht: error:"), err


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


SAME = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SAME
@given(JSON)
def test_arbitrary_json_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: Any
) -> None:
    path = write(tmp_path, json.dumps(value))
    for command in ("verify", "review"):
        check(*run(tmp_path, capsys, command, path))


@SAME
@given(st.sampled_from(PATHS), JSON)
def test_a_game_with_any_field_replaced_is_checked_or_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: tuple[Any, ...], value: Any
) -> None:
    data = copy.deepcopy(GAME)
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    path = write(tmp_path, json.dumps(data))
    check(*run(tmp_path, capsys, "verify", path), allowed=(0, 1, 2))


CASES = {
    "player Infinity": lambda d: d["events"][0].update(player=float("inf")),
    "start.rolls 5": lambda d: d.setdefault("start", {}).update(rolls=5),
    "roll dice 5": lambda d: d["events"][0].update(dice=5),
    "totals 5": lambda d: d.update(totals=5),
    "winners null": lambda d: d.update(winners=None),
    "players NaN": lambda d: d.update(players=[float("nan")]),
}


@pytest.mark.parametrize("spoil", CASES.values(), ids=CASES.keys())
def test_the_files_of_the_issue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spoil: Any
) -> None:
    data = copy.deepcopy(GAME)
    spoil(data)
    path = write(tmp_path, json.dumps(data))
    for command in ("verify", "review"):
        check(*run(tmp_path, capsys, command, path))


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"format": ' + "9" * 5000 + "}", "Infinity", "\xff"],
    ids=["deep", "5000 digits", "Infinity", "not UTF-8"],
)
def test_unreadable_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(text.encode("latin-1"))
    for command in ("verify", "review"):
        check(*run(tmp_path, capsys, command, str(path)))


def test_replay_of_a_damaged_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from yacht.tui.records import Records
    from yacht.tui.seats import Seat

    monkeypatch.setenv("YACHT_DATA_DIR", str(tmp_path))
    records = Records.open_default()
    game = Game(["Ann"], dice=FairDice(SEED))
    for category in CATEGORIES:
        game.apply("roll")
        game.apply(f"score {category.value}")
    records.add(game, [Seat("Ann", "human")])
    db = records.path
    damaged = copy.deepcopy(game.to_json())
    damaged["events"][0]["dice"] = 5
    with sqlite3.connect(db) as c:
        c.execute("UPDATE games SET game = ?", (json.dumps(damaged),))
    check(*run(tmp_path, capsys, "replay", "1", "--plain", "--no-review"))

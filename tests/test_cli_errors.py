"""The ``yacht`` command's two kinds of failure: a user's mistake is one line and exit 2; a
bug in yacht shows its traceback, says it is a bug and where to report it, and exits 70."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import yacht.cli.core
from yacht.cli import BUG_STATUS, main


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YACHT_LANG", "en")


def run(command: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(command.split())
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("score 1 2 3 4 -c ones", "five dice"),
        ("score 1 2 3 4 5 -c sevens", "sevens"),
        (
            "hint --dice 1 2 3 4 5 --rolls-left 1 --upper 7 --used ones --rules clubhouse",
            "upper subtotal 7 is impossible",
        ),
        ("simulate --bot grandmaster --games 1", "unknown bot"),
        ("review /nonexistent/game.json", "cannot read"),
    ],
)
def test_a_users_mistake_is_one_line_and_exit_2(
    command: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(command, capsys)
    assert status == 2 and out == ""
    assert err.startswith("yacht: error: ") and err.count("\n") == 1 and why in err


def test_a_game_file_that_is_not_a_game_is_the_users_mistake(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"format": "yacht-game", "version": 1, "players": "Ann"}')
    status, _, err = run(f"review {path}", capsys)
    assert status == 2 and err.count("\n") == 1
    assert f"{path}: bad game JSON" in err


@pytest.mark.parametrize("bug", [ValueError, RuntimeError, KeyError, TypeError])
def test_an_internal_bug_shows_its_traceback_and_says_it_is_a_bug(
    bug: type[Exception], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object) -> int:
        raise bug("the scorer table is inside out")

    monkeypatch.setattr(yacht.cli.core, "cmd_score", broken)
    status, out, err = run("score 1 2 3 4 5 -c ones", capsys)
    assert status == BUG_STATUS != 2 and out == ""
    assert "Traceback (most recent call last):" in err
    assert "the scorer table is inside out" in err and "in broken\n" in err
    last = err.rstrip().splitlines()[-1]
    assert last.startswith("yacht: internal error: this is a bug in yacht ")
    assert "report it on the yacht issue tracker" in last and "the command you ran" in last


def test_the_real_command_reports_a_bug_the_same_way(tmp_path: Path) -> None:
    """A plain ValueError from deep in a command (here the rules table, patched to raise
    through a site hook) is no longer passed off as the user's mistake."""
    (tmp_path / "sitecustomize.py").write_text(
        textwrap.dedent(
            """
            import yacht.cli.core

            def broken(args):
                raise ValueError("invalid literal in the rules table")

            yacht.cli.core.cmd_rules = broken
            """
        )
    )
    env = {**os.environ, "YACHT_LANG": "en", "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "yacht", "rules"], capture_output=True, text=True, env=env
    )
    assert done.returncode == BUG_STATUS
    assert "Traceback" in done.stderr and "invalid literal in the rules table" in done.stderr
    assert "yacht: internal error" in done.stderr

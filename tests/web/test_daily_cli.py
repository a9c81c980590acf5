"""``yacht daily --server URL``: the line mode plays a server's daily game as a guest whose
token is kept in the data directory; quitting and running it again resumes the same game; a
refused line says why and changes nothing; the end shows the total, the points lost per
decision, the optimal player's total and the share text, which has no dice in it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.rules import CATEGORIES
from yacht.web.api.routes.daily import daily_service

from .daily_helpers import in_thread
from .live import LiveServer

DAY = datetime(2026, 12, 2, 9, 30, tzinfo=UTC).timestamp()


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setenv("YACHT_DATA_DIR", str(tmp_path / "data"))
    server = LiveServer(tmp_path / "yacht.sqlite3")
    server.start()
    assert server._server is not None
    daily = daily_service(server._server.config.app)
    daily.clock, daily.work = (lambda: DAY), in_thread
    yield server
    server.stop()


def run(
    server: LiveServer,
    lines: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    status = main(["daily", "--server", server.url, "--lang", "en"])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_line_mode_plays_resumes_and_shares(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(live, "roll\nquit\n", monkeypatch, capsys)
    assert status == 0 and "The daily game of 2026-12-02" in out and "run yacht daily again" in out
    dice = [line for line in out.splitlines() if line.startswith("Dice:")]
    assert len(dice) == 1
    turns = "".join(f"score {c.value}\nroll\n" for c in CATEGORIES)
    status, out, err = run(live, "dance\n" + turns, monkeypatch, capsys)
    assert status == 0
    assert dice[0] in out  # the same game, resumed where it was
    assert "dance" in err  # refused, said why
    assert "Total:" in out and "Points lost per decision:" in out
    assert "The optimal player scored" in out
    share = out.split("Yacht daily 2026-12-02 (Traditional)")[1].strip().splitlines()
    assert len(share) == 1 + len(CATEGORIES)
    assert all(set(line.split()[0]) <= set("■□") for line in share[1:])
    status, out, _ = run(live, "", monkeypatch, capsys)  # one attempt a day: the result again
    assert status == 0 and "Total:" in out
    assert main(["daily", "--server", "file:///etc/passwd"]) == 2

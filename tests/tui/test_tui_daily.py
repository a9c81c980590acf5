"""The daily game in the terminal game, against a real server (``yacht serve`` in a thread, its
clock on a fixed day): from the setup screen, roll and hold by keys and clicks; the line mode
(``yacht daily --plain``) resumes the same attempt with the same guest token; the rest is played
by letters (a zero asks first); the end shows the total, the points lost per decision, the
optimal player's total, the share text and the day's ranking, and a second visit shows the
result again. No server: one message in the player's language, and Esc leaves."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from web.daily_helpers import in_thread
from web.live import LiveServer, free_port
from web.test_daily_cli import DAY
from yacht.cli import main
from yacht.rules import CATEGORIES
from yacht.tui.app import YachtApp
from yacht.tui.keys import CATEGORY_KEYS
from yacht.tui.screens.daily import DailyScreen
from yacht.tui.screens.dialogs import ConfirmScreen
from yacht.tui.screens.setup import SetupScreen
from yacht.web.api.routes.daily import daily_service

from .helpers import settle, text_of


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "yacht.sqlite3")
    server.start()
    assert server._server is not None
    daily = daily_service(server._server.config.app)
    daily.clock, daily.work = (lambda: DAY), in_thread
    yield server
    server.stop()


def dice_of(app: YachtApp) -> list[int | None]:
    screen = app.screen
    assert isinstance(screen, DailyScreen) and screen.view is not None
    return list(screen.view["dice"] or [None] * 5)


async def test_play_resume_in_the_line_mode_and_the_result(
    live: LiveServer,
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    app = YachtApp(data_dir=data_dir, bot_delay=0, lang="en", daily_server=live.url)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click("#daily")
        await settle(pilot)
        assert isinstance(app.screen, DailyScreen)
        assert "Daily game of 2026-12-02" in text_of(app, "#topbar")
        assert "Round 1 of 12" in text_of(app, "#turn-info")
        await pilot.press("r")
        await settle(pilot)
        first = dice_of(app)
        assert None not in first and "2 rolls left" in text_of(app, "#turn-info")
        await pilot.press("1")
        await pilot.click("#die-3")
        await pilot.press("space")  # the holds go with the roll
        await settle(pilot)
        second = dice_of(app)
        assert (second[0], second[2]) == (first[0], first[2])
        assert app.screen.view is not None and app.screen.view["held"] == [1, 3]
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen)

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["daily", "--plain", "--server", live.url, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    shown = " ".join(f"[{d}]" if i in (0, 2) else str(d) for i, d in enumerate(second))
    assert f"Dice: {shown}" in out  # the same attempt, where the terminal game left it

    app = YachtApp(data_dir=data_dir, lang="en", daily_server=live.url, daily="traditional")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert dice_of(app) == second and "1 roll left" in text_of(app, "#turn-info")
        for category in CATEGORIES:
            screen = app.screen
            assert isinstance(screen, DailyScreen) and screen.view is not None
            if screen.view["dice"] is None:
                await pilot.press("r")
                await settle(pilot)
            zero = screen.view["potentials"][category.value] == 0
            await pilot.press(CATEGORY_KEYS[category])
            if zero:
                assert isinstance(app.screen, ConfirmScreen)
                await pilot.press("enter")
            await settle(pilot)
        result = text_of(app, "#daily-result")
        assert result.startswith("Total: ") and "Points lost per decision: " in result
        assert "The optimal player scored" in result
        share = result.split("Yacht daily 2026-12-02 (Traditional)\n")[1].splitlines()
        assert all(set(line.split()[0]) <= set("■□") for line in share[1:13])
        assert "Nobody signed in has finished today's game yet." in result
        await pilot.press("r")  # over: nothing more to play
        assert "come back tomorrow" in text_of(app, "#message")

    again = YachtApp(data_dir=data_dir, lang="en", daily_server=live.url, daily="traditional")
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert text_of(again, "#daily-result") == result  # a second visit: the result


async def test_no_server_says_so_in_the_players_language(data_dir: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    app = YachtApp(data_dir=data_dir, lang="fi", daily_server=url, daily="traditional")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        message = text_of(app, "#message")
        assert message.startswith(f"Palvelinta {url} ei tavoiteta") and "yacht serve" in message
        await pilot.press("r", "1", "a")  # nothing to play: nothing happens, nothing breaks
        await pilot.press("escape")
    assert app.return_code == 0 and not app.is_running

"""Terminal sizes: below the minimum the game says how big the terminal must be and takes
no game keys; at the minimum and above every row of the sheet is on screen."""

from __future__ import annotations

from pathlib import Path

from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.rules import Category
from yacht.tui.app import YachtApp
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.screens.table import TableScreen
from yacht.tui.seats import TableConfig

from .conftest import faces
from .helpers import game_of, saved_app, text_of


async def test_a_small_terminal_says_how_big_it_must_be_and_takes_no_game_keys(
    tmp_path: Path,
) -> None:
    config = TableConfig.default("en")
    game = Game(config.names, dice=ScriptedDice(faces()))
    game.apply("roll")
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(60, 20)) as pilot:
        assert isinstance(app.screen, TableScreen)
        message = text_of(app, "#too-small")
        assert "60x20" in message and "at least 80x24" in message
        assert not app.screen.query_one("#sheet").display or app.screen.has_class("-too-small")
        before = game_of(app).to_json()
        await pilot.press("m", "enter", "r", "1", "down", "enter")  # nothing happens
        assert game_of(app).to_json() == before
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.screen.has_class("-too-small")
        row = app.screen.query_one(f"#row-{Category.YACHT.value}")
        assert row.region.bottom <= 24 and row.region.height == 1  # on screen
        await pilot.press("r")
        assert game_of(app).rolls_used == 2
        await pilot.resize_terminal(79, 30)
        await pilot.pause()
        await pilot.press("r")
        assert game_of(app).rolls_used == 2
        await pilot.press("q")  # quitting still works
    assert not app.is_running


async def test_the_setup_screen_waits_for_a_big_enough_terminal(tmp_path: Path) -> None:
    app = YachtApp(data_dir=tmp_path, lang="fi")
    async with app.run_test(size=(70, 24)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        assert "vähintään 80x24" in text_of(app, "#too-small")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SetupScreen)

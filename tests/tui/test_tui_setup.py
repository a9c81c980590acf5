"""The setup screen: players, kinds, options, language, and clear refusals of bad forms."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Checkbox, Input, Select

from yacht.tui.app import YachtApp
from yacht.tui.screens.setup import PlayerRow, SetupScreen
from yacht.tui.screens.table import TableScreen

from .helpers import text_of


async def test_add_and_remove_players_up_to_six(tmp_path: Path) -> None:
    app = YachtApp(data_dir=tmp_path, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        for _ in range(4):
            await pilot.click("#add")
            await pilot.pause(0.25)  # a button ignores clicks during its 0.2 s press effect
        assert [s.name for s in screen.seats()] == [
            "You",
            "Medium bot",
            "Player 2",
            "Player 3",
            "Player 4",
            "Player 5",
        ]
        assert screen.query_one("#add").disabled  # six is the most
        await pilot.click("#add")
        assert len(screen.query(PlayerRow)) == 6
        rows = list(screen.query(PlayerRow))
        await pilot.click(rows[1].query_one(".remove"))
        assert [s.name for s in screen.seats()][:2] == ["You", "Player 2"]
        assert not screen.query_one("#add").disabled
        await pilot.click("#start")
        assert isinstance(app.screen, TableScreen)
        assert app.table is not None and len(app.table.game.players) == 5


async def test_choosing_a_bot_level_renames_a_default_seat(tmp_path: Path) -> None:
    app = YachtApp(data_dir=tmp_path, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        second = list(screen.query(PlayerRow))[1]
        second.query_one(".kind", Select).value = "hard"
        await pilot.pause()
        assert second.seat_now.name == "Hard bot" and second.seat_now.kind == "hard"
        name = second.query_one(".name", Input)
        name.value = "Deep Blue"
        second.query_one(".kind", Select).value = "optimal"
        await pilot.pause()
        assert second.seat_now.name == "Deep Blue"  # a name someone typed stays


async def test_bad_forms_are_refused_with_a_message(tmp_path: Path) -> None:
    app = YachtApp(data_dir=tmp_path, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        names = list(screen.query(".name").results(Input))
        names[1].value = "You"
        await pilot.click("#start")
        assert isinstance(app.screen, SetupScreen)
        assert text_of(app, "#setup-error") == "Player names must differ."
        names[1].value = "  "
        await pilot.press("ctrl+s")  # Ctrl+S starts too (a button ignores a quick 2nd click)
        assert text_of(app, "#setup-error") == "Every player needs a name."
        names[1].value = "Bot"
        screen.query_one("#target", Input).value = "401"
        await pilot.press("ctrl+s")
        assert text_of(app, "#setup-error") == (
            "The target score is a whole number from 1 to 400, or empty."
        )
        assert app.table is None  # no game was started


async def test_options_reach_the_table(tmp_path: Path) -> None:
    app = YachtApp(data_dir=tmp_path, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        screen.query_one("#preset", Select).value = "clubhouse"
        screen.query_one("#hints", Checkbox).value = False
        screen.query_one("#undo", Checkbox).value = True
        screen.query_one("#target", Input).value = "200"
        await pilot.pause()  # the preset's description changes, and the layout with it
        await pilot.click("#start")
        await pilot.pause()  # the sheet draws its rows once laid out
        assert isinstance(app.screen, TableScreen) and app.table is not None
        config = app.table.config
        assert (config.preset, config.hints, config.undo, config.target) == (
            "clubhouse",
            False,
            True,
            200,
        )
        game = app.table.game
        assert game.rules.name == "clubhouse" and game.undo_allowed
        assert "Bonus +35" in text_of(app, "#row-bonus")  # the preset's upper bonus row
        assert "0/63" in text_of(app, "#row-bonus")
        assert "Target: 200" in text_of(app, "#topbar")
        await pilot.press("r", "h")
        assert "Hints are off" in text_of(app, "#message")
        assert not app.screen.query_one("#hint-panel").display


async def test_language_switch_redraws_the_setup_in_finnish(tmp_path: Path) -> None:
    app = YachtApp(data_dir=tmp_path, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#target", Input).value = "180"
        app.screen.query_one("#lang", Select).value = "fi"
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen) and screen.lang == "fi"
        assert [s.name for s in screen.seats()] == ["Sinä", "Keskitason botti"]
        assert screen.query_one("#target", Input).value == "180"  # choices are kept
        assert "Uusi peli" in text_of(app, "#setup-title")
        await pilot.press("enter")  # Start has the focus: Enter starts
        assert isinstance(app.screen, TableScreen)
        assert "Kierros 1/12" in text_of(app, "#topbar")
        assert "3 heittoa jäljellä" in text_of(app, "#turn-info")

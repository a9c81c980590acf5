"""Small things a player meets: an added seat made a bot takes the bot's
name, the turn box says a bot waits for R, names are not cut in the sheet's header, Roll
looks off with no rolls left, the review counts rounds as the table does, the setup's high
scores are people's."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Button, Select

from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.review import review
from yacht.tui.app import YachtApp
from yacht.tui.records import Records
from yacht.tui.reviews import decision_line
from yacht.tui.screens.setup import PlayerRow, SetupScreen
from yacht.tui.seats import Seat, TableConfig

from .conftest import faces
from .helpers import bots_game, game_of, saved_app, settle, text_of


async def test_an_added_seat_made_a_bot_takes_the_bots_name(tmp_path: Path) -> None:
    app = YachtApp(data_dir=tmp_path, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        await pilot.click("#add")
        third = list(screen.query(PlayerRow))[2]
        assert third.seat_now.name == "Player 2"
        third.query_one(".kind", Select).value = "winner"
        await pilot.pause()
        assert third.seat_now.name == "Winner bot" and third.seat_now.kind == "winner"


async def test_the_turn_box_says_a_bot_waits_for_r(tmp_path: Path) -> None:
    config = TableConfig(TableConfig.default("en").seats, undo=True, hints=False)
    game = Game(config.names, dice=ScriptedDice(faces()), undo=True)
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "l")
        await settle(pilot)
        assert game_of(app).current == 1 and game_of(app).rolls_used == 0
        info = text_of(app, "#turn-info")
        assert "waits for R" in info and "playing" not in info
        assert not app.screen.query_one("#btn-roll", Button).disabled  # R starts the bot


async def test_names_are_whole_in_the_header_and_roll_is_off_without_rolls(
    tmp_path: Path,
) -> None:
    seats = (Seat("You"), Seat("Winner bot", "easy"), Seat("Medium bot", "medium"))
    config = TableConfig(seats, hints=False)  # no tables to prepare: only names matter here
    game = Game(config.names, dice=ScriptedDice(faces()))
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        header = text_of(app, "#row-header")
        assert "Winner bot" in header and "Medium bot" in header
        roll = app.screen.query_one("#btn-roll", Button)
        assert not roll.disabled
        await pilot.press("r", "r", "r")
        assert game_of(app).rolls_left == 0 and roll.disabled


def test_the_review_counts_rounds_as_the_table_does() -> None:
    config = TableConfig((Seat("Ann"),))
    game = bots_game(config, faces(), scorings=4)
    game.apply("roll")
    game.apply("score yacht")
    decision = review(game).decisions[-1]
    assert decision_line(decision, "en").startswith("Round 5, roll 1: ")


async def test_the_setup_high_scores_are_peoples(tmp_path: Path) -> None:
    config = TableConfig((Seat("Ann"), Seat("Hard bot", "hard")))
    Records.open_default(tmp_path).add(bots_game(config, faces()), config.seats)
    app = YachtApp(data_dir=tmp_path, lang="en")
    async with app.run_test(size=(80, 24)):
        line = text_of(app, "#best-line")
        assert "Ann" in line and "Hard bot" not in line

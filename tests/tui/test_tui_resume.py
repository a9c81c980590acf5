"""Save and resume: the game is saved after every action; closing the app mid-turn and
resuming (``--resume`` or the setup screen's Resume) restores exactly the same game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.rules import Category
from yacht.tui.app import YachtApp
from yacht.tui.saves import read_save, save_path, write_save
from yacht.tui.screens.dialogs import ChoiceScreen, ConfirmScreen
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.screens.table import TableScreen
from yacht.tui.seats import TableConfig
from yacht.tui.widgets.dice import DieSlot
from yacht.tui.widgets.panels import EventLog
from yacht.tui.widgets.sheet import Sheet

from .conftest import faces
from .helpers import game_of, settle, text_of


async def test_closing_mid_turn_and_resuming_restores_the_exact_game(data_dir: Path) -> None:
    app = YachtApp(dice=ScriptedDice(faces()), data_dir=data_dir, bot_delay=0, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "r", "e")  # roll, then score Fives (or confirm a zero)
        if app.screen.__class__.__name__ == "ConfirmScreen":
            await pilot.press("y")
        await settle(pilot)  # the bot's turn
        await pilot.press("r", "1", "3", "r", "4")  # mid-turn: two rolls, dice 1 3 4 held
        game = game_of(app)
        assert game.rolls_used == 2 and game.held == {1, 3, 4}
        saved = game.to_json()
        assert json.loads(save_path(data_dir).read_text())["game"] == saved
        await pilot.press("q")
    assert save_path(data_dir).exists()

    again = YachtApp(data_dir=data_dir, bot_delay=0, resume=True)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, TableScreen)
        game = game_of(again)
        assert game.to_json() == saved
        assert again.config.lang == "en" and again.config.names == ["You", "Medium bot"]
        held = [s.position for s in again.screen.query(DieSlot) if s.has_class("-held")]
        assert held == [1, 3, 4]
        assert "1 roll left" in text_of(again, "#turn-info")
        # The dice go on exactly where they stopped: the same as the saved game's next roll.
        expected = Game.from_json(saved)
        expected.apply("roll")
        await pilot.press("r")
        assert game.dice == expected.dice
        assert game.to_json() == expected.to_json()


async def test_the_setup_screen_offers_the_saved_game(data_dir: Path) -> None:
    config = TableConfig.default("en")
    game = Game(config.names, dice=ScriptedDice(faces()))
    game.apply("roll")
    game.apply("hold 2 5")
    write_save(data_dir, config, game)
    app = YachtApp(data_dir=data_dir, bot_delay=0, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        assert "Saved game: You, Medium bot, round 1." in text_of(app, "#saved-line")
        await pilot.click("#resume")
        assert isinstance(app.screen, TableScreen)
        assert game_of(app).to_json() == game.to_json()


async def test_a_saved_game_with_the_bot_on_turn_goes_on_by_itself(data_dir: Path) -> None:
    config = TableConfig.default("en")
    game = Game(config.names, dice=ScriptedDice(faces()))
    game.apply("roll")
    game.apply("score choice")
    write_save(data_dir, config, game)
    app = YachtApp(data_dir=data_dir, bot_delay=0, resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        resumed = game_of(app)
        assert len(resumed.sheet(1)) == 1 and resumed.current == 0


def test_resume_without_a_saved_game_is_a_one_line_error(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--resume", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "yacht: error: there is no saved game to resume (start one with: yacht play)"
    )


def test_a_damaged_save_is_reported_not_played(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    save_path(data_dir).write_text('{"format": "yacht-tui-save", "version": 1, "game": {}}')
    with pytest.raises(ValueError, match="cannot resume from"):
        read_save(data_dir)
    assert YachtApp(data_dir=data_dir).saved_description("en") is None


@pytest.mark.parametrize(("lang", "new_key"), [("en", "n"), ("fi", "u")])
async def test_starting_over_a_saved_game_asks_first(
    data_dir: Path, lang: str, new_key: str
) -> None:
    """Enter on Start with a game saved asks: Esc goes back with the save intact, Enter
    resumes it, and only the "new game" letter replaces it."""
    config = TableConfig.default(lang)
    game = Game(config.names, dice=ScriptedDice(faces()))
    game.apply("roll")
    game.apply("hold 1 2")
    write_save(data_dir, config, game)
    saved = save_path(data_dir).read_text()
    app = YachtApp(data_dir=data_dir, bot_delay=0, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        assert isinstance(app.screen, ChoiceScreen)
        question = text_of(app, "#question")
        assert "round 1" in question or "kierros 1" in question
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen)
        assert save_path(data_dir).read_text() == saved
        await pilot.pause(0.25)  # a button ignores presses during its 0.2 s press effect
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("enter")  # the first answer: resume
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert game_of(app).to_json() == game.to_json()
    app = YachtApp(data_dir=data_dir, bot_delay=0, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press(new_key)
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert game_of(app).version == 0
        assert not save_path(data_dir).exists()  # deleted; the new one is saved once played


async def test_resuming_shows_the_log_and_keeps_the_cursor(data_dir: Path) -> None:
    app = YachtApp(dice=ScriptedDice(faces()), data_dir=data_dir, bot_delay=0, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "r", "l")  # roll, score Choice
        await settle(pilot)  # the bot's turn
        await pilot.press("r", "down", "down", "down")
        cursor = app.screen.query_one(Sheet).cursor
        log = [line.text for line in app.screen.query_one(EventLog).lines]
        await pilot.press("q")
    assert cursor == 3 and log
    again = YachtApp(data_dir=data_dir, bot_delay=0, resume=True)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.screen.query_one(Sheet).cursor == cursor
        shown = [line.text for line in again.screen.query_one(EventLog).lines]
        assert shown[: len(log)] == log  # every line of before, then the resume line
        assert shown[-1] == f"Game resumed: round {game_of(again).round}."
        await pilot.press("enter")  # Enter scores where the cursor was left
        assert Category.FOURS in game_of(again).sheet(0) or isinstance(again.screen, ConfirmScreen)


async def test_lang_asked_for_wins_over_the_saved_language(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``yacht play --lang nb --resume`` reopens an English save in Norwegian."""
    config = TableConfig.default("en")
    game = Game(config.names, dice=ScriptedDice(faces()))
    game.apply("roll")
    write_save(data_dir, config, game)
    opened: list[YachtApp] = []
    monkeypatch.setattr("yacht.cli.tui._need_terminal", lambda: None)
    monkeypatch.setattr(YachtApp, "run", lambda self: opened.append(self))
    assert main(["play", "--lang", "nb", "--resume"]) == 0
    (app,) = opened
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.config.lang == "nb"
        assert "Runde 1 av 12" in text_of(app, "#topbar")

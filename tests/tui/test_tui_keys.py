"""Keys of the table: the help screen lists every one; undo (house rule); hints with a target;
bad input is refused with a message and changes nothing."""

from __future__ import annotations

from pathlib import Path

from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.rules import Category
from yacht.strategy import hint_for_view
from yacht.strategy.win import win_hint_for_view
from yacht.tui.app import YachtApp
from yacht.tui.keys import LAYOUT_ACTIONS, TABLE_KEYS, with_capitals, with_twins
from yacht.tui.screens.dialogs import ConfirmScreen, HelpScreen, HintScreen, help_text
from yacht.tui.screens.table import TableScreen
from yacht.tui.seats import Seat, TableConfig

from .conftest import faces
from .helpers import game_of, saved_app, settle, text_of


def _table(folder: Path, config: TableConfig) -> YachtApp:
    game = Game(config.names, config.preset, ScriptedDice(faces()), undo=config.undo)
    return saved_app(folder, config, game)


async def test_help_lists_every_key_of_the_table(tmp_path: Path) -> None:
    bound = {b.key for b in TableScreen.BINDINGS if not isinstance(b, tuple)}
    listed = {"escape"} | {
        key
        for item in TABLE_KEYS
        for key in with_capitals(
            with_twins(item.keys) if item.action in LAYOUT_ACTIONS else item.keys
        )
    }
    assert bound == listed
    app = _table(tmp_path, TableConfig.default("en"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = str(app.screen.query_one("#help-keys").render())
        for item in TABLE_KEYS:
            assert item.display in shown and item.description in shown
        assert "Esc" in shown
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
    assert "välilyönti" in help_text("fi") and "Hold or release" not in help_text("nb")


async def test_undo_takes_back_the_last_scoring_until_the_next_roll(tmp_path: Path) -> None:
    config = TableConfig((Seat("Ann"), Seat("Bob")), undo=True)
    app = _table(tmp_path, config)
    async with app.run_test(size=(80, 24)) as pilot:
        game = game_of(app)
        await pilot.press("r", "1", "r")
        dice, held = game.dice, game.held
        await pilot.press("l")  # Choice
        assert Category.CHOICE in game.sheet(0) and game.current == 1
        await pilot.press("u")
        assert game.sheet(0) == {} and game.current == 0
        assert (game.dice, game.held, game.rolls_left) == (dice, held, 1)
        await pilot.click("#row-choice")
        await pilot.press("r")  # Bob rolls: Ann's scoring stands now
        before = game.to_json()
        await pilot.press("u")
        assert game.to_json() == before
        assert "Nothing to take back now" in text_of(app, "#message")


async def test_with_undo_on_the_bot_waits_for_r_after_a_persons_scoring(tmp_path: Path) -> None:
    config = TableConfig.default("en")
    config = TableConfig(config.seats, undo=True)
    app = _table(tmp_path, config)
    async with app.run_test(size=(80, 24)) as pilot:
        game = game_of(app)
        await pilot.press("r", "l")
        await settle(pilot)
        assert game.current == 1 and game.rolls_used == 0  # the bot has not rolled
        assert "Press R to let Medium bot play" in text_of(app, "#message")
        await pilot.press("u")
        assert game.sheet(0) == {}
        await pilot.press("l")
        await pilot.press("r")
        await settle(pilot)
        assert len(game.sheet(1)) == 1 and game.current == 0


async def test_undo_is_refused_when_the_house_rule_is_off(tmp_path: Path) -> None:
    app = _table(tmp_path, TableConfig((Seat("Ann"), Seat("Bob"))))
    async with app.run_test(size=(80, 24)) as pilot:
        game = game_of(app)
        await pilot.press("r", "l")
        before = game.to_json()
        await pilot.press("u")
        assert game.to_json() == before
        assert text_of(app, "#message").startswith("Undo is off")
        assert not app.screen.query_one("#btn-undo").display


async def test_refused_keys_change_nothing(tmp_path: Path) -> None:
    app = _table(tmp_path, TableConfig((Seat("Ann"), Seat("Bob"))))
    async with app.run_test(size=(80, 24)) as pilot:
        game = game_of(app)
        before = game.to_json()
        await pilot.press("1")
        assert text_of(app, "#message") == "Roll the dice first (R or Space)."
        await pilot.press("a", "enter", "u")
        assert game.to_json() == before
        await pilot.press("h")
        assert "Roll first" in text_of(app, "#hint-panel")


async def test_hint_with_a_target_shows_the_chance_to_reach_it(tmp_path: Path) -> None:
    config = TableConfig((Seat("Ann"), Seat("Bob")), target=180)
    app = _table(tmp_path, config)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "h")
        await settle(pilot)
        panel = text_of(app, "#hint-panel").splitlines()
        best = hint_for_view(game_of(app).view(), target=180).best
        assert "P(≥180)" in panel[0]
        assert panel[1].split()[-1] == f"{best.probability:.1%}"


async def test_with_six_players_the_hint_opens_over_the_sheet(tmp_path: Path) -> None:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    app = _table(tmp_path, TableConfig(tuple(Seat(n) for n in names)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "h")
        await settle(pilot)
        assert isinstance(app.screen, HintScreen)
        best = win_hint_for_view(game_of(app).view()).best
        line = text_of(app, "#hint-panel").splitlines()[1]
        assert f"{best.expected:.1f}" in line and line.endswith(f"{best.win_probability:.1%}")
        await pilot.press("h")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("1")  # the table has its keys back
        assert game_of(app).held == {1}


async def test_a_zero_is_confirmed_with_the_languages_own_letters(tmp_path: Path) -> None:
    """Finnish asks Kyllä/Ei: E keeps the box open, K scores the zero; the dialog and the
    help show K and E."""
    config = TableConfig((Seat("Ann"),), lang="fi")
    game = Game(config.names, dice=ScriptedDice([1, 2, 3, 4, 6] * 3))
    game.apply("roll")
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")  # Yacht with 1 2 3 4 6: a zero
        assert isinstance(app.screen, ConfirmScreen)
        assert "K tai Enter: kyllä.  E tai Esc: ei." in str(app.screen.query_one(".dim").render())
        await pilot.press("e")
        assert isinstance(app.screen, TableScreen)
        assert Category.YACHT not in game_of(app).sheet(0)
        await pilot.press("m", "k")
        assert game_of(app).sheet(0)[Category.YACHT] == 0
    assert "K, E" in help_text("fi")


async def test_capital_letters_work_as_the_key_bar_prints_them(tmp_path: Path) -> None:
    """Shift+R rolls, Shift+H opens the hint, Shift+Q quits (Caps Lock too)."""
    app = _table(tmp_path, TableConfig((Seat("Ann"),)))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("R")
        assert game_of(app).rolls_used == 1
        await pilot.press("shift+r")
        assert game_of(app).rolls_used == 2
        await pilot.press("H")
        assert app.screen.query_one("#hint-panel").display
        await pilot.press("M")  # score Yacht by its capital letter (a zero asks first)
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("Y")
        assert Category.YACHT in game_of(app).sheet(0)
        await pilot.press("Q")
    assert app.return_code == 0 and not app.is_running


async def test_the_hint_over_the_sheet_keeps_every_game_key(tmp_path: Path) -> None:
    """At 80x24 with opponents the hint opens over the sheet; rolling, holding and scoring
    still work under it (as the key bar says), and it follows the game."""
    names = ["Annabel", "Bobby", "Cidney", "Dee"]
    app = _table(tmp_path, TableConfig(tuple(Seat(n) for n in names)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "h")
        await settle(pilot)
        assert isinstance(app.screen, HintScreen)
        await pilot.press("1", "r")
        game = game_of(app)
        assert game.rolls_used == 2 and game.held == {1}
        await settle(pilot)
        best = win_hint_for_view(game.view()).best
        assert f"{best.win_probability:.1%}" in str(app.screen.query_one("#hint-panel").render())
        await pilot.press("l")  # score Choice under the hint
        assert Category.CHOICE in game.sheet(0) and game.current == 1
        assert isinstance(app.screen, HintScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)

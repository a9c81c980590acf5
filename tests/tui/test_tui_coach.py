"""The live coach in the terminal game: a move that loses more than the threshold asks first,
naming the best move; No takes it back, Yes makes it; the record of a game played with it says
so; the setup screen and the command line take the threshold and refuse a bad one."""

from __future__ import annotations

from pathlib import Path

import pytest

from yacht.cli import main
from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.rules import CATEGORIES, Category
from yacht.tui.records import Records
from yacht.tui.screens.dialogs import ConfirmScreen
from yacht.tui.seats import Seat, TableConfig

from .helpers import game_of, saved_app, settle, text_of


def first_roll(config: TableConfig) -> Game:
    """Ann's first roll is 3 2 4 6 1: keep 1 2 3 4 is best, a zero in Full House costs 18."""
    game = Game(config.names, dice=ScriptedDice([3, 2, 4, 6, 1, 5, 6, 6, 6, 6]))
    game.apply("roll")
    return game


async def test_a_costly_move_asks_first_and_no_takes_it_back(data_dir: Path) -> None:
    config = TableConfig((Seat("Ann"),), coach=0.5)
    app = saved_app(data_dir, config, first_roll(config))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        game = game_of(app)
        await pilot.press("g")  # a zero in Full House
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        asked = text_of(app, "#question")
        assert asked.startswith("Live coach: this move gives up 18.4 of your expected total.")
        assert "The best move is keep 1 2 3 4." in asked
        await pilot.press("n")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert game.version == 1 and not game.sheets[0]  # nothing was played
        await pilot.press("1", "2", "3", "5", "r")  # the best keep: no question
        await settle(pilot)
        assert game.dice == (3, 2, 4, 5, 1) and game.rolls_left == 1
        await pilot.press("b")  # 2 in Twos gives up much more than 0.5: asked, Yes makes it
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert game.sheets[0] == {Category.TWOS: 2}


def test_a_game_with_the_live_coach_is_marked_in_its_record(data_dir: Path) -> None:
    game = Game(["Ann"], dice=ScriptedDice([6, 6, 6, 6, 6] * 12))
    for category in CATEGORIES:
        game.apply("roll")
        game.apply(f"score {category.value}")
    records = Records.open_default(data_dir)
    records.add(game, [Seat("Ann")], coach=1.5)
    records.add(game, [Seat("Ann")])
    marks = [g.data.get("coach") for g in records.games()]
    assert sorted(marks, key=str) == [1.5, None]


def test_the_threshold_is_0_1_to_5_points() -> None:
    assert TableConfig.from_json({**TableConfig.default().to_json(), "coach": 2}).coach == 2.0
    assert TableConfig.default().coach is None  # off by default
    with pytest.raises(ValueError, match=r"0\.1 to 5 points, got 7"):
        TableConfig((Seat("Ann"),), coach=7)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--plain", "--coach", "1"], "--coach is for the full-screen game"),
        (["play", "--plain", "--coach", "9"], "must be from 0.1 to 5"),
    ],
)
def test_the_command_line_refuses_a_bad_coach(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    try:
        status = main(argv)
    except SystemExit as e:
        status = int(str(e.code))
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and message in err

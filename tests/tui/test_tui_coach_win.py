"""The live coach in the chance of winning (``yacht play --coach 2%``): with an opponent, a
score that lowers the chance of finishing first by more than the threshold's percentage points
asks first, with both chances and the best move; No takes it back, Yes makes it; the record
says so; the threshold needs opponents and stays within 0.1% to 10%."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from yacht.actions import Score
from yacht.cli.bounds import coach_threshold
from yacht.i18n import format_percent
from yacht.rules import CATEGORIES
from yacht.strategy.win import win_hint_for_view
from yacht.tui.keys import CATEGORY_KEYS
from yacht.tui.records import Records
from yacht.tui.screens.dialogs import ConfirmScreen
from yacht.tui.seats import Seat, TableConfig

from .conftest import faces
from .helpers import game_of, plain_game, saved_app, settle, text_of


async def test_a_move_that_lowers_the_chance_of_winning_asks_first(data_dir: Path) -> None:
    config = TableConfig((Seat("Ann"), Seat("Bob")), coach_win=1.0)
    game = plain_game(config, faces(), scorings=16)  # four boxes open each: a quick hint
    game.apply("roll")
    hint = win_hint_for_view(game.view())
    scores = [o for o in hint.options if o.action == "score"]
    worst = min(scores, key=lambda o: o.win_probability)
    assert hint.best.win_probability - worst.win_probability > 0.01
    assert worst.category is not None
    app = saved_app(data_dir, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        played = game_of(app)
        before = played.version
        await pilot.press(CATEGORY_KEYS[worst.category])
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        asked = " ".join(text_of(app, "#question").split())
        best, taken = (
            format_percent(o.win_probability, "en", digits=1) for o in (hint.best, worst)
        )
        assert asked.startswith(
            f"Live coach: this move lowers your chance of winning from {best} to {taken}."
        )
        assert "The best move is " in asked
        await pilot.press("n")
        await settle(pilot)
        assert played.version == before  # taken back: nothing was played
        await pilot.press(CATEGORY_KEYS[worst.category])
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        if isinstance(app.screen, ConfirmScreen):  # a zero asks once more
            await pilot.press("y")
            await settle(pilot)
        assert worst.category in played.sheets[0]


def test_the_record_and_the_settings_keep_the_chance_threshold(data_dir: Path) -> None:
    config = TableConfig((Seat("Ann"), Seat("Bob")), coach_win=2.5)
    assert TableConfig.from_json(config.to_json()) == config
    game = plain_game(config, faces(), scorings=24)  # the last box's dice are rolled
    (last,) = (c for c in CATEGORIES if c not in game.sheet(game.current))
    game.apply(Score(last))
    assert game.finished
    records = Records.open_default(data_dir)
    records.add(game, config.seats, coach_win=2.5)
    (record,) = records.games()
    assert record.data["coach_win"] == 2.5 and "coach" not in record.data


@pytest.mark.parametrize(
    ("seats", "points", "chance", "message"),
    [
        (1, None, 2.0, "needs opponents"),
        (2, None, 10.5, r"0\.1% to 10%, got 10\.5%"),
        (2, None, 0.05, r"0\.1% to 10%"),
        (2, 1.0, 2.0, "one threshold"),
    ],
)
def test_bad_chance_thresholds_are_refused(
    seats: int, points: float | None, chance: float, message: str
) -> None:
    players = tuple(Seat(n) for n in ("Ann", "Bob")[:seats])
    with pytest.raises(ValueError, match=message):
        TableConfig(players, coach=points, coach_win=chance)


def test_the_command_line_reads_points_or_a_percentage() -> None:
    assert coach_threshold("1.5") == ("points", 1.5)
    assert coach_threshold("3%") == ("win", 3.0)
    for bad in ("11%", "0%", "x%", "6", "nan%"):
        with pytest.raises(argparse.ArgumentTypeError, match=r"must be from|not a number"):
            coach_threshold(bad)

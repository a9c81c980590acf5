"""A game that feels alive: the roll animation (any key skips it; off unless asked for, and
off under --no-animation or NO_COLOR), the moment of a Yacht, the last dice kept in view."""

from __future__ import annotations

from pathlib import Path

import pytest

from yacht.cli import main
from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.rules import Category
from yacht.tui.app import YachtApp
from yacht.tui.saves import write_save
from yacht.tui.seats import Seat, TableConfig
from yacht.tui.widgets.dice import DiceTray, DieSlot

from .helpers import game_of, saved_app, text_of


def _solo(folder: Path, faces: list[int], *, motion: bool) -> YachtApp:
    config = TableConfig((Seat("Ann"),))
    write_save(folder, config, Game(config.names, dice=ScriptedDice(faces)))
    return YachtApp(data_dir=folder, bot_delay=0, resume=True, lang="en", motion=motion)


def _faces(app: YachtApp) -> list[int | None]:
    return [slot.face for slot in app.screen.query(DieSlot)]


async def test_a_roll_tumbles_and_any_key_skips_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Frames of half a second (the tumble lasts 3.5 s): a loaded machine cannot end it before
    # the test looks, as it could the real 0.42 s.
    monkeypatch.setattr("yacht.tui.motion.FRAME_SECONDS", 0.5)
    app = _solo(tmp_path, [6, 6, 6, 6, 6, 1, 2, 3, 4, 5], motion=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        tray = app.screen.query_one(DiceTray)
        assert tray.has_class("-rolling")  # tumbling: the game's dice are already rolled
        assert game_of(app).dice == (6, 6, 6, 6, 6)
        await pilot.press("1")  # skips the tumble, and does only that
        assert not tray.has_class("-rolling") and game_of(app).held == frozenset()
        assert _faces(app) == [6, 6, 6, 6, 6]
        await pilot.press("1", "2", "r")
        assert tray.has_class("-rolling")
        for _ in range(200):  # it ends by itself too (waited for, at most 10 s)
            if not tray.has_class("-rolling"):
                break
            await pilot.pause(0.05)
        assert not tray.has_class("-rolling")  # and the held dice never moved
        assert _faces(app) == list(game_of(app).dice or ())


async def test_without_motion_the_dice_are_final_at_once(tmp_path: Path) -> None:
    app = _solo(tmp_path, [6, 6, 6, 6, 6], motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        assert not app.screen.query_one(DiceTray).has_class("-rolling")
        assert _faces(app) == [6, 6, 6, 6, 6]


@pytest.mark.parametrize(
    ("argv", "env", "motion"),
    [([], {}, True), (["--no-animation"], {}, False), ([], {"NO_COLOR": "1"}, False)],
)
def test_play_turns_the_animation_off_when_asked(
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    env: dict[str, str],
    motion: bool,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("YACHT_NO_ANIMATION", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    opened: list[YachtApp] = []
    monkeypatch.setattr("yacht.cli.tui._need_terminal", lambda: None)
    monkeypatch.setattr(YachtApp, "run", lambda self: opened.append(self))
    config = TableConfig((Seat("Ann"),))
    write_save(data_dir, config, Game(config.names, dice=ScriptedDice([6] * 5)))
    assert main(["play", "--resume", "--lang", "en", *argv]) == 0
    assert [app.motion for app in opened] == [motion]


async def test_a_yacht_gets_its_moment_and_the_dice_stay_until_the_next_roll(
    tmp_path: Path,
) -> None:
    app = _solo(tmp_path, [5, 5, 5, 5, 5, 1, 2, 3, 4, 6], motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "m")
        assert game_of(app).sheet(0)[Category.YACHT] == 50
        moment = app.screen.query_one("#moment")
        assert moment.display and "YACHT! Ann scores 50" in text_of(app, "#moment")
        tray = app.screen.query_one(DiceTray)
        assert tray.has_class("-moment")
        # A new turn: the Yacht's dice are still there (dimmed) until the next roll.
        assert game_of(app).dice is None and _faces(app) == [5, 5, 5, 5, 5]
        assert tray.has_class("-old")
        await pilot.press("r")
        assert _faces(app) == [1, 2, 3, 4, 6] and not tray.has_class("-old")


async def test_a_plain_score_has_no_moment(tmp_path: Path) -> None:
    config = TableConfig((Seat("Ann"),))
    game = Game(config.names, dice=ScriptedDice([1, 2, 3, 4, 6]))
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "l")
        assert not app.screen.query_one("#moment").display

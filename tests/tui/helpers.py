"""Driving the app in tests: wait for bots and hints, read widgets, play turns."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static
from textual.worker import WorkerCancelled

from yacht.bots import make_bot
from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.rules import CATEGORIES, Category
from yacht.tui.app import YachtApp
from yacht.tui.saves import write_save
from yacht.tui.seats import Seat, TableConfig
from yacht.tui.widgets.sheet import CATEGORY_KEYS


async def settle(pilot: Pilot[None]) -> None:
    """Let bots, hints and reviews finish, then let the screen catch up."""
    for _ in range(2):
        await _workers_done(pilot.app)
        await pilot.pause()


async def _workers_done(app: App[None]) -> None:
    """Wait for every worker; a screen left meanwhile cancels its own (the table's background
    preparation when the game ends first), which is not a failure: wait for the rest."""
    for _ in range(10):
        try:
            await app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            await asyncio.sleep(0.01)
    await app.workers.wait_for_complete()


def screen_text(app: App[None]) -> str:
    """What the terminal shows now, as plain text (every screen of the stack drawn)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


def text_of(app: App[None], selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def game_of(app: YachtApp) -> Game:
    assert app.table is not None
    return app.table.game


def pick(game: Game) -> tuple[Category, bool]:
    """The first open category that scores now (else the first open one, a zero)."""
    open_ = [c for c in CATEGORIES if c not in game.sheet(game.current)]
    scoring = [c for c in open_ if (game.potential(c) or 0) > 0]
    return (scoring[0], False) if scoring else (open_[0], True)


async def plain_turn(pilot: Pilot[None], app: YachtApp) -> None:
    """A person's whole turn by keys: roll once, then score by letter (confirming a zero)."""
    await pilot.press("r")
    category, zero = pick(game_of(app))
    await pilot.press(CATEGORY_KEYS[category])
    if zero:
        await pilot.press("y")
    await settle(pilot)


def bots_game(
    config: TableConfig, faces: list[int], *, actions_short: int = 0, scorings: int | None = None
) -> Game:
    """A game of ``config`` played by medium bots on every seat through the engine: to its
    end but ``actions_short`` actions, or up to ``scorings`` filled boxes."""

    def fresh() -> Game:
        return Game(config.names, config.preset, ScriptedDice(faces), undo=config.undo)

    game = fresh()
    bots = [make_bot("medium") for _ in config.seats]
    rng = random.Random(1)
    history = []
    while not game.finished:
        if scorings is not None and sum(len(s) for s in game.sheets) == scorings:
            return game
        action = bots[game.current].act(game.view(), rng)
        history.append(action)
        game.apply(action)
    if actions_short:
        game = fresh()
        for action in history[:-actions_short]:
            game.apply(action)
    return game


def plain_game(config: TableConfig, faces: list[int], *, scorings: int) -> Game:
    """A game of ``config`` driven without any bot, so snapshots do not move when the bots
    improve: every turn rolls three times and fills the open box that scores most (the first
    such box on a tie). Stops once ``scorings`` boxes are filled, or, with ``scorings`` equal
    to the game's length, just before the last scoring (its dice rolled three times)."""
    game = Game(config.names, config.preset, ScriptedDice(faces), undo=config.undo)
    last = len(CATEGORIES) * len(config.seats)
    while sum(len(s) for s in game.sheets) < min(scorings, last):
        for _ in range(3):
            game.apply("roll")
        if sum(len(s) for s in game.sheets) == last - 1 and scorings == last:
            return game
        open_ = [c for c in CATEGORIES if c not in game.sheet(game.current)]
        best = max(open_, key=lambda c: game.potential(c) or 0)
        game.apply(f"score {best.value}")
    return game


def saved_app(folder: Path, config: TableConfig, game: Game, *, bot_delay: float = 0) -> YachtApp:
    """An app that opens ``game`` as the saved game in progress."""
    write_save(folder, config, game)
    return YachtApp(data_dir=folder, bot_delay=bot_delay, resume=True, lang=config.lang)


def two_humans(lang: str = "en") -> TableConfig:
    return TableConfig((Seat("Ann"), Seat("Bob")), lang=lang)

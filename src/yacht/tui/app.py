"""The Textual app: setup -> table -> end, with resume of a saved game.

Dice are injected (``dice=ScriptedDice(...)`` in tests); the bot pause is ``bot_delay`` seconds
(0 in tests); saves and records go to ``data_dir`` (``$YACHT_DATA_DIR`` or the user's data
directory when not given).
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from yacht.dice import DiceSource
from yacht.i18n import detect_language
from yacht.tui.records import Records
from yacht.tui.records import data_dir as default_data_dir
from yacht.tui.saves import clear_save, read_cursor, read_save
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.screens.table import TableScreen
from yacht.tui.seats import TableConfig
from yacht.tui.table import Table
from yacht.tui.text import gettext_for

__all__ = ["YachtApp"]


class YachtApp(App[None]):
    """The terminal game. ``resume=True`` opens the saved game at once.

    It is the :class:`~yacht.tui.flow.Flow` its screens are handed: they ask it for the next
    screen rather than import it."""

    CSS_PATH = "yacht.tcss"
    TITLE = "Yacht"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", "Save and quit", show=False, priority=True),
    ]

    def __init__(
        self,
        config: TableConfig | None = None,
        *,
        dice: DiceSource | None = None,
        data_dir: Path | None = None,
        bot_delay: float = 0.6,
        resume: bool = False,
        lang: str | None = None,
        motion: bool = False,
        daily_server: str | None = None,
        daily: str | None = None,
    ) -> None:
        super().__init__()
        # the daily game's server (the local yacht serve by default); ``daily``, a preset:
        # open its daily game at once, as the app's only screen (yacht daily)
        self.daily_server = daily_server
        self.start_with_daily = daily
        self.motion = motion  # the roll animation (``yacht play`` turns it on)
        self.data_dir = data_dir if data_dir is not None else default_data_dir()
        self.config = config or TableConfig.default(lang or detect_language())
        self.dice = dice
        self.bot_delay = bot_delay
        self.start_with_resume = resume
        self.lang = lang  # a language asked for (``--lang``) wins over a saved game's
        self.table: Table | None = None

    def on_mount(self) -> None:
        if self.start_with_daily is not None:
            self.daily(self.config.lang, self.start_with_daily, alone=True)
        elif self.start_with_resume:
            self.resume()
        else:
            self.push_screen(self.setup_screen(self.config))

    def action_interrupt(self) -> None:
        """Ctrl+C leaves at once, as it does in any terminal program, a game in progress
        saved first for ``yacht play --resume``: a modal question that waited for an answer
        would take the next keys typed into the shell as moves."""
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                screen.save_game()
        self.exit()

    def setup_screen(self, config: TableConfig) -> SetupScreen:
        return SetupScreen(
            config,
            flow=self,
            saved=self.saved_description(config.lang),
            best=self.best_line(config.lang),
        )

    def best_line(self, lang: str) -> str | None:
        """The three best totals on record, or None before the first finished game."""
        try:
            best = Records.open_default(self.data_dir).high_scores(3, humans_only=True)
        except (OSError, ValueError, sqlite3.Error):
            return None
        if not best:
            return None
        _ = gettext_for(lang)
        scores = " · ".join(f"{h.total} {h.name}" for h in best)
        return _("High scores: {scores}").format(scores=scores)

    def saved_description(self, lang: str) -> str | None:
        """One line about the saved game, or None when nothing is saved (or it is damaged)."""
        try:
            saved = read_save(self.data_dir)
        except ValueError:
            return None
        if saved is None:
            return None
        game = saved[1]
        _ = gettext_for(lang)
        players = ", ".join(game.players)
        return _("Saved game: {players}, round {round}.").format(players=players, round=game.round)

    def _open(self, table: Table) -> None:
        self.table = table
        self.config = table.config
        screen = TableScreen(table, flow=self, bot_delay=self.bot_delay, motion=self.motion)
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def start_game(self, config: TableConfig) -> None:
        """A new game at this table (the injected dice are used by the first game only); a
        saved game is deleted, as the question before it said. The new game is saved from its
        first move on."""
        clear_save(self.data_dir)
        dice, self.dice = self.dice, None
        self._open(Table.new(config, self.data_dir, dice=dice))

    def resume(self, lang: str | None = None) -> None:
        """Continue the saved game exactly where it was left (the sheet cursor too), in
        ``lang`` or the language asked for when the app started, else the saved one."""
        saved = read_save(self.data_dir)
        if saved is None:
            _ = gettext_for(self.config.lang)
            self.notify(_("There is no saved game."), severity="error")
            if len(self.screen_stack) == 1:
                self.push_screen(self.setup_screen(self.config))
            return
        config, game = saved
        lang = lang or self.lang
        if lang is not None and lang != config.lang:
            config = replace(config, lang=lang)
        table = Table(config, game, self.data_dir)
        table.cursor = read_cursor(self.data_dir)
        self._open(table)

    def play_again(self) -> None:
        self.start_game(self.config)

    def show_setup(self, config: TableConfig) -> None:
        self.switch_screen(self.setup_screen(config))

    def new_setup(self) -> None:
        self.show_setup(self.config)

    def practice(self, lang: str) -> None:
        from yacht.tui.screens.practice import PracticeScreen

        self.push_screen(PracticeScreen(self.data_dir, lang))

    def daily(self, lang: str, preset: str, *, alone: bool = False) -> None:
        from yacht.tui.daily import DEFAULT_SERVER
        from yacht.tui.screens.daily import DailyScreen

        url = self.daily_server or DEFAULT_SERVER
        self.push_screen(DailyScreen(url, preset, lang, self.data_dir, alone=alone))

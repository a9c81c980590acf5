"""The game at the table, without any drawing: seats, bots, saving after every action,
recording finished games, and the player-facing text of events and refusals.

>>> import tempfile
>>> from yacht.dice import ScriptedDice
>>> from yacht.tui.seats import Seat, TableConfig
>>> config = TableConfig((Seat("Ann"), Seat("Bob")))
>>> table = Table.new(config, Path(tempfile.mkdtemp()), dice=ScriptedDice([6, 6, 6, 5, 5]))
>>> table.describe(table.apply("roll"))
'Ann: roll 6 6 6 5 5'
>>> table.refusal("score full_house")  # legal, so nothing to refuse
>>> table.refusal("roll")
>>> table.describe(table.apply("score full_house"))
'Ann: 28 in Full House'
>>> table.refusal("hold 1")
'Roll the dice first (R or Space).'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from yacht.actions import (
    Action,
    CategoryFilledError,
    GameError,
    GameOverError,
    Hold,
    NoRollsLeftError,
    NotRolledError,
    Roll,
    Score,
    Undo,
    UndoNotAllowedError,
)
from yacht.dice import DiceSource, RandomDice
from yacht.game import Event, Game
from yacht.i18n import category_label, error_text
from yacht.rules import Category
from yacht.tui.records import Records
from yacht.tui.saves import clear_save, write_save
from yacht.tui.seats import Seat, TableConfig
from yacht.tui.text import gettext_for, ngettext_for

if TYPE_CHECKING:
    from yacht.bots import Bot

__all__ = ["Table", "describe_event"]


def describe_event(
    players: Sequence[str], event: Event, lang: str, dice: Sequence[int] | None = None
) -> str:
    """One log line for an event; ``dice`` are the dice on the table (what a hold holds).

    A hold names the dice by position, as the keys and ``hold 1 3`` of the line mode do,
    with the faces they show:

    >>> from yacht.actions import Hold
    >>> describe_event(["Bob"], Event(0, Hold((3,))), "en", (6, 6, 2, 5, 1))
    'Bob: hold die 3 (2)'
    >>> describe_event(["Bob"], Event(0, Hold((1, 2))), "en", (6, 6, 2, 5, 1))
    'Bob: hold dice 1 2 (6 6)'
    """
    _ = gettext_for(lang)
    name = players[event.player]
    act = event.action
    if isinstance(act, Roll) and event.dice is not None:
        return _("{name}: roll {faces}").format(name=name, faces=" ".join(map(str, event.dice)))
    if isinstance(act, Hold):
        if not act.positions:
            return _("{name}: release all dice").format(name=name)
        n = len(act.positions)
        positions = " ".join(map(str, act.positions))
        faces = " ".join(str(dice[p - 1]) for p in act.positions) if dice else "?"
        ngettext = ngettext_for(lang)
        template = ngettext(
            "{name}: hold die {positions} ({faces})", "{name}: hold dice {positions} ({faces})", n
        )
        return template.format(name=name, positions=positions, faces=faces)
    if isinstance(act, Score):
        return _("{name}: {points} in {category}").format(
            name=name, points=event.points, category=category_label(act.category, lang)
        )
    return _("{name}: undo the last scoring").format(name=name)


class Table:
    """One game with its settings; every accepted action is saved before it is shown."""

    def __init__(self, config: TableConfig, game: Game, folder: Path, *, seed: int = 0) -> None:
        if list(game.players) != config.names:
            raise ValueError(f"saved seats {config.names} do not match {list(game.players)}")
        self.config = replace(config, undo=game.undo_allowed)  # the game's house rule rules
        self.game = game
        self.folder = folder
        self.bots: frozenset[int] = frozenset(i for i, s in enumerate(config.seats) if s.is_bot)
        self._players: dict[int, Bot] = {}  # made on a bot's first move (numpy, tables)
        self.rng = random.Random(seed)
        self.record_id: int | None = None
        self.cursor: int | None = None  # the sheet cursor's row, saved with the game
        self._ = gettext_for(config.lang)

    @classmethod
    def new(cls, config: TableConfig, folder: Path, *, dice: DiceSource | None = None) -> Table:
        game = Game(config.names, config.preset, dice or RandomDice(), undo=config.undo)
        return cls(config, game, folder)

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.config.seats

    @property
    def bot_to_play(self) -> bool:
        return not self.game.finished and self.game.current in self.bots

    def save(self) -> None:
        """Save the game in progress; a finished game's save goes. A game nobody has moved
        in is not saved (nor does it replace a saved one): there is nothing to resume."""
        if self.game.finished:
            clear_save(self.folder)
        elif self.game.events:
            write_save(self.folder, self.config, self.game, cursor=self.cursor)

    def apply(self, action: Action | str) -> Event:
        """Apply an action for the player on turn, save, and record the game once it ends."""
        event = self.game.apply(action)
        self.save()
        if self.game.finished and self.record_id is None:
            records = Records.open_default(self.folder)
            self.record_id = records.add(
                self.game,
                self.seats,
                target=self.config.target,
                coach=self.config.coach,
                coach_win=self.config.coach_win,
            )
        return event

    def bot_action(self) -> Action:
        """What the bot on turn does next (may take a moment: it reads the strategy tables,
        so call it off the event loop)."""
        seat = self.game.current
        if seat not in self._players:
            from yacht.bots import make_bot

            self._players[seat] = make_bot(self.config.seats[seat].kind)
        return self._players[seat].act(self.game.view(), self.rng)

    def toggle(self, position: int) -> Hold:
        """The hold that flips die ``position`` and keeps the others as they are."""
        return Hold(tuple(sorted(self.game.held ^ {position})))

    # --- text ----------------------------------------------------------------------------

    def describe(self, event: Event) -> str:
        """One log line for an action just accepted."""
        return describe_event(self.game.players, event, self.config.lang, self.game.dice)

    def history(self, limit: int = 60) -> list[str]:
        """The log of the game so far, as it was written while playing (a person's holds
        show on the dice, so only the bots' are there), the last ``limit`` lines."""
        lines: list[str] = []
        dice: tuple[int, ...] | None = None
        for event in self.game.events:
            act = event.action
            if not isinstance(act, Hold) or event.player in self.bots:
                lines.append(describe_event(self.game.players, event, self.config.lang, dice))
            if isinstance(act, Roll):
                dice = event.dice
        return lines[-limit:]

    def label(self, category: Category) -> str:
        return category_label(category, self.config.lang)

    def refusal(self, action: Action | str) -> str | None:
        """Why ``action`` is not possible now, in the player's language; None when it is."""
        act = Action.parse(action) if isinstance(action, str) else action
        if act in self.game.legal_actions():
            return None
        _ = self._
        g = self.game
        if isinstance(act, Undo):
            if not self.config.undo:
                return _("Undo is off: it is a house rule to switch on before the game.")
            return _("Nothing to take back now: undo works until the next roll.")
        if g.finished:
            return _("The game is over.")
        if g.dice is None:
            return _("Roll the dice first (R or Space).")
        if isinstance(act, Roll | Hold) and g.rolls_left == 0:
            return _("No rolls left: choose a category to score.")
        if isinstance(act, Score) and act.category in g.sheet(g.current):
            return _("{category} is already filled.").format(category=self.label(act.category))
        return _("That is not possible now.")

    def explain(self, error: GameError) -> str:
        """A refusal from the engine, in the player's language."""
        _ = self._
        if isinstance(error, UndoNotAllowedError):
            return self.refusal(Undo()) or error_text(error, self.config.lang)
        if isinstance(error, NoRollsLeftError):
            return _("No rolls left: choose a category to score.")
        if isinstance(error, NotRolledError):
            return _("Roll the dice first (R or Space).")
        if isinstance(error, CategoryFilledError):
            return _("That category is already filled.")
        if isinstance(error, GameOverError):
            return _("The game is over.")
        return error_text(error, self.config.lang)

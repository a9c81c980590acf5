"""Practice in the terminal game (docs/strategy/training.md): the costliest decisions of the
people's finished games in the record book first, then everyone else's there, then the easy
bot's games; hold the dice to keep and roll (R), or press a category's button to score; then
the exact verdict, the five best options and the practice rating (kept in ``practice.json``
beside the records, shared with ``yacht practice``). N or Enter: the next position; Esc: back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.events import Key
from textual.markup import escape
from textual.widgets import Button, Static

from yacht.i18n import category_label, format_number
from yacht.rules import CATEGORIES
from yacht.strategy import Option
from yacht.training import Mistake, TrainingError, Verdict, judge, practice_positions
from yacht.training.rating import PracticeBook, Rated
from yacht.tui.records import Records
from yacht.tui.screens.size import SizeGuard
from yacht.tui.text import gettext_for, ngettext_for
from yacht.tui.widgets.dice import DiceTray, DieSlot

__all__ = ["GAMES", "PracticeScreen", "option_line"]

GAMES = 50
"""Finished games of the record book that positions are taken from (the newest)."""

SHOWN = 5


def option_line(option: Option, lang: str) -> str:
    """An option in words: keep 1 2 3 4, roll all five again, Fives (15)."""
    _ = gettext_for(lang)
    if option.action == "keep":
        if not option.keep:
            return _("roll all five again")
        return _("keep {dice}").format(dice=" ".join(map(str, option.keep)))
    assert option.category is not None
    return f"{category_label(option.category, lang)} ({option.points})"


def _rating(rated: Rated) -> str:
    return f"{rated.shown}{'?' if rated.provisional else ''}"


class PracticeScreen(SizeGuard):
    """One position at a time: hold and roll, or score; then the verdict."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,R,space", "keep", "Keep and roll", show=False),
        Binding("n,N,enter", "next", "Next position", show=False),
        Binding("escape,q,Q", "back", "Back", show=False),
    ]

    def __init__(self, data_dir: Path, lang: str) -> None:
        super().__init__()
        self.data_dir = data_dir
        self.lang = lang
        self._ = gettext_for(lang)
        self.book: PracticeBook | None = None
        self.positions: Iterator[Mistake] | None = None
        self.mistake: Mistake | None = None
        self.held: frozenset[int] = frozenset()
        self.verdict: Verdict | None = None

    def compose(self) -> ComposeResult:
        _ = self._
        with VerticalScroll(id="practice-page"):
            title = _("Practice")
            yield Static(f"[b]YACHT[/b] · {escape(title)}", id="practice-title")
            yield Static("", id="practice-rating")
            yield Static(escape(_("Finding a position…")), id="practice-where")
            yield Static("", id="practice-situation")
            yield Static("", id="practice-filled")
            yield DiceTray(id="practice-dice")
            with Horizontal(id="practice-buttons"):
                yield Button("", id="keep", variant="primary", compact=True)
            yield Grid(id="practice-scores")
            yield Static("", id="practice-verdict")
            keys = _("1-5: hold a die · R: keep and roll · N: next position · Esc: back")
            yield Static(escape(keys), id="practice-keys")

    def on_mount(self) -> None:
        self.guard_mounted()
        self.load()

    @work(thread=True, exclusive=True)
    def load(self) -> None:
        """Open the book and find the first position (reviews take a moment: in a thread)."""
        try:
            book = PracticeBook.open(self.data_dir / "practice.json")
        except TrainingError as e:
            self.app.call_from_thread(self.show_problem, str(e))
            return
        games = list(self._record_games())
        bot = self._("a game of the easy bot (seed {seed})")
        positions = practice_positions(games, book.solved_keys(), bot_source=bot)
        first = next(positions, None)
        self.app.call_from_thread(self.loaded, book, positions, first)

    def _record_games(self) -> Iterator[tuple[Any, set[int], str]]:
        path = self.data_dir / "records.sqlite3"
        if not path.exists():
            return
        try:
            records = Records(path).games(limit=GAMES)
        except (OSError, sqlite3.Error):
            return
        for record in records:
            where = self._("game {id} in the record book").format(id=record.id)
            yield record.game(), record.people, where

    def loaded(
        self, book: PracticeBook, positions: Iterator[Mistake], first: Mistake | None
    ) -> None:
        self.book, self.positions = book, positions
        self.call_later(self.show, first)

    def show_problem(self, text: str) -> None:
        self.query_one("#practice-where", Static).update(escape(text))

    async def show(self, mistake: Mistake | None) -> None:
        _ = self._
        self.mistake, self.held, self.verdict = mistake, frozenset(), None
        if mistake is None:
            self.show_problem(_("No position is left to practise: you have solved them all."))
            return
        p = mistake.position
        self.query_one("#practice-where", Static).update(
            escape(_("{player} in {source}").format(player=mistake.name, source=p.source))
        )
        ngettext = ngettext_for(self.lang)
        rolls = (
            _("no rolls left: score a category")
            if p.rolls_left == 0
            else ngettext("{n} roll left", "{n} rolls left", p.rolls_left).format(n=p.rolls_left)
        )
        situation = _("Round {round}: {rolls}").format(round=mistake.turn, rolls=rolls)
        self.query_one("#practice-situation", Static).update(f"[b]{escape(situation)}[/b]")
        filled = ", ".join(
            f"{category_label(c, self.lang)} {p.sheet[c]}" for c in CATEGORIES if c in p.sheet
        )
        self.query_one("#practice-filled", Static).update(
            escape(_("Filled: {categories}").format(categories=filled or "-"))
        )
        grid = self.query_one("#practice-scores", Grid)
        await grid.remove_children()
        rules = p.rules_obj
        await grid.mount_all(
            Button(
                f"{category_label(c, self.lang)} {rules.score(p.dice, c)}",
                id=f"score-{c.value}",
                compact=True,
            )
            for c in p.open_categories
        )
        self.query_one("#practice-verdict", Static).update("")
        self.refresh_position()

    def refresh_position(self) -> None:
        _ = self._
        if self.book is not None:
            self.query_one("#practice-rating", Static).update(
                escape(_("Practice rating: {rating}").format(rating=_rating(self.book.player)))
            )
        if self.mistake is None:
            return
        p = self.mistake.position
        answered = self.verdict is not None
        self.query_one(DiceTray).show(p.dice, self.held, _("HELD"))
        keep = self.query_one("#keep", Button)
        kept = sorted(p.dice[i - 1] for i in self.held)
        keep.label = (
            _("Keep {dice} and roll").format(dice=" ".join(map(str, kept)))
            if kept
            else _("Roll all five again")
        )
        self.query_one("#practice-buttons").display = p.rolls_left > 0
        keep.disabled = answered or len(kept) == 5
        for button in self.query("#practice-scores Button").results(Button):
            button.disabled = answered

    def on_key(self, event: Key) -> None:
        if event.character in {"1", "2", "3", "4", "5"} and not self.too_small:
            event.stop()
            self.toggle(int(event.character))

    @on(DieSlot.Toggled)
    def die_clicked(self, event: DieSlot.Toggled) -> None:
        self.toggle(event.position)

    def toggle(self, position: int) -> None:
        if (
            self.mistake is None
            or self.verdict is not None
            or self.mistake.position.rolls_left == 0
        ):
            return
        self.held = self.held ^ {position}
        self.refresh_position()

    def action_keep(self) -> None:
        if self.mistake is None or self.verdict is not None:
            return
        p = self.mistake.position
        if p.rolls_left == 0 or len(self.held) == 5:
            return
        self.answer(judge(p, keep=[p.dice[i - 1] for i in self.held]))

    @on(Button.Pressed, "#keep")
    def keep_pressed(self) -> None:
        self.action_keep()

    @on(Button.Pressed, "#practice-scores Button")
    def score_pressed(self, event: Button.Pressed) -> None:
        if self.mistake is None or self.verdict is not None or event.button.id is None:
            return
        category = event.button.id.removeprefix("score-")
        self.answer(judge(self.mistake.position, category=category))

    def answer(self, verdict: Verdict) -> None:
        _ = self._
        self.verdict = verdict
        assert self.mistake is not None and self.book is not None
        change = self.book.record(
            self.mistake.position.key(), solved=verdict.solved, loss=verdict.loss
        )
        lines = []
        if verdict.solved:
            head = _("Your answer is the best.")
            lines.append(f"[b]{escape(head)}[/b]")
        else:
            head = _("Best: {option}").format(option=option_line(verdict.best, self.lang))
            lines.append(f"[b]{escape(head)}[/b]")
            lines.append(
                escape(
                    _("Your answer, {option}, gives up {points} points.").format(
                        option=option_line(verdict.taken, self.lang),
                        points=format_number(verdict.loss, self.lang, 2),
                    )
                )
            )
        shown = list(verdict.options[:SHOWN])
        if verdict.taken not in shown:
            shown.append(verdict.taken)
        texts = [option_line(o, self.lang) for o in shown]
        width = max(len(t) for t in texts)
        for o, text in zip(shown, texts, strict=True):
            mark = "▸" if o is verdict.taken else " "
            lost = format_number(max(0.0, verdict.best.expected - o.expected), self.lang, 2)
            expected = format_number(o.expected, self.lang, 2)
            lines.append(escape(f"{mark} {text:<{width}}  {expected:>7}  {lost:>6}"))
        from yacht.coach import reason_text

        best, taken = verdict.reasons()
        lines.append(escape(_("Why:")))
        lines.extend(escape(f"  {reason_text(r.code, r.args, self.lang)}") for r in (*best, *taken))
        lines.append(
            escape(
                _("Practice rating: {before} → {after}").format(
                    before=_rating(change.before), after=_rating(change.after)
                )
            )
        )
        lines.append(escape(_("N or Enter: next position")))
        box = self.query_one("#practice-verdict", Static)
        box.update("\n".join(lines))
        self.refresh_position()
        self.call_after_refresh(box.scroll_visible)

    async def action_next(self) -> None:
        if self.verdict is None or self.positions is None:
            return
        await self.show(next(self.positions, None))

    def action_back(self) -> None:
        self.app.pop_screen()

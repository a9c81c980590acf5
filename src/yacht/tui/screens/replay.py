"""``yacht replay ID``: a stored game step by step, the review of each decision alongside.

Left/Right (or P/N) step, Up/Down jump a turn, Home/End go to the start/end, Q quits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Static

from yacht.actions import Score
from yacht.tui.records import GameRecord
from yacht.tui.replay import game_at, replay_steps, step_note
from yacht.tui.reviews import summary_lines
from yacht.tui.rules_text import preset_label
from yacht.tui.table import describe_event
from yacht.tui.text import gettext_for
from yacht.tui.widgets.dice import DiceTray
from yacht.tui.widgets.sheet import Sheet

if TYPE_CHECKING:
    from yacht.review import Review

__all__ = ["ReplayApp", "ReplayScreen"]


class ReplayScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n,N,shift+n,space", "step(1)", "Next", show=False),
        Binding("left,p,P,shift+p", "step(-1)", "Back", show=False),
        Binding("down", "turn(1)", "Next turn", show=False),
        Binding("up", "turn(-1)", "Previous turn", show=False),
        Binding("home", "go(0)", "Start", show=False),
        Binding("end", "go(-1)", "End", show=False),
        Binding("q,Q,shift+q,escape", "app.quit", "Quit", show=False),
    ]

    def __init__(self, record: GameRecord, review: Review | None, lang: str) -> None:
        super().__init__()
        self.record = record
        self.review = review
        self.lang = lang
        self._ = gettext_for(lang)
        self.game = record.game()
        self.steps = replay_steps(self.game, review)
        self.position = 0  # events shown so far: 0 = before the first roll

    def compose(self) -> ComposeResult:
        _ = self._
        when = self.record.finished_at.replace("T", " ")[:16]
        head = _("Replay of game {id} · {when} · {preset}").format(
            id=self.record.id, when=when, preset=preset_label(self.record.preset, self.lang)
        )
        yield Static(f" [b]YACHT[/b]   {escape(head)}", id="topbar")
        with Horizontal(id="upper"):
            yield DiceTray(id="dice")
            yield Static(id="turn")
        with Horizontal(id="lower"):
            yield Sheet(game_at(self.record.data, 0), self.lang, id="sheet", show_cursor=False)
            with VerticalScroll(id="side", can_focus=False):
                yield Static(id="message")
                yield Static(id="summary")
        keys = _("→/N next · ← back · ↓/↑ next/previous turn · Home/End · Q quit")
        yield Static(escape(keys), id="keys")

    def on_mount(self) -> None:
        _ = self._
        if self.review is None:
            text = _("(no review)")
        else:
            lines = summary_lines(self.review, self.record.seats, self.lang, everyone=True)
            text = "\n".join(lines)
        head = _("Review")
        self.query_one("#summary", Static).update(f"[b]{escape(head)}[/b]\n{escape(text)}")
        self.show()

    def show(self) -> None:
        _ = self._
        n = self.position
        state = game_at(self.record.data, n)
        sheet = self.query_one(Sheet)
        sheet.game = state
        sheet.show()
        dice = state.dice
        if n and dice is None:  # just after a scoring: show the dice that were scored
            dice = self.steps[n - 1].event.dice
        self.query_one(DiceTray).show(dice, state.held, _("HELD"))
        counter = _("Step {n} of {total}").format(n=n, total=len(self.steps))
        if n == 0:
            what, note = _("Before the first roll."), ""
        else:
            step = self.steps[n - 1]
            what = describe_event(self.game.players, step.event, self.lang, step.dice_before)
            note = step_note(step, self.lang)
        self.query_one("#turn", Static).update(f"[b]{escape(counter)}[/b]\n{escape(what)}")
        self.query_one("#message", Static).update(escape(note))

    def go_to(self, position: int) -> None:
        self.position = max(0, min(len(self.steps), position))
        self.show()

    def action_step(self, delta: int) -> None:
        self.go_to(self.position + delta)

    def action_go(self, where: int) -> None:
        self.go_to(len(self.steps) if where < 0 else where)

    def action_turn(self, delta: int) -> None:
        """Jump to the next (or previous) scoring: the end of a turn."""
        ends = [s.index for s in self.steps if isinstance(s.event.action, Score)]
        if delta > 0:
            self.go_to(next((e for e in ends if e > self.position), len(self.steps)))
        else:
            self.go_to(next((e for e in reversed(ends) if e < self.position), 0))


class ReplayApp(App[None]):
    """The replay on its own (``yacht replay ID``)."""

    CSS_PATH = "../yacht.tcss"
    TITLE = "Yacht replay"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),  # nothing to save
    ]

    def __init__(self, record: GameRecord, review: Review | None, lang: str) -> None:
        super().__init__()
        self.record, self.review, self.lang = record, review, lang

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.record, self.review, self.lang))

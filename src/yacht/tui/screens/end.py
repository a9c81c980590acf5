"""The end screen: the final sheet, totals and winners (ties shared), the review of every
human's decisions by the strategy engine, and play again / new setup / quit."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.widgets import Button, Static

from yacht.tui.flow import Flow
from yacht.tui.reviews import summary_lines
from yacht.tui.screens.size import SizeGuard
from yacht.tui.table import Table
from yacht.tui.text import gettext_for
from yacht.tui.widgets.sheet import Sheet

__all__ = ["EndScreen", "result_lines"]


def result_lines(table: Table) -> list[str]:
    """The ranking: place, name, total; winners marked with a star and the word."""
    _ = gettext_for(table.config.lang)
    g = table.game
    order = sorted(range(len(g.players)), key=lambda p: (-g.totals[p], p))
    winners = set(g.winners())
    lines = []
    for p in order:
        place = 1 + sum(1 for t in g.totals if t > g.totals[p])
        mark = "★ " + _("winner") if p in winners else ""
        name = escape(g.players[p])
        lines.append(f"{place}. [b]{name}[/b]  {g.totals[p]}  {escape(mark)}".rstrip())
    names = ", ".join(g.players[p] for p in sorted(winners))
    if len(g.players) == 1:
        head = _("Final total: {total}").format(total=g.totals[0])
    elif len(winners) > 1:
        head = _("Shared win: {names}!").format(names=names)
    else:
        head = _("Winner: {name}!").format(name=names)
    return [f"[b]{escape(head)}[/b]", *lines]


class EndScreen(SizeGuard):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,a,A,shift+a", "again", "Play again", show=False),
        Binding("s,S,shift+s", "setup", "New setup", show=False),
        Binding("q,Q,shift+q,escape", "quit", "Quit", show=False),
    ]

    def __init__(self, table: Table, *, flow: Flow) -> None:
        super().__init__()
        self.table = table
        self.flow = flow
        self.lang = table.config.lang
        self._ = gettext_for(table.config.lang)

    def compose(self) -> ComposeResult:
        _ = self._
        title = _("Game over")
        yield Static(f" [b]YACHT[/b]   {escape(title)}", id="topbar")
        with Horizontal(id="end"):
            yield Sheet(self.table.game, self.table.config.lang, id="sheet", show_cursor=False)
            with VerticalScroll(id="end-side"):
                yield Static("\n".join(result_lines(self.table)), id="results")
                yield Static(escape(_("Review: working it out…")), id="review")
                stored = self.table.record_id
                if stored is not None:
                    line = _("Stored: yacht replay {id}").format(id=stored)
                    yield Static(escape(line), id="stored")
        with Horizontal(id="end-buttons"):
            yield Button(_("Play again"), id="end-again", variant="primary", compact=True)
            yield Button(_("New setup"), id="end-setup", compact=True)
            yield Button(_("Quit"), id="end-quit", compact=True)
        keys = _("Enter: play again · S: new setup · Q: quit")
        yield Static(escape(keys), id="keys")

    def fit(self) -> None:
        width = self.app.size.width
        self.query_one(Sheet).fit(width // 2 - 2 if width >= 100 else 0)

    def on_mount(self) -> None:
        self.guard_mounted()
        for button in self.query(Button):
            button.can_focus = False
        self.compute_review()

    @work(thread=True, exclusive=True, group="review")
    def compute_review(self) -> None:
        from yacht.review import review

        t = self.table
        head = self._("Review")
        try:
            lines = summary_lines(review(t.game, target=t.config.target), t.seats, t.config.lang)
        except Exception as e:  # a review that fails must not take the results with it
            lines = [self._("The review is not available: {error}").format(error=e)]
        text = f"[b]{escape(head)}[/b]\n" + escape("\n".join(lines))
        self.app.call_from_thread(self.query_one("#review", Static).update, text)

    def action_again(self) -> None:
        self.flow.play_again()

    def action_setup(self) -> None:
        self.flow.new_setup()

    def action_quit(self) -> None:
        self.app.exit()

    @on(Button.Pressed)
    async def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        await self.run_action(str(event.button.id).removeprefix("end-"))

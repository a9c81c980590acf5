"""Modal dialogs: the yes/no question (scoring a zero) and the help screen (``?``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from yacht.tui.keys import TABLE_KEYS
from yacht.tui.text import gettext_for
from yacht.tui.widgets.panels import HintPanel

__all__ = ["ConfirmScreen", "HelpScreen", "HintScreen", "help_text"]


class ConfirmScreen(ModalScreen[bool]):
    """A question answered Yes (Y, Enter) or No (N, Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes", show=False),
        Binding("n,escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, question: str, lang: str) -> None:
        super().__init__()
        self.question = question
        self._ = gettext_for(lang)

    def compose(self) -> ComposeResult:
        _ = self._
        with Vertical(id="dialog", classes="dialog"):
            yield Static(escape(self.question), id="question")
            yield Static(escape(_("Y or Enter: yes.  N or Esc: no.")), classes="dim")
            with Horizontal(classes="buttons"):
                yield Button(_("Yes"), id="yes", variant="warning", compact=True)
                yield Button(_("No"), id="no", variant="primary", compact=True)

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")


def help_text(lang: str) -> str:
    """Every key of the table and what it does, one per line."""
    _ = gettext_for(lang)
    lines = [f"[b]{escape(_(k.display)):>13}[/b]  {escape(_(k.description))}" for k in TABLE_KEYS]
    close = _("Close this help, a question or the hint panel")
    answer = _("Answer a question: yes (Enter also says yes) or no")
    lines += [
        f"[b]{'Esc':>13}[/b]  {escape(close)}",
        f"[b]{'Y, N':>13}[/b]  {escape(answer)}",
        "",
        escape(_("Mouse: click a die to hold it, a sheet row to score it, a button to act.")),
        escape(_("Numbers in parentheses: what the dice would score in that open box.")),
    ]
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    """Every key (``?``); any of Esc, ?, Q or Enter closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q,enter", "close", "Close", show=False)
    ]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        _ = gettext_for(self.lang)
        with Vertical(id="help", classes="dialog"):
            title = _("Keys")
            yield Static(f"[b]{escape(title)}[/b]", classes="title")
            yield Static(help_text(self.lang), id="help-keys")
            yield Button(_("Close"), id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one(Button).can_focus = False

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)


class HintScreen(ModalScreen[None]):
    """The hint panel over the table, when the sheet leaves too little room beside it;
    H or Esc closes it. The table screen fills the panel."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h,escape", "close", "Close", show=False),
    ]

    def __init__(self, lang: str, fill: Callable[[], None]) -> None:
        super().__init__()
        self.lang = lang
        self.fill = fill

    def compose(self) -> ComposeResult:
        _ = gettext_for(self.lang)
        panel = HintPanel(id="hint-panel")
        panel.border_title = _("Hint: best options")
        panel.border_subtitle = "H, Esc"
        yield panel

    def on_mount(self) -> None:
        self.fill()

    def action_close(self) -> None:
        self.dismiss(None)

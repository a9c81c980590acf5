"""Modal dialogs: the yes/no question (scoring a zero), the choice about a saved game, and
the help screen (``?``). Answer letters are the player's language's (Y/N, K/E, J/N...);
the English Y and N work too."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key
from textual.markup import escape
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from yacht.rules import Rules
from yacht.tui.keys import TABLE_KEYS, bindings, twins, with_capitals, with_twins
from yacht.tui.rules_text import rules_lines
from yacht.tui.text import N_, gettext_for
from yacht.tui.widgets.panels import HintPanel

__all__ = ["ChoiceScreen", "ConfirmScreen", "HelpScreen", "HintScreen", "answer_keys", "help_text"]

YES_KEY = N_("Y")  # the letter of "yes" in the player's language
NO_KEY = N_("N")


def answer_keys(lang: str) -> tuple[str, str]:
    """The yes and no letters of a language, as shown (capitals).

    >>> answer_keys("fi"), answer_keys("en")
    (('K', 'E'), ('Y', 'N'))
    """
    _ = gettext_for(lang)
    return _(YES_KEY), _(NO_KEY)


class ConfirmScreen(ModalScreen[bool]):
    """A question answered yes (its letter, Enter) or no (its letter, Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer(True)", "Yes", show=False),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, question: str, lang: str) -> None:
        super().__init__()
        self.question = question
        self.lang = lang
        self._ = gettext_for(lang)

    def compose(self) -> ComposeResult:
        _ = self._
        yes, no = answer_keys(self.lang)
        keys = _("{yes} or Enter: yes.  {no} or Esc: no.").format(yes=yes, no=no)
        with Vertical(id="dialog", classes="dialog"):
            yield Static(escape(self.question), id="question")
            yield Static(escape(keys), classes="dim")
            with Horizontal(classes="buttons"):
                yield Button(_("Yes"), id="yes", variant="warning", compact=True)
                yield Button(_("No"), id="no", variant="primary", compact=True)

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False

    def on_key(self, event: Key) -> None:
        letter = (event.character or "").lower()
        yes, no = (k.lower() for k in answer_keys(self.lang))
        if letter in (yes, *twins(yes), "y"):
            event.stop()
            self.dismiss(True)
        elif letter in (no, *twins(no), "n"):
            event.stop()
            self.dismiss(False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")


class ChoiceScreen(ModalScreen[str | None]):
    """A question with a few answers, each with a letter and a button; Enter takes the
    first answer, Esc none (None)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "answer('')", "Back", show=False),
    ]

    def __init__(
        self,
        question: str,
        choices: Sequence[tuple[str, str, str]],
        lang: str,
        *,
        also: Sequence[str] = (),
    ) -> None:
        """``choices``: (letter, label, value); the letter is shown and pressed (any case),
        and so is the letter on its key in another layout (П or P in Bulgarian), and the
        choice's letter in ``also`` (the English one)."""
        super().__init__()
        self.question = question
        self.choices = list(choices)
        self._ = gettext_for(lang)
        self.keys: dict[str, str] = {}
        for n, (letter, _label, value) in enumerate(choices):
            extra = [also[n]] if n < len(also) else []
            for key in (letter, *twins(letter), *extra):
                self.keys.setdefault(key.lower(), value)

    def compose(self) -> ComposeResult:
        _ = self._
        with Vertical(id="dialog", classes="dialog"):
            yield Static(escape(self.question), id="question")
            with Vertical(classes="choices"):
                for n, (letter, label, value) in enumerate(self.choices):
                    variant = "primary" if n == 0 else "warning"
                    text = f"{letter}  {label}"
                    yield Button(text, id=f"choice-{value}", variant=variant, compact=True)  # type: ignore[arg-type]
            first = self.choices[0][1]
            keys = _("Enter: {first}.  Esc: back.").format(first=first)
            yield Static(escape(keys), classes="dim")

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False

    def on_key(self, event: Key) -> None:
        letter = (event.character or "").lower()
        if event.key == "enter":
            event.stop()
            self.dismiss(self.choices[0][2])
            return
        if letter in self.keys:
            event.stop()
            self.dismiss(self.keys[letter])

    def action_answer(self, value: str) -> None:
        self.dismiss(value or None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(str(event.button.id).removeprefix("choice-"))


HELP_WIDTH = 73  # the help's text: #help's 78 columns less its border, padding and scrollbar
KEY_COLUMN = 13


def key_line(keys: str, description: str, width: int = HELP_WIDTH) -> str:
    """A key and what it does, the description wrapped under itself (a hanging indent), so
    a long line in Finnish or Bulgarian never runs back under the keys.

    >>> from textual.markup import to_content
    >>> print(to_content(key_line("Enter", "Score the category under the cursor", 40)).plain)
            Enter  Score the category under
                   the cursor
    """
    indent = KEY_COLUMN + 2
    parts = textwrap.wrap(description, max(20, width - indent), break_on_hyphens=False) or [""]
    first = f"[b]{escape(keys):>{KEY_COLUMN}}[/b]  {escape(parts[0])}"
    return "\n".join([first, *(" " * indent + escape(part) for part in parts[1:])])


def help_text(lang: str) -> str:
    """Every key of the table and what it does, one per key."""
    _ = gettext_for(lang)
    lines = [key_line(_(k.display), _(k.description)) for k in TABLE_KEYS]
    close = _("Close this help, a question or the hint panel")
    answer = _("Answer a question: yes (Enter also says yes) or no")
    letters = ", ".join(answer_keys(lang))
    lines += [
        key_line("Esc", close),
        key_line(letters, answer),
        "",
        escape(_("Mouse: click a die to hold it, a sheet row to score it, a button to act.")),
        escape(_("Numbers in parentheses: what the dice would score in that open box.")),
    ]
    return "\n".join(lines)


class HelpScreen(ModalScreen[None]):
    """Every key and the rules of the game's preset (``?``), scrolled with the arrows;
    any of Esc, ?, Q or Enter closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            ",".join(("escape", "question_mark", "enter", *with_capitals(with_twins(("q",))))),
            "close",
            "Close",
            show=False,
        )
    ]

    def __init__(self, lang: str, rules: Rules | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.rules = rules

    def compose(self) -> ComposeResult:
        _ = gettext_for(self.lang)
        with VerticalScroll(id="help", classes="dialog"):
            title = _("Keys")
            yield Static(f"[b]{escape(title)}[/b]", classes="title")
            yield Static(help_text(self.lang), id="help-keys")
            if self.rules is not None:
                yield Static("\n".join(["", *rules_lines(self.rules, self.lang)]), id="help-rules")
            yield Button(_("Close"), id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one(Button).can_focus = False
        self.query_one("#help").focus()  # the arrows, Page Up/Down, Home and End scroll it

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)


class HintScreen(ModalScreen[None]):
    """The hint panel over the table, when the sheet leaves too little room beside it;
    H or Esc closes it, every other key of the table still plays (the key bar stays true).
    The table screen fills the panel."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            ",".join(("escape", *with_capitals(with_twins(("h",))))), "close", "Close", show=False
        ),
    ]

    def __init__(
        self, lang: str, fill: Callable[[], None], table: Screen[None] | None = None
    ) -> None:
        super().__init__()
        self.lang = lang
        self.fill = fill
        self.table = table
        self.keys = {key: action for key, action, _text in bindings() if action != "hint"}

    async def on_key(self, event: Key) -> None:
        action = self.keys.get(event.key)
        if action is not None and self.table is not None:
            event.stop()
            event.prevent_default()
            await self.table.run_action(action)

    def compose(self) -> ComposeResult:
        _ = gettext_for(self.lang)
        with Vertical(id="hint-over"):
            # the table's notice, which the panel would cover ("Undo is off: ...")
            message = Static(id="message")
            message.display = False
            yield message
            panel = HintPanel(id="hint-panel")
            panel.border_title = _("Hint: best options")
            panel.border_subtitle = "H, Esc"
            yield panel

    def say(self, markup: str) -> None:
        message = self.query_one("#message", Static)
        message.update(markup)
        message.display = bool(markup)

    def on_mount(self) -> None:
        self.fill()

    def action_close(self) -> None:
        self.dismiss(None)

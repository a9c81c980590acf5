"""Small panels around the table: the title bar, the turn box, the key bar and the hint panel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.events import Resize
from textual.markup import escape
from textual.widgets import RichLog, Static

from yacht.i18n import format_number, format_percent
from yacht.tui.keys import TABLE_KEYS
from yacht.tui.reviews import Choice, option_text
from yacht.tui.text import gettext_for

if TYPE_CHECKING:
    from yacht.strategy import Hint
    from yacht.strategy.win import WinHint
    from yacht.tui.table import Table

__all__ = ["EventLog", "HintPanel", "KeyBar"]


class EventLog(RichLog, can_focus=False):
    """What happened, newest at the bottom (kept in view when the panel above it grows);
    it never takes the keys from the table."""

    def on_resize(self, event: Resize) -> None:
        super().on_resize(event)
        self.scroll_end(animate=False)


class KeyBar(Static):
    """The bottom line: the main keys and what they do; each entry can be clicked. Undo and
    Hint are left out when the table has them switched off."""

    def __init__(self, lang: str, *, undo: bool, hints: bool, id: str | None = None) -> None:
        _ = gettext_for(lang)
        off = {"undo"} if not undo else set()
        if not hints:
            off.add("hint")
        parts = []
        for item in TABLE_KEYS:
            if item.short is None or item.action in off:
                continue
            text = f"[b]{escape(_(item.display))}[/b] {escape(_(item.short))}"
            if item.action != "hold":
                text = f"[@click=screen.{item.action}]{text}[/]"
            parts.append(text)
        super().__init__("  ".join(parts), id=id)


class HintPanel(Static):
    """The strategy engine's best options for the player on turn, best first."""

    TOP = 5

    def show_hint(self, table: Table, hint: Hint) -> None:
        """The top options, one a line: what to do, the expected final total, and with a
        target the chance of reaching it."""
        _ = gettext_for(table.config.lang)
        target = table.config.target
        chance = None if target is None else _("P(≥{target})").format(target=target)
        rows = [(o, o.expected, o.probability) for o in hint.options[: self.TOP]]
        self.update("\n".join(self._lines(table, rows, chance)))

    def show_win_hint(self, table: Table, hint: WinHint) -> None:
        """With opponents: the top options by the chance of finishing first, each with the
        expected final total and P(win); a last line says when the chances are exact."""
        _ = gettext_for(table.config.lang)
        rows = [(o, o.expected, o.win_probability) for o in hint.options[: self.TOP]]
        lines = self._lines(table, rows, _("P(win)"))
        if hint.exact:
            exact = _("P(win) is exact: the endgame is solved.")
            lines.append(f"[dim]{escape(exact)}[/dim]")
        self.update("\n".join(lines))

    def _lines(
        self,
        table: Table,
        rows: Sequence[tuple[Choice, float, float | None]],
        chance: str | None,
    ) -> list[str]:
        """A head line, then one line per option: rank, option, total and the chance column
        (each column as wide as its head, at least as wide as its numbers: 375.0, 100.0%),
        the numbers written the language's way (110,2 and 30,8 % in Finnish)."""
        lang = table.config.lang
        _ = gettext_for(lang)
        banked = table.game.view().banked
        texts = [option_text(o, lang) for o, _e, _p in rows]
        width = min(max(len(t) for t in texts), 26)
        total = _("total")
        widest = len(format_percent(1.0, lang))
        sums, odds = max(5, len(total)), max(widest, len(chance or ""))
        head = " " * (width + 4) + f"{total:>{sums}}"
        if chance is not None:
            head += f" {chance:>{odds}}"
        lines = [f"[dim]{escape(head)}[/dim]"]
        for rank, ((_o, expected, probability), text) in enumerate(
            zip(rows, texts, strict=True), start=1
        ):
            line = f"{rank}. {text:<{width}} {format_number(banked + expected, lang):>{sums}}"
            if chance is not None and probability is not None:
                line += f" {format_percent(probability, lang):>{odds}}"
            lines.append(escape(line) if rank > 1 else f"[b]{escape(line)}[/b]")
        return lines

    def show_text(self, text: str) -> None:
        self.update(escape(text))

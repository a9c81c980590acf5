"""Small panels around the table: the title bar, the turn box, the key bar and the hint panel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.markup import escape
from textual.widgets import RichLog, Static

from yacht.tui.keys import TABLE_KEYS
from yacht.tui.reviews import option_text
from yacht.tui.text import gettext_for

if TYPE_CHECKING:
    from yacht.strategy import Hint
    from yacht.tui.table import Table

__all__ = ["EventLog", "HintPanel", "KeyBar"]


class EventLog(RichLog, can_focus=False):
    """What happened, newest at the bottom; it never takes the keys from the table."""


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
        banked = table.game.view().banked
        target = table.config.target
        options = hint.options[: self.TOP]
        texts = [option_text(o, table.config.lang) for o in options]
        width = min(max(len(t) for t in texts), 26)
        total = _("total")
        head = " " * (width + 4) + f"{total:>7}"
        if target is not None:
            chance = _("P(≥{target})").format(target=target)
            head += f" {chance:>8}"
        lines = [f"[dim]{escape(head)}[/dim]"]
        for rank, (option, text) in enumerate(zip(options, texts, strict=True), start=1):
            line = f"{rank}. {text:<{width}} {banked + option.expected:7.1f}"
            if target is not None and option.probability is not None:
                line += f" {option.probability:8.1%}"
            lines.append(escape(line) if rank > 1 else f"[b]{escape(line)}[/b]")
        self.update("\n".join(lines))

    def show_text(self, text: str) -> None:
        self.update(escape(text))

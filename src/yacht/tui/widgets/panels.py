"""Small panels around the table: the title bar, the turn box, the key bar and the hint panel."""

from __future__ import annotations

import textwrap
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
    from yacht.strategy.explain import Reason
    from yacht.strategy.win import WinHint
    from yacht.tui.table import Table

__all__ = ["EventLog", "HintPanel", "KeyBar", "key_bar"]

MAX_WIDTH = 60  # the hint panel's widest content (yacht.tcss: max-width 64, border, padding)
MIN_OPTION = 12  # an option's text is never squeezed below this


GLUE = "\xa0"  # a space textwrap does not break at


def _glued(text: str) -> str:
    """An option's points, "(0)", kept on the line of the word before them.

    >>> _glued("score Four of a Kind (0)")[-8:]
    'Kind\xa0(0)'
    """
    head, sep, points = text.rpartition(" (")
    return f"{head}{GLUE}({points}" if sep and points.endswith(")") else text


def _head(length: int, total_end: int, total: str, chance: str | None) -> str:
    """The head line of the hint: ``total`` ending at ``total_end`` (over the totals),
    ``chance`` ending the line; a head longer than its column reaches left, one space
    always between the two.

    >>> _head(20, 14, "total", "P(win)"), _head(20, 14, "yht.", "P(voitto)")
    ('        total P(win)', '      yht. P(voitto)')
    >>> _head(10, 10, "total", None)
    '     total'
    """
    head = [" "] * length
    if chance is not None:
        head[length - len(chance) :] = chance
        total_end = min(total_end, length - len(chance) - 1)
    start = max(0, total_end - len(total))
    head[start:total_end] = total[: total_end - start]
    return "".join(head)


class EventLog(RichLog, can_focus=False):
    """What happened, newest at the bottom (kept in view when the panel above it grows);
    it never takes the keys from the table."""

    def on_resize(self, event: Resize) -> None:
        super().on_resize(event)
        self.scroll_end(animate=False)


def key_bar(lang: str, width: int, *, undo: bool = False, hints: bool = True) -> str:
    """The key bar's markup for ``width`` columns: two spaces between entries when they fit,
    else one, else each key shown by its first name only ("R", not "R, Space"), so the last
    entry is never cut (Bulgarian's polite verbs are long).

    >>> from textual.markup import to_content
    >>> to_content(key_bar("en", 80)).plain
    '1-5 Hold  R, Space Roll  Enter Score  H Hint  ? Help  Q Quit'
    >>> to_content(key_bar("en", 50)).plain
    '1-5 Hold R Roll Enter Score H Hint ? Help Q Quit'
    """
    _ = gettext_for(lang)
    off = {"undo"} if not undo else set()
    if not hints:
        off.add("hint")
    items = [k for k in TABLE_KEYS if k.short is not None and k.action not in off]
    choice = ""
    for sep, first_only in (("  ", False), (" ", False), (" ", True)):
        parts, plain = [], []
        for item in items:
            keys = _(item.display)
            keys = keys.split(",")[0] if first_only else keys
            short = _(item.short or "")
            plain.append(f"{keys} {short}")
            text = f"[b]{escape(keys)}[/b] {escape(short)}"
            if item.action != "hold":
                text = f"[@click=screen.{item.action}]{text}[/]"
            parts.append(text)
        choice = sep.join(parts)
        if len(sep.join(plain)) <= width:
            break
    return choice


class KeyBar(Static):
    """The bottom line: the main keys and what they do; each entry can be clicked. Undo and
    Hint are left out when the table has them switched off. It tightens to fit the width."""

    def __init__(self, lang: str, *, undo: bool, hints: bool, id: str | None = None) -> None:
        self.lang, self.undo, self.hints = lang, undo, hints
        super().__init__(key_bar(lang, 10_000, undo=undo, hints=hints), id=id)

    def on_resize(self, event: Resize) -> None:
        width = event.size.width
        self.update(key_bar(self.lang, width, undo=self.undo, hints=self.hints))


class HintPanel(Static):
    """The strategy engine's best options for the player on turn, best first."""

    TOP = 5
    EXPLAINED = 2
    """How many of the top options the coach explains in words under them (the best one
    alone in a terminal under :data:`TALL` lines, where two would run off the screen)."""
    TALL = 40

    def show_hint(self, table: Table, hint: Hint, why: Sequence[tuple[Reason, ...]] = ()) -> None:
        """The top options, one a line: what to do, the expected final total, and with a
        target the chance of reaching it; then why, in words (``why``: the top options'
        reasons, :func:`yacht.strategy.explain.reasons_for`)."""
        _ = gettext_for(table.config.lang)
        target = table.config.target
        chance = None if target is None else _("P(≥{target})").format(target=target)
        rows = [(o, o.expected, o.probability) for o in hint.options[: self.TOP]]
        lines = self._lines(table, rows, chance) + self._why(table.config.lang, why)
        self.update("\n".join(lines))

    def _why(self, lang: str, why: Sequence[tuple[Reason, ...]]) -> list[str]:
        from yacht.coach import reason_text

        shown = why[: self.EXPLAINED if self.app.size.height >= self.TALL else 1]
        said = [reason_text(r.code, r.args, lang) for reasons in shown for r in reasons]
        if not said:
            return []
        _ = gettext_for(lang)
        head = _("Why:")
        return [f"[b]{escape(head)}[/b]", *(escape(f"• {s}") for s in said)]

    def show_win_hint(
        self, table: Table, hint: WinHint, why: Sequence[tuple[Reason, ...]] = ()
    ) -> None:
        """With opponents: the top options by the chance of finishing first, each with the
        expected final total and P(win); a last line says when the chances are exact; then
        what the top keeps play for, in words."""
        _ = gettext_for(table.config.lang)
        rows = [(o, o.expected, o.win_probability) for o in hint.options[: self.TOP]]
        lines = self._lines(table, rows, _("P(win)"))
        if hint.solved or hint.exact:
            exact = (
                _("P(win) is exact: two-player Yacht is solved.")
                if hint.solved
                else _("P(win) is exact: the endgame is solved.")
            )
            lines.append(f"[dim]{escape(exact)}[/dim]")
        # a player reading 30% as "the bot's odds" would misread it: it is the worst case
        against = _("P(win) assumes every opponent plays to beat you.")
        lines.append(f"[dim]{escape(against)}[/dim]")
        self.update("\n".join(lines + self._why(table.config.lang, why)))

    def _lines(
        self,
        table: Table,
        rows: Sequence[tuple[Choice, float, float | None]],
        chance: str | None,
    ) -> list[str]:
        """A head line, then one line per option: rank, option, total and the chance column,
        the numbers written the language's way (110,2 and 30,8 % in Finnish). The number
        columns are as wide as their numbers (a longer head reaches left over the options),
        the options take the rest of the panel, and one still too long wraps under itself:
        no line is wider than the panel, so none breaks the columns."""
        lang = table.config.lang
        _ = gettext_for(lang)
        banked = table.game.view().banked
        texts = [option_text(o, lang) for o, _e, _p in rows]
        totals = [format_number(banked + expected, lang) for _o, expected, _p in rows]
        odds = [
            "" if chance is None or p is None else format_percent(p, lang) for _o, _e, p in rows
        ]
        sums, odds_width = max(map(len, totals)), max(map(len, odds))
        numbers = 1 + sums + (1 + odds_width if chance is not None else 0)
        room = self.content_size.width or MAX_WIDTH  # not laid out yet: its widest
        width = max(MIN_OPTION, min(max(map(len, texts)), room - 3 - numbers))
        head = _head(3 + width + numbers, 3 + width + 1 + sums, _("total"), chance)
        lines = [f"[dim]{escape(head)}[/dim]"]
        for rank, (text, total, odd) in enumerate(zip(texts, totals, odds, strict=True), 1):
            parts = [
                part.replace(GLUE, " ")
                for part in textwrap.wrap(_glued(text), width, break_on_hyphens=False)
            ] or [""]
            first = f"{rank}. {parts[0]:<{width}} {total:>{sums}}"
            if chance is not None:
                first += f" {odd:>{odds_width}}"
            option = [first, *("   " + part for part in parts[1:])]
            lines += [escape(line) if rank > 1 else f"[b]{escape(line)}[/b]" for line in option]
        return lines

    def show_text(self, text: str) -> None:
        self.update(escape(text))

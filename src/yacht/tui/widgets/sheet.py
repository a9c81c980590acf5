"""The score sheet: twelve category rows, a column per player, the bonus row when the preset
has one, and a total row. Open boxes of the player on turn show what the dice would score
there, in parentheses. A row is chosen by clicking it, by its letter key, or with the cursor
(arrows) and Enter."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Click
from textual.markup import escape
from textual.message import Message
from textual.widgets import Static

from yacht.game import Game
from yacht.i18n import category_label
from yacht.rules import CATEGORIES, Category
from yacht.sheet import sheet_rows
from yacht.tui.keys import CATEGORY_KEYS
from yacht.tui.text import gettext_for

__all__ = ["CATEGORY_KEYS", "Sheet", "SheetRow", "column_width", "label_width", "squeeze"]

KEY_WIDTH = 3
LABEL_WIDTH = 16  # the most a label takes at 80 columns (English "Little Straight" and a space)
NAME_FLOOR = 10  # a name column is not squeezed below this (8 letters of the name)


def column_width(name: str, players: int) -> int:
    """Width of a player's column: the name, clipped so six players fit in 80 columns.

    >>> column_width("Winner bot", 3), column_width("Winner bot", 6)
    (12, 7)
    """
    widest = {1: 18, 2: 18, 3: 12, 4: 9}.get(players, 7)
    return max(6, min(len(name) + 2, widest))


def label_width(game: Game, lang: str) -> int:
    """Width of the label column: the language's longest label and a space, at most
    :data:`LABEL_WIDTH` (Finnish labels are short, which leaves room for the names).

    >>> from yacht.game import Game
    >>> label_width(Game(["Ann"]), "en"), label_width(Game(["Ann"]), "fi")
    (16, 12)
    """
    _ = gettext_for(lang)
    labels = [category_label(c, lang) for c in CATEGORIES] + [_("Category"), _("Total")]
    if game.rules.upper_bonus is not None:
        labels.append(_("Bonus +{points}").format(points=game.rules.upper_bonus.points))
    return min(LABEL_WIDTH, max(len(label) for label in labels) + 1)


def squeeze(widths: list[int], room: int) -> list[int] | None:
    """Name columns narrowed, the widest first, to fit ``room`` columns together; None when
    that would take a column below :data:`NAME_FLOOR`.

    >>> squeeze([6, 18], 21), squeeze([6, 18], 30), squeeze([12, 12, 12], 21)
    ([6, 15], [6, 18], None)
    """
    out = list(widths)
    while sum(out) > room:
        widest = max(range(len(out)), key=lambda p: out[p])
        if out[widest] <= NAME_FLOOR:
            return None
        out[widest] -= 1
    return out


def clip(name: str, width: int) -> str:
    """A name in ``width`` characters, an ellipsis marking a cut.

    >>> clip("Winner bot", 10), clip("Winner bot", 6)
    ('Winner bot', 'Winne…')
    """
    return name if len(name) <= width else name[: width - 1] + "…"


def _shared(a: str, b: str) -> int:
    """How many first characters two names share."""
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


def clip_apart(names: list[str], widths: list[int]) -> list[str]:
    """Each name in its width (:func:`clip`), names that would read alike told apart: a
    clipped name that matches another keeps its start and, after an ellipsis, the part
    from where it differs from the others.

    >>> clip_apart(["Anna-Kristiina", "Anna-Katariina", "Anna-Karoliina"], [8, 8, 8])
    ['Anna-Kr…', 'A…tariin', 'A…roliin']
    >>> clip_apart(["Anna-Liisa", "Bob"], [8, 8])
    ['Anna-Li…', 'Bob']
    """
    clipped = [clip(name, width) for name, width in zip(names, widths, strict=True)]
    out = list(clipped)
    for p, (name, width) in enumerate(zip(names, widths, strict=True)):
        if clipped[p] == name or clipped.count(clipped[p]) == 1 or width <= 2:
            continue
        alike = [n for q, n in enumerate(names) if q != p and clipped[q] == clipped[p]]
        same = max(_shared(name, n) for n in alike)
        out[p] = name[0] + "…" + (name[same : same + width - 2] or name[2 - width :])
    return out


class SheetRow(Static):
    """One line of the sheet: key, label, then a cell per player (one widget, so a click
    anywhere on it chooses the row)."""

    class Chosen(Message):
        def __init__(self, category: Category) -> None:
            super().__init__()
            self.category = category

    def __init__(self, category: Category | None, *, classes: str, row_id: str) -> None:
        super().__init__("", classes=f"sheet-row {classes}", id=row_id)
        self.category = category
        self.markup_now = ""

    def show(self, markup: str) -> None:
        if markup != self.markup_now:  # redraw only what changed: the sheet has many rows
            self.markup_now = markup
            self.update(markup, layout=False)

    def on_click(self, event: Click) -> None:
        event.stop()
        if self.category is not None:
            self.post_message(self.Chosen(self.category))


class Sheet(Vertical):
    """The sheet of every player, redrawn from the game by :meth:`show`."""

    def __init__(
        self, game: Game, lang: str, *, id: str | None = None, show_cursor: bool = True
    ) -> None:
        super().__init__(id=id)
        self.game = game
        self.lang = lang
        self.cursor = 0
        self.show_cursor = show_cursor
        n = len(game.players)
        self.widths = [column_width(name, n) for name in game.players]
        self.label_width = label_width(game, lang)

    @property
    def row_width(self) -> int:
        return KEY_WIDTH + self.label_width + sum(self.widths)

    def _row(self, category: Category | None, kind: str, row_id: str) -> SheetRow:
        row = SheetRow(category, classes=kind, row_id=row_id)
        row.styles.width = self.row_width
        return row

    def fit(self, room: int, *, limit: int | None = None) -> None:
        """Use up to ``room`` columns: wider labels and whole names on a large terminal,
        the 80-column widths otherwise. With ``limit``, long names are cut (an ellipsis
        marks it) so the sheet takes at most ``limit`` columns, if that leaves every name
        column :data:`NAME_FLOOR` wide; else the sheet keeps its widths."""
        n = len(self.game.players)
        widths = [column_width(name, n) for name in self.game.players]
        label = base = label_width(self.game, self.lang)
        spare = room - (KEY_WIDTH + label + sum(widths))
        if spare > 0:
            label += min(4, spare)
            spare -= label - base
            for p, name in enumerate(self.game.players):
                wanted = min(max(len(name) + 4, 10), 24) - widths[p]
                grow = max(0, min(wanted, spare // max(1, n - p)))
                widths[p] += grow
                spare -= grow
        if limit is not None:
            widths = squeeze(widths, limit - KEY_WIDTH - label) or widths
        if (widths, label) == (self.widths, self.label_width):
            return
        self.widths, self.label_width = widths, label
        for row in self.query(SheetRow):
            row.styles.width = self.row_width
        self.show()

    def compose(self) -> ComposeResult:
        yield self._row(None, "header", "row-header")
        for line in sheet_rows(self.game):
            name = line.kind if line.category is None else line.category.value
            yield self._row(line.category, line.kind, f"row-{name}")

    def on_mount(self) -> None:
        self.call_after_refresh(self.show)  # is_mounted is only true after this handler

    # --- cursor ----------------------------------------------------------------------------

    @property
    def selected(self) -> Category:
        return CATEGORIES[self.cursor]

    def move(self, delta: int) -> None:
        """Move the cursor to the next open category of the player on turn (wrapping)."""
        sheet = self.game.sheet(self.game.current)
        for step in range(1, len(CATEGORIES) + 1):
            index = (self.cursor + delta * step) % len(CATEGORIES)
            if CATEGORIES[index] not in sheet:
                self.cursor = index
                break
        self.show()

    def select(self, category: Category) -> None:
        self.cursor = category.index
        self.show()

    def reset_cursor(self) -> None:
        """Put the cursor on the first open category of the player on turn."""
        sheet = self.game.sheet(self.game.current)
        self.cursor = next((c.index for c in CATEGORIES if c not in sheet), 0)
        self.show()

    # --- drawing ---------------------------------------------------------------------------

    def _line(self, key: str, label: str, cells: list[str], *, head: bool = False) -> str:
        """Markup of one row. A cell in parentheses (a potential score) is in italics; the
        column of the player on turn is tinted."""
        g = self.game
        width = self.label_width
        parts = [escape(key.ljust(KEY_WIDTH)), escape(label[:width].ljust(width))]
        for p, text in enumerate(cells):
            padded = escape(text.rjust(self.widths[p] - 1) + " ")
            style = "i $text-muted" if text.startswith("(") else ""
            if p == g.current and not g.finished:
                style += " on $primary" if head else " on $primary 25%"
            parts.append(f"[{style.strip()}]{padded}[/]" if style else padded)
        return "".join(parts)

    def _put(self, row_id: str, markup: str) -> SheetRow:
        row = self.query_one(f"#{row_id}", SheetRow)
        row.show(markup)
        return row

    def show(self) -> None:
        """Redraw every row from the game."""
        if not self.is_mounted:
            return
        _ = gettext_for(self.lang)
        g = self.game
        names = []
        clipped = clip_apart(list(g.players), [w - 2 for w in self.widths])
        for p, name in enumerate(clipped):
            mark = "▶" if p == g.current and not g.finished else " "
            names.append(mark + name)
        self._put("row-header", self._line("", _("Category"), names, head=True))
        own = g.sheet(g.current)
        for line in sheet_rows(g):
            category = line.category
            if category is None:
                if line.kind == "bonus" and g.rules.upper_bonus is not None:
                    label = _("Bonus +{points}").format(points=g.rules.upper_bonus.points)
                else:
                    label = _("Total")
                self._put(f"row-{line.kind}", self._line("", label, list(line.cells)))
                continue
            here = self.show_cursor and category.index == self.cursor and not g.finished
            key = ("▸" if here else " ") + CATEGORY_KEYS[category]
            label = category_label(category, self.lang)
            row = self._put(f"row-{category.value}", self._line(key, label, list(line.cells)))
            row.set_class(here, "-cursor")
            row.set_class(category in own, "-filled")

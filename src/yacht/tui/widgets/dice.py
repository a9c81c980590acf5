"""Five large dice with pips. A held die gets a heavy border and a HELD label under it,
so holding never relies on colour alone. Clicking a die (or its label) toggles its hold."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

__all__ = ["DiceTray", "DieSlot", "face_lines"]

PIP = "●"
_SPOTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 2), (2, 0)),
    3: ((0, 2), (1, 1), (2, 0)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)),
}


def face_lines(face: int | None, *, big: bool = False) -> list[str]:
    """The inner lines of a die showing ``face``: three lines 7 wide, or five lines 11 wide
    when ``big`` (a large terminal); blank before the first roll.

    >>> print("\\n".join(face_lines(5)))
     ●   ●
       ●
     ●   ●
    >>> [len(line) for line in face_lines(6, big=True)]
    [11, 11, 11, 11, 11]
    """
    rows, step = (5, 4) if big else (3, 2)
    grid = [[" "] * (3 + 2 * step) for _ in range(rows)]
    for row, col in _SPOTS.get(face or 0, ()):
        grid[row * (rows // 2)][1 + step * col] = PIP
    return ["".join(r) for r in grid]


class Face(Static):
    """The die itself: pips inside a border titled with its key (1-5)."""


class DieSlot(Widget):
    """One die and the label under it."""

    class Toggled(Message):
        """The player clicked die ``position`` (1-based)."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, position: int) -> None:
        super().__init__(id=f"die-{position}", classes="die-slot")
        self.position = position
        self.face: int | None = 0  # nothing shown yet
        self.held = False
        self.big = False

    def compose(self) -> ComposeResult:
        face = Face("\n".join(face_lines(None)), classes="face")
        face.border_title = str(self.position)
        yield face
        yield Static("", classes="hold-label")

    def show(self, face: int | None, held: bool, held_text: str, *, big: bool = False) -> None:
        if (face, held, big) == (self.face, self.held, self.big) and self.is_mounted:
            return
        self.face, self.held, self.big = face, held, big
        self.set_class(big, "-big")
        self.query_one(Face).update("\n".join(face_lines(face, big=big)), layout=big)
        self.query_one(".hold-label", Static).update(held_text if held else "", layout=False)
        self.set_class(held, "-held")
        self.set_class(face is None, "-blank")

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Toggled(self.position))


class DiceTray(Horizontal):
    """The five dice in a row."""

    def compose(self) -> ComposeResult:
        for position in range(1, 6):
            yield DieSlot(position)

    def show(
        self,
        dice: Sequence[int] | None,
        held: frozenset[int],
        held_text: str,
        *,
        old: bool = False,
    ) -> None:
        """Show ``dice`` (None: blank); ``old`` dice are the last turn's, shown dimmed.
        The dice are large while the tray has the class ``-big`` (a large terminal)."""
        self.set_class(old, "-old")
        big = self.has_class("-big")
        for slot in self.query(DieSlot):
            face = dice[slot.position - 1] if dice is not None else None
            slot.show(face, slot.position in held and dice is not None, held_text, big=big)

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


def face_lines(face: int | None) -> list[str]:
    """The three inner lines (7 wide) of a die showing ``face``; blank before the first roll.

    >>> print("\\n".join(face_lines(5)))
     ●   ●
       ●
     ●   ●
    """
    grid = [[" "] * 7 for _ in range(3)]
    for row, col in _SPOTS.get(face or 0, ()):
        grid[row][1 + 2 * col] = PIP
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

    def compose(self) -> ComposeResult:
        face = Face("\n".join(face_lines(None)), classes="face")
        face.border_title = str(self.position)
        yield face
        yield Static("", classes="hold-label")

    def show(self, face: int | None, held: bool, held_text: str) -> None:
        if (face, held) == (self.face, self.held) and self.is_mounted:
            return
        self.face, self.held = face, held
        self.query_one(Face).update("\n".join(face_lines(face)), layout=False)
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

    def show(self, dice: Sequence[int] | None, held: frozenset[int], held_text: str) -> None:
        for slot in self.query(DieSlot):
            face = dice[slot.position - 1] if dice is not None else None
            slot.show(face, slot.position in held and dice is not None, held_text)

"""The smallest terminal the game is played in, and what a smaller one shows instead.

Below :data:`MIN_WIDTH` x :data:`MIN_HEIGHT` a screen hides everything behind one message
saying how big the terminal must be, and takes no game keys (Q and Ctrl+C still quit), so
nothing can be chosen that cannot be seen. It comes back as soon as the terminal is big
enough.
"""

from __future__ import annotations

from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Static

from yacht.tui.text import gettext_for

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "SizeGuard", "TooSmall", "too_small_text"]

MIN_WIDTH = 80
MIN_HEIGHT = 24
ALLOWED = frozenset({"quit", "app.quit"})  # what still works in a small terminal


def too_small_text(width: int, height: int, lang: str) -> str:
    """The message of a terminal too small to play in.

    >>> too_small_text(60, 20, "en").splitlines()[0]
    'The terminal is 60x20: the game needs at least 80x24.'
    """
    _ = gettext_for(lang)
    return "\n".join(
        [
            _("The terminal is {width}x{height}: the game needs at least {min}.").format(
                width=width, height=height, min=f"{MIN_WIDTH}x{MIN_HEIGHT}"
            ),
            _("Make the window bigger (or the font smaller); Q quits."),
        ]
    )


class TooSmall(Static):
    """The message shown instead of a screen in a terminal that is too small."""


class SizeGuard(Screen[None]):
    """A screen that stands aside in a terminal below the minimum size."""

    lang = "en"

    def guard_mounted(self) -> None:
        """Call from ``on_mount`` (after the screen's widgets are composed)."""
        self.mount(TooSmall("", id="too-small"))
        self.check_size()
        self.fit()

    @property
    def too_small(self) -> bool:
        width, height = self.app.size
        return width < MIN_WIDTH or height < MIN_HEIGHT

    def check_size(self) -> None:
        small = self.too_small
        self.set_class(small, "-too-small")
        if small:
            width, height = self.app.size
            text = too_small_text(width, height, self.lang)
            self.query_one("#too-small", TooSmall).update(escape(text))

    def on_resize(self) -> None:
        if self.query("#too-small"):
            self.check_size()
        self.fit()

    def fit(self) -> None:
        """Lay the screen out for the terminal's size (a screen that grows overrides it)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action in ALLOWED or not self.too_small

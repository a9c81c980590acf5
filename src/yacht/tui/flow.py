"""The way through the terminal game as its screens ask for it: setup, table, end, again.

The app (:class:`yacht.tui.app.YachtApp`) owns the way and builds the screens; each screen is
handed the app as a :class:`Flow` and asks it for the next step, so no screen imports the app.
"""

from __future__ import annotations

from typing import Protocol

from yacht.tui.seats import TableConfig

__all__ = ["Flow"]


class Flow(Protocol):
    """What a screen may ask of the app that showed it."""

    def start_game(self, config: TableConfig) -> None:
        """A new game at the table ``config`` describes."""

    def resume(self, lang: str | None = None) -> None:
        """The saved game, where it was left (in ``lang`` when given)."""

    def play_again(self) -> None:
        """A new game at the same table."""

    def show_setup(self, config: TableConfig) -> None:
        """The setup screen in place of this one, filled in from ``config``."""

    def new_setup(self) -> None:
        """The setup screen in place of this one, filled in from the last table."""

    def practice(self, lang: str) -> None:
        """Practice on the costliest decisions of finished games, over this screen."""

    def daily(self, lang: str, preset: str) -> None:
        """Today's daily game of ``preset`` on the server, over this screen."""

"""What makes the table feel alive: the roll animation and the moments worth a cheer.

A roll tumbles the dice that were rolled for :data:`FRAMES` frames (held dice stay still);
any key skips it, and it is off with ``yacht play --no-animation``, ``NO_COLOR`` or
``YACHT_NO_ANIMATION`` in the environment (and in tests, where the app is made without it).
The faces shown while tumbling come from a generator of their own: they are a picture, not
the game's dice, which are already rolled.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence

from textual.timer import Timer

from yacht.actions import Score
from yacht.game import Event
from yacht.i18n import category_label
from yacht.rules import Category
from yacht.tui.text import gettext_for
from yacht.tui.widgets.dice import DiceTray

__all__ = ["BIG_SCORE", "FRAMES", "RollAnimation", "animation_wanted", "moment_text"]

FRAMES = 7
FRAME_SECONDS = 0.06
BIG_SCORE = 30  # a scoring worth a moment, besides any Yacht


def animation_wanted(environ: Mapping[str, str] | None = None, *, asked_off: bool = False) -> bool:
    """Whether to animate: not when asked off, nor under ``NO_COLOR`` (https://no-color.org)
    or ``YACHT_NO_ANIMATION`` (any non-empty value).

    >>> animation_wanted({}), animation_wanted({"NO_COLOR": "1"})
    (True, False)
    >>> animation_wanted({}, asked_off=True)
    False
    """
    env = os.environ if environ is None else environ
    return not (asked_off or env.get("NO_COLOR") or env.get("YACHT_NO_ANIMATION"))


def moment_text(event: Event, players: Sequence[str], lang: str) -> str | None:
    """The cheer for a scoring worth one (a Yacht, or :data:`BIG_SCORE` points or more).

    >>> from yacht.actions import Score
    >>> moment_text(Event(0, Score(Category.YACHT), points=50), ["Ann"], "en")
    'YACHT! Ann scores 50'
    >>> moment_text(Event(0, Score(Category.CHOICE), points=23), ["Ann"], "en") is None
    True
    """
    act = event.action
    if not isinstance(act, Score) or not event.points:
        return None
    _ = gettext_for(lang)
    name = players[event.player]
    if act.category is Category.YACHT:
        return _("YACHT! {name} scores {points}").format(name=name, points=event.points)
    if event.points >= BIG_SCORE:
        return _("{name}: {points} in {category}!").format(
            name=name, points=event.points, category=category_label(act.category, lang)
        )
    return None


class RollAnimation:
    """Tumbles the rolled dice of a tray for a moment, then calls ``done``."""

    def __init__(self, tray: DiceTray, held_text: str, *, enabled: bool) -> None:
        self.tray = tray
        self.held_text = held_text
        self.enabled = enabled
        self.looks = random.Random()  # pictures only: the game's dice are already rolled
        self.timer: Timer | None = None
        self.frames = 0
        self.done: Callable[[], None] | None = None

    @property
    def running(self) -> bool:
        return self.timer is not None

    def start(self, dice: Sequence[int], held: frozenset[int], done: Callable[[], None]) -> bool:
        """Tumble the dice not in ``held``; False (and nothing happens) when it is off."""
        if not self.enabled:
            return False
        self.stop(finish=False)
        self.frames, self.done = FRAMES, done
        self.dice, self.held = tuple(dice), held
        self.tray.add_class("-rolling")
        self.timer = self.tray.set_interval(FRAME_SECONDS, self._frame)
        self._frame()
        return True

    def _frame(self) -> None:
        self.frames -= 1
        if self.frames < 0:
            self.stop()
            return
        faces = [
            d if p in self.held else self.looks.randint(1, 6)
            for p, d in enumerate(self.dice, start=1)
        ]
        self.tray.show(faces, self.held, self.held_text)

    def stop(self, *, finish: bool = True) -> None:
        """End the tumble now (a key skips it) and show the real dice."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.tray.remove_class("-rolling")
        done, self.done = self.done, None
        if finish and done is not None:
            done()

"""The practice rating: the player and every position rated against each other, as lichess
rates puzzles, on OpenSkill's Plackett-Luce model (``openskill``).

Each answer is a game of two: the player against the position. A solved position (the best
answer, :data:`yacht.training.SOLVED`) is a win for the player, any other answer a win for
the position, so hard positions climb and the player's rating moves most on positions near
their level. A new player and a new position start at mu 25, sigma 25/3, shown as 1500 (60
points per unit of mu, like the rated tables).

The ratings are kept in one JSON file (``practice.json`` in the data directory), written
whole to a temporary file and renamed over the old one, so a crash leaves the old file or
the new one, never half of one.

>>> import tempfile
>>> from pathlib import Path
>>> book = PracticeBook.open(Path(tempfile.mkdtemp()) / "practice.json")
>>> book.player.shown
1500
>>> change = book.record("traditional||1 2 3 4 6|2", solved=True, loss=0.0)
>>> change.before.shown, change.after.shown > 1500
(1500, True)
>>> PracticeBook.open(book.path).player == book.player  # saved
True
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from yacht.training import TrainingError

__all__ = ["HISTORY", "MU", "SCALE", "SIGMA", "Change", "PracticeBook", "Rated", "rate"]

MU = 25.0
SIGMA = MU / 3
SCALE = 60.0
"""Shown points per unit of mu: 25 shows as 1500."""

HISTORY = 1000
"""Answers kept in the file (the newest)."""

FILE_VERSION = 1


@dataclass(frozen=True)
class Rated:
    """A rating: ``mu``, ``sigma``, answers ``attempts`` and how many were ``solved``."""

    mu: float = MU
    sigma: float = SIGMA
    attempts: int = 0
    solved: int = 0

    @property
    def shown(self) -> int:
        return round(SCALE * self.mu)

    @property
    def provisional(self) -> bool:
        """Fewer than 10 answers: the rating is still a guess (shown with a ?)."""
        return self.attempts < 10

    def to_json(self) -> dict[str, Any]:
        return {
            "mu": self.mu,
            "sigma": self.sigma,
            "attempts": self.attempts,
            "solved": self.solved,
        }

    @classmethod
    def from_json(cls, data: object) -> Rated:
        if not isinstance(data, dict):
            raise TypeError("a rating is not an object")
        mu, sigma = data["mu"], data["sigma"]
        attempts, solved = data["attempts"], data["solved"]
        for number in (mu, sigma):
            if isinstance(number, bool) or not isinstance(number, int | float):
                raise TypeError(f"{number!r} is not a number")
            if not math.isfinite(number):
                raise ValueError(f"{number!r} is not finite")
        for whole in (attempts, solved):
            if isinstance(whole, bool) or not isinstance(whole, int) or whole < 0:
                raise TypeError(f"{whole!r} is not a count")
        if sigma <= 0 or solved > attempts:
            raise ValueError("sigma must be above 0 and solved at most the attempts")
        return cls(float(mu), float(sigma), attempts, solved)


def rate(player: Rated, position: Rated, solved: bool) -> tuple[Rated, Rated]:
    """The player's and the position's ratings after one answer: a game of two won by the
    player when ``solved``, by the position otherwise (OpenSkill's Plackett-Luce).

    >>> me, it = rate(Rated(), Rated(), solved=False)
    >>> me.shown < 1500 < it.shown, me.attempts, it.attempts, me.solved
    (True, 1, 1, 0)
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA)
    me = model.rating(mu=player.mu, sigma=player.sigma)
    it = model.rating(mu=position.mu, sigma=position.sigma)
    [[me2], [it2]] = model.rate([[me], [it]], ranks=[0, 1] if solved else [1, 0])
    return (
        Rated(me2.mu, me2.sigma, player.attempts + 1, player.solved + solved),
        Rated(it2.mu, it2.sigma, position.attempts + 1, position.solved + solved),
    )


@dataclass(frozen=True)
class Change:
    """What one answer did to the player's rating and the position's."""

    before: Rated
    after: Rated
    position_before: Rated
    position_after: Rated

    @property
    def shown_change(self) -> int:
        return self.after.shown - self.before.shown


@dataclass
class PracticeBook:
    """The player's practice rating, each position's, and the newest answers."""

    path: Path
    player: Rated = field(default_factory=Rated)
    positions: dict[str, Rated] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def open(cls, path: Path) -> PracticeBook:
        """The book in ``path`` (a new one if there is no file). TrainingError if the file is
        there but cannot be read: it is left as it is, for the player to look at."""
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            return cls(path)
        except OSError as e:
            raise TrainingError("position", reason=f"{path}: {e.strerror}") from None
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("version") != FILE_VERSION:
                raise ValueError("not a practice file of this yacht")
            history = data["history"]
            if not isinstance(history, list) or not isinstance(data["positions"], dict):
                raise TypeError("history or positions of the wrong type")
            return cls(
                path,
                Rated.from_json(data["player"]),
                {str(k): Rated.from_json(v) for k, v in data["positions"].items()},
                [h for h in history if isinstance(h, dict)],
            )
        except (KeyError, TypeError, ValueError) as e:
            raise TrainingError("position", reason=f"{path} cannot be read: {e}") from None

    def solved_keys(self) -> set[str]:
        """The positions this player has solved (practice serves them no more)."""
        return {h["key"] for h in self.history if h.get("solved") and isinstance(h.get("key"), str)}

    def record(self, key: str, *, solved: bool, loss: float) -> Change:
        """Rate one answer to position ``key`` and save the book."""
        before = self.player
        pos_before = self.positions.get(key, Rated())
        after, pos_after = rate(before, pos_before, solved)
        self.player = after
        self.positions[key] = pos_after
        when = datetime.now(UTC).isoformat(timespec="seconds")
        self.history.append({"key": key, "solved": solved, "loss": round(loss, 6), "at": when})
        del self.history[:-HISTORY]
        self.save()
        return Change(before, after, pos_before, pos_after)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FILE_VERSION,
            "player": self.player.to_json(),
            "positions": {k: v.to_json() for k, v in self.positions.items()},
            "history": self.history,
        }

    def save(self) -> None:
        """Write the book whole: a temporary file in the same folder, renamed over the old."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".practice-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.to_json(), f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

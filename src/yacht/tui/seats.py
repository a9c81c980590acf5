"""Who sits at the table and how the table is set: seats (human or bot level) and options.

>>> config = TableConfig.default("en")
>>> [(s.name, s.kind) for s in config.seats]
[('You', 'human'), ('Medium bot', 'medium')]
>>> TableConfig.from_json(config.to_json()) == config
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from yacht.game import MAX_PLAYERS
from yacht.i18n import LANGUAGES
from yacht.rules import preset_names
from yacht.tui.text import N_, gettext_for

__all__ = ["BOT_KINDS", "HUMAN", "Seat", "TableConfig", "kind_label"]

HUMAN = "human"
BOT_KINDS: tuple[str, ...] = ("easy", "medium", "hard", "optimal", "winner", "greedy", "random")
"""The bot levels offered at the table (names understood by :func:`yacht.bots.make_bot`)."""

_KIND_LABELS: dict[str, str] = {
    HUMAN: N_("Human"),
    "easy": N_("Bot: easy"),
    "medium": N_("Bot: medium"),
    "hard": N_("Bot: hard"),
    "optimal": N_("Bot: optimal"),
    "winner": N_("Bot: winner"),
    "greedy": N_("Bot: greedy"),
    "random": N_("Bot: random"),
}
_BOT_NAMES: dict[str, str] = {
    "easy": N_("Easy bot"),
    "medium": N_("Medium bot"),
    "hard": N_("Hard bot"),
    "optimal": N_("Optimal bot"),
    "winner": N_("Winner bot"),
    "greedy": N_("Greedy bot"),
    "random": N_("Random bot"),
}


def kind_label(kind: str, lang: str = "en") -> str:
    """The label of a seat kind in the setup list, e.g. ``Bot: medium``."""
    return gettext_for(lang)(_KIND_LABELS[kind])


def default_name(kind: str, lang: str = "en", number: int = 1) -> str:
    """A default seat name: ``You`` for the first human, ``Player 2``..., ``Medium bot``."""
    _ = gettext_for(lang)
    if kind == HUMAN:
        return _("You") if number == 1 else _("Player {n}").format(n=number)
    return _(_BOT_NAMES[kind])


@dataclass(frozen=True)
class Seat:
    """A player's name and kind: ``human`` or a bot level from :data:`BOT_KINDS`."""

    name: str
    kind: str = HUMAN

    def __post_init__(self) -> None:
        if self.kind != HUMAN and self.kind not in BOT_KINDS:
            raise ValueError(f"unknown seat kind {self.kind!r} (human or {', '.join(BOT_KINDS)})")

    @property
    def is_bot(self) -> bool:
        return self.kind != HUMAN

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind}


COACH_LEAST, COACH_MOST = 0.1, 5.0
"""The live coach's threshold: it warns before a move that loses more than this many points."""
COACH_WIN_MOST = 10.0
"""With opponents the threshold may be percentage points of the chance of winning instead
(from :data:`COACH_LEAST` to this): heads-up, one expected point early in a game is worth about
0.8 of them."""


@dataclass(frozen=True)
class TableConfig:
    """Everything the setup screen decides; saved with a game so a resume is exact."""

    seats: tuple[Seat, ...]
    preset: str = "traditional"
    lang: str = "en"
    hints: bool = True
    target: int | None = None
    undo: bool = False
    coach: float | None = None  # the live coach's threshold in points (0.1-5), or off
    coach_win: float | None = None  # or in percentage points of the chance of winning (0.1-10)

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise ValueError with a plain message when the table cannot be played."""
        names = [s.name.strip() for s in self.seats]
        if not 1 <= len(names) <= MAX_PLAYERS:
            raise ValueError(f"a game needs 1 to {MAX_PLAYERS} players, got {len(names)}")
        if not all(names):
            raise ValueError("every player needs a name")
        if len(set(names)) != len(names):
            raise ValueError(f"player names must differ: {', '.join(names)}")
        if self.preset not in preset_names():
            raise ValueError(f"unknown preset {self.preset!r}")
        if self.lang not in LANGUAGES:
            raise ValueError(f"unknown language {self.lang!r}")
        if self.target is not None and not 0 < self.target <= 400:
            raise ValueError(f"target score must be 1 to 400, got {self.target}")
        if self.coach is not None and not COACH_LEAST <= self.coach <= COACH_MOST:
            raise ValueError(
                f"the live coach's threshold must be 0.1 to 5 points, got {self.coach}"
            )
        if self.coach_win is not None:
            if not COACH_LEAST <= self.coach_win <= COACH_WIN_MOST:
                raise ValueError(
                    "the live coach's threshold in the chance of winning must be 0.1% to 10%, "
                    f"got {self.coach_win}%"
                )
            if len(names) < 2:
                raise ValueError("a threshold in the chance of winning needs opponents")
            if self.coach is not None:
                raise ValueError("the live coach takes one threshold: points or a chance")

    @classmethod
    def default(cls, lang: str = "en") -> TableConfig:
        """You against the medium bot, traditional rules, hints on."""
        seats = (
            Seat(default_name(HUMAN, lang), HUMAN),
            Seat(default_name("medium", lang), "medium"),
        )
        return cls(seats, lang=lang)

    @property
    def names(self) -> list[str]:
        return [s.name.strip() for s in self.seats]

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_bot]

    def with_seats(self, seats: Sequence[Seat]) -> TableConfig:
        return replace(self, seats=tuple(seats))

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": [s.to_json() for s in self.seats],
            "preset": self.preset,
            "lang": self.lang,
            "hints": self.hints,
            "target": self.target,
            "undo": self.undo,
            "coach": self.coach,
            "coach_win": self.coach_win,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableConfig:
        try:
            seats = tuple(Seat(str(s["name"]), str(s["kind"])) for s in data["seats"])
            target = data.get("target")
            coach = data.get("coach")
            coach_win = data.get("coach_win")
            return cls(
                seats,
                preset=str(data.get("preset", "traditional")),
                lang=str(data.get("lang", "en")),
                hints=bool(data.get("hints", True)),
                target=None if target is None else int(target),
                undo=bool(data.get("undo", False)),
                coach=None if coach is None else float(coach),
                coach_win=None if coach_win is None else float(coach_win),
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"malformed table settings: {e!r}") from None

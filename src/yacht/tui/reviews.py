"""The strategy engine's review of a game, in words, for the end screen and for replays.

Text only (no Textual), so ``yacht replay --plain`` uses it too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from yacht.i18n import category_label
from yacht.rules import Category
from yacht.tui.seats import Seat
from yacht.tui.text import gettext_for

if TYPE_CHECKING:
    from yacht.review import Decision, Review

__all__ = ["Choice", "decision_line", "option_text", "summary_lines"]


class Choice(Protocol):
    """An option of a hint or a review (:class:`yacht.strategy.Option` or a win option)."""

    @property
    def action(self) -> str: ...
    @property
    def keep(self) -> tuple[int, ...] | None: ...
    @property
    def category(self) -> Category | None: ...
    @property
    def points(self) -> int | None: ...


def option_text(option: Choice, lang: str) -> str:
    """An option in words: ``keep 6 6 6``, ``roll all five`` or ``score Full House (28)``."""
    _ = gettext_for(lang)
    if option.action == "keep":
        keep = tuple(option.keep or ())
        if not keep:
            return _("roll all five")
        if len(keep) == 5:
            return _("keep all")
        return _("keep {dice}").format(dice=" ".join(map(str, keep)))
    assert option.category is not None
    return _("score {category} ({points})").format(
        category=category_label(option.category, lang), points=option.points
    )


def decision_line(decision: Decision, lang: str) -> str:
    """``Turn 4, roll 2: 6 6 5 3 1``, then ``-> keep 6 6`` with the points it lost, and the
    best option when that was not it, one a line."""
    _ = gettext_for(lang)
    where = _("Turn {turn}, roll {roll}").format(turn=decision.turn, roll=decision.roll)
    dice = " ".join(map(str, decision.dice))
    taken = f" → {option_text(decision.taken, lang)}"
    if decision.accurate:
        return f"{where}: {dice}\n{taken}"
    best = _("best: {option}").format(option=option_text(decision.best, lang))
    return f"{where}: {dice}\n{taken} (-{decision.loss:.1f})\n {best}"


def summary_lines(
    review: Review, seats: Sequence[Seat], lang: str, *, worst: int = 3, everyone: bool = False
) -> list[str]:
    """For every human seat (every seat with ``everyone``): points lost, accuracy, and the
    costliest decisions."""
    _ = gettext_for(lang)
    lines: list[str] = []
    for summary in review.players:
        if seats[summary.player].is_bot and not everyone:
            continue
        if summary.accuracy is None:  # no decision yet
            lines.append(_("{name}: no decisions yet").format(name=summary.name))
            continue
        lines.append(
            _("{name}: accuracy {accuracy:.0f}%").format(
                name=summary.name, accuracy=summary.accuracy
            )
        )
        lines.append(
            " "
            + _("{loss:.1f} points lost in {n} decisions").format(
                loss=summary.loss, n=summary.decisions
            )
        )
        mine = [d for d in review.decisions if d.player == summary.player and not d.accurate]
        for decision in sorted(mine, key=lambda d: -d.loss)[:worst]:
            lines += [" " + line for line in decision_line(decision, lang).splitlines()]
    if not lines:
        lines.append(_("No human players to review."))
    return lines

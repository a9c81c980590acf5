"""The strategy engine's review of a game, in words, for the end screen and for replays.

Text only (no Textual), so ``yacht replay --plain`` uses it too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from yacht.i18n import category_label, format_number, format_percent
from yacht.rules import Category
from yacht.tui.seats import Seat
from yacht.tui.text import gettext_for, ngettext_for

if TYPE_CHECKING:
    from yacht.review import Decision, Review

__all__ = [
    "Choice",
    "amount",
    "decision_line",
    "loss_text",
    "measure_line",
    "option_text",
    "summary_lines",
]

NOTHING = 1e-9  # a loss below this is none (yacht.review.TOLERANCE)


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


def amount(value: float, lang: str = "en", *, percent: bool = False) -> str:
    """A loss as the language writes numbers: one decimal, or two significant digits when
    that would read 0.0 (a loss is never shown as nothing).

    >>> amount(6.06), amount(0.0031), amount(0.00031, percent=True), amount(0.0), amount(1e-7)
    ('6.1', '0.0031', '0.031%', '0.0', '<0.001')
    >>> amount(6.06, "fi"), amount(0.00031, "nb", percent=True), amount(0.25, "bg", percent=True)
    ('6,1', '0,031\xa0%', '25,0%')
    """
    x = value * 100 if percent else value

    def shown(number: float, digits: int) -> str:
        if percent:
            return format_percent(number / 100, lang, digits=digits)
        return format_number(number, lang, digits=digits)

    if x >= 0.05 or x == 0:
        return shown(x, 1)
    if x >= 0.001:
        return shown(x, 1 - math.floor(math.log10(x)))
    return "<" + shown(0.001, 3)


def loss_text(decision: Decision, lang: str) -> str:
    """What a decision gave up: the measure the hint used, and the points beside it."""
    _ = gettext_for(lang)
    # a number with decimals always takes the plural ("1.0 points", "1,0 pistettä"; CLDR:
    # other), so these lines need no ngettext
    points = amount(decision.points_loss, lang)
    if decision.measure == "points":
        return _("-{points} points").format(points=points)
    chance = amount(decision.loss, lang, percent=True)
    # a part that gave up nothing is left out: "-0.0 points" reads as a loss
    if decision.loss < NOTHING:
        return _("-{points} points").format(points=points)
    if decision.points_loss < NOTHING:
        if decision.measure == "win":
            return _("-{chance} to win").format(chance=chance)
        return _("-{chance} to reach the target").format(chance=chance)
    if decision.measure == "win":
        return _("-{chance} to win, -{points} points").format(chance=chance, points=points)
    return _("-{chance} to reach the target, -{points} points").format(chance=chance, points=points)


def measure_line(review: Review, lang: str) -> str:
    """How the review rates decisions: the same way the hint ranked them."""
    _ = gettext_for(lang)
    if review.measure == "win":
        return _("Rated as the hint ranks: by the chance to finish first.")
    if review.measure == "target":
        return _("Rated as the hint ranks: by the chance to reach {target}.").format(
            target=review.target
        )
    return _("Rated as the hint ranks: by expected points.")


def decision_line(decision: Decision, lang: str) -> str:
    """``Round 4, roll 2: 6 6 5 3 1``, then ``-> keep 6 6`` with what it lost, and the
    hint's top option when that was not it, one a line."""
    _ = gettext_for(lang)
    where = _("Round {round}, roll {roll}").format(round=decision.turn, roll=decision.roll)
    dice = " ".join(map(str, decision.dice))
    taken = f" → {option_text(decision.taken, lang)}"
    if decision.accurate:
        return f"{where}: {dice}\n{taken}"
    best = _("best: {option}").format(option=option_text(decision.best, lang))
    return f"{where}: {dice}\n{taken} ({loss_text(decision, lang)})\n {best}"


def why_lines(review: Review, decision: Decision, lang: str) -> list[str]:
    """Why the best option beat the one taken, a sentence a line (the coach in words,
    :func:`yacht.review.decision_reasons`, in the ``yacht`` domain's sentences)."""
    from yacht.coach import reason_text
    from yacht.review import decision_reasons
    from yacht.rules import rules_by_name

    best, taken = decision_reasons(rules_by_name(review.rules), decision)
    return [reason_text(r.code, r.args, lang) for r in (*best, *taken)]


def summary_lines(
    review: Review, seats: Sequence[Seat], lang: str, *, worst: int = 3, everyone: bool = False
) -> list[str]:
    """How decisions are rated, then for every human seat (every seat with ``everyone``):
    accuracy, what was lost, and the costliest decisions."""
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    lines: list[str] = [measure_line(review, lang)]
    for summary in review.players:
        if seats[summary.player].is_bot and not everyone:
            continue
        if summary.accuracy is None:  # no decision yet
            lines.append(_("{name}: no decisions yet").format(name=summary.name))
            continue
        accuracy = format_percent(summary.accuracy / 100, lang, digits=0)
        lines.append(_("{name}: accuracy {accuracy}").format(name=summary.name, accuracy=accuracy))
        lost = ngettext(
            "{points} points lost in {n} decision",
            "{points} points lost in {n} decisions",
            summary.decisions,
        ).format(points=amount(summary.points_loss, lang), n=summary.decisions)
        # chances lost one by one do not add up to a chance: they are shown per decision
        lines.append(" " + lost)
        mine = [d for d in review.decisions if d.player == summary.player and not d.accurate]
        for decision in sorted(mine, key=lambda d: (-d.loss, -d.points_loss))[:worst]:
            lines += [" " + line for line in decision_line(decision, lang).splitlines()]
            lines += ["   " + line for line in why_lines(review, decision, lang)]
    if len(lines) == 1:
        lines.append(_("No human players to review."))
    return lines

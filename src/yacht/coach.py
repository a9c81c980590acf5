"""The coach in words: the exact facts of :mod:`yacht.strategy.explain` as whole sentences in
the player's language (the ``yacht`` domain; the command line and the terminal game use it).

Each :class:`~yacht.strategy.explain.Reason` code has its own sentence with placeholders,
translated whole; chances are written as the language writes percentages, points with one
decimal, differences with their sign.

>>> from yacht.strategy.explain import explain
>>> e = explain("traditional", [], [6, 6, 6, 2, 3], rolls_left=2, top=2)
>>> for reasons in e.reasons():
...     for r in reasons:
...         print(reason_text(r.code, r.args, "en"))
Keep 6 6 6: 49% chance of Four of a Kind and 17% of Full House, the rest of the turn played best.
Keep 3 6 6 6: 37% chance of Four of a Kind and 26% of Full House, the rest of the turn played best.
Keeping 3 6 6 6 instead changes this turn's expected points by -1.5 and the value of what stays open by -0.6.
>>> print(reason_text(e.reasons()[0][0].code, e.reasons()[0][0].args, "fi"))
Pidä 6 6 6: Neljä samaa 49\xa0%:n ja Full House 17\xa0%:n todennäköisyydellä, kun loput vuorosta pelataan parhaalla tavalla.
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from babel.numbers import get_minus_sign_symbol

from yacht.errors import N_
from yacht.i18n import category_label, format_number, format_percent, language_code, translator
from yacht.rules import Category

__all__ = ["MESSAGES", "reason_text", "signed"]

MESSAGES: dict[str, str] = {
    "keep_two": N_(
        "Keep {dice}: {chance} chance of {category} and {chance2} of {category2}, "
        "the rest of the turn played best."
    ),
    "keep_one": N_("Keep {dice}: {chance} chance of {category}, the rest of the turn played best."),
    "keep_ends": N_(
        "Keep {dice}: the turn ends in {category} {chance} of the time, the rest of it played best."
    ),
    "all_two": N_(
        "Roll all five again: {chance} chance of {category} and {chance2} of {category2}, "
        "the rest of the turn played best."
    ),
    "all_one": N_(
        "Roll all five again: {chance} chance of {category}, the rest of the turn played best."
    ),
    "all_ends": N_(
        "Roll all five again: the turn ends in {category} {chance} of the time, the rest of it "
        "played best."
    ),
    "score_now": N_(
        "Scoring {points} in {category} now leaves open categories worth {later} on average."
    ),
    "vs_keep": N_(
        "Keeping {dice} instead changes this turn's expected points by {now} and the value of "
        "what stays open by {later}."
    ),
    "vs_all": N_(
        "Rolling all five again instead changes this turn's expected points by {now} and the "
        "value of what stays open by {later}."
    ),
    "vs_score": N_(
        "Scoring {points} in {category} instead changes this turn's points by {now} and the "
        "value of what stays open by {later}."
    ),
}
"""The English sentence of each reason code (``score_keeps_open``, with a plural, is in
:func:`reason_text`)."""


def signed(value: float, lang: str = "en") -> str:
    """A difference with its sign, one decimal, the language's minus sign (CLDR's, as the
    browser writes it): ``+1.2``, ``-0.4``; Finnish and Norwegian write U+2212.

    >>> signed(1.25, "en"), signed(-0.04, "en"), signed(-2.5, "bg")
    ('+1.2', '±0.0', '-2,5')
    """
    shown = format_number(abs(value), lang)
    if shown == format_number(0, lang):
        return "±" + shown
    return ("+" if value > 0 else get_minus_sign_symbol(language_code(lang))) + shown


def _chance(p: float, lang: str) -> str:
    return format_percent(p, lang, digits=0 if p >= 0.1 else 1)


def _category(name: str, lang: str) -> str:
    return category_label(Category.parse(name), lang)


def reason_text(code: str, args: Mapping[str, Any], lang: str = "en") -> str:
    """The sentence of one reason in ``lang``: ``args`` as :class:`Reason` holds them (or as
    its JSON, lists for dice)."""
    t = translator(lang)
    out: dict[str, str] = {}
    for key, value in args.items():
        if key in ("chance", "chance2"):
            out[key] = _chance(float(value), lang)
        elif key in ("category", "category2", "other"):
            out[key] = _category(str(value), lang)
        elif key == "dice":
            out[key] = " ".join(str(d) for d in _faces(value))
        elif key in ("now", "later") and code.startswith("vs_"):
            out[key] = signed(float(value), lang)
        elif key == "points":
            out[key] = format_number(int(value), lang, digits=0)
        elif key == "lost":
            out[key] = format_number(round(float(value)), lang, digits=0)
        else:
            out[key] = format_number(float(value), lang)
    if code == "score_keeps_open":
        return t.ngettext(
            "Scoring {points} in {category} now leaves {other} open: {lost} point fewer now, "
            "worth {later} more later, {net} more in all.",
            "Scoring {points} in {category} now leaves {other} open: {lost} points fewer now, "
            "worth {later} more later, {net} more in all.",
            round(float(args["lost"])),
        ).format(**out)
    return t.gettext(MESSAGES[code]).format(**out)


def _faces(value: object) -> Sequence[int]:
    if not isinstance(value, list | tuple):
        raise TypeError(f"dice must be a list of faces, got {value!r}")
    return [int(d) for d in value]

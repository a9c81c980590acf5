"""The rules of a preset in the player's language, written from its scorers (each scorer
says what it scores), for the help screen; and the presets' names as the setup shows them.

>>> print(rules_lines(rules_by_name("traditional"), "en")[0])
[b]Rules: Traditional[/b]
>>> preset_label("clubhouse", "fi")
'Klubisäännöt'
"""

from __future__ import annotations

import textwrap

from yacht.i18n import category_label, translator
from yacht.rules import CATEGORIES, Rules, rules_by_name
from yacht.tui.text import N_, gettext_for

__all__ = ["preset_about", "preset_label", "rules_lines"]

_PRESET_LABELS = {
    "traditional": N_("Traditional"),
    "all-dice-four": N_("Traditional, all dice in Four of a Kind"),
    "knizia": N_("Knizia (OpenSpiel)"),
    "clubhouse": N_("Clubhouse"),
}


def preset_label(name: str, lang: str) -> str:
    """A preset's name as players read it (its id when it has no label)."""
    label = _PRESET_LABELS.get(name)
    return gettext_for(lang)(label) if label else name


def preset_about(name: str, lang: str) -> str:
    """A preset's one-line description, translated."""
    return translator(lang, "yacht").gettext(rules_by_name(name).description)


def rules_lines(rules: Rules, lang: str, width: int = 72) -> list[str]:
    """Markup lines: the preset, how a turn goes, and what each category scores, wrapped to
    ``width`` columns (a category's text hangs after its name)."""
    from textual.markup import escape  # here: the preset labels serve the plain replay too

    _ = gettext_for(lang)
    describe = translator(lang, "yacht").gettext
    head = _("Rules: {preset}").format(preset=preset_label(rules.name, lang))
    turn = _(
        "Each turn: roll up to three times, holding any dice between rolls, then "
        "fill one open box (a box that does not fit scores 0). Twelve rounds; the "
        "highest total wins."
    )
    bonus = rules.upper_bonus
    if bonus is not None:
        extra = _("Bonus: {what}").format(what=bonus.describe(describe))
    else:
        extra = _("No bonus.")
    lines = [f"[b]{escape(head)}[/b]"]
    for text in (preset_about(rules.name, lang), turn, extra):
        lines += [escape(line) for line in textwrap.wrap(text, width)]
    lines.append("")
    label_width = max(len(category_label(c, lang)) for c in CATEGORIES)
    for c in CATEGORIES:
        label = category_label(c, lang).ljust(label_width)
        text = rules.scorers[c].describe(describe)
        wrapped = textwrap.wrap(
            text, width - label_width - 2, subsequent_indent=" " * 0, break_on_hyphens=False
        )
        lines.append(f"[b]{escape(label)}[/b]  {escape(wrapped[0])}")
        lines += [" " * (label_width + 2) + escape(line) for line in wrapped[1:]]
    return lines

"""The rules of a preset in the player's language, written from its scorers (each scorer
says what it scores), for the help screen; and the presets' names as the setup shows them.

>>> print(rules_lines(rules_by_name("traditional"), "en")[0])
[b]Rules: Traditional[/b]
>>> preset_label("clubhouse", "fi")
'Klubitalo'
"""

from __future__ import annotations

from textual.markup import escape

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


def rules_lines(rules: Rules, lang: str) -> list[str]:
    """Markup lines: the preset, how a turn goes, and what each category scores."""
    _ = gettext_for(lang)
    describe = translator(lang, "yacht").gettext
    head = _("Rules: {preset}").format(preset=preset_label(rules.name, lang))
    lines = [
        f"[b]{escape(head)}[/b]",
        escape(preset_about(rules.name, lang)),
        escape(
            _(
                "Each turn: roll up to three times, holding any dice between rolls, then "
                "fill one open box (a box that does not fit scores 0). Twelve rounds; the "
                "highest total wins."
            )
        ),
    ]
    bonus = rules.upper_bonus
    if bonus is not None:
        lines.append(escape(_("Bonus: {what}").format(what=bonus.describe(describe))))
    else:
        lines.append(escape(_("No bonus.")))
    lines.append("")
    width = max(len(category_label(c, lang)) for c in CATEGORIES)
    for c in CATEGORIES:
        label = escape(category_label(c, lang).ljust(width))
        lines.append(f"[b]{label}[/b]  {escape(rules.scorers[c].describe(describe))}")
    return lines

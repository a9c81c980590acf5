"""``yacht score`` and ``yacht rules``.

Arguments are checked here rather than by argparse, so every mistake gets one translated line
saying what was wrong (exit status 2).
"""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from yacht.cli import CommandError, add_lang_option, cli_gettext, cli_language, parse_language
from yacht.dice import ROLLS
from yacht.game import MAX_PLAYERS, MAX_ROLLS
from yacht.i18n import category_label, category_names, find_category, preset_label, translator
from yacht.rules import CATEGORIES, Category, Rules, RulesError, preset_names, rules_by_name

__all__ = [
    "json_option",
    "parse_category",
    "parse_faces",
    "parse_language",
    "parse_preset",
    "preset_shown",
    "register",
    "rules_option",
    "used_categories",
]


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("score five dice in a category")
    p = subs.add_parser("score", help=what, description=what)
    p.add_argument("dice", nargs="*", metavar=_("DIE"), help=_("five faces, 1 to 6"))
    p.add_argument("--category", "-c", metavar=_("CATEGORY"), help=_("a category, e.g. full_house"))
    rules_option(p)
    json_option(p)
    add_lang_option(p)
    p.set_defaults(handler=cmd_score)

    what = _("print the rules and score table of a preset")
    p = subs.add_parser("rules", help=what, description=what)
    rules_option(p)
    add_lang_option(p)
    p.set_defaults(handler=cmd_rules)


def rules_option(p: argparse.ArgumentParser, choices: bool = False) -> None:
    """``--rules PRESET`` (checked by argparse against the presets' names when ``choices``)."""
    _ = cli_gettext()
    p.add_argument(
        "--rules",
        default="traditional",
        choices=preset_names() if choices else None,
        metavar=_("PRESET"),
        help=_("a rules preset: {names} (default: traditional)").format(
            names=", ".join(preset_names())
        ),
    )


def json_option(p: argparse.ArgumentParser) -> None:
    """``--json``: machine-readable output, the same in every language."""
    _ = cli_gettext()
    p.add_argument("--json", action="store_true", help=_("print JSON"))


def parse_faces(words: list[str]) -> list[int]:
    """Five die faces from the command line, or a CommandError saying what is wrong."""
    _ = cli_gettext()
    if len(words) != 5:
        raise CommandError(
            _("need exactly five dice, got {count}: {dice}").format(
                count=len(words), dice=" ".join(words) or "-"
            )
        )
    faces = []
    for word in words:
        if not (word.isascii() and word.isdigit() and 1 <= int(word) <= 6):
            raise CommandError(_("{word!r} is not a die face (1 to 6)").format(word=word))
        faces.append(int(word))
    return faces


def parse_category(name: str | None) -> Category:
    """A category as the user typed it: its id, its name in the run's language or English, or
    a start of one that fits no other (``ykköset``, ``kakk``, ``full_house``)."""
    _ = cli_gettext()
    lang = cli_language()
    names = category_names(lang)
    if name is None:
        raise CommandError(_("missing --category (one of: {names})").format(names=names))
    category = find_category(name, lang)
    if category is None:
        raise CommandError(
            _("unknown category {name!r} (one of: {names})").format(name=name, names=names)
        )
    return category


def used_categories(text: str) -> list[Category]:
    """The filled categories of ``--used``; a name that is none, or all twelve, is a one-line
    error in the user's language."""
    used = [parse_category(name) for name in text.replace(" ", ",").split(",") if name]
    if len(set(used)) == len(CATEGORIES):
        _ = cli_gettext()
        raise CommandError(_("all categories are used: there is nothing left to score"))
    return used


def preset_shown(name: str, lang: str | None = None) -> str:
    """A preset as human output names it: its name in the user's language, its id in English
    (what ``--rules`` takes); JSON keeps the id."""
    lang = lang or cli_language()
    return name if translator(lang) is translator("en") else preset_label(name, lang)


def parse_preset(name: str) -> Rules:
    _ = cli_gettext()
    try:
        return rules_by_name(name)
    except RulesError:
        raise CommandError(
            _("unknown rules preset {name!r} (one of: {names})").format(
                name=name, names=", ".join(preset_names())
            )
        ) from None


def cmd_score(args: argparse.Namespace) -> int:
    dice = parse_faces(args.dice)
    category = parse_category(args.category)
    rules = parse_preset(args.rules)
    points = rules.score(dice, category)
    if args.json:
        out = {"dice": dice, "category": category.value, "rules": rules.name, "score": points}
        print(json.dumps(out))
    else:
        print(points)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    rules = parse_preset(args.rules)
    lang = parse_language(args.lang)
    print(rules_text(rules, lang))
    return 0


def rules_text(rules: Rules, lang: str = "en", width: int = 78) -> str:
    """The rules of a preset and its score table, derived from the preset's scorers.

    >>> print(rules_text(rules_by_name("traditional")))  # doctest: +ELLIPSIS
    Yacht: the rules preset 'traditional'
    ...
    Yacht              50  6-6-6-6-6  five of a kind: 50 points
    <BLANKLINE>
    No upper bonus, no Yacht bonus, no jokers.
    Best possible total: 297
    """
    _ = translator(lang).gettext
    wrap = textwrap.TextWrapper(width=width, break_on_hyphens=False)
    lines = [_("Yacht: the rules preset {name!r}").format(name=preset_shown(rules.name, lang))]
    if rules.description:
        lines += wrap.wrap(_(rules.description))
    lines.append("")
    lines += wrap.wrap(
        _(
            "Five dice, {rounds} rounds, 1 to {players} players. A turn is up to {rolls} rolls: "
            "the first throws all five dice; after each roll but the last you may hold any "
            "dice and reroll the others (held dice can be released again). You may stop "
            "after any roll. Then fill exactly one open category; dice that do not fit score "
            "0 there. A filled category, a zero included, is never used again. The game ends "
            "when every sheet is full; the highest total wins and equal totals share the win."
        ).format(rounds=len(CATEGORIES), players=MAX_PLAYERS, rolls=MAX_ROLLS)
    )
    lines.append("")
    labels = [category_label(c, lang) for c in CATEGORIES]
    head = [_("Category"), _("Best"), _("Best roll"), _("Scores")]
    w0 = max(len(s) for s in [head[0], *labels])
    w1 = max(len(head[1]), 3)
    w2 = max(len(head[2]), 9)
    lines.append(f"{head[0]:<{w0}}  {head[1]:>{w1}}  {head[2]:<{w2}}  {head[3]}")
    indent = w0 + w1 + w2 + 6
    what_wrap = textwrap.TextWrapper(
        width=max(width, indent + 30), subsequent_indent=" " * indent, break_on_hyphens=False
    )
    for category, label in zip(CATEGORIES, labels, strict=True):
        best = max(ROLLS, key=lambda r: (rules.score(r, category), r))
        points = rules.score(best, category)
        shown = "-".join(map(str, best)) if points else "-"
        row = f"{label:<{w0}}  {points:>{w1}}  {shown:<{w2}}  "
        lines += what_wrap.wrap(row + rules.scorers[category].describe(_))
    lines.append("")
    bonus = rules.upper_bonus
    if bonus is None:
        lines.append(_("No upper bonus, no Yacht bonus, no jokers."))
    else:
        lines.append(_("Upper bonus: {what}.").format(what=bonus.describe(_)))
    lines.append(_("Best possible total: {total}").format(total=rules.max_total()))
    return "\n".join(lines)

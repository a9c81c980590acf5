"""``yacht score`` and ``yacht rules``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from yacht.dice import ROLLS
from yacht.i18n import LANGUAGES, category_label, detect_language, translator
from yacht.rules import CATEGORIES, Category, preset_names, rules_by_name


def register(subs: Any) -> None:
    p = subs.add_parser("score", help="score five dice in a category")
    p.add_argument("dice", nargs=5, type=_face, metavar="DIE", help="five faces, 1 to 6")
    p.add_argument("--category", "-c", required=True, type=_category, help="e.g. full_house")
    p.add_argument("--rules", default="traditional", choices=preset_names())
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_score)

    p = subs.add_parser("rules", help="print the rules and score table of a preset")
    p.add_argument("--rules", default="traditional", choices=preset_names())
    p.add_argument("--lang", choices=sorted(LANGUAGES), default=None)
    p.set_defaults(handler=cmd_rules)


def _face(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a die face (1 to 6)") from None
    if not 1 <= value <= 6:
        raise argparse.ArgumentTypeError(f"{text!r} is not a die face (1 to 6)")
    return value


def _category(text: str) -> Category:
    try:
        return Category.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def cmd_score(args: argparse.Namespace) -> int:
    points = rules_by_name(args.rules).score(args.dice, args.category)
    if args.json:
        out = {"dice": args.dice, "category": args.category.value, "rules": args.rules}
        print(json.dumps({**out, "score": points}))
    else:
        print(points)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    lang = args.lang or detect_language()
    _ = translator(lang).gettext
    rules = rules_by_name(args.rules)
    print(f"{_('Rules')}: {rules.name}")
    print()
    print(
        _(
            "Five dice, 12 rounds, 1-6 players. Up to three rolls a turn: the first throws all "
            "five dice; after the first and second you may hold any dice and reroll the rest. "
            "Then fill one open category; dice that do not fit score 0 there. A filled "
            "category is never used again. The highest total wins; equal totals share the win."
        )
    )
    print()
    width = max(len(category_label(c, lang)) for c in CATEGORIES)
    print(f"{_('Category'):<{width}}  {_('Best')}  {_('Example')}")
    for c in CATEGORIES:
        best = max(rules.score(r, c) for r in ROLLS)
        example = max(ROLLS, key=lambda r: (rules.score(r, c), r))
        shown = "-".join(map(str, example))
        print(f"{category_label(c, lang):<{width}}  {best:>4}  {shown}")
    if rules.upper_bonus:
        b = rules.upper_bonus
        print(
            _("Upper bonus: {points} when Ones to Sixes total at least {threshold}.").format(
                points=b.points, threshold=b.threshold
            )
        )
    else:
        print(_("No bonuses."))
    print(f"{_('Best possible total')}: {rules.max_total()}")
    return 0

"""The command line's human output in the language of the run: options, numbers, plurals.

JSON output never goes through here: it stays the same in every language.

>>> option_text("keep", (6, 6, 6), None, None, "fi"), option_text("keep", (), None, None, "nb")
('pidä 6 6 6', 'kast alle fem')
>>> option_text("score", None, Category.FULL_HOUSE, 28, "bg")
'записване в Full House (28)'
>>> number(174.8342, "fi", 3), percent(0.308, "nb", 2), count("{n} game", "{n} games", 1, "bg")
('174,834', '30,80\xa0%', '1 игра')
"""

from __future__ import annotations

from collections.abc import Collection

from yacht.cli import cli_gettext, cli_language
from yacht.cli.safe import NAME_SHOWN, shown
from yacht.i18n import category_label, format_number, format_percent, translator
from yacht.rules import CATEGORIES, Category

__all__ = [
    "NAME_SHOWN",
    "bot_label",
    "count",
    "number",
    "open_text",
    "option_text",
    "percent",
    "rolls_left",
    "shown",
]


def number(value: float, lang: str | None = None, digits: int = 1) -> str:
    """A number the language's way (decimal comma in fi, bg, nb)."""
    return format_number(value, lang or cli_language(), digits)


def percent(fraction: float, lang: str | None = None, digits: int = 1) -> str:
    """A fraction (0.308) as the language writes a percentage."""
    return format_percent(fraction, lang or cli_language(), digits)


def count(singular: str, plural: str, n: int, lang: str | None = None) -> str:
    """``{n}`` and a noun in the right form: "1 game", "2 games" (the catalog's plural forms).

    >>> [count("{n} game", "{n} games", n, "fi") for n in (0, 1, 2)]
    ['0 peliä', '1 peli', '2 peliä']
    """
    lang = lang or cli_language()
    shown = format_number(n, lang, digits=0)
    return translator(lang).ngettext(singular, plural, n).format(n=shown)


def rolls_left(n: int, lang: str | None = None) -> str:
    """How many rolls are left in a turn: "no rolls left", "1 roll left", "2 rolls left".

    >>> [rolls_left(n, "nb") for n in (0, 1, 2)]
    ['ingen kast igjen', '1 kast igjen', '2 kast igjen']
    """
    lang = lang or cli_language()
    t = translator(lang)
    if n == 0:
        return t.gettext("no rolls left")
    return t.ngettext("{n} roll left", "{n} rolls left", n).format(n=n)


def option_text(
    action: str,
    keep: tuple[int, ...] | None,
    category: Category | None,
    points: int | None,
    lang: str | None = None,
) -> str:
    """An option of a hint or a review in words: keep 6 6 6, roll all five, score Yacht (50)."""
    lang = lang or cli_language()
    _ = translator(lang).gettext
    if action == "keep":
        faces = tuple(keep or ())
        if not faces:
            return _("roll all five")
        return _("keep {dice}").format(dice=" ".join(map(str, faces)))
    if category is None:
        raise ValueError(f"a score option without a category: {action!r}")
    return _("score {category} ({points})").format(
        category=category_label(category, lang), points=points
    )


def bot_label(name: str, lang: str | None = None) -> str:
    """A bot's name as the language says it: ``medium`` is "keskitasoinen" in Finnish; a target bot
    is named by its target.

    >>> bot_label("medium", "fi"), bot_label("optimal", "bg"), bot_label("target:200", "nb")
    ('keskitasoinen', 'оптимален', 'mål 200')
    """
    t = translator(lang or cli_language())
    labels = {
        "random": t.pgettext("bot", "random"),
        "greedy": t.pgettext("bot", "greedy"),
        "easy": t.pgettext("bot", "easy"),
        "medium": t.pgettext("bot", "medium"),
        "hard": t.pgettext("bot", "hard"),
        "optimal": t.pgettext("bot", "optimal"),
        "winner": t.pgettext("bot", "winner"),
        "duel": t.pgettext("bot", "duel"),
        "duel:optimal": t.pgettext("bot", "duel:optimal"),
    }
    if name.startswith("target:"):
        return t.gettext("target {points}").format(points=name.partition(":")[2])
    return labels.get(name, name)


def bot_name_error(name: str, lang: str | None = None) -> str:
    """Why ``make_bot`` refused a name, in the language (its own ValueError is English).

    >>> bot_name_error("huge", "nb")  # doctest: +ELLIPSIS
    "ukjent bot: 'huge' (kjente: random, greedy, ..., duel:optimal, target:T)"
    """
    from yacht.bots.registry import BOT_NAMES, DUEL_NAMES

    _ = translator(lang or cli_language()).gettext
    if name.strip().lower().startswith("target:"):
        return _("bad bot name: {name!r} (target:T needs a whole number T >= 0)").format(name=name)
    known = ", ".join((*BOT_NAMES, *DUEL_NAMES, "target:T"))
    return _("unknown bot: {name!r} (known: {names})").format(name=name, names=known)


def open_text(used: Collection[Category]) -> str:
    """The open categories as the user's language names them ("all 12" when none is filled)."""
    _ = cli_gettext()
    lang = cli_language()
    open_ = [c for c in CATEGORIES if c not in used]
    if len(open_) == len(CATEGORIES):
        return _("all {n}").format(n=len(CATEGORIES))
    return ", ".join(c.value if lang == "en" else category_label(c, lang) for c in open_)

"""User-facing text in English, Finnish, Bulgarian and Norwegian Bokmål via gettext.

Catalogs live in ``yacht/locale/<lang>/LC_MESSAGES/yacht.po`` (compiled to ``.mo`` with Babel:
``make catalogs``). Category names come from the seed rules pages.

>>> category_label(Category.FULL_HOUSE, "nb")
'Hus'
>>> translator("fi").gettext("Total")
'Yhteensä'
>>> format_number(110.2, "fi"), format_percent(0.308, "nb"), format_percent(0.308, "bg")
('110,2', '30,8\xa0%', '30,8%')
"""

from __future__ import annotations

import gettext
import locale
import os
import unicodedata
from functools import cache
from pathlib import Path

from babel import Locale
from babel.numbers import format_decimal
from babel.numbers import format_percent as _babel_percent

from yacht.errors import N_, Message, Term, YachtError, fill
from yacht.rules import Category

__all__ = [
    "CATEGORY_LABELS",
    "LANGUAGES",
    "N_",
    "PRESET_LABELS",
    "category_label",
    "category_names",
    "detect_language",
    "error_text",
    "find_category",
    "format_number",
    "format_percent",
    "language_code",
    "preset_label",
    "translator",
]

LANGUAGES: dict[str, str] = {
    "en": "English",
    "fi": "Suomi",
    "bg": "Български",
    "nb": "Norsk bokmål",
}
_LOCALE_DIR = Path(__file__).parent / "locale"


CATEGORY_LABELS: dict[Category, str] = {
    Category.ONES: N_("Ones"),
    Category.TWOS: N_("Twos"),
    Category.THREES: N_("Threes"),
    Category.FOURS: N_("Fours"),
    Category.FIVES: N_("Fives"),
    Category.SIXES: N_("Sixes"),
    Category.FULL_HOUSE: N_("Full House"),
    Category.FOUR_OF_A_KIND: N_("Four of a Kind"),
    Category.LITTLE_STRAIGHT: N_("Little Straight"),
    Category.BIG_STRAIGHT: N_("Big Straight"),
    Category.CHOICE: N_("Choice"),
    Category.YACHT: N_("Yacht"),
}


PRESET_LABELS: dict[str, str] = {
    "traditional": N_("Traditional"),
    "all-dice-four": N_("Traditional, all dice in Four of a Kind"),
    "knizia": N_("Knizia (OpenSpiel)"),
    "clubhouse": N_("Clubhouse"),
}


def _normalise(lang: str) -> str:
    code = lang.strip().lower().replace("-", "_").split(".")[0].split("_")[0]
    return {"no": "nb", "nn": "nb"}.get(code, code)


def language_code(lang: str) -> str:
    """The catalog code for a language name as users and locales write it.

    >>> language_code("nb_NO.UTF-8"), language_code("no"), language_code("FI")
    ('nb', 'nb', 'fi')
    >>> language_code("de")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'de' (known: en, fi, bg, nb)
    """
    code = _normalise(lang)
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    return code


@cache
def translator(lang: str = "en", domain: str = "yacht") -> gettext.NullTranslations:
    """The translations for a language code (en, fi, bg, nb; no/nn map to nb).

    Each face keeps its own gettext domain (``yacht`` for the core and CLI, ``yacht_tui``,
    ``yacht_web``), so its catalogs can change without touching the others'.
    """
    code = language_code(lang)
    if code == "en":
        return gettext.NullTranslations()
    return gettext.translation(domain, localedir=_LOCALE_DIR, languages=[code])


def category_label(category: Category, lang: str = "en") -> str:
    return translator(lang).gettext(CATEGORY_LABELS[category])


def preset_label(name: str, lang: str = "en") -> str:
    """A preset's name as a person reads it; its id (``traditional``) stays in JSON.

    >>> preset_label("traditional", "fi"), preset_label("knizia", "en"), preset_label("x", "bg")
    ('Perinteinen', 'Knizia (OpenSpiel)', 'x')
    """
    label = PRESET_LABELS.get(name)
    return translator(lang).gettext(label) if label else name


def error_text(error: BaseException | Message, lang: str = "en") -> str:
    """An error as a face shows it in ``lang``: one of yacht's errors (or a :class:`Message`)
    by its English template's translation in the ``yacht`` catalog, its arguments rendered
    in ``lang`` too (a category by its name, a nested error in turn); in English, and for any
    other exception, its ``str()``.

    >>> from yacht.rules import rules_by_name
    >>> try:
    ...     rules_by_name("yahtzee")
    ... except ValueError as e:
    ...     error = e
    >>> error.code, error_text(error, "fi")  # doctest: +ELLIPSIS
    ('unknown_preset', "tuntematon sääntöversio 'yahtzee' (tunnetut: traditional, ...)")
    """
    if language_code(lang) == "en" or not isinstance(error, YachtError | Message):
        return str(error)
    text = translator(lang).gettext(error.template)
    return fill(text, error.params, lambda value: _argument(value, lang))


def _argument(value: object, lang: str) -> object:
    if isinstance(value, YachtError | Message):
        return error_text(value, lang)
    if isinstance(value, Term):
        return translator(lang).pgettext(value.context, value.word)
    if isinstance(value, Category):
        return category_label(value, lang)
    if isinstance(value, list | tuple) and value and all(isinstance(v, Category) for v in value):
        return ", ".join(category_label(v, lang) for v in value)
    return value


def _fold(text: str) -> str:
    """A typed name without case, accents, spaces, dashes or underscores: "Neljä samaa" and
    "nelja_samaa" fold alike."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    kept = (c for c in decomposed if not unicodedata.combining(c))
    return "".join(c for c in kept if c.isalnum())


@cache
def _category_names(lang: str) -> tuple[tuple[str, Category], ...]:
    """Every folded name a category goes by in ``lang``: its id, its English and its own label."""
    names: dict[str, Category] = {}
    for category in Category:
        for name in (category.value, CATEGORY_LABELS[category], category_label(category, lang)):
            names.setdefault(_fold(name), category)
    return tuple(names.items())


def find_category(text: str, lang: str = "en") -> Category | None:
    """The category a person typed: its id, its name in English or in ``lang``, or the start of
    one of these (three letters at least) that fits no other category; None when none fits.

    >>> find_category("ykköset", "fi"), find_category("Neljä samaa", "fi")
    (Category.ONES, Category.FOUR_OF_A_KIND)
    >>> find_category("kakk", "fi"), find_category("full_house", "bg"), find_category("hus", "nb")
    (Category.TWOS, Category.FULL_HOUSE, Category.FULL_HOUSE)
    >>> find_category("ne", "fi") is None, find_category("nel", "fi") is None  # Neloset, Neljä
    (True, True)
    """
    wanted = _fold(text)
    if not wanted:
        return None
    names = _category_names(language_code(lang))
    for name, category in names:
        if name == wanted:
            return category
    if len(wanted) < 3:
        return None
    fits = {category for name, category in names if name.startswith(wanted)}
    return fits.pop() if len(fits) == 1 else None


def category_names(lang: str = "en") -> str:
    """The categories as a person types them, for an error: ids in English, names otherwise.

    >>> category_names("en")[:15], category_names("fi")[:17]
    ('ones, twos, thr', 'Ykköset, Kakkoset')
    """
    if language_code(lang) == "en":
        return ", ".join(c.value for c in Category)
    return ", ".join(category_label(c, lang) for c in Category)


def detect_language() -> str:
    """The user's language from YACHT_LANG, LANGUAGE, LC_ALL, LC_MESSAGES or LANG; else en."""
    for var in ("YACHT_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        for part in value.split(":"):
            code = _normalise(part) if part else ""
            if code in LANGUAGES:
                return code
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    code = _normalise(loc) if loc else "en"
    return code if code in LANGUAGES else "en"


@cache
def _pattern(lang: str, kind: str, digits: int) -> str:
    """The language's own number pattern (CLDR, via Babel) with exactly ``digits`` decimals."""
    if digits < 0:
        raise ValueError(f"digits must be >= 0, not {digits}")
    loc = Locale.parse(language_code(lang))
    formats = loc.percent_formats if kind == "percent" else loc.decimal_formats
    pattern = str(formats[None].pattern).split(";")[0]
    head, _, _ = pattern.partition(".")
    fraction = "." + "0" * digits if digits else ""
    zero = head.rfind("0")
    return head[: zero + 1] + fraction + head[zero + 1 :]


def format_number(value: float, lang: str = "en", digits: int = 1) -> str:
    """A number as the language writes it, with ``digits`` decimals (JSON output keeps ``.``).

    >>> format_number(12345.25, "en"), format_number(12345.25, "nb"), format_number(-19.1, "bg")
    ('12,345.2', '12\xa0345,2', '-19,1')
    >>> format_number(3, "fi", digits=0)
    '3'
    """
    return str(
        format_decimal(value, format=_pattern(lang, "decimal", digits), locale=language_code(lang))
    )


def format_percent(fraction: float, lang: str = "en", digits: int = 1) -> str:
    """A fraction (0.308) as a percentage the language's way: 30.8% (en), 30,8 % (fi, nb).

    >>> format_percent(0.5, "en", digits=0), format_percent(0.5, "fi", digits=0)
    ('50%', '50\xa0%')
    """
    return str(
        _babel_percent(
            fraction, format=_pattern(lang, "percent", digits), locale=language_code(lang)
        )
    )

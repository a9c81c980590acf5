"""The page's texts: every message it uses is translated in fi, bg and nb, placeholders intact;
they are found as `make catalogs` finds them (Babel with babel.cfg: its JavaScript extractor over
the scripts, yacht.web.protocol.texts.extract_html over the markup), contexts included."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from yacht.i18n import LANGUAGES, translator
from yacht.web.protocol.texts import DOMAIN, STATIC, catalog

PLACEHOLDER = re.compile(r"\{(\w+)\}")
ROOT = Path(__file__).parents[2]
# The keywords `make catalogs` gives pybabel for the yacht_web domain.
KEYWORDS = {"t": None, "tHtml": None, "tn": (1, 2), "tnHtml": (1, 2), "pgettext": ((1, "c"), 2)}


@cache
def extracted() -> tuple[tuple[str | None, str | tuple[str, ...]], ...]:
    """(context, message) for every text the page marks, as Babel extracts them."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    found = extract_from_dir(STATIC, method_map, options_map, keywords=KEYWORDS)
    return tuple(dict.fromkeys((context, message) for _, _, message, _, context in found))


def used_messages() -> list[str]:
    """Every singular msgid the page uses, keyed as gettext keys it (context U+0004 msgid)."""
    return [
        f"{context}\x04{message}" if context else message
        for context, message in extracted()
        if isinstance(message, str)
    ]


def used_plurals() -> dict[str, str]:
    """Every plural message the page uses, singular -> plural: ``tn("...", "...", n)``."""
    return {m[0]: m[1] for _, m in extracted() if isinstance(m, tuple)}


def test_the_makefile_gives_the_same_keywords() -> None:
    recipe = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = recipe[recipe.index("-k t ") : recipe.index("yacht_web.pot")]
    assert sorted(re.findall(r"-k (\w+)", line)) == sorted(KEYWORDS)
    assert "-F babel.cfg" in recipe


def test_the_markup_and_nested_template_texts_are_found() -> None:
    """What Babel's own JavaScript extractor misses: data-i18n* attributes, and a t() in a
    ${...} after a quote mark in a template literal (`title="${t("...")}"`)."""
    used = used_messages()
    assert "Close the hints" in used  # view.js: aria-label="${esc(t("Close the hints"))}"
    assert "possible score" in used  # sheet.js, in a title="..."
    assert "bot\x04random" in used and "start\x04random" in used  # pgettext, data-i18n-context
    assert "random" not in used  # the word's two roles each have their context


def test_the_template_is_what_the_sources_mark() -> None:
    with (ROOT / "src/yacht/locale" / f"{DOMAIN}.pot").open("rb") as f:
        pot = read_po(f)
    ids = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in pot if m.id}
    assert ids == set(extracted()), "run `make catalogs`"


def test_the_page_uses_a_good_number_of_messages() -> None:
    used = used_messages()
    assert len(used) > 100 and "Roll" in used and "{name}'s turn" in used


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_every_message_is_translated(lang: str) -> None:
    messages = catalog(lang)["messages"]
    missing = [m for m in used_messages() if not messages.get(m)]
    assert missing == []
    for msgid in used_messages():
        assert set(PLACEHOLDER.findall(messages[msgid])) == set(PLACEHOLDER.findall(msgid)), msgid


def test_categories_come_from_the_core_catalog() -> None:
    assert catalog("nb")["categories"]["full_house"] == "Hus"
    assert catalog("en")["categories"]["little_straight"] == "Little Straight"
    with pytest.raises(ValueError, match="unknown language"):
        catalog("xx")


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_compiled_catalogs_match_their_sources(lang: str) -> None:
    po = Path(__file__).parents[2] / "src/yacht/locale" / lang / "LC_MESSAGES/yacht_web.po"
    with po.open("rb") as f:
        read = [m for m in read_po(f) if m.id and m.string]
    source = {
        f"{m.context}\x04{m.id}" if m.context else m.id: m.string
        for m in read
        if isinstance(m.id, str)
    }
    plurals = {m.id[0]: list(m.string or ()) for m in read if isinstance(m.id, tuple)}
    assert source == catalog(lang)["messages"], "run `make catalogs`"
    assert plurals == catalog(lang)["plurals"], "run `make catalogs`"


def test_plural_messages_go_into_the_template_with_their_plural() -> None:
    plurals = used_plurals()
    assert plurals["{n} roll"] == "{n} rolls"
    assert plurals["{name} wins with {n} point!"] == "{name} wins with {n} points!"
    assert "{n} roll" not in used_messages()
    with (ROOT / "src/yacht/locale" / f"{DOMAIN}.pot").open("rb") as f:
        ids = [(m.context, m.id) for m in read_po(f) if m.id]
    assert (None, ("{n} die", "{n} dice")) in ids and (None, "Roll") in ids
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_every_plural_message_has_both_forms(lang: str) -> None:
    forms = catalog(lang)["plurals"]
    for singular, plural in used_plurals().items():
        assert len(forms.get(singular, [])) == 2, singular
        for form in forms[singular]:
            assert set(PLACEHOLDER.findall(form)) == set(PLACEHOLDER.findall(plural)), form


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogs_plural_rule_is_one_then_other(lang: str) -> None:
    """The page picks a form with Intl.PluralRules: "one" is form 0, anything else form 1.
    That holds while every catalog says nplurals=2; plural=(n != 1)."""
    rule = getattr(translator(lang, DOMAIN), "plural", lambda n: int(n != 1))
    assert [rule(n) for n in range(0, 202)] == [int(n != 1) for n in range(0, 202)]


COUNTS = {
    "fi": {
        "{n} roll": ["0 heittoa", "1 heitto", "2 heittoa", "5 heittoa"],
        "{n} die": ["0 noppaa", "1 noppa", "2 noppaa", "5 noppaa"],
        "{name} scores {n} point": [
            "Ann merkitsee 0 pistettä",
            "Ann merkitsee 1 pisteen",
            "Ann merkitsee 2 pistettä",
            "Ann merkitsee 5 pistettä",
        ],
    },
    "bg": {
        "{n} roll": ["0 хвърляния", "1 хвърляне", "2 хвърляния", "5 хвърляния"],
        "{n} die": ["0 зара", "1 зар", "2 зара", "5 зара"],
        "{name} scores {n} point": [
            "Ann записва 0 точки",
            "Ann записва 1 точка",
            "Ann записва 2 точки",
            "Ann записва 5 точки",
        ],
    },
    "nb": {
        "{n} roll": ["0 kast", "1 kast", "2 kast", "5 kast"],
        "{n} die": ["0 terninger", "1 terning", "2 terninger", "5 terninger"],
        "{name} scores {n} point": [
            "Ann får 0 poeng",
            "Ann får 1 poeng",
            "Ann får 2 poeng",
            "Ann får 5 poeng",
        ],
    },
    "en": {
        "{n} roll": ["0 rolls", "1 roll", "2 rolls", "5 rolls"],
        "{n} die": ["0 dice", "1 die", "2 dice", "5 dice"],
        "{name} scores {n} point": [
            "Ann scores 0 points",
            "Ann scores 1 point",
            "Ann scores 2 points",
            "Ann scores 5 points",
        ],
    },
}


@pytest.mark.parametrize("lang", COUNTS)
def test_a_count_takes_the_form_of_its_number(lang: str) -> None:
    plurals = used_plurals()
    for singular, expected in COUNTS[lang].items():
        forms = catalog(lang)["plurals"].get(singular, [singular, plurals[singular]])
        texts = [forms[int(n != 1)].format(n=n, name="Ann") for n in (0, 1, 2, 5)]
        assert texts == expected
        gettext = translator(lang, DOMAIN).ngettext
        assert [
            gettext(singular, plurals[singular], n).format(n=n, name="Ann") for n in (0, 1, 2, 5)
        ] == expected


HAND_WRITTEN = {
    "toFixed(": re.compile(r"\.toFixed\("),
    "a percent sign after a number": re.compile(r"\}\s*%|[\"'`]\s*%\s*[\"'`]|\+\s*[\"'`]\s*%"),
}


def test_the_page_writes_no_number_by_hand() -> None:
    """Numbers reach the page through i18n.js's number() and percent() (Intl.NumberFormat in the
    page's language), never toFixed or a "%" glued on: those are English everywhere."""
    found = []
    for path in sorted((STATIC / "js").glob("*.js")):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for what, pattern in HAND_WRITTEN.items():
                if pattern.search(line):
                    found.append(f"{path.name}:{i}: {what}: {line.strip()}")
    assert found == []
    assert HAND_WRITTEN["toFixed("].search("x.toFixed(1)")
    assert all(HAND_WRITTEN["a percent sign after a number"].search(s) for s in BAD_PERCENTS)


BAD_PERCENTS = ["`${p}%`", 'p + "%"', 't("Accuracy: {accuracy}%")', "(100 * p).toFixed(1) + '%'"]

"""The page's texts in a real browser: a count takes its language's plural form (Intl.PluralRules
agreeing with the catalogs' Plural-Forms), and numbers are written the language's way
(Intl.NumberFormat): "110,2" and "30,8 %" in Finnish and Norwegian, "30,8%" in Bulgarian."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from babel.messages.pofile import read_po
from playwright.sync_api import Page, expect

import yacht
from yacht.i18n import LANGUAGES, format_number, format_percent, translator
from yacht.web.protocol.texts import DOMAIN

from .live import LiveServer
from .pages import Pages

expect.set_options(timeout=15_000)
COUNTS = (0, 1, 2, 5)


def used_plurals() -> dict[str, str]:
    """The page's plural messages, singular -> plural, from the template `make catalogs` writes."""
    with (Path(yacht.__file__).parent / "locale" / f"{DOMAIN}.pot").open("rb") as f:
        return {m.id[0]: m.id[1] for m in read_po(f) if isinstance(m.id, tuple)}


def lobby(pages: Pages, server: LiveServer, lang: str) -> Page:
    page = pages.open(server.url + "/", lang=lang)
    expect(page.locator("#open")).to_be_enabled()  # the texts are loaded
    return page


def in_page(page: Page, body: str, arg: Any = None) -> Any:
    """Run ``body`` with ``m`` bound to the page's own i18n module (the instance it loaded)."""
    return page.evaluate(
        f"async (arg) => {{ const m = await import('/static/js/i18n.js'); {body} }}", arg
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_count_takes_the_plural_form_of_the_catalog(
    pages: Pages, server: LiveServer, lang: str
) -> None:
    page = lobby(pages, server, lang)
    rules = in_page(
        page, "return arg.map((n) => new Intl.PluralRules(m.language()).select(n));", [*range(202)]
    )
    assert [int(r != "one") for r in rules] == [int(n != 1) for n in range(202)]
    gettext = translator(lang, DOMAIN).ngettext
    for singular, plural in used_plurals().items():
        # every placeholder but the count gets a value of its own (names, points, categories)
        fields = {
            field
            for text in (singular, plural)
            for _, field, _, _ in string.Formatter().parse(text)
            if field and field != "n"
        }
        params = {field: f"<{field}>" for field in fields} | {"name": "Ann", "names": "Ann & Bob"}
        shown = in_page(
            page,
            "return [0, 1, 2, 5].map((n) => m.tn(arg[0], arg[1], n, arg[2]));",
            [singular, plural, params],
        )
        expected = [gettext(singular, plural, n).format(n=n, **params) for n in COUNTS]
        assert shown == expected, singular


@pytest.mark.parametrize("lang", ["bg", "fi"])
def test_a_word_with_two_roles_takes_each_its_own_translation(
    pages: Pages, server: LiveServer, lang: str
) -> None:
    """pgettext(context, text): the catalog served to the page keys it as gettext does."""
    page = lobby(pages, server, lang)
    shown = in_page(page, "return [m.pgettext('bot', 'random'), m.pgettext('start', 'random')];")
    t = translator(lang, DOMAIN)
    assert shown == [t.pgettext("bot", "random"), t.pgettext("start", "random")]
    assert shown[0] != "random"


NUMBERS = [(110.2, 1), (-19.1, 1), (3.14159, 2), (250, 0), (12345.67, 1), (0.2, 1)]
PERCENTS = [(0.308, 1), (0.5, 0), (0.0123, 1), (1, 0)]
DURATIONS = {  # the turn timer's choices and a clock, in the language's units
    "en": ["30 sec", "60 sec", "2 min", "5 min", "1 sec"],
    "fi": ["30 s", "60 s", "2 min", "5 min", "1 s"],
    "bg": ["30 сек", "60 сек", "2 мин", "5 мин", "1 сек"],
    "nb": ["30 sek", "60 sek", "2 min", "5 min", "1 sek"],
}
SHOWN = {  # what a reader of each language expects, as the issue writes it
    "en": ("110.2", "30.8%"),
    "fi": ("110,2", "30,8\xa0%"),
    "bg": ("110,2", "30,8%"),
    "nb": ("110,2", "30,8\xa0%"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_are_written_the_language_way(pages: Pages, server: LiveServer, lang: str) -> None:
    page = lobby(pages, server, lang)
    numbers = in_page(page, "return arg.map(([v, d]) => m.number(v, d));", NUMBERS)
    percents = in_page(page, "return arg.map(([v, d]) => m.percent(v, d));", PERCENTS)
    assert (numbers[0], percents[0]) == SHOWN[lang]
    # the page (Intl, the browser's CLDR) and the terminal and command line (Babel) agree, but
    # for the minus sign: CLDR's for fi and nb is U+2212, which Intl writes and format_number not
    minus = Locale.parse(lang).number_symbols["latn"]["minusSign"]
    assert numbers[1] == f"{minus}{numbers[1][1:]}"
    numbers = [n.replace(minus, "-") for n in numbers]
    assert numbers == [format_number(v, lang, digits=d) for v, d in NUMBERS]
    assert percents == [format_percent(v, lang, digits=d) for v, d in PERCENTS]
    durations = in_page(page, "return arg.map((s) => m.duration(s));", [30, 60, 120, 300, 1])
    assert [d.replace("\xa0", " ") for d in durations] == DURATIONS[lang]
    timer = page.locator("#timer option").all_inner_texts()[1:]  # after "none"
    assert [d.replace("\xa0", " ") for d in timer] == DURATIONS[lang][:4]


def test_errors_and_dice_checks_speak_the_language(pages: Pages, server: LiveServer) -> None:
    """The server's error codes and the fair-dice check's findings are the reader's words; the
    server's English detail of a refused request is shown only to English readers."""
    page = lobby(pages, server, "fi")
    errors = "async (e) => (await import('/static/js/labels.js')).errorText(e)"
    refused = {"code": "illegal", "message": "ones is already scored"}
    assert page.evaluate(errors, refused) == "Ei sallittu nyt."
    assert page.evaluate(errors, {"code": "rate_limited", "message": "slow down"}) == (
        "Liian monta pyyntöä; odota hetki ja yritä uudelleen."
    )
    assert page.evaluate(errors, {"code": "new_code", "message": "?"}) == "Jokin meni vikaan."
    check = "async (data) => (await import('/static/js/fair.js')).verifyGame(data)"
    forged = {"dice": {"server_seed": "x"}, "fair": {"commitment": "00"}, "players": ["A"]}
    assert page.evaluate(check, {**forged, "events": []})["problems"] == [
        "paljastettu siemenluku ei vastaa julkaistua sitoumusta",
        "tiedosto ei nimeä reilujen noppien sääntöä, joten mikään ei kerro, miten sen nopat "
        "jaettiin",
    ]
    english = lobby(pages, server, "en")
    assert english.evaluate(errors, refused) == "Not allowed now. ones is already scored"

    pages.allow(r"/games/999999: console: Failed to load resource: .* 404")
    replay = pages.open(f"{server.url}/games/999999", lang="bg")
    missing = "Няма завършена игра с този номер."  # noqa: RUF001 (Cyrillic)
    expect(replay.locator("#title")).to_have_text(missing)

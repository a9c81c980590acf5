"""The page's texts in a real browser: a count takes its language's plural form (Intl.PluralRules
agreeing with the catalogs' Plural-Forms), and numbers are written the language's way
(Intl.NumberFormat): "110,2" and "30,8 %" in Finnish and Norwegian, "30,8%" in Bulgarian."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from yacht.i18n import LANGUAGES, translator
from yacht.web.i18n import DOMAIN, used_plurals

from .live import LiveServer
from .pages import Pages

expect.set_options(timeout=15_000)
COUNTS = (0, 1, 2, 5)


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
        shown = in_page(
            page,
            "const p = { name: 'Ann', names: 'Ann & Bob' };"
            "return [0, 1, 2, 5].map((n) => m.tn(arg[0], arg[1], n, p));",
            [singular, plural],
        )
        expected = [
            gettext(singular, plural, n).format(n=n, name="Ann", names="Ann & Bob") for n in COUNTS
        ]
        assert shown == expected, singular

"""The web page's texts: gettext domain ``yacht_web``, served to the page as JSON.

Category names come from the core catalog (domain ``yacht``), so every face names them alike.

>>> catalog("fi")["messages"]["Roll"]
'Heitä'
>>> catalog("en")["messages"]
{}

Plural messages (``tn("{n} roll", "{n} rolls", n)`` in the scripts) carry their forms in the
order of the catalog's ``Plural-Forms`` (fi, bg and nb: one, other), keyed by the singular:

>>> catalog("nb")["plurals"]["{n} roll"]
['{n} kast', '{n} kast']
"""

from __future__ import annotations

import html
import json
import re
from functools import cache, partial
from pathlib import Path
from typing import Any

from yacht.i18n import LANGUAGES, category_label, translator
from yacht.rules import CATEGORIES

__all__ = ["DOMAIN", "catalog", "used_messages", "used_plurals", "write_template"]

DOMAIN = "yacht_web"


@cache
def catalog(lang: str) -> dict[str, Any]:
    """msgid -> translation for one language (empty for English); ValueError if unknown."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    if lang != "en":
        raw = getattr(translator(lang, DOMAIN), "_catalog", {})
        messages = {k: v for k, v in raw.items() if isinstance(k, str) and k and v}
        for key, form in sorted((k, v) for k, v in raw.items() if isinstance(k, tuple) and v):
            plurals.setdefault(key[0], []).append(form)
    return {
        "lang": lang,
        "languages": dict(LANGUAGES),
        "messages": messages,
        "plurals": plurals,
        "categories": {c.value: category_label(c, lang) for c in CATEGORIES},
    }


STATIC = Path(__file__).parents[1] / "static"
_JS_CALL = re.compile(r'\bt(?:Html)?\(\s*"((?:[^"\\]|\\.)*)"')  # t("...") and tHtml("...")
_JS_PLURAL = re.compile(r'\btn(?:Html)?\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"')
_HTML_ATTR = re.compile(r'\bdata-i18n(?:-label|-placeholder|-title)?="([^"]*)"')


def used_messages() -> list[str]:
    """Every msgid the page uses: ``t("...")`` in its scripts, ``data-i18n*`` in its markup."""
    found: dict[str, None] = {}
    for path in sorted(STATIC.rglob("*")):
        if path.suffix == ".js":
            for m in _JS_CALL.finditer(path.read_text(encoding="utf-8")):
                found.setdefault(json.loads(f'"{m.group(1)}"'), None)
        elif path.suffix == ".html":
            for m in _HTML_ATTR.finditer(path.read_text(encoding="utf-8")):
                found.setdefault(html.unescape(m.group(1)), None)
    return list(found)


def used_plurals() -> dict[str, str]:
    """Every plural message the page uses, singular -> plural: ``tn("...", "...", n)``."""
    found: dict[str, str] = {}
    for path in sorted(STATIC.rglob("*.js")):
        for m in _JS_PLURAL.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(json.loads(f'"{m.group(1)}"'), json.loads(f'"{m.group(2)}"'))
    return found


def write_template(path: Path) -> int:
    """Write the ``yacht_web.pot`` template for ``pybabel update``; return the message count."""
    messages = used_messages()
    plurals = used_plurals()
    quote = partial(json.dumps, ensure_ascii=False)
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for msgid in messages:
        lines += [f"msgid {quote(msgid)}", 'msgstr ""', ""]
    for singular, plural in plurals.items():
        lines += [f"msgid {quote(singular)}", f"msgid_plural {quote(plural)}"]
        lines += ['msgstr[0] ""', 'msgstr[1] ""', ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return len(messages) + len(plurals)


if __name__ == "__main__":  # python -m yacht.web.protocol.texts: refresh the template
    target = Path(__file__).parents[2] / "locale" / f"{DOMAIN}.pot"
    print(f"{write_template(target)} messages -> {target}")

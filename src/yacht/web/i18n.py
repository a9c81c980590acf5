"""The web page's texts: gettext domain ``yacht_web``, served to the page as JSON.

Category names come from the core catalog (domain ``yacht``), so every face names them alike.

>>> catalog("fi")["messages"]["Roll"]
'Heitä'
>>> catalog("en")["messages"]
{}
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from yacht.i18n import LANGUAGES, category_label, translator
from yacht.rules import CATEGORIES

__all__ = ["DOMAIN", "catalog", "used_messages", "write_template"]

DOMAIN = "yacht_web"


@cache
def catalog(lang: str) -> dict[str, Any]:
    """msgid -> translation for one language (empty for English); ValueError if unknown."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    messages: dict[str, str] = {}
    if lang != "en":
        raw = getattr(translator(lang, DOMAIN), "_catalog", {})
        messages = {k: v for k, v in raw.items() if isinstance(k, str) and k and v}
    return {
        "lang": lang,
        "languages": dict(LANGUAGES),
        "messages": messages,
        "categories": {c.value: category_label(c, lang) for c in CATEGORIES},
    }


STATIC = Path(__file__).parent / "static"
_JS_CALL = re.compile(r'\bt(?:Html)?\(\s*"((?:[^"\\]|\\.)*)"')  # t("...") and tHtml("...")
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


def write_template(path: Path) -> int:
    """Write the ``yacht_web.pot`` template for ``pybabel update``; return the message count."""
    messages = used_messages()
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for msgid in messages:
        lines += [f"msgid {json.dumps(msgid, ensure_ascii=False)}", 'msgstr ""', ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return len(messages)


if __name__ == "__main__":  # python -m yacht.web.i18n: refresh the template
    target = Path(__file__).parents[1] / "locale" / f"{DOMAIN}.pot"
    print(f"{write_template(target)} messages -> {target}")

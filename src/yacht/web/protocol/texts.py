"""The web page's texts: gettext domain ``yacht_web``, served to the page as JSON.

Category names come from the core catalog (domain ``yacht``), so every face names them alike.

>>> catalog("fi")["messages"]["Roll"]
'Heitä'
>>> catalog("en")["messages"]
{}

Plural messages (``tn("{n} roll", "{n} rolls", n)`` in the scripts) carry their forms in the
order of the catalog's ``Plural-Forms`` (fi, bg and nb: one, other), keyed by the singular;
a message with a context (``pgettext("bot", "random")``) is keyed as gettext keys it, the
context and the msgid joined by U+0004, which is how the page's i18n.js looks it up:

>>> catalog("nb")["plurals"]["{n} roll"]
['{n} kast', '{n} kast']
>>> catalog("bg")["messages"]["bot\u0004random"], catalog("bg")["messages"]["start\u0004random"]
('случаен', 'случайно')

``make catalogs`` extracts the texts with Babel (babel.cfg): its JavaScript extractor reads
the scripts' ``t()``, ``tn()`` and ``pgettext()`` (through :func:`extract_js`), and
:func:`extract_html` the markup.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from functools import cache
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path
from typing import IO, Any

from babel.messages.extract import extract_javascript

from yacht.i18n import LANGUAGES, category_label, translator
from yacht.rules import CATEGORIES

__all__ = ["DOMAIN", "STATIC", "catalog", "extract_html", "extract_js"]

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

# The page's markup names its texts in attributes: data-i18n (the element's text), its
# -label (aria-label), -placeholder and -title, and data-i18n-context for a text whose English
# word has more than one role. Babel reads the scripts itself; this is its extractor for these.
_ATTRIBUTES = ("data-i18n", "data-i18n-label", "data-i18n-placeholder", "data-i18n-title")


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str | None, str | tuple[str, str], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value for name, value in attrs if value is not None}
        context = values.get("data-i18n-context")
        line = self.getpos()[0]
        for name in _ATTRIBUTES:
            text = values.get(name)
            if not text:
                continue
            if context is not None and name == "data-i18n":
                self.found.append((line, "pgettext", (context, text), []))
            else:
                self.found.append((line, None, text, []))

    handle_startendtag = handle_starttag


def _template_text_unquoted(source: str) -> str:
    """``source`` with the quote marks in its template literals' text made spaces, so that
    Babel's JavaScript lexer reads the ``${...}`` in ``<a title="${t("Close")}">`` (a ``"``
    before ``${`` makes it read a string to the end of the literal and miss the call)."""
    out = list(source)
    stack: list[int] = []  # open template literals, each with the ${ depth it resumes at
    depth = 0
    i, n = 0, len(source)
    quote = ""  # the open string's quote in code, if any
    while i < n:
        c = source[i]
        if stack and depth == stack[-1]:  # in a template literal's text
            if c == "\\":
                i += 2
                continue
            if c == "`":
                stack.pop()
            elif c == "$" and source.startswith("${", i):
                depth += 1
                i += 2
                continue
            elif c in "\"'":
                out[i] = " "
            i += 1
            continue
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = ""
        elif source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        elif c in "\"'":
            quote = c
        elif c == "`":
            stack.append(depth)
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        i += 1
    return "".join(out)


def extract_js(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, Any, list[str]]]:
    """Babel's JavaScript extractor (with ``parse_template_string``) over a script whose
    template literals' quote marks are spaces (:func:`_template_text_unquoted`); lines stay.

    >>> import io
    >>> script = b'const x = `<b title="${esc(t("Close the hints"))}">`;'
    >>> [m[2] for m in extract_js(io.BytesIO(script), ["t"], [], {})]
    ['Close the hints']
    """
    encoding = str(options.get("encoding", "utf-8"))
    source = _template_text_unquoted(fileobj.read().decode(encoding))
    javascript: Any = extract_javascript  # its annotations are not the tuples it yields
    yield from javascript(
        BytesIO(source.encode(encoding)),
        keywords,
        comment_tags,
        {**options, "parse_template_string": True},
    )


def extract_html(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    """Babel's extractor for the page's markup (babel.cfg: ``[extractors]``): every
    ``data-i18n*`` attribute's msgid, with ``data-i18n-context`` as its context (a
    ``pgettext`` message, so the extraction's keywords must name ``pgettext:1c,2``).

    >>> import io
    >>> page = b'<p data-i18n="Roll">Roll</p><option data-i18n="random" data-i18n-context="start">'
    >>> [m[1:3] for m in extract_html(io.BytesIO(page), ["pgettext"], [], {})]
    [(None, 'Roll'), ('pgettext', ('start', 'random'))]
    """
    parser = _Attributes()
    parser.feed(fileobj.read().decode(str(options.get("encoding", "utf-8"))))
    parser.close()
    yield from parser.found

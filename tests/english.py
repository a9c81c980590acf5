"""English words left in a text that a player reads in Finnish, Bulgarian or Norwegian.

The English vocabulary is every word (three letters or more) of the English messages of the
three catalogs (``yacht``, ``yacht_tui``, ``yacht_web``) plus argparse's own words ("usage",
"options", "positional arguments", "show this help message and exit"...). A word that the
language's own translations use as well is not English there (names such as "Yacht", "Full
House", "Bonus", "robot" in Norwegian), nor is anything in ``allowed``. Option names
(``--rules``, ``-c``) are skipped, since a user types them as they are.

>>> english_words("Pisteet: the score sheet, Yacht, Full House", "fi")
['the', 'score', 'sheet']
>>> english_words("Käyttö: yacht play [--rules RULES]", "fi", allowed={"rules"})
[]
>>> english_words("usage: yacht", "bg")
['usage']
"""

from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Collection
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

import yacht

__all__ = ["argparse_messages", "english_words", "vocabulary"]

LOCALE = Path(yacht.__file__).parent / "locale"
DOMAINS = ("yacht", "yacht_tui", "yacht_web")
_WORD = re.compile(r"[^\W\d_]{3,}")
_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([^)]*\)[a-z]|%[a-z]")


def _words(text: str) -> set[str]:
    text = _PLACEHOLDER.sub(" ", text)
    return {w.casefold() for w in _WORD.findall(_OPTION.sub(" ", text))}


@cache
def argparse_messages() -> tuple[str, ...]:
    """Every message argparse passes to gettext (``_()``, ``ngettext()``), read from its source.

    >>> messages = argparse_messages()
    >>> "usage: " in messages and "show this help message and exit" in messages
    True
    """
    tree = ast.parse(Path(argparse.__file__).read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        if node.func.id not in ("_", "ngettext"):
            continue
        for arg in node.args[:2]:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append(arg.value)
    # the default title of a group of subcommands, passed to _() through a variable
    found.append("subcommands")
    return tuple(dict.fromkeys(found))


def _texts(value: object) -> list[str]:
    """A message's one text or its plural forms."""
    values = value if isinstance(value, (tuple, list)) else (value,)
    return [v for v in values if isinstance(v, str)]


@cache
def _catalog(lang: str, domain: str) -> tuple[set[str], set[str]]:
    """The words of a catalog's English messages and of its translations."""
    path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as f:
        catalog = read_po(f)
    english: set[str] = set()
    native: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        for text in _texts(message.id):
            english |= _words(text)
        for text in _texts(message.string):
            native |= _words(text)
    return english, native


@cache
def vocabulary(lang: str) -> frozenset[str]:
    """The English words that should not appear in a text shown in ``lang`` (casefolded)."""
    english: set[str] = set()
    native: set[str] = set()
    for domain in DOMAINS:
        words, ours = _catalog(lang, domain)
        english |= words
        native |= ours
    for text in argparse_messages():
        english |= _words(text)
    return frozenset(english - native)


def english_words(text: str, lang: str, allowed: Collection[str] = ()) -> list[str]:
    """The English words in ``text`` (in order, each once), for a text shown in ``lang``."""
    vocab = vocabulary(lang)
    skip = {w.casefold() for w in allowed}
    found: list[str] = []
    seen: set[str] = set()
    for word in _WORD.findall(_OPTION.sub(" ", text)):
        key = word.casefold()
        if key in vocab and key not in skip and key not in seen:
            seen.add(key)
            found.append(word)
    return found

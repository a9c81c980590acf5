"""The one rule for player and bot names on the web (REST, WebSocket, both databases).

A name is stripped with :meth:`str.strip` and put in Unicode NFC form; it is then refused
when it is empty or longer than :data:`MAX_NAME` characters, holds a control character (NUL
and U+001C..U+001F included), a bidi control (U+202E and friends, which would turn the rest
of a row around), a format or default-ignorable character (U+200B and the other zero-width
characters, U+2028/U+2029, the tags U+E0000..U+E0FFF, a byte-order mark U+FEFF, Hangul
fillers: each draws nothing, so "An\\u200bn" would pass for "Ann") or a private-use,
surrogate or unassigned code point, or when nothing in it is visible. Two exceptions keep
emoji whole: a zero-width joiner between two symbols (👩‍👩‍👧) and a variation selector
after a visible character (❤️).

At one table no two seats may have names that look alike (:func:`look_alike`): "\u0410nn" (a
Cyrillic A), "ANN" and "Ann" are one name to the eye, and "Ann's turn" must say whose.

>>> check_name("  Ann ")
'Ann'
>>> check_name("Zoë ❤️")
'Zoë ❤️'
>>> check_name("\\x1c")
Traceback (most recent call last):
...
ValueError: a name cannot be empty
>>> check_name("A\\u202eB")
Traceback (most recent call last):
...
ValueError: a name cannot hold the bidi control U+202E
>>> check_name("An\\u200bn")
Traceback (most recent call last):
...
ValueError: a name cannot hold the invisible character U+200B
>>> check_name("\\u200b")
Traceback (most recent call last):
...
ValueError: a name cannot hold the invisible character U+200B
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import unicodedata
from collections import defaultdict
from collections.abc import Iterable

__all__ = ["MAX_NAME", "check_name", "look_alike", "name_key", "skeleton"]

MAX_NAME = 40
"""Characters; the database columns are VARCHAR(40)."""

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Letters that draw nothing (Hangul fillers, braille blank, Mongolian vowel separator...).
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
REFUSED = {"Cc": "control", "Cs": "surrogate", "Co": "private-use", "Cn": "unassigned"}
INVISIBLE = frozenset({"Cf", "Zs", "Zl", "Zp", "Mn", "Me"})
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing.
IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
ZWJ = "\u200d"
SELECTORS = frozenset(chr(c) for c in range(0xFE00, 0xFE10))


def _point(char: str) -> str:
    return f"U+{ord(char):04X}"


def _ignorable(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in IGNORABLE)


def _hidden(char: str) -> bool:
    """Drawn as nothing, or an instruction to the text layout rather than a character."""
    return _ignorable(char) or unicodedata.category(char) in {"Cf", "Zl", "Zp"}


def _kept(name: str, i: int) -> bool:
    """Whether the hidden character at ``i`` is part of an emoji: a joiner between two
    symbols, or a variation selector after a visible character."""
    char = name[i]
    before = name[i - 1] if i > 0 else ""
    after = name[i + 1] if i + 1 < len(name) else ""
    if char == ZWJ:
        symbol = {"So", "Sk"}
        return bool(before and after) and {
            unicodedata.category(before),
            unicodedata.category(after),
        } <= symbol | {"Mn"}
    if char in SELECTORS:
        return bool(before) and not _hidden(before)
    return False


def check_name(value: str) -> str:
    """``value`` as the name to store, or ValueError saying what is wrong with it."""
    name = unicodedata.normalize("NFC", value.strip())
    if not name:
        raise ValueError("a name cannot be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters, this one has {len(name)}")
    for i, char in enumerate(name):
        if char in BIDI_CONTROLS:
            raise ValueError(f"a name cannot hold the bidi control {_point(char)}")
        kind = REFUSED.get(unicodedata.category(char))
        if kind is not None:
            raise ValueError(f"a name cannot hold the {kind} character {_point(char)}")
        if _hidden(char) and not _kept(name, i):
            raise ValueError(f"a name cannot hold the invisible character {_point(char)}")
    if all(c in BLANKS or unicodedata.category(c) in INVISIBLE for c in name):
        shown = " ".join(_point(c) for c in name[:4])
        raise ValueError(f"a name needs a visible character, not only {shown}")
    return name


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character of Unicode's confusables.txt (TR39) and the prototype it looks like.

    The data comes from the ``confusable-homoglyphs`` package, which keeps every line of the
    file as a pair both ways; the prototypes are the hubs of those pairs (a prototype is never
    itself mapped, so every group is one prototype and the characters that imitate it).
    """
    text = importlib.resources.files("confusable_homoglyphs").joinpath("confusables.json")
    data = json.loads(text.read_text(encoding="utf-8"))
    near: defaultdict[str, set[str]] = defaultdict(set)
    for key, entries in data.items():
        a = _bare(key)
        for entry in entries:
            b = _bare(entry["c"])
            if a and b and a != b:
                near[a].add(b)
                near[b].add(a)
    mapping: dict[str, str] = {}
    for char, others in near.items():
        if len(char) != 1 or len(others) != 1:
            continue  # a prototype (a hub), or a sequence: nothing to map
        (other,) = others
        if len(near[other]) > 1 or len(other) > 1 or other < char:
            mapping[char] = other
    return mapping


def _bare(shown: str) -> str:
    """A character of the data without the marks that hold right-to-left text in place."""
    return shown.replace("\u200e", "").replace("\u200f", "")


def _mapped(text: str) -> str:
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in decomposed))


def skeleton(name: str) -> str:
    """What a name looks like: its TR39 skeleton, without case or compatibility forms (the
    skeleton maps look-alike characters to one prototype; NFKC first turns full-width and
    other compatibility forms into their letters, and case is folded between two mappings so
    that "I" and "l", which the skeleton joins, stay joined).

    >>> skeleton("\u0410nn") == skeleton("Ann") == skeleton("ANN")
    True
    >>> skeleton("Ann") == skeleton("Anna")
    False
    """
    return _mapped(_mapped(unicodedata.normalize("NFKC", name)).casefold())


def _looks(name: str) -> frozenset[str]:
    """The forms two names are compared in: the skeleton (which joins a capital I and l) and
    the skeleton of the case-folded name (which joins ``ADMIN`` and ``admin``, where the
    skeleton alone maps the capital I to l first)."""
    return frozenset({skeleton(name), skeleton(name.casefold())})


def look_alike(name: str, others: Iterable[str | None]) -> str | None:
    """The first of ``others`` that looks like ``name`` (None: none does).

    >>> look_alike("\u0410nn", ["Bob", "ann"])
    'ann'
    >>> look_alike("ADMIN", ["admin"]), look_alike("Il", ["ll"])
    ('admin', 'll')
    >>> look_alike("Ann", ["Bob", None]) is None
    True
    """
    mine = _looks(name)
    return next((o for o in others if o is not None and mine & _looks(o)), None)


def name_key(name: str) -> str:
    """The form a banned name is matched in: the checked name without case distinctions. Only
    case: a look-alike (a Cyrillic letter for a Latin one, a full-width form) is another name,
    allowed until it is banned itself.

    >>> name_key(" ANN "), name_key("Straße") == name_key("STRASSE")
    ('ann', True)
    >>> name_key("\u0410nn") == name_key("Ann")
    False
    """
    return check_name(name).casefold()

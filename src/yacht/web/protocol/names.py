"""The one rule for player and bot names on the web (REST, WebSocket, both databases).

A name is stripped with :meth:`str.strip` and put in Unicode NFC form; it is then refused
when it is empty or longer than :data:`MAX_NAME` characters, holds a control character (NUL
and U+001C..U+001F included), a bidi control (U+202E and friends, which would turn the rest
of a row around) or a private-use, surrogate or unassigned code point, or when nothing in it
is visible (only spaces, format characters such as U+200B, fillers such as U+3164).

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
>>> check_name("\\u200b")
Traceback (most recent call last):
...
ValueError: a name needs a visible character, not only U+200B
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_NAME", "check_name", "name_key"]

MAX_NAME = 40
"""Characters; the database columns are VARCHAR(40)."""

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Letters that draw nothing (Hangul fillers, braille blank, Mongolian vowel separator...).
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
REFUSED = {"Cc": "control", "Cs": "surrogate", "Co": "private-use", "Cn": "unassigned"}
INVISIBLE = frozenset({"Cf", "Zs", "Zl", "Zp", "Mn", "Me"})


def _point(char: str) -> str:
    return f"U+{ord(char):04X}"


def check_name(value: str) -> str:
    """``value`` as the name to store, or ValueError saying what is wrong with it."""
    name = unicodedata.normalize("NFC", value.strip())
    if not name:
        raise ValueError("a name cannot be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters, this one has {len(name)}")
    for char in name:
        if char in BIDI_CONTROLS:
            raise ValueError(f"a name cannot hold the bidi control {_point(char)}")
        kind = REFUSED.get(unicodedata.category(char))
        if kind is not None:
            raise ValueError(f"a name cannot hold the {kind} character {_point(char)}")
    if all(c in BLANKS or unicodedata.category(c) in INVISIBLE for c in name):
        shown = " ".join(_point(c) for c in name[:4])
        raise ValueError(f"a name needs a visible character, not only {shown}")
    return name


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

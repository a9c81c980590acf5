"""Text that did not come from the user (a name in a game file or a database, a problem that
quotes a file) made safe to print on a terminal. Apart from the rest of the command line, so
that its error line (:mod:`yacht.cli`) can use it too.
"""

from __future__ import annotations

import unicodedata

__all__ = ["NAME_SHOWN", "shown"]

NAME_SHOWN = 40
"""Characters of a name from a file or a database that the command line prints (the web's
longest name); a longer one is cut with an ellipsis."""

# Drawn as part of an emoji (👩‍👩‍👧, ❤️), harmless to a terminal.
_KEPT = frozenset("\u200d")


def _escaped(char: str) -> str:
    """A character a terminal would obey rather than draw (ESC, the rest of C0 and C1,
    DEL, bidi overrides, line separators, invisible format characters) as an escape."""
    if char.isprintable() or char in _KEPT or unicodedata.category(char) == "Zs":
        return char
    point = ord(char)
    if point <= 0xFF:
        return f"\\x{point:02x}"
    if point <= 0xFFFF:
        return f"\\u{point:04x}"
    return f"\\U{point:08x}"


def shown(text: object, limit: int = NAME_SHOWN) -> str:
    """``text`` (a name from a game file or a database, or anything else the user did not
    type) safe to print on a terminal: every control, bidi and invisible format character
    escaped as Python writes it, and cut to ``limit`` characters with an ellipsis.

    >>> shown("Ann\\x1b]0;owned\\x07"), shown("A\\u202eB"), shown("Zoë ❤️ 👩\\u200d👧")
    ('Ann\\\\x1b]0;owned\\\\x07', 'A\\\\u202eB', 'Zoë ❤️ 👩\\u200d👧')
    >>> shown("x" * 100, 10), shown("\\x9b" * 10, 10)
    ('xxxxxxxxx…', '\\\\x9b\\\\x9b…')
    """
    out: list[str] = []
    size = 0
    value = str(text)
    for i, char in enumerate(value):
        piece = _escaped(char)
        room = limit - 1 if i < len(value) - 1 else limit  # the last may take the ellipsis' place
        if size + len(piece) > room:
            out.append("…")
            break
        out.append(piece)
        size += len(piece)
    return "".join(out)

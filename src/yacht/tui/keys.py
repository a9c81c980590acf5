"""Every key of the table screen in one list: the bindings, the key bar and the help screen
(``?``) are all built from it, so the help can never miss a key."""

from __future__ import annotations

from dataclasses import dataclass

from yacht.rules import CATEGORIES, Category
from yacht.tui.text import N_

__all__ = [
    "CATEGORY_KEYS",
    "TABLE_KEYS",
    "KeyHelp",
    "bindings",
    "twins",
    "with_capitals",
    "with_twins",
]

BDS = dict(zip("qwertyuiopasdfghjklzxcvbnm", "ыуеишщксдзьяаожгтнвюйъэфхп", strict=True))
"""The Bulgarian standard layout (BDS): the Cyrillic letter on each Latin letter's key."""
PHONETIC = dict(zip("qwertyuiopasdfghjklzxcvbnm", "явертъуиопасдфгхйклзьцжбнм", strict=True))
"""The Bulgarian phonetic layout: the Cyrillic letter on each Latin letter's key."""
LAYOUT_ACTIONS = ("quit", "roll", "hint")
"""The table's actions whose letter also works in either Bulgarian layout (a player who
switches layouts mid-game); the category letters do not, or one key would do two things."""


def twins(letter: str) -> tuple[str, ...]:
    """The letters on the same key in the other layouts, lower case: a Latin letter's
    Cyrillic ones (BDS, phonetic), a Cyrillic letter's Latin ones.

    >>> twins("Q"), twins("п"), twins("1")
    (('ы', 'я'), ('m', 'p'), ())
    """
    key = letter.lower()
    if key in BDS:
        return tuple(dict.fromkeys((BDS[key], PHONETIC[key])))
    return tuple(sorted({latin for latin, c in (*BDS.items(), *PHONETIC.items()) if c == key}))


CATEGORY_KEYS: dict[Category, str] = dict(zip(CATEGORIES, "abcdefgijklm", strict=True))
"""The letter that scores each category (h is the hint key, so it is skipped)."""


@dataclass(frozen=True)
class KeyHelp:
    """Keys (Textual names), how they are shown (translated), the screen action, and what
    they do."""

    keys: tuple[str, ...]
    display: str
    action: str
    description: str
    short: str | None = None  # the word in the key bar, when the key is shown there


def _hold_keys() -> tuple[KeyHelp, ...]:
    return (
        KeyHelp(
            tuple(str(i) for i in range(1, 6)),
            "1-5",
            "hold",
            N_("Hold or release die 1 to 5 (or click the die)"),
            N_("Hold"),
        ),
    )


TABLE_KEYS: tuple[KeyHelp, ...] = (
    *_hold_keys(),
    KeyHelp(
        ("r", "space"), N_("R, Space"), "roll", N_("Roll the dice that are not held"), N_("Roll")
    ),
    KeyHelp(("up", "down"), "↑ ↓", "cursor", N_("Move the cursor on the sheet")),
    KeyHelp(
        ("enter",),
        "Enter",
        "score_selected",
        N_("Score the category under the cursor (or click a row)"),
        N_("Score"),
    ),
    KeyHelp(
        tuple(CATEGORY_KEYS[c] for c in CATEGORIES),
        "a-m",
        "score",
        N_("Score the category with that letter (left of each row)"),
    ),
    KeyHelp(("h",), "H", "hint", N_("Show or hide the hint panel"), N_("Hint")),
    KeyHelp(("u",), "U", "undo", N_("Take back the last scoring (undo house rule)"), N_("Undo")),
    KeyHelp(("question_mark",), "?", "help", N_("This help"), N_("Help")),
    KeyHelp(("q",), "Q", "quit", N_("Quit; the game is saved and can be resumed"), N_("Quit")),
)


def with_capitals(keys: tuple[str, ...]) -> tuple[str, ...]:
    """Letter keys also as capitals (Shift or Caps Lock): the key bar prints them so.

    >>> with_capitals(("r", "space"))
    ('r', 'R', 'shift+r', 'space')
    """
    out: list[str] = []
    for key in keys:
        out.append(key)
        if len(key) == 1 and key.isalpha():
            out += [key.upper(), f"shift+{key}"]
    return tuple(out)


def with_twins(keys: tuple[str, ...]) -> tuple[str, ...]:
    """Letter keys with their twins in the Bulgarian layouts.

    >>> with_twins(("q", "escape"))
    ('q', 'ы', 'я', 'escape')
    """
    out: list[str] = []
    for key in keys:
        out += [key, *(twins(key) if len(key) == 1 else ())]
    return tuple(out)


def bindings() -> list[tuple[str, str, str]]:
    """(key, action, description) triples for ``Screen.BINDINGS``, hidden from any footer;
    every letter works as a capital too, and Q, R and H in the Bulgarian layouts."""
    out: list[tuple[str, str, str]] = []
    for item in TABLE_KEYS:
        keys = with_twins(item.keys) if item.action in LAYOUT_ACTIONS else item.keys
        for key in with_capitals(keys):
            if item.action == "hold":
                out.append((key, f"hold({key})", item.description))
            elif item.action == "cursor":
                out.append((key, f"cursor({-1 if key == 'up' else 1})", item.description))
            elif item.action == "score":
                letter = key.removeprefix("shift+").lower()
                category = next(c for c, k in CATEGORY_KEYS.items() if k == letter)
                out.append((key, f"score('{category.value}')", item.description))
            else:
                out.append((key, item.action, item.description))
    return out

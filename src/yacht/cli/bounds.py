"""Numbers on the command line, each with the range its command can use.

Every numeric option and argument of ``yacht`` is parsed by :func:`whole` or :func:`decimal`:
a word that is not a number, or a number out of its range (a 20-digit bot target, a game id
past SQLite's 64 bits, ``nan`` seconds), is argparse's one line and exit status 2, before any
command runs.

>>> whole(1, 10)("7"), decimal(0, 10)("0.5")
(7, 0.5)
>>> whole(1, 10)("11")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be from 1 to 10, got 11
>>> decimal(0, 10)("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be from 0 to 10, got nan
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from yacht.cli import cli_gettext

__all__ = ["MAX_ID", "MAX_SEED", "coach_threshold", "decimal", "number_shown", "whole"]

MAX_SEED = 2**64 - 1
"""The largest seed: 64 bits, as much as the dice generators use."""

MAX_ID = 2**63 - 1
"""The largest row id SQLite and PostgreSQL store (a signed 64-bit integer)."""

_SHOWN = 24
"""Characters of a refused word quoted back; the rest is cut."""


def number_shown(text: str) -> str:
    """A word from the command line as an error quotes it: control characters escaped, at
    most a couple of dozen characters.

    >>> number_shown("9" * 40)
    '99999999999999999999999…'
    """
    from yacht.cli.text import shown

    return shown(text, _SHOWN)


def _range(low: float, high: float, text: str) -> argparse.ArgumentTypeError:
    _ = cli_gettext()
    return argparse.ArgumentTypeError(
        _("must be from {low} to {high}, got {value}").format(
            low=f"{low:g}" if isinstance(low, float) else low,
            high=f"{high:g}" if isinstance(high, float) else high,
            value=number_shown(text),
        )
    )


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        word = text.strip()
        digits = word[1:] if word[:1] in ("+", "-") else word
        if not (digits.isascii() and digits.isdigit()):
            _ = cli_gettext()
            raise argparse.ArgumentTypeError(
                _("{text!r} is not a whole number").format(text=number_shown(text))
            )
        if len(digits) > 40:  # far out of any range; int() of a huge word is slow
            raise _range(low, high, text)
        value = int(word)
        if not low <= value <= high:
            raise _range(low, high, text)
        return value

    parse.__name__ = "whole number"  # argparse names the type in its own messages
    return parse


def decimal(low: float, high: float) -> Callable[[str], float]:
    """An argparse ``type``: a finite number from ``low`` to ``high`` (``nan`` and ``inf`` are
    refused)."""

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            _ = cli_gettext()
            raise argparse.ArgumentTypeError(
                _("{text!r} is not a number").format(text=number_shown(text))
            ) from None
        if not (math.isfinite(value) and low <= value <= high):
            raise _range(low, high, text)
        return value

    parse.__name__ = "number"
    return parse


def coach_threshold(text: str) -> tuple[str, float]:
    """An argparse ``type`` for the live coach: expected points (``1.5``, 0.1 to 5), or
    percentage points of the chance of winning with a ``%`` (``2%``, 0.1 to 10).

    >>> coach_threshold("1.5"), coach_threshold("2%"), coach_threshold("0.5 %")
    (('points', 1.5), ('win', 2.0), ('win', 0.5))
    """
    if text.rstrip().endswith("%"):
        return ("win", decimal(0.1, 10)(text.rstrip()[:-1].strip()))
    return ("points", decimal(0.1, 5)(text))

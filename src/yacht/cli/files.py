"""Reading the JSON files users hand to ``yacht verify`` and ``yacht review``.

Whatever the file holds, the answer is a value or a :class:`~yacht.cli.CommandError` (one
line, exit status 2): unreadable, not UTF-8, not JSON, nested too deeply, numbers that are
not finite (``NaN``, ``Infinity``) or have thousands of digits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from yacht.cli import CommandError, cli_gettext

__all__ = ["read_json"]


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_json(path: str) -> Any:
    """The JSON value in the file at ``path``, or CommandError saying why there is none."""
    _ = cli_gettext()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise CommandError(
            _("cannot read {path}: {error}").format(path=path, error=e.strerror or e)
        ) from None
    except UnicodeDecodeError as e:
        raise CommandError(_("{path} is not JSON: {error}").format(path=path, error=e)) from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise CommandError(
            _("{path} is not a game: its JSON is nested too deeply").format(path=path)
        ) from None
    except json.JSONDecodeError as e:  # where, not the parser's English words
        raise CommandError(
            _("{path} is not JSON (line {line}, column {column})").format(
                path=path, line=e.lineno, column=e.colno
            )
        ) from None
    except ValueError as e:  # NaN/Infinity, too many digits
        raise CommandError(_("{path} is not JSON: {error}").format(path=path, error=e)) from None

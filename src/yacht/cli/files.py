"""Reading the JSON files users hand to ``yacht verify`` and ``yacht review``.

Whatever the file holds, the answer is a value or a :class:`~yacht.cli.CommandError` (one
line, exit status 2): not a regular file (a FIFO, ``/dev/zero``, a directory: refused before
it is read, so nothing waits for a writer or reads forever), over :data:`MAX_FILE` bytes,
unreadable, not UTF-8, not JSON, nested too deeply, numbers that are not finite (``NaN``,
``Infinity``) or have thousands of digits.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from yacht.cli import CommandError, cli_gettext

__all__ = ["MAX_FILE", "read_json", "read_text"]

MAX_FILE = 4 * 1024 * 1024
"""Bytes: a finished game's file is some 20 KB; a few MiB leaves room for any real one."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _cannot(path: str, error: OSError) -> CommandError:
    _ = cli_gettext()
    return CommandError(
        _("cannot read {path}: {error}").format(path=path, error=error.strerror or error)
    )


def read_text(path: str, limit: int = MAX_FILE) -> str:
    """The UTF-8 text of the regular file at ``path``, at most ``limit`` bytes, or
    CommandError saying why not. ``O_NONBLOCK`` keeps opening a FIFO from waiting for a
    writer; the file is then checked to be regular before a byte is read."""
    _ = cli_gettext()
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise _cannot(path, e) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CommandError(_("{path} is not a regular file").format(path=path))
        if info.st_size > limit:
            raise _too_big(path, limit)
        data = b""
        while len(data) <= limit:  # the file may grow after fstat
            chunk = os.read(fd, limit + 1 - len(data))
            if not chunk:
                break
            data += chunk
    except OSError as e:
        raise _cannot(path, e) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise _too_big(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CommandError(_("{path} is not JSON: {error}").format(path=path, error=e)) from None


def _too_big(path: str, limit: int) -> CommandError:
    _ = cli_gettext()
    return CommandError(
        _("{path} is larger than {size} MiB: not a game file").format(
            path=path, size=limit // (1024 * 1024)
        )
    )


def read_json(path: str) -> Any:
    """The JSON value in the file at ``path``, or CommandError saying why there is none."""
    _ = cli_gettext()
    text = read_text(path)
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

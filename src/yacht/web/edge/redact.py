"""Passwords kept out of everything a server prints: its banner, its errors and every log line.

A URL's password becomes ``***`` (:func:`redact_url`); any text is cleaned of URL passwords and
of the secrets the server was given (:func:`redact`, which the settings feed with the passwords
of the database and Redis URLs they hold, see :func:`remember`); :class:`RedactFilter` does it
to log records, installed on every handler of a logging config by :func:`redacted_config`.

>>> redact_url("postgresql+psycopg://ann:s3cret@db.example:5432/games")
'postgresql+psycopg://ann:***@db.example:5432/games'
>>> redact("could not connect to redis://:hunter2@10.0.0.7:6379/0 (refused)")
'could not connect to redis://:***@10.0.0.7:6379/0 (refused)'
>>> remember("pa ss"); redact("password 'pa ss' was refused")
"password '***' was refused"
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, unquote, urlsplit

__all__ = ["RedactFilter", "redact", "redact_url", "redacted_config", "remember", "url_secrets"]

HIDDEN = "***"

# scheme://user:password@ (the user may be empty, as in redis://:password@host)
_USERINFO = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@'\"]*:)(?P<pw>[^@\s'\"/]+)@")
# password=..., ssl_password=..., sslpassword=... in a query string or a libpq DSN
_KEYWORD = re.compile(
    r"(?P<head>\b(?:[A-Za-z_]*password|passwd|pwd)\s*=\s*)(?P<pw>'[^']*'|[^\s&;'\"]+)",
    re.IGNORECASE,
)

_SECRETS: set[str] = set()


def remember(*secrets: str) -> None:
    """Hide these strings (and their %-encoded forms) wherever :func:`redact` sees them."""
    for secret in secrets:
        if len(secret) >= 3:  # a one- or two-letter password would blank out ordinary words
            _SECRETS.update({secret, quote(secret, safe=""), unquote(secret)})


def url_secrets(url: str) -> list[str]:
    """The passwords a URL holds: its userinfo's and any ``...password=`` in its query.

    >>> url_secrets("rediss://ann:p%40ss@h/0?ssl_password=key")
    ['p%40ss', 'key']
    """
    found: list[str] = []
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    match = _USERINFO.search(url)
    if match:
        found.append(match["pw"])
    elif password:
        found.append(password)
    found += [m["pw"].strip("'") for m in _KEYWORD.finditer(url)]
    return found


def redact_url(url: str) -> str:
    """``url`` with its passwords shown as ``***`` (the rest kept, to say where it points)."""
    return redact(url)


def redact(text: str) -> str:
    """``text`` with URL passwords, ``password=`` values and remembered secrets as ``***``."""
    if not text:
        return text
    text = _USERINFO.sub(lambda m: f"{m['head']}{HIDDEN}@", text)
    text = _KEYWORD.sub(lambda m: f"{m['head']}{HIDDEN}", text)
    for secret in sorted(_SECRETS, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, HIDDEN)
    return text


class RedactFilter(logging.Filter):
    """Hide passwords in a record's message, arguments, extra fields and traceback.

    The arguments keep their places (uvicorn's access lines format them themselves); a
    traceback is formatted here, once, and handed on as ``exc_text`` (the text formatter) and
    as the ``error`` field (the JSON one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        for key, value in list(vars(record).items()):
            if key not in _RECORD and isinstance(value, str):
                setattr(record, key, redact(value))
        if record.exc_info and record.exc_info[0] is not None:
            text = redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info, record.exc_text = None, text
            record.error = text
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


_RECORD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, int | float | bool) or value is None:
        return value
    shown = str(value)
    cleaned = redact(shown)
    return value if cleaned == shown else cleaned


def redacted_config(config: dict[str, Any], loggers: Iterable[str] = ()) -> dict[str, Any]:
    """A copy of a :func:`logging.config.dictConfig` config with :class:`RedactFilter` on every
    handler (a filter on a logger would miss the records of its children), and ``loggers``
    sent to its first handler when the config does not name them."""
    config = copy.deepcopy(config)
    config.setdefault("filters", {})["redact"] = {"()": f"{__name__}.RedactFilter"}
    handlers = config.setdefault("handlers", {})
    for handler in handlers.values():
        handler["filters"] = [*handler.get("filters", []), "redact"]
    named = config.setdefault("loggers", {})
    first = next(iter(handlers), None)
    for name in loggers:
        if name not in named and first is not None:
            named[name] = {"handlers": [first], "level": "INFO", "propagate": False}
    return config

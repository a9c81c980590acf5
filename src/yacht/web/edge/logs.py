"""Structured logs: one JSON object per line (``yacht serve --log-format json``).

Every record carries ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message`` and the
process id, plus whatever the call passed in ``extra=`` (table code, client, ...), and the
traceback as ``error`` when there is one. uvicorn's own records (startup, shutdown) use the
same format; the access lines are yacht's own (:mod:`yacht.web.edge.access`), with the
request's ``request_id``, ``route``, ``status`` and ``duration`` as fields.

>>> import logging
>>> record = logging.LogRecord("yacht.web", logging.INFO, __file__, 1, "table %s", ("ABC",), None)
>>> record.table = "ABC"
>>> line = json.loads(JsonFormatter().format(record))
>>> line["level"], line["logger"], line["message"], line["table"]
('info', 'yacht.web', 'table ABC', 'ABC')
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime
from typing import Any

__all__ = ["JsonFormatter", "json_line", "uvicorn_log_config"]

# Attributes every LogRecord has: anything else on a record came from ``extra=``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}
_SKIP = {"color_message"}  # uvicorn's copy of the message with terminal colours


_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def _one_line(out: dict[str, Any]) -> str:
    """``out`` as JSON on one line for every line-based reader: JSON leaves NEL, U+2028 and
    U+2029 raw in strings (a hostile request path carries them), and ``str.splitlines`` and
    many log shippers break lines there, so they are escaped as well.

    >>> _one_line({"message": "a\u2028b"})
    '{"message": "a\\\\u2028b"}'
    """
    return json.dumps(out, ensure_ascii=False).translate(_BREAKS)


def json_line(message: str, level: str = "info", logger: str = "yacht.web", **fields: Any) -> str:
    """A log line in the same shape as :class:`JsonFormatter`'s, for use before logging is set up.

    >>> sorted(json.loads(json_line("serving", port=8000)))
    ['level', 'logger', 'message', 'pid', 'port', 'time']
    """
    out = {
        "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "level": level,
        "logger": logger,
        "message": message,
        "pid": os.getpid(),
        **fields,
    }
    return _one_line(out)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": os.getpid(),
        }
        for key, value in vars(record).items():
            if (
                key not in _STANDARD
                and key not in _SKIP
                and not key.startswith("_")
                and key not in out
            ):
                out[key] = (
                    value if isinstance(value, str | int | float | bool | None) else str(value)
                )
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return _one_line(out)


def uvicorn_log_config(level: str = "info", json_lines: bool = True) -> dict[str, Any]:
    """A logging config for uvicorn.run(log_config=...): uvicorn and yacht, to stderr."""
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonFormatter"}
        if json_lines
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    handler = {"class": "logging.StreamHandler", "formatter": "main", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": {
            name: {"handlers": ["main"], "level": level.upper(), "propagate": False}
            # asyncio's own (a task's exception never retrieved) too: every line is the format
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "yacht", "asyncio")
        },
    }

"""``yacht loadtest``: play many tables of bots against running servers and print the figures."""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
from typing import Any

__all__ = ["cmd_loadtest", "register"]


def register(subs: Any) -> None:
    from yacht.cli import add_lang_option, cli_gettext
    from yacht.loadtest import MAX_DURATION, MAX_TABLES

    _ = cli_gettext()
    p = subs.add_parser(
        "loadtest",
        help=_("play N tables of bots over WebSockets against running servers (loopback only)"),
        description=_(
            "Opens N tables on the servers given by --url (repeat it to spread the "
            "seats of every table over several server processes), seats a bot at every seat, "
            "plays for the given seconds and prints actions per second, the latency from "
            "sending an action to receiving its broadcast (p50/p95/p99) and the errors. Only "
            "loopback addresses are accepted. Exit status: 0 no errors, 1 errors, 2 bad "
            "arguments."
        ),
    )
    p.add_argument(
        "--url",
        action="append",
        required=True,
        metavar="URL",
        help=_("a server, e.g. http://127.0.0.1:8000 (repeat for several processes)"),
    )
    p.add_argument(
        "--tables",
        type=int,
        default=10,
        metavar="N",
        help=_("tables to play, 1 to {n}").format(n=MAX_TABLES),
    )
    p.add_argument(
        "--duration",
        type=float,
        default=10.0,
        metavar=_("SECONDS"),
        help=_("seconds to play, at most {n}").format(n=f"{MAX_DURATION:g}"),
    )
    p.add_argument(
        "--seats",
        type=int,
        default=2,
        metavar="N",
        help=_("seats per table, 1 to 6 (default: 2)"),
    )
    p.add_argument(
        "--think",
        type=float,
        default=1.0,
        metavar=_("SECONDS"),
        help=_("mean seconds a bot thinks before each action (0.5-1.5 times this; default: 1)"),
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar=_("SECONDS"),
        help=_("an action not broadcast within this many seconds is an error (default: 10)"),
    )
    p.add_argument(
        "--seed", type=int, default=0, metavar="N", help=_("seed of the bots' think times")
    )
    p.add_argument("--json", action="store_true", help=_("print the figures as JSON"))
    add_lang_option(p)
    p.set_defaults(handler=cmd_loadtest)


def _raise_file_limit() -> None:
    """Two sockets per seat can pass the default 1024 open files: raise the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def cmd_loadtest(args: argparse.Namespace) -> int:
    from yacht.cli import CommandError
    from yacht.loadtest.run import LoadConfig, run

    try:  # checked() says which option is out of range
        config = LoadConfig(
            urls=tuple(args.url),
            tables=args.tables,
            duration=args.duration,
            seats=args.seats,
            think=args.think,
            timeout=args.timeout,
            seed=args.seed,
        ).checked()
    except ValueError as e:
        raise CommandError.about(e) from None
    _raise_file_limit()
    import httpx
    from websockets.exceptions import WebSocketException

    try:
        report = asyncio.run(run(config))
    except (OSError, httpx.HTTPError, WebSocketException) as e:
        raise CommandError(f"cannot play against {', '.join(config.urls)}: {e}") from None
    print(json.dumps(report.to_json(), indent=2) if args.json else report.text())
    return 1 if report.error_count else 0

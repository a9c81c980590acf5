"""The command line of ``yacht history`` and ``yacht replay``, in the ``yacht`` catalog (the
commands themselves live in :mod:`yacht.cli.tui`, whose texts are the terminal game's catalog,
``yacht_tui``, and which is loaded only when one of them runs)."""

from __future__ import annotations

import argparse
from typing import Any

from yacht.cli import add_lang_option, cli_gettext
from yacht.cli.bounds import MAX_ID, whole

__all__ = ["MAX_LIMIT", "register"]

MAX_LIMIT = 100_000
"""The most games ``yacht history --limit`` lists."""


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("list finished games and high scores")
    p = subs.add_parser("history", help=what, description=what)
    p.add_argument(
        "--limit",
        type=whole(1, MAX_LIMIT),
        default=20,
        metavar="N",
        help=_("how many recent games (default: 20)"),
    )
    p.add_argument("--json", action="store_true", help=_("print JSON instead of a table"))
    add_lang_option(p)
    p.set_defaults(handler=_history)
    what = _("step through a stored game with its review")
    p = subs.add_parser("replay", help=what, description=what)
    p.add_argument(
        "id", type=whole(1, MAX_ID), metavar=_("ID"), help=_("the game's number in yacht history")
    )
    p.add_argument("--plain", action="store_true", help=_("print the replay as text"))
    p.add_argument("--no-review", action="store_true", help=_("skip the strategy review"))
    add_lang_option(p)
    p.set_defaults(handler=_replay)


def _history(args: argparse.Namespace) -> int:
    from yacht.cli.tui import cmd_history

    return cmd_history(args)


def _replay(args: argparse.Namespace) -> int:
    from yacht.cli.tui import cmd_replay

    return cmd_replay(args)

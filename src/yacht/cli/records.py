"""The command line of ``yacht history`` and ``yacht replay`` and the one-line errors of the
stored games and the full-screen game, in the ``yacht`` catalog (the commands themselves live
in :mod:`yacht.cli.tui`, whose texts are the terminal game's catalog, ``yacht_tui``)."""

from __future__ import annotations

import argparse
from typing import Any

from yacht.cli import CommandError, add_lang_option, cli_gettext

__all__ = [
    "bot_delay_error",
    "limit_error",
    "register",
    "terminal_error",
    "textual_error",
    "unreadable_error",
]


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("list finished games and high scores")
    p = subs.add_parser("history", help=what, description=what)
    p.add_argument(
        "--limit", type=int, default=20, metavar="N", help=_("how many recent games (default: 20)")
    )
    p.add_argument("--json", action="store_true", help=_("print JSON instead of a table"))
    add_lang_option(p)
    p.set_defaults(handler=_history)
    what = _("step through a stored game with its review")
    p = subs.add_parser("replay", help=what, description=what)
    p.add_argument("id", type=int, metavar=_("ID"), help=_("the game's number in yacht history"))
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


def limit_error(limit: int) -> CommandError:
    _ = cli_gettext()
    return CommandError(_("--limit must be at least 1, got {n}").format(n=limit))


def unreadable_error(game_id: int, reason: object = None) -> CommandError:
    _ = cli_gettext()
    text = _("stored game {id} is not a readable game").format(id=game_id)
    return CommandError(text if reason is None else f"{text}: {reason}")


def terminal_error() -> CommandError:
    _ = cli_gettext()
    return CommandError(_("the full-screen game needs a terminal (use --plain for text)"))


def textual_error() -> CommandError:
    _ = cli_gettext()
    return CommandError(
        _("the full-screen game needs Textual: pip install 'yacht[tui]' (or use --plain)")
    )


def bot_delay_error(delay: float) -> CommandError:
    _ = cli_gettext()
    return CommandError(_("--bot-delay must be 0 to 10 seconds, got {delay}").format(delay=delay))

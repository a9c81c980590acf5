"""The ``yacht`` command. Each subcommand lives in a module of this package with a
``register(subparsers)`` function; :data:`COMMANDS` lists them in help order.

A mistake in what the user asked for (:data:`USER_ERRORS`) is one line on stderr and exit
status 2. Anything else is a bug in yacht: its traceback, a line saying so and where to
report it, and exit status 70 (``EX_SOFTWARE``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from collections.abc import Sequence

import yacht
from yacht.actions import GameError
from yacht.i18n import detect_language, translator
from yacht.rules import InvalidDiceError, RulesError

__all__ = ["BUG_STATUS", "COMMANDS", "USER_ERRORS", "CommandError", "main"]

COMMANDS: tuple[str, ...] = (
    "yacht.cli.core",  # score, rules
    "yacht.cli.plain",  # play
    "yacht.cli.strategy",  # solve, hint, distribution
    "yacht.cli.bots",  # simulate, review
    "yacht.cli.tui",  # history, replay
    "yacht.cli.web",  # serve, verify
    "yacht.cli.loadtest",  # loadtest
    "yacht.cli.match",  # match, endgame
    "yacht.cli.duel",  # duel solve, duel stats
)


class CommandError(Exception):
    """A user error: printed as one line, exit status 2. A handler raises it for bad
    arguments or files, and turns a library's ValueError about them into one."""


USER_ERRORS: tuple[type[Exception], ...] = (CommandError, GameError, RulesError, InvalidDiceError)
"""What a user's input can cause: the command's own errors, an action the game refuses,
an unknown preset or category, dice that are not five faces."""

BUG_STATUS = 70
"""Exit status of an internal error (``EX_SOFTWARE`` in sysexits.h)."""


def _error_line(message: object) -> str:
    _ = translator(detect_language()).gettext
    text = " ".join(str(message).split())  # one line, whatever the message held
    return _("yacht: error: {message}").format(message=text) + "\n"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, _error_line(message))


def build_parser() -> argparse.ArgumentParser:
    _ = translator(detect_language()).gettext
    parser = _Parser(prog="yacht", description=_("The traditional Yacht dice game."))
    parser.add_argument("--version", action="version", version=f"yacht {yacht.__version__}")
    subs = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(name).register(subs)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except USER_ERRORS as e:
        sys.stderr.write(_error_line(e))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception:
        traceback.print_exc()
        sys.stderr.write(_bug_line())
        return BUG_STATUS
    return status


def _bug_line() -> str:
    _ = translator(detect_language()).gettext
    return (
        _(
            "yacht: internal error: this is a bug in yacht {version}, not in your command. "
            "Please report it on the yacht issue tracker with the traceback above and the "
            "command you ran."
        ).format(version=yacht.__version__)
        + "\n"
    )

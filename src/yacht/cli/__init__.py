"""The ``yacht`` command. Each subcommand lives in a module of this package with a
``register(subparsers)`` function; :data:`COMMANDS` lists them in help order."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

import yacht
from yacht.i18n import detect_language, translator

__all__ = ["COMMANDS", "CommandError", "main"]

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
    """A user error: printed as one line, exit status 2."""


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
    except (CommandError, ValueError) as e:
        sys.stderr.write(_error_line(e))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return status

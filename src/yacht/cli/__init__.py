"""The ``yacht`` command. Each subcommand lives in a module of this package with a
``register(subparsers)`` function; :data:`COMMANDS` lists them in help order.

Every command takes ``--lang`` (en, fi, bg, nb; else the environment's language, see
:func:`yacht.i18n.detect_language`): the help, argparse's own words, errors and human output
follow it; JSON output never changes.

A mistake in what the user asked for (:data:`USER_ERRORS`) is one line on stderr and exit
status 2. Anything else is a bug in yacht: its traceback, a line saying so and where to
report it, and exit status 70 (``EX_SOFTWARE``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from collections.abc import Callable, Sequence
from contextvars import ContextVar

import yacht
from yacht.actions import GameError
from yacht.errors import N_, YachtError
from yacht.i18n import LANGUAGES, detect_language, error_text, language_code, translator
from yacht.rules import InvalidDiceError, RulesError

__all__ = [
    "BUG_STATUS",
    "COMMANDS",
    "USER_ERRORS",
    "CommandError",
    "add_lang_option",
    "cli_gettext",
    "cli_language",
    "main",
    "parse_language",
]

COMMANDS: tuple[str, ...] = (
    "yacht.cli.core",  # score, rules
    "yacht.cli.plain",  # play
    "yacht.cli.strategy",  # solve, hint, distribution
    "yacht.cli.bots",  # simulate, review
    "yacht.cli.skill",  # skill
    "yacht.cli.training",  # practice, proficiency
    "yacht.cli.records",  # history, replay
    "yacht.cli.web",  # serve, verify
    "yacht.cli.daily",  # daily
    "yacht.cli.db",  # db upgrade, downgrade, current
    "yacht.cli.admin",  # admin tables, names, games
    "yacht.cli.loadtest",  # loadtest
    "yacht.cli.match",  # match, endgame
    "yacht.cli.duel",  # duel solve, duel stats
)


class CommandError(
    YachtError,
    messages={"reason": N_("{reason}"), "file": N_("{path}: {reason}")},
):
    """A user error: printed as one line, exit status 2. A handler raises it for bad
    arguments or files, and turns a library's ValueError about them into one with
    :meth:`about`, so the line is in the user's language (:func:`yacht.i18n.error_text`)."""

    @classmethod
    def about(cls, error: Exception, path: str | None = None) -> CommandError:
        """``error``, which the user's input caused, as a command's error; ``path`` names the
        file it is about."""
        if path is not None:
            return cls("file", path=path, reason=error)
        return cls("reason", reason=error)


USER_ERRORS: tuple[type[Exception], ...] = (CommandError, GameError, RulesError, InvalidDiceError)
"""What a user's input can cause: the command's own errors, an action the game refuses,
an unknown preset or category, dice that are not five faces."""

ERROR_SHOWN = 2000
"""Characters of an error's line; the rest is cut."""

BUG_STATUS = 70
"""Exit status of an internal error (``EX_SOFTWARE`` in sysexits.h)."""


_LANG: ContextVar[str | None] = ContextVar("yacht_cli_language", default=None)


def cli_language() -> str:
    """The language of this run of ``yacht``: its ``--lang``, else the environment's."""
    return _LANG.get() or detect_language()


def cli_gettext() -> Callable[[str], str]:
    """``gettext`` of the ``yacht`` catalog in the language of this run."""
    return translator(cli_language()).gettext


def parse_language(lang: str | None) -> str:
    """A language code from --lang, or the user's language when it is not given."""
    if lang is None:
        return detect_language()
    try:
        return language_code(lang)
    except ValueError:
        _ = translator(detect_language()).gettext
        raise CommandError(
            _("unknown language {lang!r} (one of: {langs})").format(
                lang=lang, langs=", ".join(LANGUAGES)
            )
        ) from None


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    """The ``--lang`` option every command has."""
    _ = cli_gettext()
    parser.add_argument(
        "--lang", default=None, metavar=_("LANG"), help=_("language: en, fi, bg or nb")
    )


def _asked_language(argv: Sequence[str]) -> str | None:
    """What a command line gives --lang, looked for before parsing (the help and argparse's
    errors are in that language when it is known; an unknown one is reported after parsing).

    >>> _asked_language(["hint", "--lang", "fi"]), _asked_language(["--lang=nb_NO", "play"])
    ('fi', 'nb_NO')
    >>> _asked_language(["play", "--", "--lang", "de"]) is None
    True
    """
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--lang="):
            return word.partition("=")[2]
    return None


def _known(lang: str | None) -> str | None:
    try:
        return None if lang is None else language_code(lang)
    except ValueError:
        return None


def _error_line(message: object) -> str:
    _ = cli_gettext()
    if isinstance(message, BaseException):
        message = error_text(message, cli_language())
    from yacht.cli.safe import shown

    # one line, whatever the message held; a hostile file's name or text cannot steer the
    # terminal nor fill the screen
    text = shown(" ".join(str(message).split()), ERROR_SHOWN)
    return _("yacht: error: {message}").format(message=text) + "\n"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, _error_line(message))


def build_parser() -> argparse.ArgumentParser:
    """The ``yacht`` command line in the language of this run (call it inside
    :func:`yacht.cli.words.argparse_in`, so argparse's own words are in it too)."""
    _ = cli_gettext()
    parser = _Parser(prog="yacht", description=_("The traditional Yacht dice game."))
    parser.add_argument(
        "--version",
        action="version",
        version=f"yacht {yacht.__version__}",
        help=_("show the version of yacht and exit"),
    )
    add_lang_option(parser)
    subs = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar=_("COMMAND")
    )
    for name in COMMANDS:
        importlib.import_module(name).register(subs)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from yacht.cli.words import argparse_in

    words = list(sys.argv[1:] if argv is None else argv)
    asked = _asked_language(words)
    token = _LANG.set(_known(asked))
    try:
        with argparse_in(cli_language()):
            args = build_parser().parse_args(words)
        # yacht --lang X cmd: the subcommand's own --lang (None) hides X in args
        return _run(args, getattr(args, "lang", None) or asked)
    finally:
        _LANG.reset(token)


def _run(args: argparse.Namespace, asked: str | None) -> int:
    try:
        _LANG.set(parse_language(asked) if asked is not None else cli_language())
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
    _ = cli_gettext()
    return (
        _(
            "yacht: internal error: this is a bug in yacht {version}, not in your command. "
            "Please report it on the yacht issue tracker with the traceback above and the "
            "command you ran."
        ).format(version=yacht.__version__)
        + "\n"
    )

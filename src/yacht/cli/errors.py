"""One-line errors that more than one module of the command line raises, in the ``yacht``
catalog.

``yacht hint`` checks its position in :mod:`yacht.cli.strategy` and, with ``--opponents``, in
:mod:`yacht.cli.match`; ``yacht history``, ``replay`` and the full-screen ``play`` run in
:mod:`yacht.cli.tui`, whose own texts are the terminal game's catalog (``yacht_tui``). The
errors live here so those modules share them without importing each other.
"""

from __future__ import annotations

from yacht.cli import CommandError
from yacht.errors import N_

__all__ = [
    "ArgumentError",
    "bot_delay_error",
    "dice_error",
    "no_upper_error",
    "records_error",
    "skipped_line",
    "terminal_error",
    "textual_error",
    "unreadable_error",
]


class ArgumentError(
    CommandError,
    messages={
        "dice": N_("need five dice, got {count}: {dice}"),
        "no_upper": N_("--upper: preset {rules} has no upper bonus"),
        "unreadable": N_("stored game {id} is not a readable game"),
        "unreadable_because": N_("stored game {id} is not a readable game: {reason}"),
        "terminal": N_("the full-screen game needs a terminal (use --plain for text)"),
        "textual": N_(
            "the full-screen game needs Textual: pip install 'yacht[tui]' (or use --plain)"
        ),
        "bot_delay": N_("--bot-delay must be 0 to 10 seconds, got {delay}"),
        "records": N_("the record book {path} cannot be read: {reason}"),
    },
):
    """What the command line cannot do as asked, by a code, for more than one command."""


def dice_error(dice: list[int]) -> ArgumentError:
    return ArgumentError("dice", count=len(dice), dice=" ".join(map(str, dice)))


def no_upper_error(rules: str) -> ArgumentError:
    return ArgumentError("no_upper", rules=rules)


def unreadable_error(game_id: int, reason: object = None) -> ArgumentError:
    if reason is None:
        return ArgumentError("unreadable", id=game_id)
    return ArgumentError("unreadable_because", id=game_id, reason=reason)


def terminal_error() -> ArgumentError:
    return ArgumentError("terminal")


def textual_error() -> ArgumentError:
    return ArgumentError("textual")


def bot_delay_error(delay: float) -> ArgumentError:
    return ArgumentError("bot_delay", delay=delay)


def records_error(path: object, reason: object) -> ArgumentError:
    """The record book of ``history`` and ``replay`` is damaged or unreadable: one line."""
    return ArgumentError("records", path=path, reason=" ".join(str(reason).split()))


def skipped_line(game_id: object) -> str:
    """The line on stderr for a stored game a listing leaves out."""
    from yacht.cli import cli_gettext

    _ = cli_gettext()
    return _("yacht: stored game {id} is not a readable game; left out").format(id=game_id) + "\n"

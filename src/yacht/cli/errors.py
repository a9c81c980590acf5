"""One-line errors that more than one module of the command line raises, in the ``yacht``
catalog.

``yacht hint`` checks its position in :mod:`yacht.cli.strategy` and, with ``--opponents``, in
:mod:`yacht.cli.match`; ``yacht history``, ``replay`` and the full-screen ``play`` run in
:mod:`yacht.cli.tui`, whose own texts are the terminal game's catalog (``yacht_tui``). The
errors live here so those modules share them without importing each other.
"""

from __future__ import annotations

from yacht.cli import CommandError, cli_gettext

__all__ = [
    "bot_delay_error",
    "dice_error",
    "limit_error",
    "no_upper_error",
    "terminal_error",
    "textual_error",
    "unreadable_error",
]


def dice_error(dice: list[int]) -> CommandError:
    _ = cli_gettext()
    return CommandError(
        _("need five dice, got {count}: {dice}").format(
            count=len(dice), dice=" ".join(map(str, dice))
        )
    )


def no_upper_error(rules: str) -> CommandError:
    _ = cli_gettext()
    return CommandError(_("--upper: preset {rules} has no upper bonus").format(rules=rules))


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

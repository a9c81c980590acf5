"""argparse's own words ("usage:", "options", its error messages) in the user's language.

argparse looks its texts up at call time through the ``_`` and ``ngettext`` names of its module
(``from gettext import gettext as _, ngettext``). :func:`argparse_in` points them at the
``yacht`` catalog while the command line is built and parsed, and puts them back after. The
messages below are listed so that ``make catalogs`` extracts them; argparse's messages about
mistakes in a program's own parser (never shown to a user) stay English.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from yacht.i18n import N_, translator

__all__ = ["ARGPARSE_MESSAGES", "argparse_in"]

ARGPARSE_MESSAGES: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("subcommands"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("unexpected option string: %s"),
    N_("ignored explicit argument %r"),
)
"""What a user of ``yacht`` can see of argparse's texts (``expected %s argument`` is a plural,
looked up with ngettext; it is listed in the catalog by the ngettext call below)."""


def _plural_marker() -> None:  # pragma: no cover - only for extraction
    translator().ngettext("expected %s argument", "expected %s arguments", 2)


@contextmanager
def argparse_in(lang: str) -> Iterator[None]:
    """argparse's texts come from the ``yacht`` catalog of ``lang`` inside the block.

    >>> with argparse_in("fi"):
    ...     print(argparse.ArgumentParser(prog="yacht").format_usage().strip())
    käyttö: yacht [-h]
    >>> argparse.ArgumentParser(prog="yacht").format_usage().strip()
    'usage: yacht [-h]'
    """
    t = translator(lang)
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = t.gettext, t.ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]

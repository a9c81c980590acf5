"""Translations of the terminal game: the ``yacht_tui`` gettext domain.

>>> gettext_for("fi")("Roll")
'Heitä'
>>> gettext_for("en")("Roll")
'Roll'
"""

from __future__ import annotations

from collections.abc import Callable

from yacht.i18n import N_, translator

__all__ = ["DOMAIN", "N_", "Gettext", "gettext_for"]

DOMAIN = "yacht_tui"
Gettext = Callable[[str], str]


def gettext_for(lang: str) -> Gettext:
    """The ``gettext`` function of the terminal game for a language code."""
    return translator(lang, DOMAIN).gettext

"""Translations of the terminal game: the ``yacht_tui`` gettext domain.

>>> gettext_for("fi")("Roll")
'Heitä'
>>> gettext_for("en")("Roll")
'Roll'
>>> ngettext = ngettext_for("en")
>>> [ngettext("{n} roll left", "{n} rolls left", n).format(n=n) for n in (0, 1, 2)]
['0 rolls left', '1 roll left', '2 rolls left']
"""

from __future__ import annotations

from collections.abc import Callable

from yacht.i18n import N_, translator

__all__ = ["DOMAIN", "N_", "Gettext", "Ngettext", "gettext_for", "ngettext_for"]

DOMAIN = "yacht_tui"
Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def gettext_for(lang: str) -> Gettext:
    """The ``gettext`` function of the terminal game for a language code."""
    return translator(lang, DOMAIN).gettext


def ngettext_for(lang: str) -> Ngettext:
    """The ``ngettext`` function of the terminal game for a language code: the singular or
    plural form of a message for a count, by the catalog's ``Plural-Forms``. Bind it to the
    name ``ngettext`` so ``pybabel extract`` finds the messages."""
    return translator(lang, DOMAIN).ngettext

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
from typing import TYPE_CHECKING

from yacht.i18n import N_, translator

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["DOMAIN", "N_", "Gettext", "Ngettext", "gettext_for", "ngettext_for", "tell_quit_key"]

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


def tell_quit_key(app: App[None], lang: str) -> None:
    """What Ctrl+C shows (it copies, it does not quit): the key that quits on this screen, in
    the player's language; Textual's own notice says it in English."""
    _ = gettext_for(lang)
    for key, active in app.active_bindings.items():
        if active.binding.action in ("quit", "app.quit"):
            shown = {"escape": "Esc"}.get(key, key.upper())
            text = _("Press {key} to quit.").format(key=shown)
            app.notify(text, title=_("Do you want to quit?"), markup=False)
            return

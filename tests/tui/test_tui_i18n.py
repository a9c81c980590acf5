"""The ``yacht_tui`` catalogs: every message of the terminal game is translated into fi, bg
and nb, and the compiled .mo files say what the .po files say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import yacht
from yacht.i18n import translator
from yacht.tui.seats import BOT_KINDS, HUMAN, kind_label
from yacht.tui.text import DOMAIN

SRC = Path(yacht.__file__).parent
SOURCES = [SRC / "tui", SRC / "cli" / "tui.py"]
LANGS = ["fi", "bg", "nb"]


def _messages() -> set[str | tuple[str, ...]]:
    """Every message marked in the terminal game's sources (``_()``, ``N_()``, and
    ``ngettext()`` as a (singular, plural) pair)."""
    found: set[str | tuple[str, ...]] = set()
    keywords = {"_": None, "N_": None, "ngettext": (1, 2)}
    for source in SOURCES:
        if source.is_dir():
            items = extract_from_dir(source, keywords=keywords)
            found |= {item[2] if isinstance(item[2], tuple) else str(item[2]) for item in items}
        else:
            text = source.read_text(encoding="utf-8")
            found |= set(re.findall(r'\b_\("((?:[^"\\]|\\.)*)"\)', text))
    return found


def test_no_message_hides_inside_an_f_string() -> None:
    """The extractor cannot see ``_()`` inside f-string braces, so none may be there."""
    for source in SRC.joinpath("tui").rglob("*.py"):
        for number, line in enumerate(source.read_text().splitlines(), start=1):
            assert not re.search(r"\{[^}]*\b_\(['\"]", line), f"{source}:{number}: {line}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_and_compiled(lang: str) -> None:
    po = SRC / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as f:
        catalog = read_po(f)
    translated = {m.id: m.string for m in catalog if m.id}
    missing = sorted(str(m) for m in _messages() if not _complete(translated.get(m)))
    assert missing == []
    compiled = translator(lang, DOMAIN)
    for msgid, text in translated.items():
        if isinstance(msgid, tuple):  # both forms, as the catalog's plural rule picks them
            assert isinstance(text, tuple)
            assert compiled.ngettext(msgid[0], msgid[1], 1) == text[0]
            assert compiled.ngettext(msgid[0], msgid[1], 5) == text[1]
        else:
            assert compiled.gettext(str(msgid)) == text


def _complete(text: str | tuple[str, ...] | list[str] | None) -> bool:
    """A translation with every form filled in."""
    forms = text if isinstance(text, tuple | list) else (text,)
    return all(forms)


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_survive_translation(lang: str) -> None:
    po = SRC / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as f:
        for m in read_po(f):
            if m.id:
                fields = set(re.findall(r"\{(\w+)", str(m.id)))
                assert set(re.findall(r"\{(\w+)", str(m.string))) == fields, m.id


def test_seat_kinds_read_in_every_language() -> None:
    labels = {lang: [kind_label(k, lang) for k in (HUMAN, *BOT_KINDS)] for lang in LANGS}
    assert labels["fi"][0] == "Ihminen" and labels["bg"][2] == "Бот: среден"
    for row in labels.values():
        assert len(set(row)) == len(row)

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


def _messages() -> set[str]:
    """Every message marked in the terminal game's sources (``_()`` and ``N_()``)."""
    found: set[str] = set()
    for source in SOURCES:
        if source.is_dir():
            items = extract_from_dir(source, keywords={"_": None, "N_": None})
            found |= {str(item[2]) for item in items}
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
    missing = sorted(m for m in _messages() if not translated.get(m))
    assert missing == []
    compiled = translator(lang, DOMAIN)
    for msgid, text in translated.items():
        assert compiled.gettext(str(msgid)) == text


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

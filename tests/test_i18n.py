"""The ``yacht`` gettext domain: every message of the core and CLI translated into fi, bg and nb,
the compiled catalogs in step with their sources, and the seed pages' category names."""

from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import yacht
from yacht.i18n import LANGUAGES, category_label, detect_language, translator
from yacht.rules import CATEGORIES

PACKAGE = Path(yacht.__file__).parent
LOCALE = PACKAGE / "locale"
# The files whose text belongs to the `yacht` domain (the TUI and web faces have their own):
# the core, the library's errors (the error classes' templates), and every module of the
# command line but cli/tui.py, which prints the terminal game's texts.
CORE_FILES = [
    "errors.py",
    "rules.py",
    "scorers.py",
    "dice.py",
    "fields.py",
    "actions.py",
    "start.py",
    "game_json.py",
    "game.py",
    "review.py",
    "skill.py",
    "i18n.py",
    "strategy/errors.py",
    "coach.py",
    "training/__init__.py",
    "bots/base.py",
    "web/service/fairness.py",
    "web/service/accounts.py",
    "web/service/push.py",
    *sorted(
        str(p.relative_to(PACKAGE)) for p in (PACKAGE / "cli").glob("*.py") if p.name != "tui.py"
    ),
]
# As `make catalogs` extracts: yacht.cli.text.count(singular, plural, n) marks a plural too.
KEYWORDS = {**DEFAULT_KEYWORDS, "count": (1, 2)}
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def extracted() -> set[str | tuple[str, str]]:
    """Every message the core and CLI files mark for translation (plurals as pairs)."""
    found: set[str | tuple[str, str]] = set()
    for name in CORE_FILES:
        for _line, message, _comments, _context in extract_from_file(
            "python", PACKAGE / name, keywords=KEYWORDS
        ):
            found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "yacht.po"


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{[a-z_]*(?:![rs])?\}", text))


def test_extraction_finds_the_cli_and_the_scorers() -> None:
    messages = extracted()
    assert len(messages) > 80
    assert "Full House" in messages  # i18n.py
    assert "five of a kind: {points} points" in messages  # scorers.py templates
    assert "need exactly five dice, got {count}: {dice}" in messages  # cli/core.py
    assert "roll first" in messages  # cli/plain.py
    assert (
        "Game over. Winner: {names} with {total}.",
        "Game over. Winners: {names} with {total}.",
    ) in messages


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_extracted_message_is_translated_keeping_its_placeholders(lang: str) -> None:
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    assert not catalog.fuzzy
    entries = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in catalog if m.id}
    messages = extracted()
    assert set(entries) == messages, "run `make catalogs`: the catalog and the code differ"
    for key, entry in entries.items():
        assert "fuzzy" not in entry.flags, key
        strings = [entry.string] if isinstance(entry.string, str) else list(entry.string or ())
        ids = [key] if isinstance(key, str) else list(key)
        assert all(s.strip() for s in strings), f"{lang}: no translation for {key!r}"
        for s in strings:
            assert placeholders(s) == placeholders(ids[-1]), (lang, key, s)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_committed_mo_files_are_compiled_from_the_po_files(lang: str) -> None:
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    fresh = io.BytesIO()
    write_mo(fresh, catalog)
    fresh.seek(0)
    compiled = gettext.GNUTranslations(fresh)
    with (LOCALE / lang / "LC_MESSAGES" / "yacht.mo").open("rb") as f:
        committed = gettext.GNUTranslations(f)
    assert committed._catalog == compiled._catalog, "run `make catalogs` to recompile"  # type: ignore[attr-defined]


SEED_NAMES = {
    # 000 (Finnish Cubiri page), with Full House, Neljä samaa, Pieni/Iso suora, Valinta.
    "fi": ["Ykköset", "Kakkoset", "Kolmoset", "Neloset", "Vitoset", "Kuutoset", "Full House",
           "Neljä samaa", "Pieni suora", "Iso suora", "Valinta", "Yacht"],
    # 001 (the same page in Bulgarian).
    "bg": ["Единици", "Двойки", "Тройки", "Четворки", "Петици", "Шестици", "Full House",
           "Четири еднакви", "Малка поредица", "Голяма поредица", "Избор", "Yacht"],
    # 004 (Norwegian rules page): enere ... seksere, hus, fire like, liten/stor straight,
    # valgfri, Yacht.
    "nb": ["Enere", "Toere", "Treere", "Firere", "Femmere", "Seksere", "Hus", "Fire like",
           "Liten straight", "Stor straight", "Valgfri", "Yacht"],
    "en": ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Full House", "Four of a Kind",
           "Little Straight", "Big Straight", "Choice", "Yacht"],
}  # fmt: skip


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_category_names_come_from_the_seed_pages(lang: str) -> None:
    assert [category_label(c, lang) for c in CATEGORIES] == SEED_NAMES[lang]


def test_languages_are_looked_up_forgivingly_and_unknown_ones_refused() -> None:
    assert translator("nb_NO.UTF-8").gettext("Total") == "Sum"
    assert translator("no").gettext("Total") == translator("nn").gettext("Total") == "Sum"
    assert translator("bg-BG").gettext("Total") == "Общо"
    assert translator("en").gettext("Total") == "Total"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        translator("de")


def test_the_language_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("YACHT_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    assert detect_language() == "fi"
    monkeypatch.setenv("LANGUAGE", "de:bg")
    assert detect_language() == "bg"
    monkeypatch.setenv("YACHT_LANG", "nb")
    assert detect_language() == "nb"

"""The page's texts: every message it uses is translated in fi, bg and nb, placeholders intact."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from yacht.i18n import LANGUAGES
from yacht.web.i18n import catalog, used_messages

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_the_page_uses_a_good_number_of_messages() -> None:
    used = used_messages()
    assert len(used) > 100 and "Roll" in used and "{name}'s turn" in used


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_every_message_is_translated(lang: str) -> None:
    messages = catalog(lang)["messages"]
    missing = [m for m in used_messages() if not messages.get(m)]
    assert missing == []
    for msgid in used_messages():
        assert set(PLACEHOLDER.findall(messages[msgid])) == set(PLACEHOLDER.findall(msgid)), msgid


def test_categories_come_from_the_core_catalog() -> None:
    assert catalog("nb")["categories"]["full_house"] == "Hus"
    assert catalog("en")["categories"]["little_straight"] == "Little Straight"
    with pytest.raises(ValueError, match="unknown language"):
        catalog("xx")


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_compiled_catalogs_match_their_sources(lang: str) -> None:
    from babel.messages.pofile import read_po

    po = Path(__file__).parents[2] / "src/yacht/locale" / lang / "LC_MESSAGES/yacht_web.po"
    with po.open("rb") as f:
        source = {m.id: m.string for m in read_po(f) if m.id and m.string}
    assert source == catalog(lang)["messages"], "run pybabel compile -D yacht_web"

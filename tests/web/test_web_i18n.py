"""The page's texts: every message it uses is translated in fi, bg and nb, placeholders intact."""

from __future__ import annotations

import re

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

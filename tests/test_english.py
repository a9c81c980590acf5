"""tests/english.py, the check the faces' "nothing left in English" tests share."""

from __future__ import annotations

import pytest

from english import argparse_messages, english_words, vocabulary


@pytest.mark.parametrize("lang", ["fi", "bg", "nb"])
def test_argparse_and_catalog_words_are_found(lang: str) -> None:
    text = "usage: yacht [-h] positional arguments: show this help message and exit; roll the dice"
    found = english_words(text, lang)
    assert {"usage", "positional", "arguments", "show", "this", "help", "message", "exit"} <= set(
        found
    )
    assert "yacht" not in {w.casefold() for w in found}  # the game's name is kept everywhere


@pytest.mark.parametrize("lang", ["fi", "bg", "nb"])
def test_option_names_placeholders_and_allowed_words_are_not_english(lang: str) -> None:
    assert english_words("yacht play --rules RULES --no-animation -c", lang, {"rules"}) == []
    assert english_words("the the The", lang) == ["the"]  # each word once, as written first


def test_a_word_the_translation_uses_is_not_english_there() -> None:
    assert "yacht" not in vocabulary("fi")  # "Yacht" is the game's name in every language
    assert "bonus" not in vocabulary("nb")  # Norwegian writes "bonus" too
    assert english_words("Bonus 35", "nb") == []
    assert english_words("Heitä noppia, pidä ykköset", "fi") == []


def test_argparse_messages_are_read_from_its_source() -> None:
    messages = argparse_messages()
    for text in ("usage: ", "options", "positional arguments", "show this help message and exit"):
        assert text in messages
    assert any("the following arguments are required" in m for m in messages)

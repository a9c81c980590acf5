"""Names a user types or reads on the command line, in the user's language: categories in
``--category`` and ``--used`` (their names and starts of them, English ids as well) and presets by
their translated names in human output (JSON keeps the ids)."""

from __future__ import annotations

import json

import pytest

from english import english_words
from yacht.cli import main
from yacht.i18n import category_label, category_names, find_category, preset_label
from yacht.rules import CATEGORIES, Category, preset_names


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("lang", "typed", "category"),
    [
        ("fi", "ykköset", Category.ONES),
        ("fi", "Neljä samaa", Category.FOUR_OF_A_KIND),
        ("fi", "nelja_samaa", Category.FOUR_OF_A_KIND),
        ("fi", "kakk", Category.TWOS),
        ("bg", "единици", Category.ONES),
        ("bg", "малка", Category.LITTLE_STRAIGHT),
        ("nb", "hus", Category.FULL_HOUSE),
        ("nb", "fire like", Category.FOUR_OF_A_KIND),
        ("nb", "full_house", Category.FULL_HOUSE),
        ("en", "Full House", Category.FULL_HOUSE),
    ],
)
def test_a_category_is_found_by_its_name_a_start_of_it_or_its_id(
    lang: str, typed: str, category: Category
) -> None:
    assert find_category(typed, lang) is category


def test_a_start_that_fits_two_categories_or_none_is_not_a_category() -> None:
    assert find_category("nel", "fi") is None  # Neloset, Neljä samaa
    assert find_category("xyz", "fi") is None
    assert find_category("", "bg") is None


@pytest.mark.parametrize("lang", ["fi", "bg", "nb"])
def test_every_label_and_id_is_found_in_every_language(lang: str) -> None:
    for category in CATEGORIES:
        assert find_category(category_label(category, lang), lang) is category
        assert find_category(category.value, lang) is category


def test_score_takes_the_category_in_the_users_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["score", "--lang", "fi", "1", "1", "2", "3", "4", "-c", "ykköset"], capsys) == (
        0,
        "2\n",
        "",
    )
    assert run(["score", "--lang", "nb", "6", "6", "6", "5", "5", "-c", "Hus"], capsys)[1] == "28\n"
    assert run(["score", "--lang", "bg", "1", "1", "2", "3", "4", "-c", "ones"], capsys)[1] == "2\n"


@pytest.mark.parametrize("lang", ["fi", "bg", "nb"])
def test_an_unknown_category_lists_the_names_in_the_language(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["score", "--lang", lang, "1", "1", "2", "3", "4", "-c", "foo"], capsys)
    assert status == 2 and out == ""
    assert category_names(lang) in err
    assert category_label(Category.FULL_HOUSE, lang) in err
    assert "full_house" not in err and "little_straight" not in err
    assert english_words(err, lang, {"foo", "yacht"}) == []


def test_used_takes_the_names_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["hint", "--lang", "fi", "--dice", "1", "1", "2", "3", "4", "--rolls-left", "1"]
    status, out, _ = run([*argv, "--used", "ykköset,kakkoset", "--json"], capsys)
    assert status == 0
    assert "Perinteinen" not in out  # JSON keeps ids
    assert json.loads(out)["best"]["action"] == "keep"
    status, out, _ = run([*argv, "--used", "ykköset,kakkoset"], capsys)
    assert status == 0
    assert "Ykköset" not in out.splitlines()[0].split(":", 2)[-1]  # no longer open
    assert out.startswith("Perinteinen: ")


@pytest.mark.parametrize("lang", ["fi", "bg", "nb"])
def test_rules_names_the_preset_in_the_language(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in preset_names():
        status, out, _ = run(["rules", "--lang", lang, "--rules", name], capsys)
        assert status == 0
        first = out.splitlines()[0]
        assert preset_label(name, lang) in first
        if preset_label(name, lang) != name:
            assert repr(name) not in first
        assert english_words(first, lang) == []


def test_opponents_sheets_take_the_names_in_the_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--opponents`` reads categories as ``--used`` does: a Finnish name is understood (here
    its points are refused, in Finnish, before any table is built) and an unknown one is
    refused with the names in that language."""
    argv = ["hint", "--lang", "fi", "--dice", "1", "1", "2", "3", "4", "--rolls-left", "1"]
    status, _, err = run([*argv, "--opponents", "ykköset=7"], capsys)
    assert status == 2
    assert category_label(Category.ONES, "fi") in err and "7" in err
    assert english_words(err, "fi", {"yacht"}) == [], err
    status, _, err = run([*argv, "--opponents", "lumpeni=3"], capsys)
    assert status == 2 and category_names("fi") in err

"""``yacht score`` and ``yacht rules`` as a user runs them; every mistake is one line, exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from yacht.cli import main
from yacht.cli.core import rules_text
from yacht.dice import ROLLS
from yacht.i18n import LANGUAGES, category_label, preset_label, translator
from yacht.rules import (
    CATEGORIES,
    Category,
    Rules,
    Straight,
    UpperBonus,
    preset_names,
    rules_by_name,
    score,
)


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YACHT_LANG", "en")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as e:  # argparse's own exits (--help, unknown options)
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def yacht(*args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "YACHT_LANG": lang}
    return subprocess.run(
        [sys.executable, "-m", "yacht", *args], capture_output=True, text=True, env=env, timeout=60
    )


EXAMPLES = [
    (["5", "5", "5", "2", "1"], "fives", "traditional", 15),
    (["6", "6", "6", "5", "5"], "full_house", "traditional", 28),
    (["1", "1", "1", "2", "2"], "full-house", "traditional", 7),
    (["3", "3", "3", "3", "3"], "full_house", "traditional", 0),
    (["3", "3", "3", "3", "3"], "full_house", "knizia", 15),
    (["6", "6", "6", "6", "2"], "four_of_a_kind", "traditional", 24),
    (["4", "4", "4", "4", "1"], "four_of_a_kind", "all-dice-four", 17),
    (["1", "2", "3", "4", "6"], "little_straight", "clubhouse", 15),
    (["6", "5", "4", "3", "2"], "BIG_STRAIGHT", "traditional", 30),
]


@pytest.mark.parametrize(("dice", "category", "preset", "points"), EXAMPLES)
def test_score_prints_the_points(
    dice: list[str], category: str, preset: str, points: int, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["score", *dice, "--category", category, "--rules", preset], capsys)
    assert (status, out, err) == (0, f"{points}\n", "")
    assert points == score([int(d) for d in dice], category, preset)


def test_score_json_has_the_exact_format_of_issue_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["score", "2", "2", "4", "4", "4", "-c", "full_house", "--json"], capsys)
    assert status == 0 and err == ""
    assert out == (
        '{"dice": [2, 2, 4, 4, 4], "category": "full_house", "rules": "traditional", "score": 16}\n'
    )
    status, out, _ = run(
        ["score", "3", "3", "3", "3", "3", "-c", "Full House", "--rules", "knizia", "--json"],
        capsys,
    )
    assert json.loads(out) == {
        "dice": [3, 3, 3, 3, 3],
        "category": "full_house",
        "rules": "knizia",
        "score": 15,
    }


SCORE_ERRORS = [
    (["1", "2", "3", "4"], "need exactly five dice, got 4: 1 2 3 4"),
    (["1", "2", "3", "4", "5", "6"], "need exactly five dice, got 6: 1 2 3 4 5 6"),
    ([], "need exactly five dice, got 0: -"),
    (["0", "2", "3", "4", "5"], "'0' is not a die face (1 to 6)"),
    (["1", "2", "3", "4", "7"], "'7' is not a die face (1 to 6)"),
    (["1", "2", "x", "4", "5"], "'x' is not a die face (1 to 6)"),
    (["1", "2", "3", "4", "2.5"], "'2.5' is not a die face (1 to 6)"),
    (["1", "2", "3", "4", "-1"], "'-1' is not a die face (1 to 6)"),
]


@pytest.mark.parametrize(("dice", "message"), SCORE_ERRORS)
def test_bad_dice_are_one_line_and_exit_2(
    dice: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["score", *dice, "-c", "choice"], capsys)
    assert (status, out, err) == (2, "", f"yacht: error: {message}\n")


def test_bad_category_and_preset_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    names = ", ".join(c.value for c in CATEGORIES)
    cases = [
        (["-c", "bonus"], f"unknown category 'bonus' (one of: {names})"),
        ([], f"missing --category (one of: {names})"),
        (["-c", "ones", "--rules", "yahtzee"], "unknown rules preset 'yahtzee' (one of: "),
    ]
    for extra, message in cases:
        status, out, err = run(["score", "1", "2", "3", "4", "5", *extra], capsys)
        assert status == 2 and out == "" and err.startswith(f"yacht: error: {message}")
        assert err.count("\n") == 1


@pytest.mark.parametrize(
    "args",
    [
        ["score", "1", "2", "3", "4", "-c", "ones"],
        ["score", "1", "2", "3", "4", "9", "-c", "ones"],
        ["score", "1", "2", "3", "4", "5", "-c", "nope"],
        ["score", "1", "2", "3", "4", "5", "-c", "ones", "--rules", "nope"],
        ["score", "1", "2", "3", "4", "5", "-c", "ones", "--frobnicate"],
        ["rules", "--rules", "nope"],
        ["rules", "--lang", "xx"],
        ["frobnicate"],
        [],
    ],
)
def test_the_real_command_never_shows_a_traceback(args: list[str]) -> None:
    done = yacht(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("yacht: error: ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_errors_speak_the_users_language() -> None:
    done = yacht("score", "1", "2", "3", "-c", "ones", lang="fi")
    assert done.stderr == "yacht: virhe: tarvitaan täsmälleen viisi noppaa, annettiin 3: 1 2 3\n"
    done = yacht("score", "1", "2", "3", "4", "5", "-c", "bonus", lang="bg")
    assert done.stderr.startswith("yacht: грешка: непозната категория 'bonus'")
    done = yacht("rules", "--lang", "de", lang="nb")
    assert done.stderr.startswith("yacht: feil: ukjent språk 'de'")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("preset", preset_names())
def test_rules_prints_a_localized_summary_and_table(
    preset: str, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["rules", "--rules", preset, "--lang", lang], capsys)
    assert status == 0 and err == ""
    rules = rules_by_name(preset)
    _ = translator(lang).gettext
    flat = " ".join(out.split())  # descriptions may wrap
    shown = preset if lang == "en" else preset_label(preset, lang)  # English: the id it takes
    assert out.startswith(_("Yacht: the rules preset {name!r}").format(name=shown))
    assert " ".join(_(rules.description).split()) in flat
    lines = out.splitlines()
    table = lines[lines.index(next(x for x in lines if x.startswith(_("Category")))) + 1 :]
    for c in CATEGORIES:
        label = category_label(c, lang)
        row = next(line for line in table if line.startswith(label + " "))
        best = max(rules.score(r, c) for r in ROLLS)
        assert row.split()[len(label.split())] == str(best)
        assert " ".join(rules.scorers[c].describe(_).split()) in flat
    if rules.upper_bonus is None:
        assert _("No upper bonus, no Yacht bonus, no jokers.") in out
    else:
        assert _("Upper bonus: {what}.").format(what=rules.upper_bonus.describe(_)) in flat
    assert out.rstrip().endswith(_("Best possible total: {total}").format(total=rules.max_total()))
    if lang != "en":
        assert "the sum of" not in out and "points" not in out


def test_rules_uses_the_users_language_when_not_told() -> None:
    assert yacht("rules", lang="nb").stdout.splitlines()[0] == "Yacht: regelsettet 'Tradisjonell'"
    assert "Ykköset" in yacht("rules", lang="fi").stdout


def test_the_rules_table_comes_from_the_scorers_not_the_preset_name() -> None:
    base = rules_by_name("traditional")
    custom = Rules(
        "traditional",  # same name, other scoring: the table must follow the scorers
        {**base.scorers, Category.LITTLE_STRAIGHT: Straight(4, (1, 2, 3), 20)},
        UpperBonus(50, 10),
        "A house variant.",
    )
    text = rules_text(custom)
    assert "any 4 in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6): 20 points" in " ".join(text.split())
    assert "Upper bonus: 10 points when Ones to Sixes total at least 50." in text
    assert "A house variant." in text
    assert text.rstrip().endswith(f"Best possible total: {custom.max_total()}")
    assert "No upper bonus" not in text


def test_help_is_there_for_every_command() -> None:
    for args in (["--help"], ["score", "--help"], ["rules", "--help"], ["play", "--help"]):
        done = yacht(*args)
        assert done.returncode == 0 and done.stdout.startswith("usage: yacht")
    finnish = yacht("--help", lang="fi").stdout
    assert finnish.startswith("käyttö: yacht") and "laske viiden nopan pisteet" in finnish


def test_lang_accepts_locale_spellings(capsys: pytest.CaptureFixture[str]) -> None:
    for spelling in ("nb_NO.UTF-8", "no", "NB"):
        status, out, _ = run(["rules", "--lang", spelling], capsys)
        assert status == 0 and out.startswith("Yacht: regelsettet 'Tradisjonell'")

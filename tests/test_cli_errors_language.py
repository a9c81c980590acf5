"""The library's errors as a user meets them, in Finnish, Bulgarian and Norwegian: every error
yacht raises carries a code whose English template is a translated msgid, and the command line
shows it through :func:`yacht.i18n.error_text`, its arguments too (a category by its name, a
nested reason in turn), with no English word left (tests/english.py)."""

# ruff: noqa: RUF001 - Cyrillic in Bulgarian strings
from __future__ import annotations

import copy
import importlib
import json
import re
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from english import english_words
from yacht.actions import Score
from yacht.cli import main
from yacht.dice import FairDice, RandomDice
from yacht.errors import Message, YachtError, error_classes
from yacht.game import Game
from yacht.i18n import error_text, translator
from yacht.rules import CATEGORIES, Category

LANGS = ["fi", "bg", "nb"]
# Every module that declares error templates (importing one registers its classes).
MODULES = [
    "yacht.rules",
    "yacht.fields",
    "yacht.dice",
    "yacht.actions",
    "yacht.start",
    "yacht.game_json",
    "yacht.review",
    "yacht.skill",
    "yacht.strategy.errors",
    "yacht.bots.base",
    "yacht.web.service.fairness",
    "yacht.web.service.accounts",
    "yacht.cli",
    "yacht.cli.errors",
]
# What a user typed or a file holds is quoted as it is: JSON keys, the action words of its
# events, category ids (what --opponents takes) and a name that is no category.
FILE_WORDS = {"format", "version", "player", "players", "action", "dice", "points", "roll"}
TYPED = FILE_WORDS | {"score", "bonus", *(c.value for c in CATEGORIES)}
FAIR_SEED = "ab" * 32


def templates() -> dict[str, str]:
    """Every error code with its English template, over all the error classes."""
    for module in MODULES:
        importlib.import_module(module)
    found: dict[str, str] = {}
    for klass in error_classes():
        for code, template in vars(klass).get("messages", {}).items():
            assert found.get(code, template) == template, f"code {code!r} has two templates"
            found[code] = template
    return found


def test_every_error_class_declares_codes_and_stays_what_it_was() -> None:
    from yacht.actions import GameError
    from yacht.rules import RulesError
    from yacht.web.service.fairness import BadGameFileError

    codes = templates()
    assert len(codes) > 100
    assert issubclass(GameError, ValueError) and issubclass(RulesError, ValueError)
    assert issubclass(BadGameFileError, ValueError)
    for error in (GameError, RulesError, BadGameFileError):
        assert issubclass(error, YachtError)


@pytest.mark.parametrize("lang", LANGS)
def test_every_error_template_is_translated_with_no_english_left(lang: str) -> None:
    """Each code's template through error_text with plain arguments: the catalog's text, and
    nothing English in it (the cases below show them with real arguments, on the command line)."""
    gettext = translator(lang).gettext
    for code, template in templates().items():
        names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
        shown = error_text(Message(template, **dict.fromkeys(names, 7)), lang)
        assert gettext(template) != template or not re.sub(r"\{[^{}]*\}", "", template).strip(
            " :()"
        ), (code, template)
        assert english_words(shown, lang, {"cap"}) == [], (code, shown)


def fair_game() -> dict[str, Any]:
    """A finished one-player game on provably fair dice, with its published commitment."""
    game = Game(["Ann"], dice=FairDice(FAIR_SEED, "agreed"))
    for category in CATEGORIES:
        game.apply("roll")
        game.apply(f"score {category.value}")
    return game.to_json() | {"fair": {"rule": 1, "commitment": FairDice(FAIR_SEED).commitment}}


def saved_game() -> dict[str, Any]:
    """Two rounds of a saved game: roll, score ones; roll, score twos."""
    game = Game(["Ann"], dice=RandomDice(seed=4))
    for category in ("ones", "twos"):
        game.apply("roll")
        game.apply(f"score {category}")
    return game.to_json()


def tampered(change: Callable[[dict[str, Any]], object]) -> Callable[[], dict[str, Any]]:
    def make() -> dict[str, Any]:
        data = copy.deepcopy(saved_game())
        change(data)
        return data

    return make


def fair_tampered(change: Callable[[dict[str, Any]], object]) -> Callable[[], dict[str, Any]]:
    def make() -> dict[str, Any]:
        data = copy.deepcopy(fair_game())
        change(data)
        return data

    return make


HINT = ["hint", "--dice", "1", "2", "3", "4", "5", "--rolls-left", "2"]
SHEETS = [*HINT, "--banked", "40", "--opponents"]
# (case, command line, a file it reads or None, the English text that shows which error it is)
CASES: list[tuple[str, list[str], Callable[[], Any] | None, str]] = [
    ("sheets_pair", [*SHEETS, "120"], None, "'120' is not category=points"),
    ("sheets_json", [*SHEETS, '[{"ones" 3}]'], None, "not valid JSON (line 1, column 10)"),
    ("sheets_list", [*SHEETS, "[1]"], None, "need a JSON list of objects such as"),
    ("sheets_twice", [*SHEETS, "ones=1,ones=2"], None, "ones is given twice"),
    ("sheets_count", [*SHEETS, "a=1;b=1;c=1;d=1;e=1;f=1"], None, "need 1 to 5"),
    ("opponent_points", [*SHEETS, "ones=x"], None, "ones='x' is not a number"),
    ("opponent_cannot", [*SHEETS, "ones=7"], None, "ones cannot score 7 under traditional"),
    ("unknown_category", [*SHEETS, "bonus=3"], None, "unknown category 'bonus'"),
    (
        "upper_impossible",
        [*HINT, "--rules", "clubhouse", "--used", "ones", "--upper", "7"],
        None,
        "upper subtotal 7 is impossible with ones used",
    ),
    (
        "upper_impossible_none",
        [*HINT, "--rules", "clubhouse", "--upper", "3"],
        None,
        "upper subtotal 3 is impossible with no upper category used",
    ),
    ("dice", ["hint", "--dice", "1", "2", "3", "--rolls-left", "2"], None, "need five dice"),
    ("not_a_game", ["review", "FILE"], lambda: {"players": ["Ann"]}, "not a yacht game"),
    (
        "format_version",
        ["review", "FILE"],
        tampered(lambda d: d.update(version=9)),
        "unsupported game format version 9",
    ),
    (
        "wrong_kind",
        ["review", "FILE"],
        tampered(lambda d: d.update(players="Ann")),
        "'players' must be a list, got 'Ann'",
    ),
    (
        "category_filled",
        ["review", "FILE"],
        tampered(lambda d: d["events"][3].update(action="score ones")),
        "ones is already filled with",
    ),
    (
        "not_rolled",
        ["review", "FILE"],
        tampered(lambda d: d["events"].pop(2)),
        "roll first",
    ),
    (
        "event_replay",
        ["review", "FILE"],
        tampered(lambda d: d["events"][1].update(points=99)),
        "replays as",
    ),
    (
        "totals",
        ["review", "FILE"],
        tampered(lambda d: d.update(totals=[0])),
        "totals [0] do not match the events",
    ),
    (
        "fair_not_fair_dice",
        ["verify", "FILE"],
        saved_game,
        "the dice are 'random', not provably fair dice",
    ),
    (
        "verify_roll",
        ["verify", "FILE"],
        fair_tampered(lambda d: d["events"][0].update(dice=[6, 6, 6, 6, 6])),
        "event 1 (roll): recorded 6 6 6 6 6, the seed gives",
    ),
    (
        "verify_commitment",
        ["verify", "FILE"],
        fair_tampered(lambda d: d["fair"].update(commitment="00" * 32)),
        "the revealed seed does not match the published commitment",
    ),
    (
        "verify_unfinished",
        ["verify", "FILE"],
        fair_tampered(lambda d: d["events"].__delitem__(slice(-2, None))),
        "the game is not finished",
    ),
    ("json_position", ["review", "FILE"], lambda: "[1, 2,", "is not JSON (line 1, column 7)"),
]


def run(
    argv: list[str], make: Callable[[], Any] | None, tmp_path: Path, capsys: Any
) -> tuple[int, str]:
    if make is not None:
        path = tmp_path / "game.json"
        data = make()
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        argv = [str(path) if word == "FILE" else word for word in argv]
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out + err


@pytest.mark.parametrize(("case", "argv", "make", "english"), CASES, ids=[c[0] for c in CASES])
def test_a_library_error_on_the_command_line_is_in_the_language(
    case: str,
    argv: list[str],
    make: Callable[[], Any] | None,
    english: str,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # one cache for the session: a preset's tables are built once
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "yacht-cache"))
    status, shown = run([*argv, "--lang", "en"], make, tmp_path, capsys)
    assert status in (1, 2) and english in shown, (case, shown)  # the case is the error it names
    for lang in LANGS:
        status, shown = run([*argv, "--lang", lang], make, tmp_path, capsys)
        assert status in (1, 2), (case, lang, shown)
        allowed = TYPED | {"traditional", "clubhouse", "random"}
        assert english_words(shown.replace(str(tmp_path), ""), lang, allowed) == [], (lang, shown)


def test_the_issue_s_hint_line_in_bulgarian(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path / "cache"))
    status, shown = run(["--lang", "bg", *SHEETS, "120"], None, tmp_path, capsys)
    assert status == 2
    assert shown == (
        "yacht: грешка: таблиците на противниците: '120' не е във вида категория=точки\n"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_arguments_are_shown_in_the_language_too(lang: str) -> None:
    """A category by its name, the action by the plain game's command, a nested reason and the
    game's state in turn."""
    game = Game(["Ann"], dice=RandomDice(seed=1))
    with pytest.raises(YachtError) as raised:
        game.apply(Score(Category.FIVES))  # as a face applies it (its own text would be quoted)
    shown = error_text(raised.value, lang)
    command = translator(lang).pgettext("command", "score")
    assert shown.startswith(f"'{command} ")
    assert translator(lang).gettext("Fives") in shown
    assert english_words(shown, lang) == [], shown
    assert str(raised.value) == (
        "cannot 'score fives': roll first (Ann's turn, round 1, before the first roll)"
    )
    assert error_text(raised.value, "en") == str(raised.value)


def test_an_error_survives_pickling_with_its_code() -> None:
    import pickle

    from yacht.rules import RulesError

    error = RulesError("unknown_category", name="x", names=[Category.ONES])
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), again.code, str(again)) == (RulesError, error.code, str(error))
    assert error_text(again, "fi") == error_text(error, "fi")

"""The command line in Finnish, Bulgarian and Norwegian as a user sees it: every --help and
argparse's own words, plural forms (0, 1, 2, 5), the language's numbers (JSON unchanged),
the plain game's own verbs, and no English word left (tests/english.py)."""

# ruff: noqa: RUF001 - Cyrillic in Bulgarian strings
from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from english import english_words
from yacht.bots import play_game
from yacht.cli import build_parser, main
from yacht.cli.plain import PlainGame
from yacht.cli.text import count, rolls_left
from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.i18n import translator
from yacht.rules import preset_names

LANGS = ["fi", "bg", "nb"]


@pytest.fixture(autouse=True)
def _isolated(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "yacht-cache"))
    monkeypatch.setenv("YACHT_LANG", "en")  # each test says --lang itself


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as e:  # --help and argparse's errors
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def commands() -> list[list[str]]:
    """Every command and subcommand of ``yacht``, as the words that name it."""
    found: list[list[str]] = []

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found.append([*path, name])
                    walk(sub, [*path, name])

    walk(build_parser(), [])
    return found


def typed_words() -> set[str]:
    """What a user types as it is in every language: command names, preset names, the values
    of options with fixed choices, bot names."""
    words = {w for cmd in commands() for w in cmd}
    words |= {part for w in set(words) for part in w.split("-")}  # reset-password as typed
    words |= {part for name in preset_names() for part in name.split("-")}
    words |= {"debug", "info", "warning", "error", "text", "json"}  # serve --log-*
    return words


def test_every_command_is_found() -> None:
    names = {" ".join(c) for c in commands()}
    assert {"play", "hint", "review", "duel stats", "duel solve", "loadtest"} <= names


@pytest.mark.parametrize("lang", LANGS)
def test_every_help_is_in_the_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    usage = {"fi": "käyttö: yacht", "bg": "употреба: yacht", "nb": "bruk: yacht"}[lang]
    for cmd in [[], *commands()]:
        status, out, err = run([*cmd, "--lang", lang, "--help"], capsys)
        assert status == 0 and err == "", cmd
        assert out.startswith(usage), (cmd, out[:80])
        assert english_words(out, lang, typed_words()) == [], (cmd, out)
    _, out, _ = run(["hint", "--lang", lang, "--help"], capsys)
    assert {"fi": "valitsimet:", "bg": "опции:", "nb": "alternativer:"}[lang] in out
    assert {"fi": "NOPPA", "bg": "ЗАР", "nb": "TERNING"}[lang] in out  # a metavar that is a word


def test_the_language_comes_from_the_environment_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("YACHT_LANG", "bg")
    _, out, _ = run(["solve", "--help"], capsys)
    assert out.startswith("употреба: yacht solve") and "показва тази помощ и излиза" in out
    _, out, _ = run(["solve", "--lang", "en", "--help"], capsys)  # --lang wins
    assert out.startswith("usage: yacht solve") and "show this help message and exit" in out


ARGPARSE_ERRORS = {
    # (argv, fi, bg, nb): argparse's own messages, translated
    "required": (
        ["hint", "--rolls-left", "1"],
        "seuraavat argumentit puuttuvat: --dice",
        "следните аргументи са задължителни: --dice",
        "disse argumentene er påkrevd: --dice",
    ),
    "choice": (
        ["solve", "--rules", "yahtzee"],
        "virheellinen valinta: 'yahtzee'",
        "невалиден избор: 'yahtzee'",
        "ugyldig verdi: 'yahtzee'",
    ),
    "one argument": (
        ["simulate", "--seed"],
        "odotettiin yhtä argumenttia",
        "очаква се един аргумент",
        "forventet ett argument",
    ),
    "bot": (
        ["duel", "match", "--bots", "huge,optimal"],
        "argumentti --bots: tuntematon botti: 'huge'",
        "аргумент --bots: непознат бот: 'huge'",
        "argument --bots: ukjent bot: 'huge'",
    ),
    "unrecognized": (
        ["rules", "--colour"],
        "tuntemattomia argumentteja: --colour",
        "неразпознати аргументи: --colour",
        "ukjente argumenter: --colour",
    ),
}


@pytest.mark.parametrize("case", sorted(ARGPARSE_ERRORS))
@pytest.mark.parametrize("lang", LANGS)
def test_argparse_errors_are_one_line_in_the_language(
    lang: str, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, *messages = ARGPARSE_ERRORS[case]
    status, out, err = run([*argv, "--lang", lang], capsys)
    error = {"fi": "yacht: virhe: ", "bg": "yacht: грешка: ", "nb": "yacht: feil: "}[lang]
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(error) and messages[LANGS.index(lang)] in err, err
    assert english_words(err, lang, typed_words() | {"yahtzee", "colour", "huge"}) == []


def test_an_unknown_language_is_refused_in_the_users_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(["hint", "--dice", "1", "2", "3", "4", "5", "--rolls-left", "1",
                            "--lang", "de"], capsys)  # fmt: skip
    assert (
        status == 2
        and out == ""
        and err == ("yacht: error: unknown language 'de' (one of: en, fi, bg, nb)\n")
    )


PLURALS = {
    # n: (fi, bg, nb) of "{n} point(s)"
    0: ("0 pistettä", "0 точки", "0 poeng"),
    1: ("1 piste", "1 точка", "1 poeng"),
    2: ("2 pistettä", "2 точки", "2 poeng"),
    5: ("5 pistettä", "5 точки", "5 poeng"),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_every_plural_of_the_catalog_has_its_form_for_0_1_2_5(lang: str, n: int) -> None:
    t = translator(lang)
    assert count("{n} point", "{n} points", n, lang) == PLURALS[n][LANGS.index(lang)]
    games = {"fi": ("peli", "peliä"), "bg": ("игра", "игри"), "nb": ("spill", "spill")}[lang]
    assert count("{n} game", "{n} games", n, lang) == f"{n} {games[n != 1]}"
    decisions = {"fi": ("päätös", "päätöstä"), "bg": ("решение", "решения"), "nb": ("valg", "valg")}
    assert count("{n} decision", "{n} decisions", n, lang) == f"{n} {decisions[lang][n != 1]}"
    left = rolls_left(n, lang)
    assert (str(n) in left) == (n > 0) and english_words(left, lang) == []
    singular = {"fi": "heitto", "bg": "хвърляне", "nb": "kast"}[lang]
    if n == 1:
        assert singular in left.split()
    # every plural entry of the catalog: form 0 for 1, form 1 for the others (Plural-Forms n != 1)
    catalog = t._catalog  # type: ignore[attr-defined]
    plural_ids = {key[0] for key in catalog if isinstance(key, tuple)}
    assert len(plural_ids) >= 10
    for msgid in plural_ids:
        forms = [catalog[(msgid, 0)], catalog[(msgid, 1)]]
        shown = t.ngettext(msgid, msgid + "s", n)
        assert shown == forms[0 if n == 1 else 1], (msgid, n)


def plain(lines: list[str], faces: list[int], lang: str) -> str:
    game = Game(["Ann"], dice=ScriptedDice(faces))
    out = io.StringIO()
    PlainGame(game, lang).run(io.StringIO("".join(f"{x}\n" for x in lines)), out)
    return out.getvalue()


SCORED = {
    "fi": "Ann merkitsee {n} {points} kategoriaan Ykköset.",
    "bg": "Ann записва {n} {points} в Единици.",
    "nb": "Ann fører {n} {points} i Enere.",
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("faces", "n"), [([2, 3, 4, 5, 6], 0), ([1, 3, 4, 5, 6], 1),
                                          ([1, 1, 4, 5, 6], 2), ([1, 1, 1, 1, 1], 5)])  # fmt: skip
def test_the_plain_game_says_the_points_in_the_right_form(
    lang: str, faces: list[int], n: int
) -> None:
    words = {"fi": ("pisteen", "pistettä"), "bg": ("точка", "точки"), "nb": ("poeng", "poeng")}
    out = plain(["roll", "score ones"], faces, lang)
    assert SCORED[lang].format(n=n, points=words[lang][n != 1]) in out.splitlines()


ISSUE_LINE = {  # issue 19's repro: yacht play --plain --lang X --players Ann --seed 4
    "fi": "Ann merkitsee 1 pisteen kategoriaan Ykköset.",
    "bg": "Ann записва 1 точка в Единици.",
    "nb": "Ann fører 1 poeng i Enere.",
}
NATIVE = {
    "fi": ["heitä", "merkitse ykköset", "ohje", "lomake", "lopeta"],
    "bg": ["хвърлете", "запишете единици", "помощ", "таблица", "изход"],
    "nb": ["kast", "før enere", "hjelp", "ark", "avslutt"],
}


def yacht(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "YACHT_LANG": "en"}
    return subprocess.run(
        [sys.executable, "-m", "yacht", *args],
        input=stdin, capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_the_issues_one_point_line_with_english_and_native_commands(lang: str) -> None:
    args = ["play", "--plain", "--lang", lang, "--players", "Ann", "--seed", "4"]
    english = yacht(*args, stdin="roll\nscore ones\nquit\n")
    assert english.returncode == 0 and english.stderr == ""
    assert ISSUE_LINE[lang] in english.stdout.splitlines()
    native = yacht(*args, stdin="\n".join(NATIVE[lang]) + "\n")
    assert native.returncode == 0 and native.stderr == ""
    out = native.stdout
    assert ISSUE_LINE[lang] in out.splitlines()
    help_at = out.index({"fi": "Komennot:", "bg": "Команди:", "nb": "Kommandoer:"}[lang])
    for word in NATIVE[lang][:1]:  # the help lists the language's own commands
        assert f"\n  {word} " in out[help_at:]
    assert out.count("Ann> ") == len(NATIVE[lang])  # every native command was understood
    assert "!" not in out
    assert english_words(out, lang, {"Ann"}) == [], out


@pytest.mark.parametrize("lang", LANGS)
def test_plain_mode_mistakes_are_explained_in_the_language(lang: str) -> None:
    verbs = NATIVE[lang]
    hold = {"fi": "pidä", "bg": "задръжте", "nb": "hold"}[lang]
    lines = [verbs[0], f"{hold} 9", "hyppää", f"{verbs[1].split()[0]} bonus", "undo", verbs[-1]]
    out = plain(lines, [1, 2, 3, 4, 5] * 3, lang)
    assert out.count("! ") == 4
    assert english_words(out, lang, {"Ann", "hyppää", "bonus", "undo"}) == [], out
    quotes = {"fi": "””", "bg": "„“", "nb": "«»"}[lang]
    opening, closing = quotes[0], quotes[1]
    assert f"({opening}{hold} 1 3{closing} " in out  # the language's own verb and quotes


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_are_the_languages_and_json_is_not(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    hint = ["hint", "--dice", "6", "6", "6", "5", "5", "--rolls-left", "2"]
    _, en, _ = run([*hint, "--lang", "en"], capsys)
    _, out, _ = run([*hint, "--lang", lang], capsys)
    assert "174.834" in en and "174,834" in out and "174.834" not in out
    assert english_words(out, lang, typed_words()) == [], out
    _, en_json, _ = run([*hint, "--json", "--lang", "en"], capsys)
    _, lang_json, _ = run([*hint, "--json", "--lang", lang], capsys)
    assert en_json == lang_json and json.loads(lang_json)["options"]
    target = [*hint[:-1], "1", "--target", "200", "--used", "ones", "--banked", "3"]
    _, out, _ = run([*target, "--lang", lang], capsys)
    percent = {"fi": "21,3061\xa0%", "bg": "21,3061%", "nb": "21,3061\xa0%"}[lang]
    assert percent in out and "1" in out


@pytest.mark.parametrize("lang", LANGS)
def test_simulate_and_review_read_in_the_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = ["simulate", "--bot", "medium", "--games", "200", "--seed", "3"]
    status, out, _ = run([*sim, "--lang", lang], capsys)
    assert status == 0 and english_words(out, lang, typed_words()) == [], out
    assert {"fi": "200 peliä", "bg": "200 игри", "nb": "200 spill"}[lang] in out
    status, en_json, _ = run([*sim, "--json"], capsys)
    _, lang_json, _ = run([*sim, "--json", "--lang", lang], capsys)
    assert json.loads(en_json)["mean"] == json.loads(lang_json)["mean"]
    game = play_game(["easy", "greedy"], "traditional", seed=5)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_json()), encoding="utf-8")
    status, out, _ = run(["review", str(path), "--all", "--lang", lang], capsys)
    names = set(game.players)
    assert status == 0 and english_words(out, lang, typed_words() | names) == [], out
    decisions = {"fi": "päätöstä", "bg": "решения", "nb": "valg"}[lang]
    assert decisions in out and not re.search(r"\d\.\d", out)  # 1,5 not 1.5


@pytest.mark.parametrize("seeds", [0, 1, 2])
def test_the_verify_verdict_in_each_language(seeds: int) -> None:
    from yacht.cli.web import verdict_text
    from yacht.web.service.fairness import Verdict, VerifyProblem

    verdict = Verdict(
        seeds > 0, rolls=31, dice=112, commitment="ab" * 32, seeds=seeds, rule=3, alone=not seeds
    )
    assert verdict_text(verdict, "en") == verdict.summary()  # English as before
    texts = {lang: verdict_text(verdict, lang) for lang in LANGS}
    for lang, text in texts.items():
        assert english_words(text, lang) == [], text
    start = "reilu säännön 3 mukaan: " if seeds else "palvelin jakoi yksin (sääntö 3): "
    assert texts["fi"].startswith(start) and "31 heittoa (112 noppaa)" in texts["fi"]
    assert "31 хвърляния (112 зара)" in texts["bg"] and "112 terninger" in texts["nb"]
    if seeds == 1:
        assert "1 pelaajan siemenluku," in texts["fi"] and "1 startverdi " in texts["nb"]
    problem = VerifyProblem("verify_commitment")
    unfair = verdict_text(Verdict(False, problems=[problem]), "fi")
    assert unfair.startswith("Ei reilu: ") and english_words(unfair, "fi") == [], unfair


@pytest.mark.parametrize("lang", LANGS)
def test_the_strategy_commands_read_in_the_language(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = [
        ["solve"],
        ["distribution"],
        ["endgame", "--depth", "1"],
        ["duel", "stats"],
        ["duel", "solve", "--depth", "1"],  # progress on stderr, the summary on stdout
        ["duel", "match", "--bots", "optimal,optimal", "--games", "20", "--seed", "1"],
    ]
    allowed = typed_words() | {"minimax", "response", "winner", "optimal", "rotate", "bots"}
    for argv in runs:
        status, out, err = run([*argv, "--lang", lang], capsys)
        assert status == 0, (argv, err)
        assert english_words(out + err, lang, allowed) == [], (argv, out, err)
        assert not re.search(r"\d\.\d", out + err), (argv, out, err)  # decimal commas
    _, out, _ = run(["endgame", "--depth", "1", "--lang", lang], capsys)
    one = {"fi": "1 avoin kategoria", "bg": "1 отворена категория", "nb": "1 åpen rad"}[lang]
    assert one in out


def test_the_language_may_come_before_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["--lang", "nb", "hint", "--dice", "6", "6", "6", "5", "5",
                          "--rolls-left", "2"], capsys)  # fmt: skip
    assert status == 0 and "174,834" in out and "2 kast igjen" in out
    status, out, err = run(["--lang", "de", "solve"], capsys)
    assert status == 2 and out == "" and err.startswith("yacht: error: unknown language 'de'")


def test_the_argparse_messages_we_translate_are_argparse_s_own() -> None:
    from english import argparse_messages
    from yacht.cli.words import ARGPARSE_MESSAGES

    assert set(ARGPARSE_MESSAGES) <= set(argparse_messages())  # none went stale
    for lang in LANGS:
        catalog = translator(lang)._catalog  # type: ignore[attr-defined]
        for message in ARGPARSE_MESSAGES:
            assert catalog.get(message), (lang, message)  # Norwegian "argument" is the same
        assert catalog.get(("expected %s argument", 1)), lang
    assert translator("fi").gettext("usage: ") == "käyttö: "

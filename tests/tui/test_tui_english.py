"""Nothing left in English: every screen of the terminal game, drawn in Finnish,
Bulgarian and Norwegian, has no English word on it (tests/english.py's vocabulary: the
English of the three catalogs and argparse's own words, minus the language's own words).

Screens: setup (with a saved game and high scores) and its resume-or-new question, the
table with the hint panel open and a refusal, the zero question, the hint over the sheet,
the help with the rules, the end screen with its review, the replay and its plain text,
and the too-small terminal.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from english import english_words
from yacht.game import Game
from yacht.review import review
from yacht.rules import CATEGORIES, preset_names
from yacht.tui.app import YachtApp
from yacht.tui.records import Records
from yacht.tui.replay import replay_text
from yacht.tui.rules_text import preset_label
from yacht.tui.screens.dialogs import ChoiceScreen, ConfirmScreen, HelpScreen, HintScreen
from yacht.tui.screens.end import EndScreen
from yacht.tui.screens.replay import ReplayApp
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.screens.table import TableScreen
from yacht.tui.seats import BOT_KINDS, HUMAN, Seat, TableConfig, default_name, kind_label
from yacht.tui.widgets.sheet import CATEGORY_KEYS

from .conftest import faces
from .helpers import bots_game, game_of, plain_game, saved_app, screen_text, settle

LANGS = ["fi", "bg", "nb"]


IDENTIFIERS = {*preset_names(), *BOT_KINDS, HUMAN} - {"knizia"}  # Knizia is a name
"""Preset and seat-kind ids: shown raw, they are English even where a catalog quotes them
(``--rules traditional`` in a help text keeps them out of the shared vocabulary)."""


NATIVE = {"nb": {"optimal"}}  # "Optimal bot" is Norwegian too


def _check(text: str, lang: str, where: str) -> None:
    found = english_words(text, lang)
    ids = sorted(IDENTIFIERS - NATIVE.get(lang, set()))
    found += [i for i in ids if re.search(rf"(?<![\w-]){i}(?![\w-])", text, re.I)]
    assert found == [], f"{where} in {lang} shows English {found}:\n{text}"


def _table(lang: str, *, seats: int = 2) -> TableConfig:
    """The language's default table (its own default names), with ``seats`` seats."""
    kinds = [HUMAN, "medium", "easy", "hard", "winner", "random"][:seats]
    names = [default_name(k, lang) for k in kinds]
    return TableConfig(tuple(Seat(n, k) for n, k in zip(names, kinds, strict=True)), lang=lang)


def _mid_turn(config: TableConfig) -> tuple[TableConfig, Game]:
    """A saved game in round 5, the person on turn after two rolls."""
    game = plain_game(config, faces(), scorings=8 * len(config.seats) // 2)
    for action in ("roll", "hold 1 2", "roll"):
        game.apply(action)
    return config, game


@pytest.mark.parametrize("lang", LANGS)
def test_words_the_setup_lists(lang: str) -> None:
    """Seat kinds, default names and presets, as the setup's lists show them."""
    words = [kind_label(k, lang) for k in (HUMAN, *BOT_KINDS)]
    words += [default_name(k, lang) for k in (HUMAN, *BOT_KINDS)]
    words += [preset_label(name, lang) for name in preset_names()]
    _check("\n".join(words), lang, "the setup's lists")


@pytest.mark.parametrize("lang", LANGS)
async def test_setup_with_a_saved_game_and_its_question(tmp_path: Path, lang: str) -> None:
    config = _table(lang)
    Records.open_default(tmp_path).add(bots_game(config, faces(3)), config.seats)
    saved, game = _mid_turn(config)
    saved_app(tmp_path, saved, game)  # writes the save
    app = YachtApp(data_dir=tmp_path, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        _check(screen_text(app), lang, "the setup screen")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, ChoiceScreen)
        _check(screen_text(app), lang, "the resume-or-new question")


@pytest.mark.parametrize("lang", LANGS)
async def test_table_hint_refusal_and_zero_question(tmp_path: Path, lang: str) -> None:
    config, game = _mid_turn(_table(lang))
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        await pilot.press("u")  # undo is off: the refusal says so
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        _check(screen_text(app), lang, "the table with the hint panel and a refusal")
        zero = next(c for c in CATEGORIES if c not in game.sheet(0) and game.potential(c) == 0)
        await pilot.press(CATEGORY_KEYS[zero])
        assert isinstance(app.screen, ConfirmScreen)
        _check(screen_text(app), lang, "the zero question")


@pytest.mark.parametrize("lang", LANGS)
async def test_the_hint_over_a_wide_sheet(tmp_path: Path, lang: str) -> None:
    config, game = _mid_turn(_table(lang, seats=6))
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, HintScreen)
        _check(screen_text(app), lang, "the hint over the sheet")


@pytest.mark.parametrize("lang", LANGS)
async def test_the_help_with_the_rules(tmp_path: Path, lang: str) -> None:
    config = TableConfig(_table(lang).seats, lang=lang, hints=False, undo=True)
    game = plain_game(config, faces(), scorings=0)
    game.apply("roll")  # a game nobody moved in is not resumed
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(100, 90)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert CATEGORIES[-1] and "Yacht" in text  # the rules reach the last category
        _check(text, lang, "the help")


@pytest.mark.parametrize("lang", LANGS)
async def test_the_end_screen_with_its_review(tmp_path: Path, lang: str) -> None:
    config = _table(lang)
    app = saved_app(tmp_path, config, plain_game(config, faces(), scorings=24))
    async with app.run_test(size=(100, 60)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EndScreen) and game_of(app).finished
        _check(screen_text(app), lang, "the end screen")


@pytest.mark.parametrize("lang", LANGS)
async def test_the_replay_and_its_text(tmp_path: Path, lang: str) -> None:
    config = _table(lang)
    records = Records.open_default(tmp_path)
    records.add(bots_game(config, faces(6)), config.seats)
    record = records.get(1)
    rated = review(record.data)
    _check(replay_text(record, rated, lang), lang, "yacht replay --plain")
    app = ReplayApp(record, rated, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        _check(screen_text(app), lang, "the replay before the first roll")
        await pilot.press("down", "down")  # two scorings in: a verdict beside the sheet
        _check(screen_text(app), lang, "the replay at a scoring")


@pytest.mark.parametrize("lang", LANGS)
async def test_a_terminal_too_small(tmp_path: Path, lang: str) -> None:
    app = YachtApp(data_dir=tmp_path, lang=lang)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        _check(screen_text(app), lang, "the too-small message")

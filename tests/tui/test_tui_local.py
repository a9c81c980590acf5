"""The terminal game in each language's own forms: a count and its noun agree
(0, 1, 2 and 5 in fi, bg and nb), numbers with decimals and percentages are written the
language's way (110,2 and 30,8 % in Finnish), and at 80 columns the hint panel opens beside
the sheet with the bot's column in view."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Static

from yacht.i18n import format_number, format_percent
from yacht.review import PlayerReview, Review, coach_hint, review
from yacht.strategy.win import WinHint
from yacht.tui.reviews import summary_lines
from yacht.tui.screens.end import EndScreen
from yacht.tui.screens.table import TableScreen
from yacht.tui.seats import Seat, TableConfig
from yacht.tui.text import gettext_for, ngettext_for
from yacht.tui.widgets.panels import HintPanel
from yacht.tui.widgets.sheet import Sheet

from .conftest import faces
from .helpers import game_of, plain_game, saved_app, screen_text, settle, text_of, two_humans

LANGS = ["fi", "bg", "nb"]
COUNTS = (0, 1, 2, 5)
ENGLISH_DECIMAL = re.compile(r"\d\.\d")  # 110.2: the English decimal point

ROLLS_LEFT = {
    "en": ["0 rolls left", "1 roll left", "2 rolls left", "5 rolls left"],
    "fi": ["0 heittoa jäljellä", "1 heitto jäljellä", "2 heittoa jäljellä", "5 heittoa jäljellä"],
    "bg": [
        "Остават 0 хвърляния",
        "Остава 1 хвърляне",
        "Остават 2 хвърляния",
        "Остават 5 хвърляния",
    ],
    "nb": ["0 kast igjen", "1 kast igjen", "2 kast igjen", "5 kast igjen"],
}
DECISIONS = {  # with 6.06 points lost
    "en": ["6.1 points lost in {n} decisions", "6.1 points lost in {n} decision"],
    "fi": ["{n} päätöstä: 6,1 pistettä menetetty", "{n} päätös: 6,1 pistettä menetetty"],
    "bg": ["6,1 точки загубени в {n} решения", "6,1 точки загубени в {n} решение"],
    "nb": ["6,1 poeng tapt på {n} valg", "6,1 poeng tapt på {n} valg"],
}
ACCURACY = {"en": "Ann: accuracy 54%", "fi": "Ann: tarkkuus 54\xa0%", "bg": "Ann: точност 54%"}
ACCURACY["nb"] = "Ann: treffsikkerhet 54\xa0%"


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_rolls_left_agree_with_their_count(lang: str) -> None:
    ngettext = ngettext_for(lang)
    shown = [ngettext("{n} roll left", "{n} rolls left", n).format(n=n) for n in COUNTS]
    assert shown == ROLLS_LEFT[lang]


@pytest.mark.parametrize("lang", ["en", *LANGS])
@pytest.mark.parametrize("n", COUNTS)
def test_the_review_counts_decisions_in_the_languages_forms(lang: str, n: int) -> None:
    player = PlayerReview(0, "Ann", 200, n, 6.06, 53.9, points_loss=6.06)
    lines = summary_lines(Review("traditional", (), (player,)), [Seat("Ann")], lang)
    assert lines[1] == ACCURACY[lang]
    assert lines[2] == " " + DECISIONS[lang][n == 1].format(n=n)


TURN_BOX = {  # rolls left: 3, 2, 1, 0
    "fi": ["3 heittoa jäljellä", "2 heittoa jäljellä", "1 heitto jäljellä", "0 heittoa jäljellä"],
    "bg": [
        "Остават 3 хвърляния",
        "Остават 2 хвърляния",
        "Остава 1 хвърляне",
        "Остават 0 хвърляния",
    ],
    "nb": ["3 kast igjen", "2 kast igjen", "1 kast igjen", "0 kast igjen"],
}


@pytest.mark.parametrize("lang", LANGS)
async def test_the_turn_box_counts_the_rolls_left(tmp_path: Path, lang: str) -> None:
    config = TableConfig(two_humans().seats, lang=lang, hints=False)
    app = saved_app(tmp_path, config, plain_game(config, faces(), scorings=2))
    async with app.run_test(size=(80, 24)) as pilot:
        for left, expected in zip((3, 2, 1, 0), TURN_BOX[lang], strict=True):
            assert game_of(app).rolls_left == left
            assert expected in text_of(app, "#turn-info")
            if left:
                await pilot.press("r")


async def _hint_at_80_columns(tmp_path: Path, config: TableConfig) -> tuple[list[str], str]:
    """The hint panel's lines and the sheet's header row, round 5 after two rolls."""
    game = plain_game(config, faces(), scorings=8)
    for action in ("roll", "hold 1 2", "roll"):
        game.apply(action)
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen), "the hint opened over the sheet"
        sheet, panel = screen.query_one(Sheet), screen.query_one(HintPanel)
        assert panel.display and panel.region.x >= sheet.region.right
        return text_of(app, "#hint-panel").splitlines(), text_of(app, "#row-header")


@pytest.mark.parametrize("lang", ["en", *LANGS])
async def test_the_hint_panel_writes_numbers_the_languages_way(tmp_path: Path, lang: str) -> None:
    config = TableConfig.default(lang)
    lines, header = await _hint_at_80_columns(tmp_path, config)
    game = plain_game(config, faces(), scorings=8)
    for action in ("roll", "hold 1 2", "roll"):
        game.apply(action)
    hint = coach_hint(game.view(), None)
    assert isinstance(hint, WinHint)
    best = hint.options[0]
    total = format_number(game.view().banked + best.expected, lang)
    assert f" {total} " in lines[1]
    assert lines[1].endswith(" " + format_percent(best.win_probability, lang))
    if lang != "en":
        assert not any(ENGLISH_DECIMAL.search(line) for line in lines), lines
    assert config.seats[1].name in header  # the bot's column, whole, beside the panel


@pytest.mark.parametrize("lang", ["en", *LANGS])
async def test_at_80_columns_a_long_name_is_cut_so_the_hint_fits_beside(
    tmp_path: Path, lang: str
) -> None:
    """A typed name too long for the room is cut with an ellipsis; the bot's column stays."""
    bot = TableConfig.default(lang).seats[1]
    config = TableConfig((Seat("Bartholomew Smith"), bot), lang=lang)
    lines, header = await _hint_at_80_columns(tmp_path, config)
    assert "Bartholomew Smith" not in header and "…" in header
    assert bot.name[:5] in header
    assert len(lines) >= 6  # the head line and five options


@pytest.mark.parametrize("lang", LANGS)
async def test_the_end_screen_review_writes_numbers_the_languages_way(
    tmp_path: Path, lang: str
) -> None:
    config = TableConfig.default(lang)
    game = plain_game(config, faces(), scorings=24)
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        shown = str(app.screen.query_one("#review", Static).render())
        summary = review(game_of(app)).players[0]
    accuracy = format_percent((summary.accuracy or 0) / 100, lang, digits=0)
    points = format_number(summary.points_loss, lang)
    assert accuracy in shown and points in shown
    assert not ENGLISH_DECIMAL.search(shown), shown
    assert re.search(r"\(-\d+,\d", shown)  # a decision's loss: (-17,6 % ... / (-19,1 ...


@pytest.mark.parametrize("undo", [False, True], ids=["undo-off", "undo-on"])
@pytest.mark.parametrize("lang", ["en", *LANGS])
async def test_the_key_bar_keeps_its_last_key_at_80_columns(
    tmp_path: Path, lang: str, undo: bool
) -> None:
    """Bulgarian's polite verbs are long: the bar tightens rather than cut "Q Изход" off."""
    config = TableConfig(two_humans().seats, lang=lang, hints=True, undo=undo)
    app = saved_app(tmp_path, config, plain_game(config, faces(), scorings=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bottom = screen_text(app).rstrip("\n").splitlines()[-1].rstrip()
        quit_word = gettext_for(lang)("Quit")
        assert bottom.endswith(f"Q {quit_word}"), bottom
        assert bottom.startswith("1-5 ") and (" U " in bottom) == undo

"""The terminal game's rough edges, each as a player meets it: reviews that call a play the
best while counting its loss, keys in another keyboard layout, texts cut or wrapped badly,
games saved that were never played."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
from textual.markup import to_content
from textual.widgets import Input

from yacht.actions import Roll, Undo
from yacht.cli import main
from yacht.dice import ScriptedDice
from yacht.game import Event, Game
from yacht.review import Decision
from yacht.rules import Category
from yacht.strategy.win import WinOption
from yacht.tui.app import YachtApp
from yacht.tui.keys import BDS, PHONETIC
from yacht.tui.replay import ReplayStep, step_note
from yacht.tui.reviews import decision_line, loss_text
from yacht.tui.saves import read_save, save_path, write_save
from yacht.tui.screens.dialogs import (
    HELP_WIDTH,
    KEY_COLUMN,
    ChoiceScreen,
    ConfirmScreen,
    help_text,
)
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.screens.table import TableScreen
from yacht.tui.seats import Seat, TableConfig
from yacht.tui.table import Table
from yacht.tui.text import gettext_for
from yacht.tui.widgets.panels import EventLog
from yacht.tui.widgets.sheet import Sheet, clip_apart

from .conftest import faces
from .helpers import game_of, plain_game, saved_app, screen_text, settle, text_of, two_humans


def _keep(faces: tuple[int, ...], win: float, expected: float) -> WinOption:
    return WinOption("keep", faces, None, None, win, expected)


def _score(category: Category, points: int, win: float, expected: float) -> WinOption:
    return WinOption("score", None, category, points, win, expected)


def test_a_sure_win_with_fewer_points_is_not_called_the_best_play() -> None:
    """Every option wins for sure: the hint ranks them by expected total, so must the review."""
    best = _keep((6, 6, 6), 1.0, 40.0)
    taken = _keep((6,), 1.0, 31.5)
    d = Decision(0, 12, 1, (6, 6, 6, 2, 1), taken, best, "win", 40.0)
    assert not d.accurate
    assert d.points_loss == 8.5
    line = decision_line(d, "en")
    assert "best: keep 6 6 6" in line
    assert "-8.5 points" in line and "to win" not in line  # no "-0.0% to win"
    step = ReplayStep(7, Event(0, Roll(), (6, 3, 2, 1, 4)), 12, d, (6, 6, 6, 2, 1))
    assert step_note(step, "en") == "keep 6: best was keep 6 6 6, -8.5 points"
    same = Decision(0, 12, 1, (6, 6, 6, 2, 1), best, best, "win", 40.0)
    assert same.accurate
    assert step_note(replace(step, decision=same), "en") == "keep 6 6 6: best play"


def test_a_loss_in_chance_alone_never_reads_minus_zero_points() -> None:
    best = _score(Category.YACHT, 50, 0.61, 10.0)
    taken = _score(Category.CHOICE, 23, 0.52, 33.0)
    d = Decision(0, 11, 3, (5, 5, 5, 4, 4), taken, best, "win", 33.0)
    assert not d.accurate and d.points_loss == 0.0
    assert loss_text(d, "en") == "-9.0% to win"
    for lang in ("en", "fi", "bg", "nb"):
        text = loss_text(d, lang)
        assert "-0.0" not in text and "-0,0" not in text, (lang, text)


def _rolled(config: TableConfig, dice: list[int] | None = None) -> Game:
    game = Game(config.names, config.preset, ScriptedDice(dice or faces()), undo=config.undo)
    game.apply("roll")
    return game


async def test_ctrl_c_saves_and_quits_at_once_even_at_a_question(data_dir: Path) -> None:
    """What is typed after Ctrl+C goes to the shell, not to the game: it ends the app at
    once, the game saved (the question unanswered, nothing scored) for ``--resume``."""
    config = two_humans()
    game = _rolled(config, [1, 1, 2, 3, 3] * 10)
    app = saved_app(data_dir, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")  # Yacht with no Yacht: scoring 0 asks first
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code == 0
    saved = read_save(data_dir)
    assert saved is not None
    assert saved[1].to_json() == game.to_json()  # rolled once, nothing scored


async def test_ctrl_c_on_the_setup_screen_quits(data_dir: Path) -> None:
    app = YachtApp(data_dir=data_dir, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code == 0
    assert not save_path(data_dir).exists()


@pytest.mark.parametrize("key", ["q", "Q", "я", "ы"])
async def test_q_quits_the_setup_screen(data_dir: Path, key: str) -> None:
    app = YachtApp(data_dir=data_dir, lang="bg")
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        await pilot.press(key)
        await pilot.pause()
        assert app.return_code == 0


async def test_q_typed_in_a_name_is_a_letter_of_the_name(data_dir: Path) -> None:
    app = YachtApp(data_dir=data_dir, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        name = app.screen.query(".name").first(Input)
        name.focus()
        name.value = ""
        await pilot.press("Q", "u", "i", "n", "n")
        assert name.value == "Quinn" and app.return_code is None


async def test_a_game_nobody_moved_in_is_neither_saved_nor_offered(data_dir: Path) -> None:
    solo = TableConfig((Seat("Ann"),), hints=False)
    app = YachtApp(solo, dice=ScriptedDice(faces()), data_dir=data_dir, bot_delay=0, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("q")
    assert not save_path(data_dir).exists()
    again = YachtApp(solo, data_dir=data_dir, bot_delay=0, lang="en")
    async with again.run_test(size=(80, 24)) as pilot:
        assert isinstance(again.screen, SetupScreen)
        assert not again.screen.query("#resume")
        await pilot.press("enter")  # no resume question: the game starts
        assert isinstance(again.screen, TableScreen)
        await pilot.press("ctrl+c")
    assert not save_path(data_dir).exists()


async def test_bulgarian_table_keys_work_in_both_layouts(data_dir: Path) -> None:
    """Q, R and H as typed with the Latin, the phonetic or the BDS layout: a player
    switching layouts mid-game is not stuck."""
    config = two_humans("bg")
    game = _rolled(config)
    game.apply("score choice")
    app = saved_app(data_dir, config, game)
    async with app.run_test(size=(100, 30)) as pilot:
        g = game_of(app)
        await pilot.press(PHONETIC["r"])
        assert g.rolls_used == 1
        await pilot.press(BDS["r"])
        assert g.rolls_used == 2
        await pilot.press(PHONETIC["h"])
        assert app.screen.query_one("#hint-panel").display
        await pilot.press(BDS["h"])
        assert not app.screen.query_one("#hint-panel").display
        await pilot.press("R")
        assert g.rolls_used == 3
        await pilot.press(PHONETIC["q"])
        await pilot.pause()
        assert app.return_code == 0
    saved = read_save(data_dir)
    assert saved is not None and saved[1].rolls_used == 3


@pytest.mark.parametrize(
    ("key", "resumed"),
    [("п", True), ("p", True), ("r", True), ("н", False), ("n", False), ("k", False)],
)
async def test_bulgarian_resume_question_takes_either_layout(
    data_dir: Path, key: str, resumed: bool
) -> None:
    config = two_humans("bg")
    game = _rolled(config)
    write_save(data_dir, config, game)
    app = YachtApp(data_dir=data_dir, bot_delay=0, lang="bg")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press(key)
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert (game_of(app).version > 0) is resumed


def test_a_bots_holds_are_logged_by_position_with_their_faces(data_dir: Path) -> None:
    """The log names the dice as the keys and ``hold 1 3`` do: "hold 2" is die 2."""
    config = TableConfig((Seat("Ann"), Seat("Bob", "medium")))
    table = Table.new(config, data_dir, dice=ScriptedDice([2, 6, 3, 6, 1] * 4))
    table.apply("roll")
    table.apply("score choice")
    table.apply("roll")
    table.apply("hold 2 4")
    table.apply("roll")
    table.apply("hold 5")
    assert table.history()[-3:] == [
        "Bob: hold dice 2 4 (6 6)",
        "Bob: roll 2 6 6 6 3",
        "Bob: hold die 5 (3)",
    ]


def _mid_turn(config: TableConfig, *, scorings: int = 8, rolls: int = 2) -> Game:
    game = plain_game(config, faces(), scorings=scorings)
    for action in ("roll", "hold 1 2", "roll", "roll")[: rolls + 1]:
        game.apply(action)
    return game


def _from(lines: list[str], needle: str, rows: int = 3) -> str:
    """The text of a box on screen that starts with ``needle``: ``rows`` lines from its
    column on, joined."""
    at = next(i for i, line in enumerate(lines) if needle in line)
    column = lines[at].index(needle)
    return " ".join(" ".join(line[column:].split()) for line in lines[at : at + rows])


@pytest.mark.parametrize("lang", ["en", "fi", "bg", "nb"])
@pytest.mark.parametrize("seats", [2, 3])
async def test_the_undo_refusal_is_read_whole_at_80x24(
    tmp_path: Path, lang: str, seats: int
) -> None:
    """Beside the hint, or over the table when the hint covers it (three players)."""
    names = ["Anna-Liisa", "Anna-Maija", "Anna-Kaisa"][:seats]
    config = TableConfig(tuple(Seat(n) for n in names), lang=lang)
    app = saved_app(tmp_path, config, _mid_turn(config, scorings=seats))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        await pilot.press("u")
        await pilot.pause()
        refusal = app.table.refusal(Undo()) if app.table else None
        off = "Undo is off: it is a house rule to switch on before the game."
        assert refusal == gettext_for(lang)(off) and (lang == "en") == (refusal == off)
        lines = screen_text(app).splitlines()
        shown = _from(lines, refusal.split()[0])
        assert refusal in shown, shown


ANNAS = ["Anna-Maija Korhonen", "Anna-Maija Virtanen", "Anna-Maija Nieminen"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (159, 40)])
async def test_three_annas_are_told_apart_on_the_sheet(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    config = TableConfig(tuple(Seat(n) for n in ANNAS))
    app = saved_app(tmp_path, config, _mid_turn(config, scorings=3))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        header = text_of(app, "#row-header")
        widths = [w - 2 for w in app.screen.query_one(Sheet).widths]
        names = clip_apart(ANNAS, widths)
        assert len(set(names)) == 3, header
        for shown, name in zip(names, ANNAS, strict=True):
            assert shown in header
            head, _, tail = shown.partition("…")
            assert name.startswith(head) and tail in name, (shown, name)


@pytest.mark.parametrize("lang", ["en", "fi", "bg", "nb"])
async def test_the_hint_keeps_a_boxs_points_beside_its_name(tmp_path: Path, lang: str) -> None:
    """After the last roll the hint lists boxes to score: "(0)" never stands alone on a
    line; and the panel says whom P(win) assumes."""
    config = TableConfig.default(lang)
    app = saved_app(tmp_path, config, _mid_turn(config, rolls=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        text = text_of(app, "#hint-panel")
        assert "(0)" in text
        lone = [line for line in text.splitlines() if re.fullmatch(r"\s*\(\d+\)\s*", line)]
        assert not lone, text
        against = gettext_for(lang)("P(win) assumes every opponent plays to beat you.")
        assert against != "" and " ".join(against.split()) in " ".join(text.split())
        if lang != "en":
            assert against != "P(win) assumes every opponent plays to beat you."


@pytest.mark.parametrize("lang", ["fi", "bg"])
def test_help_lines_wrap_under_their_own_text(lang: str) -> None:
    """A long description continues under itself, never at the left margin under the keys."""
    text = to_content(help_text(lang)).plain
    keys = text.split("\n\n")[0].splitlines()
    wrapped = [line for line in keys if not line[:KEY_COLUMN].strip()]
    assert wrapped, "no description was long enough to wrap"
    for line in keys:
        assert len(line) <= HELP_WIDTH
        assert line[KEY_COLUMN : KEY_COLUMN + 2] == "  " and line[KEY_COLUMN + 2] != " ", line


async def test_help_at_80x24_in_finnish_has_a_hanging_indent(tmp_path: Path) -> None:
    config = two_humans("fi")
    app = saved_app(tmp_path, config, _rolled(config))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        at = next(i for i, line in enumerate(lines) if "Enter  Merkitse" in line)
        column = lines[at].index("Merkitse")
        assert lines[at + 1][column - 2 : column] == "  " and lines[at + 1][column] != " "


async def test_a_wide_terminal_puts_the_log_beside_the_hint(tmp_path: Path) -> None:
    """Past 150 columns the hint and the log stand side by side and both grow."""
    config = TableConfig((Seat("Ann"),))
    game = _mid_turn(config)
    widths = {}
    for size in ((120, 40), (200, 50)):
        app = saved_app(tmp_path, config, game)
        async with app.run_test(size=size) as pilot:
            await pilot.press("h")
            await settle(pilot)
            panel = app.screen.query_one("#hint-panel").region
            log = app.screen.query_one(EventLog).region
            widths[size[0]] = (panel.width, log.width, log.x >= panel.right, log.y < panel.bottom)
    assert widths[120][2:] == (False, False)  # the log under the hint
    assert widths[200][2:] == (True, True)  # beside it
    assert widths[200][0] > widths[120][0] and widths[200][1] >= 60


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


async def test_the_language_given_before_play_is_the_tables(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``yacht --lang bg play`` (as ``yacht --help`` shows it) opens the setup in Bulgarian."""
    opened: list[YachtApp] = []
    monkeypatch.setattr("yacht.cli.tui._need_terminal", lambda: None)
    monkeypatch.setattr(YachtApp, "run", lambda self: opened.append(self))
    monkeypatch.setattr("sys.stdin", _Terminal())
    monkeypatch.setattr("sys.stdout", _Terminal())
    assert main(["--lang", "bg", "play"]) == 0
    (app,) = opened
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and app.screen.lang == "bg"

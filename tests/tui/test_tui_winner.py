"""Playing to win in the terminal game: the ``winner`` bot in the seat list and at the table,
and hints with each option's chance of winning once there are opponents."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.widgets import Select

from yacht.bots import Bot
from yacht.dice import ScriptedDice
from yacht.game import Game, TurnView
from yacht.i18n import format_percent
from yacht.rules import Rules
from yacht.strategy import Hint, Solution, hint_for_view
from yacht.strategy.win import WinHint, win_hint_for_view
from yacht.tui.app import YachtApp
from yacht.tui.records import Records
from yacht.tui.screens.end import EndScreen
from yacht.tui.screens.setup import PlayerRow, SetupScreen
from yacht.tui.screens.table import TableScreen
from yacht.tui.seats import Seat, TableConfig
from yacht.tui.widgets.panels import EventLog

from .conftest import faces
from .helpers import game_of, plain_game, plain_turn, saved_app, settle, text_of


async def test_a_whole_game_against_the_winner_bot(data_dir: Path) -> None:
    """Chosen in the seat list, the winner bot plays every turn to the end of the game."""
    app = YachtApp(dice=ScriptedDice(faces()), data_dir=data_dir, bot_delay=0, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        kind = list(screen.query(PlayerRow))[1].query_one(".kind", Select)
        assert ("Bot: winner", "winner") in kind._options
        kind.value = "winner"
        await pilot.pause()
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, TableScreen)
        game = game_of(app)
        assert game.players == ("You", "Winner bot")
        for _ in range(12):
            await plain_turn(pilot, app)
        assert game.finished and len(game.sheet(1)) == 12
        assert isinstance(app.screen, EndScreen)
        assert "Winner bot" in text_of(app, "#results")
    (record,) = Records.open_default(data_dir).games()
    assert [s.kind for s in record.seats] == ["human", "winner"]


def _hint_lines(app: YachtApp) -> list[str]:
    return text_of(app, "#hint-panel").splitlines()


async def test_with_an_opponent_the_hint_ranks_by_the_chance_of_winning(tmp_path: Path) -> None:
    config = TableConfig((Seat("Ann"), Seat("Bob")))
    game = plain_game(config, faces(), scorings=8)
    game.apply("roll")
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        hint = win_hint_for_view(game.view())
        lines = _hint_lines(app)
        assert lines[0].split() == ["total", "P(win)"]
        shown = [float(line.split()[-1].rstrip("%")) for line in lines[1:6]]
        assert shown == [round(o.win_probability * 100, 1) for o in hint.options[:5]]
        assert shown == sorted(shown, reverse=True)
        banked = game.view().banked
        assert lines[1].split()[-2] == f"{banked + hint.best.expected:.1f}"
        assert not hint.exact and "exact" not in text_of(app, "#hint-panel")


async def test_a_solo_game_keeps_the_points_hint(tmp_path: Path) -> None:
    config = TableConfig((Seat("Ann"),))
    game = Game(config.names, config.preset, ScriptedDice(faces()))
    game.apply("roll")
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        lines = _hint_lines(app)
        best = hint_for_view(game.view()).best
        assert lines[0].split() == ["total"]
        assert lines[1].split()[-1] == f"{best.expected:.1f}"


async def test_heads_up_endgame_hint_is_marked_exact_in_finnish(tmp_path: Path) -> None:
    """Both players have two boxes open: the endgame table gives exact chances."""
    config = TableConfig((Seat("Ann"), Seat("Bob")), lang="fi")
    game = plain_game(config, faces(), scorings=20)
    game.apply("roll")
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        hint = win_hint_for_view(game.view())
        assert hint.exact
        lines = _hint_lines(app)
        assert lines[0].split() == ["yht.", "P(voitto)"]
        assert lines[1].endswith(format_percent(hint.best.win_probability, "fi"))  # 48,4 %
        assert "P(voitto) on tarkka: loppupeli on ratkaistu." in lines
        log = app.screen.query_one("#log", EventLog)
        assert log.lines  # the table is alive: the resume line is there


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "P(win) is exact: two-player Yacht is solved."),
        ("fi", "P(voitto) on tarkka: kahden pelaajan Yacht on ratkaistu."),
        ("bg", "P(победа) е точна: Yacht за двама играчи е решен."),  # noqa: RUF001
        ("nb", "P(seier) er nøyaktig: Yacht for to spillere er løst."),
    ],
)
async def test_a_hint_from_the_solved_two_player_table_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, line: str
) -> None:
    """Early in a heads-up game, with the two-player table built (``yacht duel solve``; too
    big for CI, so the hint is marked solved here), the panel credits the solved game, not
    the endgame table."""
    import dataclasses

    import yacht.review

    coach = yacht.review.coach_hint

    def solved(view: TurnView, target: int | None = None) -> Hint | WinHint:
        hint = coach(view, target)
        assert isinstance(hint, WinHint) and not hint.exact
        return dataclasses.replace(hint, solved=True)

    monkeypatch.setattr(yacht.review, "coach_hint", solved)
    config = TableConfig((Seat("Ann"), Seat("Bob")), lang=lang)
    game = plain_game(config, faces(), scorings=4)
    game.apply("roll")
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        assert line in _hint_lines(app)


async def test_the_table_keeps_its_keys_while_the_hint_is_thinking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow first win hint (tables to build) shows "Thinking…" and blocks nothing; the
    answer for a position that has moved on is dropped."""
    import yacht.review
    import yacht.strategy.win as win

    gate = threading.Event()
    real = win.win_hint_for_view
    coach = yacht.review.coach_hint

    def slow(view: TurnView, target: int | None = None) -> Hint | WinHint:
        gate.wait(timeout=30)
        return coach(view, target)

    monkeypatch.setattr(yacht.review, "coach_hint", slow)
    config = TableConfig((Seat("Ann"), Seat("Bob")))
    game = Game(config.names, config.preset, ScriptedDice(faces()))
    game.apply("roll")
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        assert text_of(app, "#hint-panel") == "Thinking…"
        await pilot.press("1")  # the table still answers: hold die 1
        assert game_of(app).held == {1}
        assert text_of(app, "#hint-panel") == "Thinking…"
        gate.set()
        await settle(pilot)
        best = real(game_of(app).view()).best
        line = _hint_lines(app)[1]
        assert line.endswith(f"{best.win_probability:.1%}")


@pytest.mark.parametrize(
    ("seats", "hints", "prepared"),
    [
        ((Seat("Ann"), Seat("Bob")), True, True),  # P(win) hints to come
        ((Seat("Ann"), Seat("Bot", "winner")), False, True),  # the winner bot will need them
        ((Seat("Ann"), Seat("Bob")), False, False),  # nobody will ask
        ((Seat("Ann"),), True, False),  # alone a hint is about points
    ],
)
async def test_opening_a_table_prepares_the_win_tables_in_the_background(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    seats: tuple[Seat, ...],
    hints: bool,
    prepared: bool,
) -> None:
    """The first P(win) hint or winner move does not wait for tables built when the table
    opened (seconds, and half a minute with an upper bonus, on a machine's first game)."""
    calls: list[tuple[str, int]] = []
    monkeypatch.setattr(
        "yacht.strategy.win.prepare", lambda rules, players: calls.append((rules.name, players))
    )
    config = TableConfig(seats, hints=hints)
    game = plain_game(config, faces(), scorings=0)
    game.apply("roll")  # a game nobody moved in is not resumed
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
    assert calls == ([("traditional", len(seats))] if prepared else [])


async def test_the_table_opens_at_once_and_shows_what_is_still_being_prepared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With strategy tables that take long to build (a cold cache on a busy machine), Enter
    on the setup opens the table at once, it plays, and the title bar shows the progress
    until the tables are ready."""
    import yacht.bots
    import yacht.strategy

    gate = threading.Event()
    real_solve, real_bot = yacht.strategy.solve, yacht.bots.make_bot

    def slow_solve(rules: Rules) -> Solution:
        gate.wait(timeout=20)
        return real_solve(rules)

    def slow_bot(kind: str) -> Bot:
        gate.wait(timeout=20)
        return real_bot(kind)

    monkeypatch.setattr(yacht.strategy, "solve", slow_solve)
    monkeypatch.setattr(yacht.bots, "make_bot", slow_bot)
    monkeypatch.setattr("yacht.strategy.win.prepare", lambda rules, players: None)
    app = YachtApp(dice=ScriptedDice(faces()), data_dir=tmp_path, bot_delay=0, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert "Preparing the tables 1/2…" in text_of(app, "#topbar")
        await pilot.press("r")
        assert game_of(app).rolls_used == 1  # the table plays meanwhile
        gate.set()
        await settle(pilot)
        assert "Preparing" not in text_of(app, "#topbar")


async def test_following_every_hint_against_an_opponent_ends_at_full_accuracy(
    tmp_path: Path,
) -> None:
    """Two people take the hint's top option at every decision (the last one read from the
    hint panel and played by key): the end screen rates both 100%, by the chance to win."""
    from yacht.actions import Score, hold_for_keep
    from yacht.review import coach_hint
    from yacht.tui.reviews import option_text
    from yacht.tui.widgets.sheet import CATEGORY_KEYS

    config = TableConfig((Seat("Ann"), Seat("Bob")))
    game = Game(config.names, config.preset, ScriptedDice(faces(11)))
    while sum(len(s) for s in game.sheets) < 23 or game.dice is None:
        view = game.view()
        if view.dice is None:
            game.apply("roll")
            continue
        best = coach_hint(view).best
        if best.category is not None:
            game.apply(Score(best.category))
        else:
            game.apply(hold_for_keep(view.dice, best.keep or ()))
            game.apply("roll")
    app = saved_app(tmp_path, config, game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("h")
        await settle(pilot)
        best = coach_hint(game_of(app).view()).best
        assert option_text(best, "en") in _hint_lines(app)[1]  # the panel's top option
        while best.category is None:  # a keep: hold it and roll, as the hint says
            view = game_of(app).view()
            assert view.dice is not None
            wanted = set(hold_for_keep(view.dice, best.keep or ()).positions)
            for p in sorted(wanted ^ view.held):  # each key flips one die
                await pilot.press(str(p))
            await pilot.press("r")
            best = coach_hint(game_of(app).view()).best
        await pilot.press(CATEGORY_KEYS[best.category])
        if not isinstance(app.screen, EndScreen):
            await pilot.press("y")  # a zero asks first
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        review = text_of(app, "#review")
        assert "by the chance to finish first" in review
        assert "Ann: accuracy 100%" in review and "Bob: accuracy 100%" in review

"""A whole game in the app: a person (driven by the test) against the medium bot, with
scripted dice: holds by key and by click, a hint, a zero confirmed (and one declined),
scoring by letter, by cursor and by click, the end screen, the records and play again."""

from __future__ import annotations

from pathlib import Path

from yacht.dice import ScriptedDice
from yacht.rules import Category
from yacht.strategy.win import win_hint_for_view
from yacht.tui.app import YachtApp
from yacht.tui.records import Records
from yacht.tui.saves import save_path
from yacht.tui.screens.dialogs import ConfirmScreen
from yacht.tui.screens.end import EndScreen
from yacht.tui.screens.table import TableScreen
from yacht.tui.widgets.dice import DieSlot
from yacht.tui.widgets.panels import EventLog

from .conftest import faces
from .helpers import game_of, plain_turn, settle, text_of


async def test_a_full_game_against_the_medium_bot(data_dir: Path) -> None:
    app = YachtApp(dice=ScriptedDice(faces()), data_dir=data_dir, bot_delay=0, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # the setup's defaults: you against the medium bot
        assert isinstance(app.screen, TableScreen)
        game = game_of(app)
        assert game.players == ("You", "Medium bot")
        assert not save_path(data_dir).exists()  # nothing to resume before the first move

        # Turn 1: roll, hold two dice by key and one by click, roll the other two again.
        await pilot.press("r")
        assert save_path(data_dir).exists()
        first = game.dice
        assert first is not None
        await pilot.press("1", "2")
        await pilot.click("#die-3")
        assert game.held == {1, 2, 3}
        slots = list(app.screen.query(DieSlot))
        assert [s.has_class("-held") for s in slots] == [True, True, True, False, False]
        assert text_of(app, "#die-1 .hold-label") == "HELD"  # a word, not only a colour
        assert text_of(app, "#die-4 .hold-label") == ""
        await pilot.press("2")  # release die 2 again
        assert game.held == {1, 3}
        await pilot.press("space")
        assert game.dice is not None and game.rolls_left == 1
        assert (game.dice[0], game.dice[2]) == (first[0], first[2])
        assert "1 roll left" in text_of(app, "#turn-info")

        # The hint panel lists the best options with the expected final total and, against
        # the bot, the chance of winning.
        await pilot.press("h")
        await settle(pilot)
        panel = text_of(app, "#hint-panel")
        best = win_hint_for_view(game.view()).best
        assert "1. " in panel
        assert f"{game.view().banked + best.expected:.1f}" in panel.splitlines()[1]
        assert panel.splitlines()[1].endswith(f"{best.win_probability:.1%}")
        await pilot.press("h")
        assert not app.screen.query_one("#hint-panel").display

        # Score by cursor: the cursor starts on Ones; Down moves to Twos; Enter scores.
        sheet_before = dict(game.sheet(0))
        await pilot.press("down")
        twos = game.potential(Category.TWOS)
        await pilot.press("enter")
        if twos == 0:
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("y")
        assert game.sheet(0) == {**sheet_before, Category.TWOS: twos}
        await settle(pilot)  # the bot's turn
        assert game.current == 0 and len(game.sheet(1)) == 1
        log = app.screen.query_one("#log", EventLog)
        assert any(line.text.startswith("Medium bot: ") for line in log.lines)

        # Turn 2: a zero asks first; No leaves everything as it was, Yes scores the zero.
        await pilot.press("r")
        assert game.dice is not None
        zero = next(
            c
            for c in (Category.YACHT, Category.LITTLE_STRAIGHT, Category.BIG_STRAIGHT)
            if game.potential(c) == 0
        )
        before = game.to_json()
        await pilot.press(
            {Category.YACHT: "m", Category.LITTLE_STRAIGHT: "j", Category.BIG_STRAIGHT: "k"}[zero]
        )
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert isinstance(app.screen, TableScreen)
        assert game.to_json() == before
        assert "Not scored" in text_of(app, "#message")
        await pilot.click(f"#row-{zero.value}")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.click("#yes")
        assert game.sheet(0)[zero] == 0
        await settle(pilot)

        # Turn 3: scoring by clicking a row; a filled row is refused with a message.
        await pilot.press("r")
        before = game.to_json()
        await pilot.click(f"#row-{zero.value}")
        assert game.to_json() == before
        assert "already filled" in text_of(app, "#message")
        await pilot.press("r", "r")  # three rolls used: a fourth is refused
        before = game.to_json()
        await pilot.click("#btn-roll")  # the button is off: it does nothing
        assert game.to_json() == before and app.screen.query_one("#btn-roll").disabled
        await pilot.press("r")  # the key says why
        assert game.to_json() == before and "No rolls left" in text_of(app, "#message")
        await pilot.click("#row-choice")
        assert Category.CHOICE in game.sheet(0)
        await settle(pilot)

        while not game.finished:
            await plain_turn(pilot, app)
        await settle(pilot)

        # The end: totals, winners, the review of the person, and the record.
        assert isinstance(app.screen, EndScreen)
        results = text_of(app, "#results")
        for name, total in zip(game.players, game.totals, strict=True):
            assert f"{name}  {total}" in results
        winner = game.players[game.winners()[0]]
        assert f"Winner: {winner}!" in results or "Shared win" in results
        review = text_of(app, "#review")
        assert "You: accuracy" in review and "points lost in 36" not in review
        assert "Medium bot: accuracy" not in review  # reviews are for people
        stored = Records.open_default(data_dir).games()
        assert [(r.names, r.totals) for r in stored] == [(["You", "Medium bot"], game.totals)]
        assert stored[0].kinds == ["human", "medium"]
        assert not save_path(data_dir).exists()  # nothing left to resume

        await pilot.press("enter")  # play again: the same table, a new game
        assert isinstance(app.screen, TableScreen)
        assert game_of(app) is not game and game_of(app).version == 0
        await pilot.press("r", "q")
    assert save_path(data_dir).exists()  # the new game, rolled once, waits to be resumed


async def test_bots_only_play_through_to_the_end(data_dir: Path) -> None:
    from yacht.tui.seats import Seat, TableConfig

    config = TableConfig((Seat("Easy", "easy"), Seat("Hard", "hard")), lang="en")
    app = YachtApp(config, dice=ScriptedDice(faces(3)), data_dir=data_dir, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        assert "No human players to review." in text_of(app, "#review")


async def test_equal_totals_share_the_win(data_dir: Path) -> None:
    """Both play the same dice into the same boxes: the last scoring ends in a shared win."""
    from yacht.game import Game
    from yacht.rules import CATEGORIES
    from yacht.tui.seats import Seat, TableConfig

    from .helpers import saved_app

    config = TableConfig((Seat("Ann"), Seat("Bob")), lang="en")
    game = Game(config.names, dice=ScriptedDice([6, 6, 6, 6, 6] * 24))
    for turn in range(23):  # every turn but Bob's last: both fill the same boxes in order
        game.apply("roll")
        game.apply(f"score {CATEGORIES[turn // 2].value}")
    assert game.version == 46 and game.current == 1
    app = saved_app(data_dir, config, game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "m")  # Bob's Yacht: 50, as Ann's
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        results = text_of(app, "#results").splitlines()
        assert results[0] == "Shared win: Ann, Bob!"
        assert results[1].startswith("1. Ann") and results[2].startswith("1. Bob")
        assert results[1].endswith("★ winner") and results[2].endswith("★ winner")
        assert Records.open_default(data_dir).games()[0].winners == ["Ann", "Bob"]

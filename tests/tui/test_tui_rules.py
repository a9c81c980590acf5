"""The rules in the game: the help screen (?) explains the game's preset from its scorers in
the player's language, and the setup names and describes the presets in it."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Select

from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.i18n import category_label, translator
from yacht.rules import CATEGORIES, rules_by_name
from yacht.tui.app import YachtApp
from yacht.tui.screens.dialogs import HelpScreen
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.seats import Seat, TableConfig

from .helpers import saved_app, text_of


async def test_help_explains_the_presets_rules_in_the_players_language(tmp_path: Path) -> None:
    config = TableConfig((Seat("Ann"),), preset="clubhouse", lang="fi")
    app = saved_app(tmp_path, config, Game(config.names, "clubhouse", ScriptedDice([1] * 5)))
    async with app.run_test(size=(80, 24)) as pilot:
        assert "Klubisäännöt" in text_of(app, "#topbar")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        rules = text_of(app, "#help-rules")
        describe = translator("fi", "yacht").gettext
        clubhouse = rules_by_name("clubhouse")
        assert "Säännöt: Klubisäännöt" in rules
        for category in CATEGORIES:
            assert category_label(category, "fi") in rules
            text = clubhouse.scorers[category].describe(describe)
            assert text.split()[0] in rules  # each scorer's own words (lines may wrap)
        assert clubhouse.upper_bonus is not None
        assert "35 pistettä" in rules


async def test_setup_names_and_describes_presets_in_the_language(tmp_path: Path) -> None:
    app = YachtApp(data_dir=tmp_path, lang="nb")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        preset = screen.query_one("#preset", Select)
        labels = [str(label) for label, _value in preset._options]
        assert "Tradisjonell" in labels and "Klubbregler" in labels
        describe = translator("nb", "yacht").gettext
        about = text_of(app, "#preset-about")
        assert about == describe(rules_by_name("traditional").description)
        preset.value = "clubhouse"
        await pilot.pause()
        assert text_of(app, "#preset-about") == describe(rules_by_name("clubhouse").description)

"""Practice in the terminal game: from the setup screen, the costliest decision of the
person's finished games in the record book comes first; holding dice (keys and clicks) and
rolling, or pressing a category, is judged exactly; the rating is kept in practice.json (the
one yacht practice uses); N moves on; Esc goes back to the setup."""

from __future__ import annotations

from pathlib import Path

from yacht.bots import play_game
from yacht.training import mistakes
from yacht.training.rating import PracticeBook
from yacht.tui.app import YachtApp
from yacht.tui.records import Records
from yacht.tui.screens.practice import PracticeScreen
from yacht.tui.screens.setup import SetupScreen
from yacht.tui.seats import Seat

from .helpers import screen_text, settle, text_of


async def test_the_costliest_own_decision_first_judged_and_rated(
    data_dir: Path, records: Records
) -> None:
    game = play_game(["easy", "greedy"], seed=11, names=["Ann", "greedy"])
    records.add(game, [Seat("Ann"), Seat("greedy", "greedy")])
    mine = mistakes(game, players=[0])
    app = YachtApp(data_dir=data_dir, bot_delay=0, lang="en")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.click("#practice")
        await settle(pilot)
        assert isinstance(app.screen, PracticeScreen)
        first = mine[0].position
        assert text_of(app, "#practice-where") == "Ann in game 1 in the record book"
        assert f"Round {mine[0].turn}:" in text_of(app, "#practice-situation")
        assert "Practice rating: 1500?" in text_of(app, "#practice-rating")
        best = first.hint().best
        if best.action == "score":
            assert best.category is not None
            await pilot.click(f"#score-{best.category.value}")
        else:
            wanted = list(best.keep or ())
            for i, face in enumerate(first.dice, start=1):
                if face in wanted:
                    wanted.remove(face)
                    await pilot.press(str(i))
            await pilot.press("r")
        verdict = text_of(app, "#practice-verdict")
        assert verdict.startswith("Your answer is the best.")
        assert "Practice rating: 1500? →" in verdict
        book = PracticeBook.open(data_dir / "practice.json")
        assert book.solved_keys() == {first.key()}
        await pilot.press("n")
        await settle(pilot)
        assert text_of(app, "#practice-verdict") == ""
        assert " ".join(map(str, mine[1].position.dice)) not in ("",)
        assert "Practice" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen)


async def test_a_wrong_answer_says_what_it_gave_up_in_the_players_language(
    data_dir: Path,
) -> None:
    app = YachtApp(data_dir=data_dir, bot_delay=0, lang="fi")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.click("#practice")
        await settle(pilot)
        first = mistakes(play_game(["easy"], seed=0))[0]  # no records: the easy bot's games
        assert text_of(app, "#practice-where").endswith("helpon botin peli (siemenluku 0)")
        wrong = next(o for o in first.position.hint().options[1:] if o.action == "score")
        assert wrong.category is not None
        await pilot.click(f"#score-{wrong.category.value}")
        verdict = text_of(app, "#practice-verdict")
        assert "menettää" in verdict and "Harjoitus" in verdict
        book = PracticeBook.open(data_dir / "practice.json")
        assert book.player.shown < 1500 and book.solved_keys() == set()

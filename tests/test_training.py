"""Training: positions judged by the exact strategy, practice from a game's mistakes, the
proficiency test and the practice rating, through the library and ``yacht practice`` /
``yacht proficiency`` as a player runs them."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from yacht.bots import play_game
from yacht.cli import main
from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.i18n import error_text
from yacht.review import review
from yacht.rules import Category
from yacht.strategy import Option, hint
from yacht.training import (
    PHASES,
    THEMES,
    Position,
    TrainingError,
    classify,
    judge,
    mistakes,
)
from yacht.training.proficiency import CLEAR, PER_CLASS, build_set, grade, load_set
from yacht.training.rating import HISTORY, PracticeBook


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("YACHT_LANG", "en")
    monkeypatch.setenv("YACHT_DATA_DIR", str(tmp_path / "data"))


def run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        status = main(argv)
    except SystemExit as e:
        status = int(e.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


# -- positions and verdicts ---------------------------------------------------------------


def test_a_verdict_is_the_hints_difference_and_only_the_best_is_solved() -> None:
    sheet = {Category.SIXES: 24, Category.YACHT: 0}
    p = Position("traditional", sheet, (5, 5, 2, 5, 6), rolls_left=1)
    h = hint("traditional", list(sheet), (5, 5, 2, 5, 6), 1, banked=24)
    assert p.hint().options == h.options
    for option in h.options:
        if option.action == "keep":
            v = judge(p, keep=option.keep)
        else:
            v = judge(p, category=option.category)
        assert v.taken == option and v.best == h.best
        assert v.loss == pytest.approx(h.best.expected - option.expected, abs=1e-12)
        assert v.solved == (v.loss < 1e-9)
    assert sum(judge(p, keep=o.keep).solved for o in h.options if o.action == "keep") <= 1
    # the order of the dice kept does not matter; the category may be given by its id
    assert judge(p, keep=(5, 2)).taken == judge(p, keep=(2, 5)).taken
    assert judge(p, category="choice").taken.category is Category.CHOICE


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ({"keep": (1,)}, "keep 1"),  # no 1 among the dice
        ({"keep": (5, 5, 2, 5, 6)}, "keep 2 5 5 5 6"),  # all five: that is a score option
        ({"category": Category.SIXES}, "score sixes"),  # filled already
        ({"category": "sevens"}, "score sevens"),
    ],
)
def test_an_answer_that_is_no_option_is_refused_with_what_was_asked(
    answer: dict[str, object], why: str
) -> None:
    p = Position("traditional", {Category.SIXES: 24}, (5, 5, 2, 5, 6), rolls_left=1)
    with pytest.raises(TrainingError) as e:
        judge(p, **answer)  # type: ignore[arg-type]
    assert error_text(e.value, "en") == f"not an option here: {why}"
    assert "tässä" in error_text(e.value, "fi")  # and in the player's language


def test_keeping_with_no_roll_left_is_no_option_and_an_answer_is_one_thing() -> None:
    p = Position("traditional", {}, (1, 2, 3, 4, 5), rolls_left=0)
    with pytest.raises(TrainingError):
        judge(p, keep=(1, 2, 3, 4))
    with pytest.raises(TrainingError, match="not both"):
        judge(p, keep=(1,), category=Category.ONES)
    with pytest.raises(TrainingError, match="not both"):
        judge(p)


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"rules": "traditional", "dice": [1, 2, 3, 4], "rolls_left": 1},
        {"rules": "traditional", "dice": [1, 2, 3, 4, 7], "rolls_left": 1},
        {"rules": "traditional", "dice": [1, 2, 3, 4, 5], "rolls_left": 3},
        {"rules": "traditional", "dice": [1, 2, 3, 4, 5], "rolls_left": True},
        {"rules": "nope", "dice": [1, 2, 3, 4, 5], "rolls_left": 1},
        {"rules": "traditional", "dice": "12345", "rolls_left": 1},
        {"rules": "traditional", "dice": [1, 2, 3, 4, 5]},
        {"rules": "traditional", "dice": [1, 2, 3, 4, 5], "rolls_left": 1, "sheet": {"x": 1}},
        {"rules": "traditional", "dice": [1, 2, 3, 4, 5], "rolls_left": 1, "sheet": {"ones": -1}},
        {"rules": "traditional", "dice": [1, 2, 3, 4, 5], "rolls_left": 1, "sheet": []},
        {
            "rules": "traditional",
            "dice": [1, 2, 3, 4, 5],
            "rolls_left": 0,
            "sheet": {c.value: 0 for c in Category},
        },
    ],
)
def test_a_broken_position_is_one_clear_error(data: object) -> None:
    with pytest.raises(TrainingError) as e:
        Position.from_json(data)
    assert error_text(e.value, "en").startswith(("not a position: ", "the game is over"))


def test_a_position_goes_to_json_and_back_and_its_key_ignores_the_dice_order() -> None:
    p = Position("clubhouse", {Category.ONES: 3}, (6, 1, 6, 2, 6), 2, "somewhere")
    assert Position.from_json(json.loads(json.dumps(p.to_json()))) == p
    assert p.key() == Position("clubhouse", {Category.ONES: 3}, (1, 2, 6, 6, 6), 2).key()
    assert p.key() == "clubhouse|ones=3|1 2 6 6 6|2"


def test_classes_follow_the_best_option() -> None:
    straight = Position("traditional", {}, (1, 2, 3, 4, 6), 2)
    assert classify(straight) == ("straight", "early")
    chase = Position("traditional", {c: 0 for c in list(Category)[:8]}, (5, 5, 5, 1, 2), 2)
    assert chase.hint().best.keep == (5, 5, 5) and classify(chase) == ("yacht", "late")
    full: dict[Category, int] = {c: 0 for c in Category if c not in (Category.YACHT, Category.ONES)}
    zero = Position("traditional", full, (2, 3, 4, 5, 6), 0)  # Yacht or Ones: both zero
    assert classify(zero)[0] == "zero" and zero.hint().best.points == 0


# -- mistakes of a game -------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_solo_games_mistakes_add_up_to_what_its_review_says_was_lost(seed: int) -> None:
    game = play_game(["easy"], seed=seed)
    found = mistakes(game)
    assert found and all(m.loss > 0 for m in found)
    assert [m.loss for m in found] == sorted((m.loss for m in found), reverse=True)
    lost = review(game).players[0].points_loss
    assert sum(m.loss for m in found) == pytest.approx(lost, abs=1e-6)
    for m in found:  # the answer judged is what the player did with those dice
        assert m.position.dice in {e.dice for e in game.events if e.dice is not None}
        assert not m.verdict.solved and m.name == "easy"


def test_an_undone_scoring_is_not_a_mistake_and_the_choice_that_stood_is() -> None:
    game = Game(["Ann"], dice=ScriptedDice([5, 5, 5, 2, 6] * 12), undo=True)
    game.apply("roll")
    game.apply("score ones")  # 0 points: a mistake, taken back
    game.apply("undo")
    game.apply("score choice")
    found = mistakes(game)
    assert [m.verdict.taken.category for m in found] == [Category.CHOICE]
    assert found[0].position.sheet == {} and found[0].position.rolls_left == 2


def test_mistakes_of_chosen_seats_only() -> None:
    game = play_game(["easy", "greedy"], seed=5)
    assert {m.player for m in mistakes(game, players=[1])} == {1}
    assert {m.name for m in mistakes(game)} == {"easy", "greedy"}


# -- the proficiency test -----------------------------------------------------------------


def test_the_stored_set_is_what_its_documented_procedure_makes() -> None:
    stored = load_set()
    assert stored == build_set()
    assert len(stored.positions) == len(THEMES) * len(PHASES) * PER_CLASS
    for item in stored.positions:
        options = item.position.hint().options
        assert options[0].expected - options[1].expected >= CLEAR  # a clear best answer
        assert classify(item.position) == (item.theme, item.phase)
    assert [i.number for i in stored.positions] == list(range(1, len(stored.positions) + 1))


def test_grading_counts_errors_and_loss_by_kind() -> None:
    test = load_set()
    answers = [i.position.hint().options[0] for i in test.positions]
    assert grade(test, answers).errors == 0 and grade(test, answers).mean_loss == 0
    wrong = {1, 7, 30}
    answers = [i.position.hint().options[1 if i.number in wrong else 0] for i in test.positions]
    report = grade(test, answers)
    assert report.errors == 3
    expected = [
        i.position.hint().options[0].expected - i.position.hint().options[1].expected
        for i in test.positions
        if i.number in wrong
    ]
    assert report.mean_loss == pytest.approx(sum(expected) / len(test.positions))
    assert sum(r.errors for r in report.themes.values()) == 3
    assert sum(r.errors for r in report.phases.values()) == 3
    by_theme = {
        t: sum(1 for i in test.positions if i.number in wrong and i.theme == t) for t in THEMES
    }
    assert {t: r.errors for t, r in report.themes.items()} == by_theme
    with pytest.raises(TrainingError, match="29 answers for 30 positions"):
        grade(test, answers[:-1])
    with pytest.raises(TrainingError, match="no proficiency set version 99"):
        load_set(99)


# -- the practice rating ------------------------------------------------------------------


def test_solving_raises_the_player_and_lowers_the_position_and_the_book_is_kept(
    tmp_path: Path,
) -> None:
    book = PracticeBook.open(tmp_path / "practice.json")
    won = book.record("a", solved=True, loss=0.0)
    assert won.after.mu > won.before.mu and won.position_after.mu < won.position_before.mu
    lost = book.record("b", solved=False, loss=2.5)
    assert lost.after.mu < lost.before.mu and lost.position_after.mu > lost.position_before.mu
    again = PracticeBook.open(tmp_path / "practice.json")
    assert again.player == book.player and again.positions == book.positions
    assert again.player.attempts == 2 and again.player.solved == 1
    assert again.solved_keys() == {"a"}
    assert [p.name for p in tmp_path.iterdir()] == ["practice.json"]  # no temporary left


def test_the_history_keeps_the_newest_answers(tmp_path: Path) -> None:
    book = PracticeBook(tmp_path / "practice.json")
    book.history = [{"key": f"k{i}", "solved": True, "loss": 0.0, "at": ""} for i in range(HISTORY)]
    book.record("new", solved=False, loss=1.0)
    assert len(book.history) == HISTORY and book.history[-1]["key"] == "new"
    assert book.history[0]["key"] == "k1"


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"version": 2}',
        '{"version": 1, "player": {"mu": "x", "sigma": 1, "attempts": 0, "solved": 0},'
        ' "positions": {}, "history": []}',
        '{"version": 1, "player": {"mu": 25, "sigma": -1, "attempts": 0, "solved": 0},'
        ' "positions": {}, "history": []}',
        '{"version": 1, "player": {"mu": 25, "sigma": 8, "attempts": 1, "solved": 2},'
        ' "positions": {}, "history": []}',
    ],
)
def test_a_damaged_practice_file_is_an_error_and_is_left_as_it_was(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "practice.json"
    path.write_text(text)
    with pytest.raises(TrainingError, match="cannot be read"):
        PracticeBook.open(path)
    assert path.read_text() == text


# -- the commands -------------------------------------------------------------------------


def _answer_text(option: Option) -> str:
    if option.action == "keep":
        return "keep " + " ".join(map(str, option.keep)) if option.keep else "-"
    assert option.category is not None
    return option.category.value


def _best_answer(position: Position) -> str:
    return _answer_text(position.hint().best)


def test_practice_serves_a_games_worst_decision_and_judges_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = play_game(["easy"], seed=7)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_json()))
    worst = mistakes(game)[0]
    status, out, _err = run(
        ["practice", str(path), "--count", "1"],
        capsys,
        monkeypatch,
        "nonsense\n" + _best_answer(worst.position) + "\n",
    )
    assert status == 0
    assert "'nonsense' is not an option here; try again" in out
    assert "Why:" in out  # and the coach's sentences under it
    assert f"dice {' '.join(map(str, worst.position.dice))}" in out
    assert "Your answer is the best." in out and "1 of 1 solved" in out
    book = PracticeBook.open(tmp_path / "data" / "practice.json")
    assert book.solved_keys() == {worst.position.key()}
    # a solved position is not served again: the next one is the game's second worst
    status, out, _err = run(["practice", str(path), "--count", "1"], capsys, monkeypatch, "q\n")
    second = mistakes(game)[1].position
    assert status == 0 and f"dice {' '.join(map(str, second.dice))}" in out
    assert "No position was answered." in out


def test_practice_without_games_uses_the_easy_bots_and_a_wrong_answer_costs_rating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = mistakes(play_game(["easy"], seed=0))[0]
    wrong = next(o for o in first.position.hint().options[1:] if o.action == "score")
    assert wrong.category is not None
    status, out, _err = run(
        ["practice", "--count", "1", "--lang", "fi"],
        capsys,
        monkeypatch,
        f"{wrong.category.value}\n",
    )
    assert status == 0
    assert "helpon botin peli (siemenluku 0)" in out  # in the player's language
    assert "menettää" in out and "0/1 ratkaistu" in out
    book = PracticeBook.open(tmp_path / "data" / "practice.json")
    assert book.player.shown < 1500 and book.solved_keys() == set()
    assert book.history[0]["loss"] == pytest.approx(
        first.position.hint().best.expected - wrong.expected, abs=1e-6
    )


def test_practice_with_a_broken_game_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"players": ["Ann"], "events": 7}')
    status, _out, err = run(["practice", str(path)], capsys, monkeypatch)
    assert status == 2 and err.count("\n") == 1 and "broken.json" in err
    assert not (tmp_path / "data" / "practice.json").exists()


def test_practice_with_a_damaged_book_stops_and_keeps_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    book = tmp_path / "data" / "practice.json"
    book.parent.mkdir()
    book.write_text("{broken")
    status, _out, err = run(["practice"], capsys, monkeypatch, "q\n")
    assert status == 2 and "practice.json cannot be read" in err
    assert book.read_text() == "{broken"


def test_proficiency_grades_a_file_of_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    test = load_set()
    answers = [_best_answer(i.position) for i in test.positions]
    second = test.positions[1].position.hint().options[1]
    answers[1] = _answer_text(second)
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers))
    status, out, _err = run(["proficiency", "--answers", str(path), "--json"], capsys, monkeypatch)
    report = json.loads(out)
    assert status == 0 and report["version"] == 1 and report["errors"] == 1
    lost = test.positions[1].position.hint().options[0].expected - second.expected
    assert report["mean_loss"] == pytest.approx(lost / len(test.positions), abs=1e-6)
    status, out, _err = run(["proficiency", "--answers", str(path)], capsys, monkeypatch)
    assert status == 0 and "1 error in 30;" in out and "2. best " in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[1, 2]", "not a JSON list of answers"),
        ('["-"]', "1 answers for 30 positions"),
        (json.dumps(["sevens"] * 30), "answer 1, 'sevens', is not an option of its position"),
        ("{", ""),
    ],
)
def test_proficiency_refuses_a_bad_answers_file_in_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    content: str,
    message: str,
) -> None:
    path = tmp_path / "answers.json"
    path.write_text(content)
    status, out, err = run(["proficiency", "--answers", str(path)], capsys, monkeypatch)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err


def test_proficiency_asks_and_a_stopped_test_has_no_result(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_set().positions[0].position
    status, out, _err = run(["proficiency"], capsys, monkeypatch, _best_answer(first) + "\nq\n")
    assert status == 1
    assert "Position 2 of 30" in out and "The test was stopped: no result." in out
    items = load_set().positions
    fifth = items[4].position
    assert fifth.rolls_left == 0
    lines = [_best_answer(i.position) for i in items[:4]] + ["6 6", "q"]
    status, out, _err = run(["proficiency"], capsys, monkeypatch, "\n".join(lines) + "\n")
    assert out.count("No roll is left: name a category to score.") == 1 and status == 1
    status, _out, err = run(["proficiency", "--json"], capsys, monkeypatch)
    assert status == 2 and "--json needs --answers FILE or --bot NAME" in err


def test_the_bots_take_the_test_and_the_stronger_lose_less(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    loss = {}
    for bot in ("optimal", "hard", "medium", "random"):
        status, out, _err = run(["proficiency", "--bot", bot, "--json"], capsys, monkeypatch)
        assert status == 0
        loss[bot] = json.loads(out)["mean_loss"]
    assert loss["optimal"] == 0 < loss["hard"] < loss["medium"] < loss["random"]
    for argv, message in [
        (["--bot", "winner"], "unknown bot for the test: 'winner' (one of: random, greedy,"),
        (["--bot", "hard", "--answers", "x.json"], "give --answers or --bot, not both"),
    ]:
        status, out, err = run(["proficiency", *argv], capsys, monkeypatch)
        assert status == 2 and out == "" and message in err


def test_practice_without_openskill_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "openskill", None)  # import openskill raises ImportError
    status, out, err = run(["practice"], capsys, monkeypatch, "q\n")
    assert status == 2 and out == ""
    assert (
        err == "yacht: error: the practice rating needs the openskill package: "
        "pip install 'yacht[tui]'\n"
    )


def test_practice_serves_your_own_costliest_decision_from_yacht_history_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from yacht.tui.records import Records
    from yacht.tui.seats import Seat

    game = play_game(["easy", "greedy"], seed=11, names=["Ann", "greedy"])
    Records(tmp_path / "data" / "records.sqlite3").add(
        game, [Seat("Ann"), Seat("greedy", "greedy")]
    )
    mine = mistakes(game, players=[0])
    status, out, _err = run(["practice", "--count", "1"], capsys, monkeypatch, "q\n")
    assert status == 0
    assert "Position 1 of 1: Ann in game 1 in yacht history" in out
    assert f"dice {' '.join(map(str, mine[0].position.dice))}" in out
    # solved, it is not served again: the next is Ann's second costliest
    status, out, _err = run(
        ["practice", "--count", "1"], capsys, monkeypatch, _best_answer(mine[0].position) + "\n"
    )
    assert "1 of 1 solved" in out
    status, out, _err = run(["practice", "--count", "1"], capsys, monkeypatch, "q\n")
    assert f"dice {' '.join(map(str, mine[1].position.dice))}" in out

"""Game review: exact losses for known blunders, none for optimal play, full accuracy for
following the hint in every kind of game (alone, with opponents, with a target); the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yacht.actions import Score, hold_for_keep
from yacht.bots import play_game
from yacht.cli import main
from yacht.dice import RandomDice, ScriptedDice
from yacht.game import Game
from yacht.review import TOLERANCE, coach_hint, review
from yacht.rules import CATEGORIES, Category, preset_names
from yacht.strategy.win import win_hint


def _eleven_turns_then(last_turn: list[int], *, undo: bool = False) -> Game:
    """A solo traditional game: eleven quick turns (roll 1-1-2-3-4, score Ones..Choice), then
    Yacht open with ``last_turn`` faces to roll."""
    game = Game(["Ann"], dice=ScriptedDice([1, 1, 2, 3, 4] * 11 + last_turn), undo=undo)
    for category in CATEGORIES[:11]:
        game.apply("roll")
        game.apply(f"score {category.value}")
    return game


def _follow_the_coach(game: Game, target: int | None = None, *, scorings: int = 99) -> Game:
    """Every player takes the top option of the hint the table shows (:func:`coach_hint`),
    until the game ends or ``scorings`` boxes are filled."""
    while not game.finished and sum(len(s) for s in game.sheets) < scorings:
        view = game.view()
        if view.dice is None:
            game.apply("roll")
            continue
        best = coach_hint(view, target).best
        if best.category is not None:
            game.apply(Score(best.category))
        else:
            game.apply(hold_for_keep(view.dice, best.keep or ()))
            game.apply("roll")
    return game


@pytest.mark.parametrize("rules", preset_names())
def test_optimal_play_alone_has_no_loss_and_full_accuracy(rules: str) -> None:
    game = play_game(["optimal"], rules, seed=21)
    result = review(game)
    assert result.measure == "points"
    assert [p.loss for p in result.players] == [0.0]
    assert [p.accuracy for p in result.players] == [100.0]
    assert [p.total for p in result.players] == game.totals
    scorings = [d for d in result.decisions if d.taken.action == "score"]
    assert len(scorings) == len(CATEGORIES)
    assert all(d.taken == d.best for d in result.decisions)


def test_following_the_hint_alone_is_full_accuracy() -> None:
    game = _follow_the_coach(Game(["Ann"], dice=RandomDice(5)))
    result = review(game)
    assert game.finished and result.players[0].accuracy == 100.0
    assert result.players[0].loss == 0.0 == result.players[0].points_loss


def test_following_the_hint_with_opponents_is_full_accuracy_by_the_chance_to_win() -> None:
    """Heads-up and three players, the first rounds: every decision that took the P(win)
    hint's top option is accurate; one that did not loses exactly its P(win) difference."""
    for players in (["Ann", "Bob"], ["Ann", "Bob", "Cid"]):
        game = _follow_the_coach(Game(players, dice=RandomDice(5)), scorings=len(players) + 1)
        result = review(game)
        assert result.measure == "win"
        assert [p.accuracy for p in result.players] == [100.0] * len(players)
        assert all(p.loss == 0.0 for p in result.players)
    game = Game(["Ann", "Bob"], dice=ScriptedDice([6, 6, 6, 6, 6, 1, 2, 3, 4, 6]))
    game.apply("roll")
    game.apply("score ones")  # five sixes in Ones
    (decision,) = review(game).decisions
    hint = win_hint("traditional", {}, [{}], [6, 6, 6, 6, 6], rolls_left=2)
    ones = next(o for o in hint.options if o.category is Category.ONES)
    assert decision.best == hint.best and decision.taken == ones
    assert decision.loss == pytest.approx(hint.best.win_probability - ones.win_probability)
    assert decision.points_loss == pytest.approx(hint.best.expected - ones.expected)
    assert not decision.accurate and decision.measure == "win"


def test_following_the_target_hint_is_full_accuracy_by_the_chance_to_reach_it() -> None:
    game = _follow_the_coach(Game(["Ann"], dice=RandomDice(5)), target=60, scorings=3)
    result = review(game, target=60)
    assert result.measure == "target" and result.target == 60
    assert result.players[0].accuracy == 100.0
    data = {**game.to_json(), "target": 60}  # a stored game carries its target
    assert review(data).to_json() == result.to_json()
    points = review(game)  # the same game without the target is rated by points
    assert points.measure == "points" and points.players[0].accuracy is not None
    with pytest.raises(ValueError, match="at least 1"):
        review(game, target=0)


def test_a_whole_heads_up_game_following_the_hint_is_full_accuracy() -> None:
    """To the end, through the exact endgame table: 100% for both, and the points given up
    for the chance to win are shown beside it."""
    game = _follow_the_coach(Game(["Ann", "Bob"], dice=RandomDice(5)))
    result = review(game)
    assert game.finished
    assert [p.accuracy for p in result.players] == [100.0, 100.0]
    assert any(d.exact for d in result.decisions)
    assert all(d.accurate for d in result.decisions)
    assert sum(p.points_loss for p in result.players) > 0


def test_keeping_four_sixes_instead_of_scoring_a_yacht_costs_the_exact_loss() -> None:
    # Only Yacht is open and 6-6-6-6-6 is on the table with 2 rolls left. Scoring it is worth
    # 50; keeping four sixes makes a yacht with probability 1 - (5/6)^2, worth 50 * 11/36.
    game = _eleven_turns_then([6, 6, 6, 6, 6, 3, 2])
    game.apply("roll")
    game.apply("hold 1 2 3 4")
    game.apply("roll")
    game.apply("roll")
    game.apply("score yacht")
    result = review(game)
    blunder = [d for d in result.decisions if d.turn == 12]
    assert [d.roll for d in blunder] == [1, 2, 3]
    first = blunder[0]
    assert first.taken.keep == (6, 6, 6, 6) and first.best.category is Category.YACHT
    assert first.best.expected == pytest.approx(50.0)
    assert first.loss == pytest.approx(50 * 25 / 36, abs=1e-9)
    assert not first.accurate
    assert blunder[1].accurate and blunder[2].accurate  # the rest was the best left
    assert result.players[0].loss == pytest.approx(sum(d.loss for d in result.decisions))
    accurate = sum(d.loss < TOLERANCE for d in result.decisions)
    assert result.players[0].accuracy == pytest.approx(100 * accurate / len(result.decisions))


def test_scoring_five_sixes_in_ones_costs_the_exact_loss() -> None:
    # Turn 11, Ones and Choice open, 6-6-6-6-6 rolled. Best: Choice now (30), then Ones alone,
    # where each die ends a one with probability 1 - (5/6)^3: 30 + 5 * 91/216. Scoring Ones (0)
    # leaves Choice alone: per die, keep 5-6 after the first roll and 4-6 after the second,
    # worth 14/3 per die, 70/3 in all. The loss is the difference.
    others = [c for c in CATEGORIES if c not in (Category.ONES, Category.CHOICE)]
    game = Game(["Ann"], dice=ScriptedDice([2, 2, 3, 4, 5] * 10 + [6] * 5))
    for category in others:
        game.apply("roll")
        game.apply(f"score {category.value}")
    game.apply("roll")
    game.apply("score ones")
    decision = review(game).decisions[-1]
    assert (decision.turn, decision.roll, decision.rolls_left) == (11, 1, 2)
    assert decision.best.category is Category.CHOICE and decision.taken.points == 0
    assert decision.best.expected == pytest.approx(30 + 5 * 91 / 216, abs=1e-9)
    assert decision.taken.expected == pytest.approx(70 / 3, abs=1e-9)
    assert decision.loss == pytest.approx(30 + 5 * 91 / 216 - 70 / 3, abs=1e-9)


def test_holding_all_five_dice_and_rolling_is_rated_as_the_same_dice_a_roll_later() -> None:
    game = _eleven_turns_then([6, 6, 6, 6, 6])
    game.apply("roll")
    game.apply("hold 1 2 3 4 5")
    game.apply("roll")
    game.apply("score yacht")
    first = review(game).decisions[-2]
    assert first.taken.keep == (6, 6, 6, 6, 6)
    assert first.taken.expected == pytest.approx(50.0) and first.accurate


def test_an_undone_scoring_is_not_reviewed_only_the_one_that_stands() -> None:
    game = _eleven_turns_then([6, 6, 6, 6, 6], undo=True)
    game.apply("roll")
    game.apply("score yacht")
    assert review(game).decisions[-1].taken.category is Category.YACHT
    game = Game(["Ann", "Bob"], dice=ScriptedDice([6, 6, 6, 5, 5] * 2), undo=True)
    game.apply("roll")
    game.apply("score ones")
    game.apply("undo")
    game.apply("score full_house")
    decisions = review(game).decisions
    assert len(decisions) == 1 and decisions[0].taken.category is Category.FULL_HOUSE


def test_unfinished_game_reviews_the_decisions_made_so_far() -> None:
    game = Game(["Ann", "Bob"], dice=ScriptedDice([2, 2, 3, 4, 5, 1, 2, 3, 4, 6]))
    game.apply("roll")
    game.apply("hold 1 2")
    game.apply("roll")  # Ann still to decide what to do with her second roll
    result = review(game)
    assert len(result.decisions) == 1 and result.decisions[0].taken.keep == (2, 2)
    assert result.players[1].accuracy is None and result.players[1].decisions == 0


def test_review_reads_game_json_and_each_player_uses_their_own_sheet() -> None:
    game = play_game(["optimal", "random"], "traditional", seed=3)
    data = json.loads(json.dumps(game.to_json()))
    assert review(data).to_json() == review(game).to_json()
    result = review(data)
    assert result.measure == "win"
    assert result.players[0].points_loss == 0.0 and result.players[1].points_loss > 0.0
    assert result.players[1].loss > 0.0
    assert {d.player for d in result.decisions} == {0, 1}
    with pytest.raises(ValueError, match="not a yacht game"):
        review({"players": ["Ann"]})


def test_cli_review_json_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _eleven_turns_then([6, 6, 6, 6, 6, 3, 2])
    for action in ("roll", "hold 1 2 3 4", "roll", "roll", "score yacht"):
        game.apply(action)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_json()))
    assert main(["review", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "traditional"
    assert data["players"][0]["name"] == "Ann"
    loss = data["decisions"][-3]["loss"]
    assert loss == pytest.approx(50 * 25 / 36)
    taken = data["decisions"][-3]["taken"]
    assert taken["keep"] == [6, 6, 6, 6] and taken["expected"] == pytest.approx(50 * 11 / 36)
    assert main(["review", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Ann: total" in text and "turn 12, roll 1 [6 6 6 6 6]: keep 6 6 6 6" in text
    assert "Scoring" not in text  # the reasons only with --explain
    assert main(["review", str(path), "--explain", "--lang", "fi"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(lines) if "[6 6 6 6 6]: pidä 6 6 6 6" in line)
    assert (
        lines[at + 1] == "      Kun merkitset nyt 50 kategoriaan Yacht, avoimiksi jäävien "
        "kategorioiden odotusarvo on 0,0."
    )
    assert lines[at + 2].startswith("      Pidä 6 6 6 6: Yacht 31\xa0%:n todennäköisyydellä")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("not json", "is not JSON"),
        ('{"format": "chess"}', "not a yacht game"),
    ],
)
def test_cli_review_bad_file_exits_2_with_one_line(
    tmp_path: Path, content: str | None, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content)
    assert main(["review", str(path)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.count("\n") == 1 and captured.out == ""


def test_cli_review_rates_a_game_with_opponents_or_a_target_by_the_hints_measure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game(["Ann", "Bob"], dice=ScriptedDice([6, 6, 6, 6, 6]))
    game.apply("roll")
    game.apply("score ones")  # five sixes in Ones: a loss of chance and of points
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_json()))
    assert main(["review", str(path)]) == 0
    text = capsys.readouterr().out
    assert "loss = chance of finishing first given up" in text
    decision = review(game).decisions[0]
    assert f"loss {100 * decision.loss:.2f}% ({decision.points_loss:.2f} points)" in text
    path.write_text(json.dumps({**_eleven_turns_then([6] * 5).to_json(), "target": 150}))
    assert main(["review", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["measure"] == "target" and data["target"] == 150
    path.write_text(json.dumps({**game.to_json(), "target": "lots"}))
    assert main(["review", str(path)]) == 2
    assert "target score must be a whole number" in capsys.readouterr().err

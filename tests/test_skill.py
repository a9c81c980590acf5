"""Skill without luck: N of "played like an N-point player" equals the score in expectation
(the identity, on simulated games), is the optimum exactly for optimal play, and the command
``yacht skill`` shows it for a saved game and the bots' marks, refusing bad input in one line."""

from __future__ import annotations

import json
import math
import re
import statistics
from pathlib import Path

import pytest

from yacht.bots import play_game
from yacht.cli import main
from yacht.dice import RandomDice, ScriptedDice
from yacht.game import Game
from yacht.review import review
from yacht.skill import (
    SkillError,
    bot_marks,
    implausible,
    optimum,
    played_like,
    points_lost,
    running,
    win_accuracy,
)
from yacht.strategy import solve


def test_the_mean_of_n_is_the_mean_score_for_a_bot_within_two_standard_errors() -> None:
    """The identity: N = optimum - points lost, and E[N] = E[score] for any way of playing
    (the losses telescope). Greedy plays without the tables and loses a lot, so a gap would
    show; N and the score are paired game by game, their difference is the dice's luck."""
    games = 200
    best = optimum("traditional")
    n: list[float] = []
    scores: list[float] = []
    for i in range(games):
        result = review(play_game("greedy", seed=1000 + i))
        n.append(played_like(result, 0))
        scores.append(result.players[0].total)
    luck = [s - x for s, x in zip(scores, n, strict=True)]
    se = statistics.stdev(luck) / math.sqrt(games)
    assert abs(statistics.fmean(luck)) < 2 * se
    # greedy is far below the optimum, so the test could fail: its losses are large
    assert statistics.fmean(n) < best - 20


@pytest.mark.parametrize("rules", ["traditional", "clubhouse"])
def test_optimal_play_is_the_optimum_exactly(rules: str) -> None:
    result = review(play_game("optimal", rules, seed=8))
    assert points_lost(result, 0) == 0.0
    assert played_like(result, 0) == solve(rules).expected
    assert optimum("traditional") == pytest.approx(166.9550677, abs=1e-7)


def test_with_opponents_each_player_has_n_and_a_win_accuracy() -> None:
    result = review(play_game(["optimal", "easy"], seed=3))
    assert result.measure == "win"
    assert played_like(result, 0) == pytest.approx(optimum("traditional"))
    assert played_like(result, 1) < played_like(result, 0)
    easy = win_accuracy(result, 1)
    assert easy.decisions == sum(d.player == 1 for d in result.decisions)
    assert 0 <= easy.accuracy < 100 and easy.mean_loss > 0
    alone = review(play_game("optimal", seed=3))
    with pytest.raises(SkillError, match="needs a game with opponents"):
        win_accuracy(alone, 0)


def test_an_unfinished_game_or_an_unknown_player_is_a_clear_error() -> None:
    game = Game(["Ann", "Bob"], dice=ScriptedDice([6, 6, 6, 6, 6]))
    game.apply("roll")
    game.apply("score yacht")
    result = review(game)
    with pytest.raises(SkillError, match="not finished: Ann has 1 of 12 categories"):
        played_like(result, 0)
    finished = review(play_game("greedy", seed=2))
    for player in (1, -1, True, "0"):
        with pytest.raises(SkillError, match="no player"):
            played_like(finished, player)  # type: ignore[arg-type]


def test_the_running_figure_covers_the_last_twenty_games_and_says_how_many() -> None:
    assert running([]) is None
    one = running([150.0])
    assert one is not None and (one.mean, one.standard_error, one.games) == (150.0, None, 1)
    assert not one.full
    figures = [100.0] * 5 + [float(x) for x in range(20)]
    last = running(figures)
    assert last is not None and last.full and last.games == 20
    assert last.mean == statistics.fmean(range(20))
    assert last.standard_error == pytest.approx(statistics.stdev(range(20)) / math.sqrt(20))
    assert running(figures, window=3) == running([17.0, 18.0, 19.0], window=3)
    for window in (0, -1, 2.5, True):
        with pytest.raises(SkillError, match="window must be at least 1 game"):
            running(figures, window=window)  # type: ignore[arg-type]


def test_the_flag_needs_twenty_games_all_close_to_the_optimum() -> None:
    assert not implausible([0.0] * 19)
    assert implausible([0.0] * 20)
    assert implausible([50.0] * 10 + [1.0] * 20)  # the last twenty count, not the first
    assert not implausible([1.0] * 19 + [60.0])  # one ordinary game among them is enough
    with pytest.raises(SkillError):
        implausible([0.0] * 20, games=0)


def test_bot_marks_are_reproducible_and_ordered_by_strength() -> None:
    marks = bot_marks(games=3, seed=5, bots=("medium", "optimal"))
    assert [m.bot for m in marks] == ["medium", "optimal"]
    medium, best = marks
    assert best.loss == 0.0 and best.played_like == pytest.approx(optimum("traditional"))
    assert best.accuracy == 100.0
    assert best.luck == pytest.approx(best.score - best.played_like)
    assert medium.loss > 0 and medium.played_like < best.played_like
    assert bot_marks(games=3, seed=5, bots=("medium",))[0] == medium
    with pytest.raises(SkillError):
        bot_marks(games=0)


def _saved(tmp_path: Path, game: Game, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(game.to_json()))
    return path


def test_cli_skill_prints_played_like_for_a_saved_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = play_game(["optimal", "greedy"], seed=11, names=["Ann", "Bob"])
    path = _saved(tmp_path, game)
    result = review(game)
    assert main(["skill", str(path)]) == 0
    out = capsys.readouterr().out
    ann = f"Ann: played like a {played_like(result, 0):.1f}-point player"
    bob = f"Bob: played like a {played_like(result, 1):.1f}-point player"
    assert ann in out and bob in out and "win accuracy" in out
    assert main(["skill", str(path), "--player", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in data["players"]] == ["Bob"]
    assert data["players"][0]["played_like"] == pytest.approx(played_like(result, 1))
    assert data["players"][0]["win_accuracy"]["accuracy"] == pytest.approx(
        win_accuracy(result, 1).accuracy, abs=1e-4
    )
    assert main(["skill", str(path), "--lang", "fi", "--player", "1"]) == 0
    assert "pelaaja" in capsys.readouterr().out


def test_cli_skill_marks_prints_the_bots_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["skill", "--marks", "--games", "2", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["bot"] for m in data["marks"]] == ["easy", "medium", "hard", "optimal"]
    assert data["marks"][-1]["played_like"] == pytest.approx(data["optimum"], abs=1e-4)
    assert main(["skill", "--marks", "--games", "1", "--lang", "nb"]) == 0
    assert "optimal" in capsys.readouterr().out.splitlines()[-1]


def _unfinished(tmp_path: Path) -> Path:
    game = Game(["Ann"], dice=RandomDice(seed=1))
    game.apply("roll")
    game.apply("score choice")
    return _saved(tmp_path, game, "unfinished.json")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["skill", "{missing}"], "cannot read"),
        (["skill", "{garbage}"], "is not JSON"),
        (["skill", "{chess}"], "not a yacht game"),
        (["skill", "{unfinished}"], "the game is not finished: Ann has 1 of 12 categories"),
        (["skill", "{finished}", "--player", "2"], "there is no seat 2 (the game has 1 player)"),
        (["skill", "{finished}", "--player", "0"], "must be from 1 to 6"),
        (["skill", "{finished}", "--player", "x"], "is not a whole number"),
        (["skill", "--marks", "--games", "0"], "must be from 1 to 100000"),
        (["skill", "--marks", "--games", "lots"], "is not a whole number"),
        (["skill", "--marks", "--rules", "chess"], "invalid choice"),
        (["skill", "--marks", "{finished}"], "--marks takes no game file"),
        (["skill"], "give a game file, or --marks"),
    ],
)
def test_cli_skill_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "garbage.json").write_text("not json at all")
    (tmp_path / "chess.json").write_text('{"format": "chess"}')
    files = {
        "missing": str(tmp_path / "missing.json"),
        "garbage": str(tmp_path / "garbage.json"),
        "chess": str(tmp_path / "chess.json"),
        "unfinished": str(_unfinished(tmp_path)),
        "finished": str(_saved(tmp_path, play_game("greedy", seed=2))),
    }
    words = [a.format(**files) for a in args]
    try:
        status = main(words)
    except SystemExit as e:  # argparse's own errors: one line, status 2
        status = e.code  # type: ignore[assignment]
    assert status == 2
    captured = capsys.readouterr()
    assert message in captured.err, captured.err
    assert captured.err.count("\n") == 1 and captured.out == ""


@pytest.mark.parametrize("lang", ["fi", "bg", "nb"])
def test_cli_skill_reads_in_the_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from english import english_words

    game = play_game(["medium", "greedy"], seed=6, names=["Ann", "Bob"])
    path = _saved(tmp_path, game)
    assert main(["skill", str(path), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert english_words(out, lang, {"ann", "bob", "traditional"}) == [], out
    assert not re.search(r"\d\.\d", out)  # 152,3 not 152.3
    assert main(["skill", "--marks", "--games", "1", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert english_words(out, lang, {"traditional"}) == [], out
    unfinished = str(_unfinished(tmp_path))
    assert main(["skill", unfinished, "--lang", lang]) == 2
    err = capsys.readouterr().err.replace(unfinished, "")
    assert english_words(err, lang, {"ann"}) == [], err

"""Bots at the table: every bot, every preset, through the engine; names; strength; CLI."""

from __future__ import annotations

import io
import itertools
import json
import random

import pytest

from yacht.actions import Hold, Roll, Score
from yacht.bots import BOT_NAMES, Bot, make_bot, play_game, play_turn
from yacht.bots.play import play_games, simulate_bot
from yacht.cli import main
from yacht.cli.bots import ProgressBar
from yacht.dice import RandomDice, ScriptedDice
from yacht.game import Game
from yacht.rules import CATEGORIES, Category, preset_names
from yacht.strategy import solve
from yacht.strategy.target import target_probability

SOLVER_BOTS = ("easy", "medium", "hard", "optimal")


def _play_checked(game: Game, bots: list[Bot], rng: random.Random) -> None:
    """Play to the end, checking every action is one the game lists as legal before it."""
    while not game.finished:
        before = game.version
        action = bots[game.current].act(game.view(), rng)
        assert action in game.legal_actions(), (action, game)
        game.apply(action)
        assert game.version == before + 1


@pytest.mark.parametrize("rules", preset_names())
def test_cheap_bots_play_many_games_under_every_preset_without_an_illegal_action(
    rules: str,
) -> None:
    rng = random.Random(rules)
    for i in range(60):
        names = ["random", "greedy"] if i % 3 else ["greedy", "random", "random"]
        game = Game(names, rules, RandomDice(rng.randrange(2**32)))
        _play_checked(game, [make_bot(n) for n in names], rng)
        assert all(len(game.sheet(p)) == len(CATEGORIES) for p in range(len(names)))
        assert Game.from_json(game.to_json()).totals == game.totals


TARGETS = {"traditional": 150, "clubhouse": 3}
"""Targets for the legality games: small elsewhere, so each preset's target table builds in
about 2 s (clubhouse, with its upper bonus, has 64 times the states of the others)."""


@pytest.mark.parametrize("rules", preset_names())
def test_solver_bots_play_under_every_preset_without_an_illegal_action(rules: str) -> None:
    rng = random.Random(rules)
    names = [*SOLVER_BOTS, f"target:{TARGETS.get(rules, 12)}"]
    for _ in range(6):
        bots = [make_bot(n) for n in names]
        game = Game(names, rules, RandomDice(rng.randrange(2**32)))
        _play_checked(game, bots, rng)
        assert Game.from_json(game.to_json()).totals == game.totals


def test_target_bot_plays_legally_and_reaches_its_target_as_often_as_promised() -> None:
    # Engine play, a few games; then the share of totals >= 150 over many games must match the
    # chance the bot plays for, target_probability, within the sampling error.
    rng = random.Random(8)
    bot = make_bot("target:150")
    for _ in range(3):
        game = Game(["T", "O"], dice=RandomDice(rng.randrange(2**32)))
        _play_checked(game, [bot, make_bot("optimal")], rng)
    exact = target_probability("traditional", [], 150)
    run = play_games("target:150", 120, seed=2)
    hits = float((run.totals >= 150).mean())
    assert abs(hits - exact) < 4 * (exact * (1 - exact) / run.games) ** 0.5


def test_every_bot_is_a_bot_and_names_round_trip() -> None:
    for name in (*BOT_NAMES, "target:200"):
        bot = make_bot(name)
        assert isinstance(bot, Bot)
        assert bot.name == name
    assert make_bot(" Optimal ").name == "optimal"


@pytest.mark.parametrize("name", ["grandmaster", "", "optimal2", "target"])
def test_unknown_bot_names_are_refused_with_the_known_names(name: str) -> None:
    with pytest.raises(
        ValueError, match=r"easy, medium, hard, optimal, winner, duel, duel:optimal, target:T"
    ):
        make_bot(name)


@pytest.mark.parametrize("name", ["target:", "target:x", "target:-5", "target:1.5"])
def test_target_bot_needs_a_whole_number(name: str) -> None:
    with pytest.raises(ValueError, match=r"target:T needs a whole number"):
        make_bot(name)


def test_a_turn_is_hold_then_roll_and_ends_with_a_score() -> None:
    # 6 6 6 1 2: the optimal bot holds the sixes (positions 1-3), rolls, and finally scores.
    game = Game(["Bot"], dice=ScriptedDice([6, 6, 6, 1, 2, 6, 3, 6, 4]))
    events = play_turn(game, make_bot("optimal"), random.Random(0))
    assert [type(e.action) for e in events][:3] == [Roll, Hold, Roll]
    assert events[1].action == Hold((1, 2, 3))
    assert isinstance(events[-1].action, Score)
    assert game.round == 2


def test_noisy_bot_carries_out_its_own_hold() -> None:
    # Whatever a noisy bot decides after a roll, the next action after its Hold is Roll.
    for seed in range(30):
        game = play_game("easy", seed=seed)
        actions = [e.action for e in game.events]
        for a, b in itertools.pairwise(actions):
            if isinstance(a, Hold):
                assert isinstance(b, Roll)


def test_greedy_bot_scores_what_it_sees_and_keeps_the_most_common_face() -> None:
    game = Game(["G"], dice=ScriptedDice([2, 5, 5, 3, 1]))
    game.apply("roll")
    assert make_bot("greedy").act(game.view(), random.Random(0)) == Hold((2, 3))
    game = Game(["G"], dice=ScriptedDice([2, 3, 4, 5, 6]))
    game.apply("roll")
    bot = make_bot("greedy")
    assert bot.act(game.view(), random.Random(0)) == Score(Category.BIG_STRAIGHT)


def test_play_game_is_reproducible_and_names_seats() -> None:
    a = play_game(["optimal", "optimal", "random"], "clubhouse", seed=11)
    b = play_game(["optimal", "optimal", "random"], "clubhouse", seed=11)
    assert a.players == ("optimal", "optimal 2", "random")
    assert a.finished and a.to_json() == b.to_json()


def test_engine_play_of_the_optimal_bot_matches_the_exact_expected_score() -> None:
    exact = solve("traditional").expected  # 166.9550677, checked in tests/strategy/test_solver.py
    run = play_games("optimal", 300, seed=5)
    assert run.method == "engine"
    assert abs(run.mean - exact) < 4 * run.standard_error


def test_levels_are_ordered_by_measured_strength() -> None:
    means = [simulate_bot(n, 20_000, seed=3).mean for n in ("easy", "medium", "hard", "optimal")]
    assert means == sorted(means)
    assert means[1] - means[0] > 10 and means[2] - means[1] > 5
    engine = [play_games(n, 150, seed=3).mean for n in ("random", "greedy")]
    assert engine[0] + 40 < engine[1] < means[0]


def test_engine_and_vectorised_play_of_a_level_agree() -> None:
    fast = simulate_bot("medium", 20_000, seed=1)
    slow = simulate_bot("medium", 200, seed=1, engine=True)
    assert (fast.method, slow.method) == ("vectorised", "engine")
    tolerance = 4 * (fast.standard_error**2 + slow.standard_error**2) ** 0.5
    assert abs(fast.mean - slow.mean) < tolerance


def test_simulate_bot_is_reproducible_by_seed_on_both_paths() -> None:
    for name in ("random", "hard"):
        a, b = simulate_bot(name, 300, seed=9), simulate_bot(name, 300, seed=9)
        assert a.totals.tolist() == b.totals.tolist()
    with pytest.raises(ValueError, match="games must be at least 1"):
        simulate_bot("greedy", 0)


def test_cli_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bot", "optimal", "--games", "5000", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {
        "bot",
        "rules",
        "games",
        "mean",
        "stdev",
        "min",
        "max",
        "percentiles",
        "category_means",
        "games_per_second",
    }
    assert (data["bot"], data["rules"], data["games"]) == ("optimal", "traditional", 5000)
    assert list(data["percentiles"]) == ["1", "5", "25", "50", "75", "95", "99"]
    assert set(data["category_means"]) == {c.value for c in CATEGORIES}
    assert data["min"] <= data["percentiles"]["50"] <= data["max"]
    assert main(["simulate", "--bot", "optimal", "--games", "5000", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mean"] == data["mean"]


def test_cli_simulate_text_for_an_engine_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bot", "greedy", "--games", "50", "--rules", "knizia"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("greedy on knizia: 50 games (engine")
    assert "full_house" in out


def run_cli(argv: list[str]) -> int:
    """The exit status of ``yacht ARGV``, whether argparse or the command refused it."""
    try:
        return main(argv)
    except SystemExit as e:
        return int(e.code or 0)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bot", "grandmaster"], "unknown bot: 'grandmaster'"),
        (["--bot", "target:many"], "target:T needs a whole number"),
        (["--games", "0"], "--games: must be from 1 to 100000000, got 0"),
        (["--games", "many"], "--games: 'many' is not a whole number"),
        (["--bot", "target:99999999999999999999"], "must be from 0 to 10000"),
        (["--seed", "-1"], "--seed: must be from 0 to"),
        (["--rules", "yahtzee"], "invalid choice"),
    ],
)
def test_cli_simulate_errors_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["simulate", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.err.count("\n") == 1
    assert captured.out == ""


def test_progress_bar_draws_one_line_and_ends_it() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, "optimal", delay=0.0)
    simulate_bot("optimal", 70_000, seed=1, progress=bar)
    bar.close()
    text = stream.getvalue()
    assert text.startswith("\roptimal [") and text.endswith("\n")
    assert "70000/70000" in text and text.count("\n") == 1
    quiet = io.StringIO()
    late = ProgressBar(quiet, "optimal", delay=60.0)  # a short run shows nothing
    simulate_bot("optimal", 1_000, seed=1, progress=late)
    late.close()
    assert quiet.getvalue() == ""

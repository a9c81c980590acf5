"""The ``winner`` bot through the engine, the match simulator, and ``yacht match``/``endgame``."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from yacht.bots import Bot, OptimalBot, make_bot
from yacht.bots.winner import WinnerBot
from yacht.cli import main
from yacht.dice import ROLLS, RandomDice
from yacht.game import Game, TurnView
from yacht.rules import CATEGORIES, Category, rules_by_name
from yacht.strategy import solve
from yacht.strategy.cache import ENV_VAR
from yacht.strategy.endgame import endgame
from yacht.strategy.match import play_match
from yacht.strategy.remaining import remaining
from yacht.strategy.win import decide

C = Category


@pytest.fixture(scope="module", autouse=True)
def cache_dir(own_tables: Callable[[str], Path]) -> Iterator[str]:
    """A cache of this module's own for the tables only these tests build (the target table
    to 297 points); the endgame and remaining-points tables they share with the rest of the
    session come from the session's cache first (kept in memory), not built again here."""
    for depth in (1, 2):
        endgame("traditional", depth)
    for preset in ("traditional", "knizia"):
        remaining(preset)
    path = str(own_tables("winner-bot"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ENV_VAR, path)
        yield path


def view_of(sheets: list[dict[Category, int]], dice: tuple[int, ...], rolls_used: int) -> TurnView:
    rules = rules_by_name("traditional")
    return TurnView(rules, 0, sheets[0], tuple(sheets), dice, frozenset(), rolls_used)


@pytest.mark.parametrize(("rules", "players"), [("traditional", 2), ("knizia", 4)])
def test_winner_plays_whole_games_through_the_engine(rules: str, players: int) -> None:
    rng = random.Random(rules)
    bots: list[Bot] = [WinnerBot(depth=1)] + [make_bot("optimal")] * (players - 1)
    for _ in range(2):
        game = Game([f"P{i}" for i in range(players)], rules, RandomDice(rng.randrange(2**32)))
        while not game.finished:
            action = bots[game.current].act(game.view(), rng)
            assert action in game.legal_actions(), (action, game)
            game.apply(action)
        assert all(len(game.sheet(p)) == len(CATEGORIES) for p in range(players))
        assert Game.from_json(game.to_json()).totals == game.totals


def test_winner_is_a_registered_bot() -> None:
    bot = make_bot("Winner")
    assert isinstance(bot, WinnerBot) and isinstance(bot, Bot) and bot.name == "winner"
    with pytest.raises(ValueError, match="unknown plan"):
        WinnerBot(plan="hope")
    with pytest.raises(ValueError, match="depth"):
        WinnerBot(depth=-1)


def test_winner_gambles_when_behind_where_optimal_takes_the_points() -> None:
    # Last turn, only Choice left, the other player done 28 ahead; 6 6 6 5 4 = 27.
    me: dict[Category, int] = {c: 0 for c in CATEGORIES if c is not C.CHOICE}
    other: dict[Category, int] = {c: 0 for c in CATEGORIES} | {C.CHOICE: 28}
    view = view_of([me, other], (6, 6, 6, 5, 4), rolls_used=2)
    assert OptimalBot().decide(view, random.Random(0)) is C.CHOICE
    assert WinnerBot(depth=1).decide(view, random.Random(0)) == (5, 6, 6, 6)
    # the other player scored 0 instead: the 27 wins outright, so the winner takes it
    ahead = view_of([me, other | {C.CHOICE: 0}], (6, 6, 6, 5, 4), rolls_used=2)
    assert WinnerBot(depth=1).decide(ahead, random.Random(0)) is C.CHOICE


@pytest.mark.parametrize("plan", ["rollout", "lookahead", "targets"])
def test_simulator_and_engine_bot_take_the_same_decisions(plan: str) -> None:
    # Random mid-game positions: the match simulator's option values pick what decide() picks.
    from yacht.strategy.match import _Runner
    from yacht.strategy.win_tables import choose

    rules = rules_by_name("traditional")
    rng = np.random.default_rng(3)
    games = 40
    runner = _Runner(rules, ("winner", "optimal"), games, 0, plan)
    for seat in (0, 1):
        for g in range(games):
            cats = rng.permutation(len(CATEGORIES))[: 5 + seat]
            for c in cats:
                runner.used[seat, g] |= 1 << int(c)
                runner.total[seat, g] += int(rng.integers(0, 25))
    runner._prepare(0, 5)
    values = runner._values(0, np.arange(games))
    rolls = rng.integers(0, len(ROLLS), size=games)
    picked, best = choose(solve(rules).table, values, rolls, 1, runner.used[0])
    ties = 0
    for g in range(games):
        sheets = []
        for seat in (0, 1):
            used = [c for c in CATEGORIES if runner.used[seat, g] >> c.index & 1]
            sheet = {c: 0 for c in used}
            sheet[used[0]] = int(runner.total[seat, g])  # points anywhere: only the total counts
            sheets.append(sheet)
        view = view_of(sheets, ROLLS[rolls[g]], rolls_used=2)  # one roll left
        want = decide(view, depth=0, plan=plan)
        got = _decision(int(picked[g]))
        if got != want:  # only a tie to rounding (single against double precision) may differ
            rows = [r for r in range(values.shape[0]) if _decision(r) == want]
            assert min(abs(float(values[r, g]) - best[g]) for r in rows) < 1e-6, (g, got, want)
            ties += 1
    assert ties <= 2


def _decision(row: int) -> tuple[int, ...] | Category:
    from yacht.strategy.win_tables import decode

    return decode(solve("traditional").table, row)


def test_match_simulator_optimal_seats_score_the_exact_mean() -> None:
    m = play_match(["optimal", "optimal", "optimal"], 3000, seed=4)
    mean, se = m.totals.mean(), m.totals.std() / np.sqrt(m.totals.size)
    assert abs(mean - solve("traditional").expected) < 4 * se
    assert m.shares.sum() == pytest.approx(3000)


def test_alone_the_winner_scores_like_optimal() -> None:
    m = play_match(["winner"], 1500, seed=6)  # the default plan, lookahead
    mean, se = m.totals.mean(), m.totals.std() / np.sqrt(m.totals.size)
    assert abs(mean - solve("traditional").expected) < 4 * se
    assert m.win_rate(0) == (1.0, 0.0)


def test_match_command_reports_win_rates_reproducibly(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "--bots", "winner,optimal", "--games", "300", "--seed", "2", "--depth", "1"]
    args += ["--plan", "rollout"]
    assert main([*args, "--rotate", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [o["bots"] for o in data["orders"]] == [["winner", "optimal"], ["optimal", "winner"]]
    assert data["games"] == 600 and data["depth"] == 1 and data["plan"] == "rollout"
    for order in data["orders"]:
        rates = [s["win_rate"] for s in order["seats"]]
        assert sum(rates) == pytest.approx(1.0, abs=1e-5)
        lo, hi = order["seats"][0]["ci95"]
        assert lo < rates[0] < hi
    winner = data["summary"]["winner"]
    assert winner["games"] == 600 and winner["seats"] == 2
    assert main([*args, "--rotate", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["summary"] == data["summary"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "seat 1 winner   wins" in text and "95% CI" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["match", "--bots", "winner,hard"],
            "match plays winner, optimal, duel and duel:optimal, not hard",
        ),
        (["match", "--games", "0"], "must be from 1 to"),
        (["endgame", "--depth", "5"], "depths above 4"),
    ],
)
def test_match_and_endgame_refuse_bad_arguments(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(argv)
    except SystemExit as e:  # argparse rejects the argument itself
        status = int(e.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_endgame_command_reports_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["endgame", "--depth", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["positions"] == 12 + 12 * 12 and data["size"] == 156 * 101
    assert data["rules"] == "traditional" and data["seconds"] >= 0


def test_hint_with_opponents_ranks_by_the_chance_of_winning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Only Choice left, the opponent done and 28 ahead: the gamble above, from the command line.
    used = ",".join(c.value for c in CATEGORIES if c is not C.CHOICE)
    rest = ",".join(f"{c.value}=0" for c in CATEGORIES if c is not C.CHOICE)
    argv = ["hint", "--dice", "6", "6", "6", "5", "4", "--rolls-left", "1", "--used", used]
    argv += ["--banked", "0", "--opponents", f"choice=28,{rest}"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True
    assert data["best"]["keep"] == [5, 6, 6, 6]
    assert data["best"]["win_probability"] == pytest.approx(0.25, abs=1e-6)
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "2 players (exact endgame)" in text and "* keep 5 6 6 6" in text and "25.00%" in text
    assert main(["hint", "--dice", "1", "2", "3", "4", "6", "--rolls-left", "2"]) == 0
    assert "P(win)" not in capsys.readouterr().out  # without opponents: the plain hint


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--used", "ones"], "give --banked B"),
        (["--target", "150"], "give one"),
        (["--opponents", "ones=7"], "ones cannot score 7"),
    ],
)
def test_hint_with_opponents_refuses_bad_input(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["hint", "--dice", "1", "2", "3", "4", "6", "--rolls-left", "2"]
    if "--opponents" not in extra:
        extra = [*extra, "--opponents", "empty"]
    assert main([*argv, *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1

"""``yacht duel ...`` as a user runs it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.strategy.cache import ENV_VAR


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A cache of its own: other tests' tables must not be found built already."""
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    return str(tmp_path)


def test_duel_solve_builds_the_endgame_layers_and_reports_them(
    own_cache: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["duel", "solve", "--rules", "traditional", "--depth", "1"]) == 0
    out, err = capsys.readouterr()
    assert "traditional: minimax table, layers 22-23: 7,581 win probabilities" in out
    assert "layer 22" in err and "values/s" in err and "elapsed" in err
    folder = [p for p in os.listdir(own_cache) if p.startswith("duel-minimax-")]
    assert len(folder) == 1
    files = set(os.listdir(os.path.join(own_cache, folder[0])))
    assert {"layer-22.u16", "layer-23.u16", "manifest.json"} <= files
    # a second run finds the layers built and only reports them
    assert main(["duel", "solve", "--depth", "1"]) == 0
    again, err = capsys.readouterr()
    assert "7,581 win probabilities" in again and "layer" not in err


def test_duel_solve_refuses_bad_input(capsys: pytest.CaptureFixture[str], own_cache: str) -> None:
    before = set(os.listdir(own_cache))
    assert main(["duel", "solve", "--rules", "clubhouse"]) == 2
    assert "upper bonus" in capsys.readouterr().err
    for bad in (["--jobs", "0"], ["--depth", "13"], ["--rules", "nope"]):
        with pytest.raises(SystemExit) as stop:
            main(["duel", "solve", *bad])
        assert stop.value.code == 2
        assert "yacht: error:" in capsys.readouterr().err
    assert set(os.listdir(own_cache)) == before


def test_duel_solve_response_builds_both_seats(
    own_cache: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["duel", "solve", "--table", "response", "--depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "traditional: response-first table, layers 22-23" in out
    assert "traditional: response-second table, layers 22-23" in out


def test_duel_stats_says_what_is_not_built_and_what_is_exact(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["duel", "stats"]) == 0  # only the endgame layers are built in tests
    out = capsys.readouterr().out
    assert "the first player wins not built (yacht duel solve --rules traditional)" in out
    assert "moving second  not built (yacht duel solve --rules traditional --table response)" in out
    assert "optimal against itself: 50% in each seat" in out
    assert main(["duel", "stats", "--rules", "knizia", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["first_player_wins"] is None and data["best_against_optimal"]["both"] is None
    same = data["optimal_against_itself"]
    assert same["seat1"] == same["seat2"] == 0.5 and 0 < same["tie"] < 0.05
    assert main(["duel", "stats", "--rules", "clubhouse"]) == 2
    assert "upper bonus" in capsys.readouterr().err


def test_duel_match_reports_the_rate_beside_the_exact_value(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["duel", "match", "--bots", "optimal,optimal", "--games", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "optimal vs optimal (traditional): 20 games" in out and "seat 1 wins" in out
    assert "exact (symmetry): 50.0000%; the simulation agrees" in out
    for bad in ("duel", "duel,nobody", "duel,optimal,winner"):
        with pytest.raises(SystemExit):
            main(["duel", "match", "--bots", bad])
        assert "yacht: error: argument --bots" in capsys.readouterr().err


def test_match_hands_duel_bots_to_the_engine_match(
    capsys: pytest.CaptureFixture[str], own_cache: str
) -> None:
    """``yacht match --bots duel,optimal`` (the issue's command) plays heads-up through the
    engine; without a built table the duel bot plays like winner and no exact rate is shown."""
    args = ["match", "--bots", "duel,optimal", "--games", "4", "--seed", "5"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "duel vs optimal (traditional): 4 games" in out
    assert "exact: no table for this pair" in out
    with pytest.raises(SystemExit):
        main(["match", "--bots", "duel,optimal,winner"])
    assert "duel bots play heads-up: two bots, got 3" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="neither --rotate nor --json"):
        main(["match", "--bots", "duel:optimal,optimal", "--rotate"])

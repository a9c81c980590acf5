"""``yacht duel ...`` as a user runs it."""

from __future__ import annotations

import os

import pytest

from yacht.cli import main


def test_duel_solve_builds_the_endgame_layers_and_reports_them(
    cache_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["duel", "solve", "--rules", "traditional", "--depth", "1"]) == 0
    out, err = capsys.readouterr()
    assert "traditional: minimax table, layers 22-23: 7,581 win probabilities" in out
    assert "layer 22" in err and "values/s" in err and "elapsed" in err
    folder = [p for p in os.listdir(cache_dir) if p.startswith("duel-minimax-")]
    assert len(folder) == 1
    files = set(os.listdir(os.path.join(cache_dir, folder[0])))
    assert {"layer-22.u16", "layer-23.u16", "manifest.json"} <= files
    # a second run finds the layers built and only reports them
    assert main(["duel", "solve", "--depth", "1"]) == 0
    again, err = capsys.readouterr()
    assert "7,581 win probabilities" in again and "layer" not in err


def test_duel_solve_refuses_bad_input(capsys: pytest.CaptureFixture[str], cache_dir: str) -> None:
    before = set(os.listdir(cache_dir))
    assert main(["duel", "solve", "--rules", "clubhouse"]) == 2
    assert "upper bonus" in capsys.readouterr().err
    for bad in (["--jobs", "0"], ["--depth", "13"], ["--rules", "nope"]):
        with pytest.raises(SystemExit) as stop:
            main(["duel", "solve", *bad])
        assert stop.value.code == 2
        assert "yacht: error:" in capsys.readouterr().err
    assert set(os.listdir(cache_dir)) == before

"""The streaming two-player table (a), on the endgame layers: against the endgame table, a
plain-Python expectiminimax, its 16-bit error bound, and a resumed build."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from yacht.rules import Category, rules_by_name
from yacht.strategy.duel import MINIMAX, Kind, Progress, build_layers
from yacht.strategy.duel.layout import FULL, layout
from yacht.strategy.duel.store import (
    ERROR_BOUND,
    ROUNDING,
    error_bound,
    layer_path,
    read_manifest,
)
from yacht.strategy.duel.table import read_table
from yacht.strategy.endgame import build_endgame

from .conftest import exact_endgame
from .test_endgame import brute_force, used_except

TRADITIONAL = rules_by_name("traditional")


@pytest.fixture(scope="module")
def built(duel_layers: Callable[[Kind], Path]) -> Path:
    """Layers 20-23: every turn where both players have at most two categories open (built
    once by this code for the strategy tests, ``duel_layers``)."""
    return duel_layers(MINIMAX)


def stored(folder: Path, n: int) -> np.ndarray:
    return np.fromfile(layer_path(folder, n, "u16"), dtype=np.uint16) / 65535.0


def same_layer(one: Path, other: Path, n: int) -> bool:
    return layer_path(one, n, "u16").read_bytes() == layer_path(other, n, "u16").read_bytes()


def test_endgame_layers_equal_the_endgame_table(built: Path) -> None:
    exact = exact_endgame()  # the session's, as in test_endgame.py
    for n in range(20, 24):
        lay = layout(TRADITIONAL, n)
        got, single = stored(built, n), None
        if layer_path(built, n, "f32").exists():
            single = np.fromfile(layer_path(built, n, "f32"), dtype=np.float32)
        for a, mover in enumerate(lay.movers):
            rows = exact.rows(np.full(lay.others.size, mover), lay.others)
            for b in range(lay.others.size):
                start, stop = lay.offsets[a * lay.others.size + b : a * lay.others.size + b + 2]
                leads = np.arange(-lay.low[a], lay.high[b] + 1)
                want = exact.values(np.full(leads.size, rows[b]), leads)
                assert abs(got[start:stop] - want).max() <= error_bound(n)
                if single is not None:
                    assert abs(single[start:stop] - want).max() <= error_bound(n) - ROUNDING


POSITIONS = [
    ((Category.YACHT, Category.BIG_STRAIGHT), (Category.LITTLE_STRAIGHT,), 0),
    ((Category.YACHT, Category.LITTLE_STRAIGHT), (Category.YACHT,), -30),
    ((Category.ONES, Category.SIXES), (Category.CHOICE,), 12),
    ((Category.FULL_HOUSE,), (Category.FOUR_OF_A_KIND,), -3),
]


@pytest.mark.parametrize(("mover", "other", "lead"), POSITIONS)
def test_values_equal_plain_expectiminimax(
    built: Path, mover: tuple[Category, ...], other: tuple[Category, ...], lead: int
) -> None:
    want = brute_force(frozenset(mover), frozenset(other), lead)
    table = read_table(TRADITIONAL, "minimax", built, lowest=20)
    assert table is not None
    got = table.win_probability(used_except(*mover), used_except(*other), lead)
    assert got == pytest.approx(want, abs=ERROR_BOUND)
    assert 0 < got < 1


def test_table_reads_decided_and_finished_positions(built: Path, tmp_path: Path) -> None:
    table = read_table(TRADITIONAL, "minimax", built, lowest=20)
    assert table is not None and table.size == sum(
        layout(TRADITIONAL, n).size for n in range(20, 24)
    )
    ones = used_except(Category.ONES)
    assert table.win_probability(ones, ones, 6) == 1.0  # five points can never be made up
    assert table.win_probability(ones, ones, -6) == 0.0
    assert table.win_probability(ones, ones, 0) == pytest.approx(0.5, abs=ERROR_BOUND)
    assert table.win_probability(FULL, FULL, 0) == 0.5
    three = used_except(Category.ONES, Category.TWOS, Category.THREES)
    with pytest.raises(ValueError, match="layers 20-23"):
        table.win_probability(three, three, 0)
    with pytest.raises(ValueError, match="no turn"):
        table.win_probability(FULL, ones, 0)  # the player with a category open moves
    with pytest.raises(ValueError, match="no such positions"):  # the mover has used more
        table.values([used_except(Category.ONES)], [FULL & ~3], [0])
    with pytest.raises(ValueError, match="no such positions"):  # below the layers built
        table.values([three], [three], [0])
    assert read_table(TRADITIONAL, "minimax", built, lowest=18) is None  # not built that far
    assert read_table(TRADITIONAL, "minimax", tmp_path) is None


def test_interrupted_build_resumes_to_the_same_files(built: Path, tmp_path: Path) -> None:
    seen: list[Progress] = []

    def stop_in_layer_21(p: Progress) -> None:
        seen.append(p)
        if p.layer == 21 and not p.finished:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_layers(TRADITIONAL, MINIMAX, lowest=21, folder=tmp_path, progress=stop_in_layer_21)
    assert sorted(read_manifest(tmp_path)["layers"]) == ["22", "23"]
    assert layer_path(tmp_path, 21, "f32.part").exists()  # the interrupted layer's work
    again: list[Progress] = []
    build_layers(TRADITIONAL, MINIMAX, lowest=21, folder=tmp_path, progress=again.append)
    assert {p.layer for p in again} == {21}  # finished layers are not built again
    for n in (21, 22, 23):
        assert (
            layer_path(tmp_path, n, "u16").read_bytes() == layer_path(built, n, "u16").read_bytes()
        )
    assert not layer_path(tmp_path, 22, "f32").exists()  # no longer needed
    assert layer_path(tmp_path, 21, "f32").exists()  # the next layer down starts from it


def test_two_processes_write_the_same_layers(built: Path, tmp_path: Path) -> None:
    build_layers(TRADITIONAL, MINIMAX, lowest=21, folder=tmp_path, jobs=2)
    for n in (21, 22, 23):
        assert (
            layer_path(tmp_path, n, "u16").read_bytes() == layer_path(built, n, "u16").read_bytes()
        )


def test_bad_requests_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="upper bonus"):
        build_layers("clubhouse", MINIMAX, folder=tmp_path / "c")
    with pytest.raises(ValueError, match="jobs"):
        build_layers(TRADITIONAL, MINIMAX, jobs=0, folder=tmp_path / "j")
    with pytest.raises(ValueError, match="lowest layer"):
        build_layers(TRADITIONAL, MINIMAX, lowest=24, folder=tmp_path / "l")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("preset", ["all-dice-four", "knizia"])
def test_every_preset_without_a_bonus_matches_its_endgame(preset: str, tmp_path: Path) -> None:
    rules = rules_by_name(preset)
    table = read_table(
        rules, "minimax", build_layers(rules, MINIMAX, lowest=22, folder=tmp_path), 22
    )
    assert table is not None
    exact = build_endgame(rules, 1, double=True)
    for mover in (used_except(Category.YACHT), used_except(Category.FOUR_OF_A_KIND)):
        for other in (FULL, used_except(Category.CHOICE)):
            if not table.covers(mover, other):
                continue
            for lead in range(-60, 61, 7):
                want = exact.win_probability(mover, other, lead)
                got = table.win_probability(mover, other, lead)
                assert got == pytest.approx(want, abs=error_bound(22))

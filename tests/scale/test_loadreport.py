"""The docs' load table and plot come from the runs' JSON files (benchmarks.loadreport)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from benchmarks import loadreport


def run(
    think: float, p99: float, cpu: float, lag: float, full: int, **extra: Any
) -> dict[str, Any]:
    """A row as benchmarks.loadrun writes it (only the fields the report reads)."""
    metrics = {
        "loop_lag_ms": {"count": 100, "p99": lag, "max": lag * 2},
        "gc_pauses": {"2": {"count": full, "max": 50.0 if full else None, "total_ms": 1.0}},
    }
    return {
        "tables": 100,
        "think": think,
        "actions_per_second": 100 / think,
        "p50": 4.0,
        "p95": 9.0,
        "p99": p99,
        "errors": 0,
        "server_cpu_ms_per_action": cpu,
        "cores": {"servers": 0.2, "postgres": 0.05, "redis": 0.01, "load": 0.04},
        "load_average_before": [0.5, 0.4, 0.3],
        "load_average_mean": 1.25,
        "duration": 10.0,
        "machine": {"cpu": "Test CPU", "cores": 2, "python": "3.11.7"},
        "commit": "abc1234",
        "servers": {"http://127.0.0.1:8001": metrics, "http://127.0.0.1:8002": metrics},
        **extra,
    }


def test_two_runs_make_one_row_each_with_the_machine_under_them(tmp_path: Path) -> None:
    for name, row in (
        ("20261201T100000Z-100-2.json", run(2, 150.0, 1.2, 20.0, 1, wal_bytes_per_action=1290)),
        ("20261201T100100Z-100-1.json", run(1, 1500.0, 0.9, 200.0, 0, errors=3)),
    ):
        (tmp_path / name).write_text(json.dumps(row))
    assert loadreport.table(loadreport.rows(tmp_path)).splitlines() == [
        "| tables | think | runs | actions/s | p50 | p95 | p99 (worst run) | errors "
        "| server CPU/action (worst) | cores: servers / PostgreSQL / load | WAL/action "
        "| loop lag p99 | full GC passes (longest) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        "| 100 | 1 s | 1 | 100 | 4.0 ms | 9.0 ms | 1.50 s (1.50 s) | 3 | 0.90 ms (0.90) "
        "| 0.20 / 0.05 / 0.04 | - | <= 200 ms | 0 |",  # a run from before WAL was measured
        "| 100 | 2 s | 1 | 50 | 4.0 ms | 9.0 ms | 150 ms (150 ms) | 0 | 1.20 ms (1.20) "
        "| 0.20 / 0.05 / 0.04 | 1,290 B | <= 20.0 ms | 1 (<= 50.0 ms) |",
        "",
        "Machine: Test CPU, 2 cores, Python 3.11.7; 2 runs of 10 s measured; 1-minute load "
        "average 0.5-0.5 before a run, 1.2-1.2 during (mean); commit abc1234.",
    ]


def test_several_runs_give_the_median_and_the_worst(tmp_path: Path) -> None:
    for i, (p99, cpu) in enumerate(((30.0, 1.0), (90.0, 1.4), (40.0, 1.1))):
        (tmp_path / f"2026120{i}-100-3.json").write_text(json.dumps(run(3, p99, cpu, 5.0, 0)))
    row = loadreport.table(loadreport.rows(tmp_path)).splitlines()[2]
    assert "| 3 s | 3 |" in row and "| 40.0 ms (90.0 ms) |" in row and "| 1.10 ms (1.40) |" in row


def test_the_plot_is_written_for_a_directory_of_runs(tmp_path: Path) -> None:
    (tmp_path / "a-100-2.json").write_text(json.dumps(run(2, 50.0, 1.0, 5.0, 0)))
    assert loadreport.main([str(tmp_path)]) == 0
    assert (tmp_path / "load-latency.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_docs_table_is_the_one_the_committed_runs_make() -> None:
    document = loadreport.DOC.read_text()
    assert loadreport.current(document) == loadreport.table(loadreport.rows(loadreport.RESULTS))


def test_paired_runs_give_each_side_its_median_and_worst_and_their_ratio() -> None:
    from benchmarks import loadpair

    rows = [
        {**run(2, p99, cpu, 5.0, 0), "side": side, "commit": commit}
        for side, commit, p99, cpu in (
            ("base", "aaa1111", 20.0, 1.30),
            ("head", "bbb2222", 8.0, 1.00),
            ("base", "aaa1111", 25.0, 1.20),
            ("head", "bbb2222", 7.0, 0.96),
            ("base", "aaa1111", 22.0, 1.25),
            ("head", "bbb2222", 9.0, 1.02),
        )
    ]
    lines = loadpair.table(rows, "aaa1111", "bbb2222").splitlines()
    assert lines[0].startswith("| tables | think | runs | server CPU/action aaa1111 | bbb2222 |")
    assert lines[2] == (
        "| 100 | 2 s | 3 + 3 | 1.25 ms (1.30) | 1.00 ms (1.02) | 0.80 "
        "| 22.0 ms (25.0) | 8.0 ms (9.0) |"
    )
    assert "commit aaa1111, bbb2222" in lines[-1]


def test_every_paired_table_in_the_stalls_page_is_its_committed_runs() -> None:
    """Each before-and-after table of docs/web/stalls.md is ``loadpair.table`` over the runs
    kept under the two commits it names (a figure typed by hand, or a run not committed,
    fails here)."""
    from benchmarks import loadpair

    document = (Path(__file__).parents[2] / "docs" / "web" / "stalls.md").read_text()
    header = re.compile(r"^\| tables \| think \| runs \| server CPU/action (\w+) \| (\w+) \|", re.M)
    tables = list(header.finditer(document))
    assert len(tables) >= 9  # the first round's, redis-py's and the quiet machine's
    for found in tables:
        base, head = found.groups()
        shown = document[found.start() :].split("\n\n", 1)[0].splitlines()
        (runs,) = sorted(loadpair.RESULTS.glob(f"*-{base}-{head}.json"))
        made = loadpair.table(json.loads(runs.read_text()), base, head).splitlines()
        assert shown == made[: len(shown)], runs.name

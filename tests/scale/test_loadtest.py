"""``yacht loadtest``: a short smoke run against two processes, and what it refuses to do."""

from __future__ import annotations

import json
import subprocess

import pytest

from .conftest import Cluster
from .servers import YACHT, free_port


def loadtest(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [YACHT, "loadtest", *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_a_short_run_over_two_processes_plays_without_errors(cluster: Cluster) -> None:
    done = loadtest(
        "--url", cluster.a.url, "--url", cluster.b.url,
        "--tables", "6", "--duration", "3", "--think", "0.05", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["urls"] == [cluster.a.url, cluster.b.url]
    assert report["tables"] == 6 and report["seats"] == 2
    assert report["errors"] == 0 and report["errors_by_kind"] == {}
    assert report["actions"] > 0 and report["actions_per_second"] > 0
    for key in ("latency_ms", "latency_other_seats_ms"):
        lat = report[key]
        assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"]


def test_the_json_report_sums_up_what_each_servers_metrics_showed(cluster: Cluster) -> None:
    done = loadtest(
        "--url", cluster.a.url, "--url", cluster.b.url,
        "--tables", "4", "--duration", "2", "--think", "0.05", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert list(report["servers"]) == [cluster.a.url, cluster.b.url]
    moved = 0
    for figures in report["servers"].values():
        assert set(figures) == {
            "loop_lag_ms", "gc_pauses", "stages_ms", "pool_wait_ms", "table_reads", "peer_notes"
        }  # fmt: skip
        lag = figures["loop_lag_ms"]
        assert lag["count"] > 0 and lag["p99"] is not None and lag["p99"] <= lag["max"]
        assert set(figures["gc_pauses"]) == {"0", "1", "2"}
        for passes in figures["gc_pauses"].values():
            assert passes["count"] >= 0 and passes["total_ms"] >= 0
        stages = figures["stages_ms"]
        assert set(stages) == {"receive", "decide", "database", "publish", "send"}
        moved += stages["database"]["count"]
        # a decision refused on a stale snapshot is made again on a fresh read: not stored
        assert stages["decide"]["count"] >= stages["database"]["count"]
        assert figures["pool_wait_ms"]["count"] >= stages["database"]["count"]
        assert set(figures["table_reads"]) == {"uncached", "stale"}
        assert set(figures["peer_notes"]) == {"applied", "gap", "refused"}
        assert figures["peer_notes"]["refused"] == 0
    # every action the bots saw broadcast in the window was stored by one of the two
    assert moved >= report["actions"] > 0
    # the seats of a table are on both servers: each applied the other's notes of its moves
    assert all(f["peer_notes"]["applied"] > 0 for f in report["servers"].values())


def test_the_text_report_names_every_figure(cluster: Cluster) -> None:
    done = loadtest("--url", cluster.a.url, "--tables", "2", "--duration", "1", "--think", "0.1")
    assert done.returncode == 0, done.stderr
    words = ("actions:", "/s)", "p50", "p95", "p99", "errors: 0", "loop lag p99", "GC passes gen0",
             "table reads", "peer notes applied")  # fmt: skip
    for word in words:
        assert word in done.stdout


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--url", "http://192.0.2.10:8000"], "loopback addresses only"),
        (["--url", "http://localhost.example.com:8000"], "loopback addresses only"),
        (["--url", "ftp://127.0.0.1:8000"], "not a server URL"),
        (["--url", "http://127.0.0.1:8000", "--tables", "0"], "--tables must be 1..2000"),
        (["--url", "http://127.0.0.1:8000", "--tables", "5000"], "--tables must be 1..2000"),
        (["--url", "http://127.0.0.1:8000", "--duration", "601"], "--duration must be"),
        (["--url", "http://127.0.0.1:8000", "--seats", "7"], "--seats must be 1..6"),
    ],
)
def test_it_refuses_other_hosts_and_unbounded_runs(args: list[str], complaint: str) -> None:
    done = loadtest(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert complaint in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_server_that_is_not_there_is_one_line_of_error() -> None:
    done = loadtest("--url", f"http://127.0.0.1:{free_port()}", "--tables", "1", "--duration", "1")
    assert done.returncode == 2 and done.stdout == ""
    assert "cannot play against http://127.0.0.1:" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1

"""``GET /metrics``: the server's stalls and stage timings, for its operator only."""

from __future__ import annotations

import asyncio
import itertools
import warnings
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from yacht.web.edge.metrics import Metrics

from .helpers import Table, make_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

LOCAL = ("127.0.0.1", 40000)


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape: (name, sorted labels) -> value."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def count(scrape: dict[tuple[str, tuple[tuple[str, str], ...]], float], stage: str) -> float:
    return scrape[("yacht_action_stage_seconds_count", (("stage", stage),))]


def test_metrics_name_every_figure_for_the_servers_own_machine(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "m.sqlite3"), client=LOCAL) as client:
        r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    for name in (
        "yacht_event_loop_lag_seconds_bucket",
        "yacht_action_stage_seconds_count",
        "yacht_db_pool_wait_seconds_sum",
    ):
        assert name in r.text
    # every stage and generation is there from the start (a scrape before and after compares)
    scrape = samples(r.text)
    for stage in ("receive", "decide", "database", "publish", "send"):
        assert count(scrape, stage) >= 0
    for generation in "012":
        assert ("yacht_gc_pause_seconds_count", (("generation", generation),)) in scrape


def test_metrics_are_not_answered_to_strangers_nor_through_a_proxy(tmp_path: Path) -> None:
    app = make_app(tmp_path / "m.sqlite3")
    with TestClient(app, client=("203.0.113.7", 40000)) as stranger:
        r = stranger.get("/metrics")
        assert r.status_code == 404 and r.json()["code"] == "not_found"
        assert "yacht_" not in r.text
    with TestClient(app, client=LOCAL) as local:  # a proxy on the same machine relays it
        for header in ("X-Forwarded-For", "Forwarded", "X-Real-IP"):
            r = local.get("/metrics", headers={header: "203.0.113.7"})
            assert r.status_code == 404, header
    assert "/metrics" not in app.openapi()["paths"]


def test_an_action_is_counted_in_every_stage_of_its_path(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "m.sqlite3"), client=LOCAL) as client:
        t = Table.create(client, "human")
        token = t.join(0, "Ann")
        before = samples(client.get("/metrics").text)
        with client.websocket_connect(f"/ws/tables/{t.code}") as ws:
            assert ws.receive_json()["type"] == "state"
            game = t.state()["game"]
            ws.send_json(
                {
                    "type": "action", "seat": 0, "token": token, "game": game["number"],
                    "version": game["version"], "action": {"kind": "roll"},
                }
            )  # fmt: skip
            state = ws.receive_json()
            assert state["type"] == "state" and state["table"]["game"]["dice"] is not None
        after = samples(client.get("/metrics").text)
    for stage in ("receive", "decide", "database", "publish"):
        assert count(after, stage) == count(before, stage) + 1, stage
    assert count(after, "send") >= count(before, "send") + 2  # the first state and the roll's
    assert after[("yacht_db_pool_wait_seconds_count", ())] > 0


def test_the_loop_lag_monitor_records_a_late_wake_in_its_bucket() -> None:
    metrics = Metrics()
    # The clock as the monitor reads it before and after each sleep: the second wake comes
    # 0.3 s late (a blocked loop), the others on time; then time stands still.
    readings = itertools.chain([0.0, 0.001, 1.0, 1.301, 2.0, 2.001], itertools.repeat(3.0))

    def looks() -> float:
        return samples(metrics.text().decode())[("yacht_event_loop_lag_seconds_count", ())]

    async def watch() -> None:
        watcher = asyncio.create_task(metrics.watch_loop(0.001, clock=lambda: next(readings)))
        while looks() < 3:
            await asyncio.sleep(0)
        watcher.cancel()

    asyncio.run(watch())
    scrape = samples(metrics.text().decode())
    late = scrape[("yacht_event_loop_lag_seconds_count", ())]
    under = scrape[("yacht_event_loop_lag_seconds_bucket", (("le", "0.2"),))]
    over = scrape[("yacht_event_loop_lag_seconds_bucket", (("le", "0.5"),))]
    assert late >= 3 and late - under == 1 and over == late  # the late wake: 0.2 to 0.5 s
    assert abs(scrape[("yacht_event_loop_lag_seconds_sum", ())] - 0.3) < 1e-9


def test_garbage_collector_passes_are_timed_per_generation() -> None:
    import gc

    metrics = Metrics()

    def full() -> float:
        return samples(metrics.text().decode())[
            ("yacht_gc_pause_seconds_count", (("generation", "2"),))
        ]

    async def collect() -> float:
        metrics.start()
        gc.collect(0)
        gc.collect(2)
        await metrics.stop()
        stopped = full()
        gc.collect(2)  # after stop: not counted
        return stopped

    stopped = asyncio.run(collect())
    scrape = samples(metrics.text().decode())
    assert scrape[("yacht_gc_pause_seconds_count", (("generation", "0"),))] >= 1
    assert stopped >= 1 and full() == stopped
    assert scrape[("yacht_gc_pause_seconds_sum", (("generation", "2"),))] > 0

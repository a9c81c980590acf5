"""What an operator sees of a running server: ``/metrics`` (the process, HTTP requests by route
template and status, WebSockets, tables, the database's and Redis's state) for the addresses
``YACHT_METRICS_ALLOW`` names, and an access line per request with its id, route, status and
duration as fields."""

from __future__ import annotations

import json
import logging
import logging.config
import warnings
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from yacht.web.app import create_app
from yacht.web.edge.logs import JsonFormatter, uvicorn_log_config
from yacht.web.settings import Settings

from .helpers import Table, make_app, seed_maker

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

LOCAL = ("127.0.0.1", 40000)
Scrape = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: TestClient) -> Scrape:
    r = client.get("/metrics")
    assert r.status_code == 200, r.text
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def requests(seen: Scrape, route: str, status: int, method: str = "GET") -> float:
    labels = (("method", method), ("route", route), ("status", str(status)))
    return seen.get(("yacht_http_request_duration_seconds_count", labels), 0.0)


def test_requests_are_counted_by_route_template_and_status(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "m.sqlite3"), client=LOCAL) as client:
        t = Table.create(client, "human")
        for _ in range(3):
            assert client.get(f"/api/tables/{t.code}").status_code == 200
        assert client.get("/api/tables/NOSUCH").status_code == 404
        assert client.get("/no/such/page/at/all").status_code == 404
        assert client.get("/static/js/api.js").status_code == 200
        seen = scrape(client)
    assert requests(seen, "/api/tables/{code}", 200) == 3
    assert requests(seen, "/api/tables/{code}", 404) == 1
    assert requests(seen, "/api/tables", 201, "POST") == 1
    assert requests(seen, "/static/{path}", 200) == 1
    assert requests(seen, "unmatched", 404) == 1  # a made-up path adds no series of its own
    assert not any(t.code in str(labels) for _, labels in seen)
    assert seen[("yacht_http_request_duration_seconds_sum", (("method", "GET"),
                 ("route", "/api/tables/{code}"), ("status", "200")))] > 0  # fmt: skip


def test_the_process_sockets_tables_and_dependencies_are_measured(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path / "m.sqlite3"), client=LOCAL) as client:
        seen = scrape(client)
        for name in ("process_resident_memory_bytes", "process_cpu_seconds_total"):
            assert seen[(name, ())] > 0
        assert any(name == "python_info" for name, _ in seen)
        assert seen[("yacht_websocket_connections", ())] == 0
        assert seen[("yacht_processes_seen", ())] == 1  # no Redis: this process alone
        t = Table.create(client, "human")
        with (
            client.websocket_connect(f"/ws/tables/{t.code}") as a,
            client.websocket_connect(f"/ws/tables/{t.code}") as b,
        ):
            a.receive_json()
            b.receive_json()
            seen = scrape(client)
            assert seen[("yacht_websocket_connections", ())] == 2
            assert seen[("yacht_tables_watched", ())] == 1
        seen = scrape(client)
        assert seen[("yacht_websocket_connections", ())] == 0
        assert seen[("yacht_tables_watched", ())] == 0
        assert client.get("/health").status_code == 200
        seen = scrape(client)
        assert seen[("yacht_database_up", ())] == 1


def test_metrics_answer_the_allowed_addresses_by_their_connection(tmp_path: Path) -> None:
    settings = Settings(prepare_tables=False, metrics_allow="10.1.2.0/24, 2001:db8::7")
    app = create_app(f"sqlite:///{tmp_path / 'm.sqlite3'}", settings=settings, seeds=seed_maker())
    for peer in ("10.1.2.3", "2001:db8::7"):
        with TestClient(app, client=(peer, 40000)) as allowed:
            assert allowed.get("/metrics").status_code == 200, peer
    for peer in ("10.1.3.3", "127.0.0.1", "2001:db8::8"):
        with TestClient(app, client=(peer, 40000)) as other:
            r = other.get("/metrics")
            assert (r.status_code, r.json()["code"]) == (404, "not_found"), peer
            assert "yacht_" not in r.text
    with TestClient(app, client=("10.1.2.3", 40000)) as proxy:  # relayed from who knows where
        assert proxy.get("/metrics", headers={"X-Forwarded-For": "10.1.2.4"}).status_code == 404


@pytest.fixture
def access(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="yacht.web.edge.access")
    return caplog


def lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "yacht.web.edge.access"]


def test_an_access_line_has_the_request_id_route_status_and_duration(
    tmp_path: Path, access: pytest.LogCaptureFixture
) -> None:
    with TestClient(make_app(tmp_path / "m.sqlite3"), client=LOCAL) as client:
        t = Table.create(client, "human")
        access.clear()
        r = client.get(f"/api/tables/{t.code}", headers={"X-Request-ID": "from-the-proxy-42"})
        assert r.headers["x-request-id"] == "from-the-proxy-42"
        made = client.get("/api/tables/NOSUCH")
        bad = client.get("/api/tables/NOSUCH", headers={"X-Request-ID": "two words\x7f"})
    given, missing, refused = lines(access)
    line = json.loads(JsonFormatter().format(given))
    assert line["request_id"] == "from-the-proxy-42"
    assert line["route"] == "/api/tables/{code}" and line["path"] == f"/api/tables/{t.code}"
    assert line["status"] == 200 and line["method"] == "GET"
    assert isinstance(line["duration"], float) and line["duration"] >= 0
    assert json.loads(JsonFormatter().format(missing))["status"] == 404
    for record, response in ((missing, made), (refused, bad)):
        rid = response.headers["x-request-id"]
        assert len(rid) == 32 and int(rid, 16) >= 0  # made here, not taken from the request
        assert record.__dict__["request_id"] == rid


def test_asyncio_reports_in_the_servers_json_lines_too(capsys: pytest.CaptureFixture[str]) -> None:
    """A task's exception that nobody retrieved is reported by asyncio's logger: the server's
    log keeps it as one of its JSON lines (a line of plain text would break every reader)."""
    config = uvicorn_log_config("info", json_lines=True)
    loggers = [logging.getLogger(name) for name in config["loggers"]]
    kept = [(log.handlers[:], log.propagate, log.level) for log in loggers]
    logging.config.dictConfig(config)
    try:
        logging.getLogger("asyncio").error("Task exception was never retrieved")
        lines = capsys.readouterr().err.splitlines()
    finally:  # the other tests' logging as it was
        for log, (handlers, propagate, level) in zip(loggers, kept, strict=True):
            log.handlers[:], log.propagate = handlers, propagate
            log.setLevel(level)
    record = json.loads(lines[-1])
    assert (record["level"], record["message"]) == ("error", "Task exception was never retrieved")

"""Security headers on every answer (the game's pages, their files, the API, errors and
/docs), and WebSockets refused to pages of other sites."""

from __future__ import annotations

import hashlib
import re
from base64 import b64encode
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from yacht.web.app import create_app
from yacht.web.settings import Settings

from ..helpers import Table, seed_maker


def policy(headers: object) -> dict[str, str]:
    csp = headers["content-security-policy"]  # type: ignore[index]
    parts = (p.strip().split(" ", 1) for p in csp.split(";") if p.strip())
    return {p[0]: p[1] if len(p) > 1 else "" for p in parts}


def common(headers: object) -> None:
    assert headers["x-content-type-options"] == "nosniff"  # type: ignore[index]
    assert headers["referrer-policy"] == "same-origin"  # type: ignore[index]
    assert headers["x-frame-options"] == "DENY"  # type: ignore[index]
    assert policy(headers)["frame-ancestors"] == "'none'"


def test_every_page_and_answer_carries_the_headers(client: TestClient) -> None:
    t = Table.create(client, "human")
    paths = [
        "/",
        "/games",
        f"/t/{t.code}",
        "/t/NOSUCH",
        "/games/1",
        "/static/style.css",
        "/static/js/table.js",
        "/api/presets",
        f"/api/tables/{t.code}",
        "/api/tables/NOSUCH",
        "/no/such/path",
        "/health",
        "/openapi.json",
    ]
    for path in paths:
        r = client.get(path)
        common(r.headers)
        rules = policy(r.headers)
        assert rules["script-src"] == "'self'", path
        assert "unsafe-inline" not in r.headers["content-security-policy"], path
        assert "unsafe-eval" not in r.headers["content-security-policy"], path
    r = client.post("/api/tables", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 422
    common(r.headers)


def test_the_pages_need_no_inline_script_or_style() -> None:
    static = Path(__file__).parents[3] / "src" / "yacht" / "web" / "static"
    for page in static.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), page.name
        assert not re.search(r"\sstyle=|<style", html), page.name
        assert not re.search(r"\son[a-z]+=", html), page.name
    for script in (static / "js").glob("*.js"):
        assert "style=" not in script.read_text(encoding="utf-8"), script.name


def test_the_api_page_allows_its_own_start_script_by_hash(client: TestClient) -> None:
    r = client.get("/docs")
    assert r.status_code == 200
    common(r.headers)
    scripts = policy(r.headers)["script-src"].split()
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", r.text, re.S)
    assert inline, "Swagger UI starts from an inline script"
    for body in inline:
        digest = b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in scripts
    assert "'unsafe-inline'" not in scripts


def test_a_websocket_from_a_page_of_another_site_is_refused(client: TestClient) -> None:
    t = Table.create(client, "human")
    url = f"/ws/tables/{t.code}"
    evil = {"origin": "https://evil.example"}
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(url, headers=evil) as ws,
    ):
        ws.receive_json()
    assert refused.value.code == 1008
    for origin in (None, "http://testserver"):  # no Origin (not a browser), the server's own
        headers = {"origin": origin} if origin else {}
        with client.websocket_connect(url, headers=headers) as ws:
            assert ws.receive_json()["type"] == "state"


def test_the_operator_may_allow_other_origins(tmp_path: Path) -> None:
    settings = Settings(prepare_tables=False, allowed_origins="https://play.example.org/")
    app = create_app(f"sqlite:///{tmp_path / 'o.sqlite3'}", settings=settings, seeds=seed_maker())
    with TestClient(app) as client:
        t = Table.create(client, "human")
        url = f"/ws/tables/{t.code}"
        with client.websocket_connect(url, headers={"origin": "https://play.example.org"}) as ws:
            assert ws.receive_json()["type"] == "state"
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(url, headers={"origin": "https://other.example.org"}) as ws,
        ):
            ws.receive_json()

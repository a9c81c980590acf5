"""The installable app's files as the server serves them: the manifest (its start URL and scope
under ``root_path``), the service worker (from the app's root, never cached by HTTP, its shell
filled in), the play page, and the strategy tables' cache headers."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from yacht.web.api.offline import SHELL, version
from yacht.web.app import create_app
from yacht.web.settings import Settings

from .helpers import seed_maker

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def under_yacht(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(prepare_tables=False, root_path="/yacht")
    app = create_app(f"sqlite:///{tmp_path / 'y.sqlite3'}", settings=settings, seeds=seed_maker())
    with TestClient(app) as client:
        yield client


def test_the_manifest_makes_the_play_page_an_app(client: TestClient) -> None:
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    assert r.headers["cache-control"] == "no-cache"
    m = r.json()
    assert (m["start_url"], m["scope"], m["id"]) == ("/play", "/", "/play")
    assert m["display"] == "standalone"
    assert m["name"] == m["short_name"] == "Yacht" and m["theme_color"] and m["background_color"]
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in m["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":  # a PNG's width and height, from its header
            side = int(icon["sizes"].split("x")[0])
            assert got.content[16:24] == side.to_bytes(4, "big") * 2, icon["src"]


def test_the_worker_is_served_from_the_root_and_never_cached(client: TestClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    assert f'const VERSION = "{version()}";' in r.text
    assert f"const SHELL = {json.dumps(SHELL)};" in r.text
    for url in SHELL:  # every file of the shell is there to be precached
        assert client.get(f"/{url}").status_code == 200, url


def test_the_pages_link_the_manifest(client: TestClient) -> None:
    for path in ("/play", "/"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
        assert '<link rel="manifest" href="manifest.webmanifest">' in r.text


def test_the_tables_are_cached_for_a_year_and_their_index_is_checked(client: TestClient) -> None:
    index = client.get("/static/tables/index.json")
    assert index.headers["cache-control"] == "no-cache"
    for preset in index.json()["presets"]:
        values = client.get(f"/static/tables/{preset['values']['file']}")
        assert values.status_code == 200 and len(values.content) == preset["values"]["bytes"]
        assert values.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert client.get("/static/tables/nothing.bin").status_code == 404
    assert "cache-control" not in client.get("/static/style.css").headers


def test_under_a_sub_path_the_app_and_its_worker_follow(under_yacht: TestClient) -> None:
    for prefix in ("/yacht", ""):  # a proxy that passes the prefix on, and one that strips it
        m = under_yacht.get(f"{prefix}/manifest.webmanifest").json()
        assert (m["start_url"], m["scope"], m["id"]) == ("/yacht/play", "/yacht/", "/yacht/play")
        assert all(i["src"].startswith("/yacht/static/") for i in m["icons"])
        assert under_yacht.get(f"{prefix}/sw.js").status_code == 200
        page = under_yacht.get(f"{prefix}/play")
        assert '<base href="/yacht/">' in page.text
        tables = under_yacht.get(f"{prefix}/static/tables/index.json")
        assert tables.status_code == 200 and tables.headers["cache-control"] == "no-cache"

"""The game under a sub-path (``root_path``): every page's ``<base href>`` carries it, requests are
routed with the prefix (a proxy that passes it on) and without it (a proxy that strips it), and no
page or script makes a URL that starts at the host's root."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from yacht.web.api.pages import BASE, STATIC
from yacht.web.app import create_app
from yacht.web.settings import Settings

from .helpers import seed_maker

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PAGES = sorted(STATIC.glob("*.html"))
SCRIPTS = sorted((STATIC / "js").glob("*.js"))

# A URL from the host's root: an attribute or a string starting with "/" and a path of ours.
ROOTED = re.compile(r"""(?:href|src|action)=["']/|["'`]/(?:api|static|ws|t|games|docs)\b""")


@pytest.fixture
def under_yacht(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(prepare_tables=False, root_path="/yacht")
    app = create_app(f"sqlite:///{tmp_path / 'y.sqlite3'}", settings=settings, seeds=seed_maker())
    with TestClient(app) as client:
        yield client


def test_every_page_has_the_base_before_any_url() -> None:
    for page in PAGES:
        text = page.read_text()
        head = text[: text.index("</head>")]
        assert head.count(BASE) == 1, page.name
        assert "href=" not in head[: head.index(BASE)] and "src=" not in head[: head.index(BASE)]


@pytest.mark.parametrize("path", [*PAGES, *SCRIPTS, STATIC / "style.css"], ids=lambda p: p.name)
def test_no_page_or_script_makes_a_url_from_the_host_root(path: Path) -> None:
    text = path.read_text().replace(BASE, "")
    found = [line.strip() for line in text.splitlines() if ROOTED.search(line)]
    assert found == [], f"{path.name}: URLs must be relative to the page's <base href>"


def test_at_the_root_the_pages_are_served_as_written(client: TestClient) -> None:
    for path in ("/", "/games", "/games/1"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
        assert BASE in r.text


@pytest.mark.parametrize("prefix", ["/yacht", ""], ids=["passed-on", "stripped"])
def test_under_a_sub_path_pages_static_files_and_api_answer(
    under_yacht: TestClient, prefix: str
) -> None:
    home = under_yacht.get(f"{prefix}/")
    assert (
        home.status_code == 200 and '<base href="/yacht/">' in home.text and BASE not in home.text
    )
    assert under_yacht.get(f"{prefix}/static/js/api.js").status_code == 200
    r = under_yacht.post(f"{prefix}/api/tables", json={"seats": [{"kind": "human"}] * 2})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    table = under_yacht.get(f"{prefix}/t/{code}")
    assert table.status_code == 200 and '<base href="/yacht/">' in table.text
    assert under_yacht.get(f"{prefix}/t/NOSUCH").status_code == 404
    with under_yacht.websocket_connect(f"{prefix}/ws/tables/{code}") as ws:
        assert ws.receive_json()["table"]["code"] == code
    docs = under_yacht.get(f"{prefix}/docs").text
    assert "/yacht/openapi.json" in docs and "/yacht/docs/assets/swagger-ui-bundle.js" in docs


def test_a_root_path_is_a_path() -> None:
    for wrong in ("yacht", "/yacht/", "/ya cht", "/a/../b?x"):
        with pytest.raises(ValueError):
            Settings(root_path=wrong)
    assert Settings(root_path="/games/yacht").root_path == "/games/yacht"

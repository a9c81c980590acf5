"""Hostile input on the profiles and the leaderboard: a deleted account's name finds nothing
(no profile, no games, no line on the board, the page answers 404); a name that looks like an
account's finds that account and no other, and one that looks like none finds nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from ..account_helpers import PASSWORD, Site, error, site
from ..test_rated import play_out, rated_pair


@pytest.fixture
def web(db: Path) -> Iterator[Site]:
    with site(db) as opened:
        yield opened


def test_a_deleted_accounts_name_has_no_profile_games_or_line(web: Site) -> None:
    code, players = rated_pair(web)
    play_out(code, players)
    guest = web.device("192.0.2.8")
    assert {p["name"] for p in guest.get("/api/leaderboard").json()["players"]} == {"Ann", "Bob"}
    ann = players[0][0]
    assert ann.delete("/api/me", {"password": PASSWORD}).status_code == 204
    for name in ("Ann", "ann", "\u0410nn"):
        assert error(guest.get(f"/api/players/{name}")) == (404, "not_found")
        assert error(guest.get(f"/api/players/{name}/games")) == (404, "not_found")
        page = guest.get(f"/@/{name}")
        assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert [p["name"] for p in guest.get("/api/leaderboard").json()["players"]] == ["Bob"]
    assert guest.get("/@/Bob").status_code == 200
    again = web.device("192.0.2.9").post("/api/accounts", {"name": "ANN", "password": PASSWORD})
    assert error(again) == (409, "name_taken")  # nobody else can take the name and the page


def test_a_look_alike_finds_the_right_account_or_none(web: Site) -> None:
    web.device().sign_up("Ann")
    web.device("198.51.100.2").sign_up("Anna")
    guest = web.device("192.0.2.8")
    for look_alike in ("ann", "ANN", "\u0410nn", "\uff21nn", " Ann "):  # Cyrillic A, fullwidth A
        r = guest.get(f"/api/players/{quote(look_alike)}")
        assert r.status_code == 200 and r.json()["name"] == "Ann", look_alike
    assert guest.get("/api/players/\u0410nna").json()["name"] == "Anna"
    for nobody in ("Ann\u200b", "Ann\u202e", "An", "Annna", "Ann\x00", "Bob"):
        assert error(guest.get(f"/api/players/{quote(nobody)}")) == (404, "not_found"), nobody
        assert guest.get(f"/@/{quote(nobody)}").status_code == 404

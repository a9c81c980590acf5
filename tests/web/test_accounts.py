"""Accounts as a player uses them through the API: sign up, in and out, who am I, change and
recover the password, delete the account (games kept under "deleted player"), download one's
data, a seat that follows the account to another device, a guest's seats claimed, and the
operator's password reset."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.web.app import create_app
from yacht.web.settings import Settings
from yacht.web.storage.accounts import DELETED_NAME

from .account_helpers import PASSWORD, Site, error, site
from .helpers import seed_maker

CODE = re.compile(r"^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$")


@pytest.fixture
def web(db: Path) -> Iterator[Site]:
    with site(db) as opened:
        yield opened


def test_sign_up_signs_in_and_me_names_the_player(web: Site) -> None:
    ann = web.device()
    r = ann.post("/api/accounts", {"name": "  Ann ", "password": PASSWORD})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["name"] == "Ann" and CODE.match(made["recovery_code"])
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("yacht_session=") and "HttpOnly" in cookie
    assert "samesite=lax" in cookie.lower() and "Path=/" in cookie and "Secure" not in cookie
    assert r.headers["cache-control"] == "no-store"
    me = ann.me().json()
    assert me == {"name": "Ann", "created": made["created"], "csrf_token": made["csrf_token"]}
    assert error(web.device("198.51.100.9").me()) == (401, "unauthorized")


def test_sign_in_and_out(web: Site) -> None:
    web.device().sign_up("Ann")
    phone = web.device("198.51.100.2")
    r = phone.sign_in("ann")  # a name is found by how it looks: case does not matter
    assert r.status_code == 200 and r.json()["name"] == "Ann"
    assert phone.me().json()["name"] == "Ann"
    cookie = phone.session
    r = phone.delete("/api/session")
    assert r.status_code == 204 and "yacht_session=" in r.headers["set-cookie"]
    assert error(phone.me()) == (401, "unauthorized")
    phone.plant(cookie or "")  # the old cookie, kept: the session is over
    assert error(phone.me()) == (401, "unauthorized")
    assert error(phone.sign_in("Ann", "not the password")) == (401, "unauthorized")


def test_change_password_needs_the_old_one_and_signs_out_other_devices(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    phone = web.device("198.51.100.2")
    assert phone.sign_in("Ann").status_code == 200
    wrong = ann.post("/api/me/password", {"old_password": "guessed it", "new_password": "x" * 8})
    assert error(wrong) == (401, "unauthorized")
    r = ann.post("/api/me/password", {"old_password": PASSWORD, "new_password": "new pass phrase"})
    assert r.status_code == 200, r.text
    assert ann.me().json()["name"] == "Ann"  # this browser stays signed in, on a new session
    assert error(phone.me()) == (401, "unauthorized")  # the other device is signed out
    assert error(phone.sign_in("Ann")) == (401, "unauthorized")
    assert phone.sign_in("Ann", "new pass phrase").status_code == 200


def test_the_recovery_code_sets_a_new_password_once(web: Site) -> None:
    ann = web.device()
    code = ann.sign_up("Ann")["recovery_code"]
    lost = web.device("198.51.100.2")
    body = {"name": "Ann", "recovery_code": "AAAAA-AAAAA-AAAAA-AAAAA", "new_password": "x" * 8}
    assert error(lost.post("/api/accounts/recover", body)) == (401, "unauthorized")
    body = {"name": "Ann", "recovery_code": code.lower(), "new_password": "back in again"}
    r = lost.post("/api/accounts/recover", body)
    assert r.status_code == 200, r.text
    fresh = r.json()["recovery_code"]
    assert CODE.match(fresh) and fresh != code
    assert lost.me().json()["name"] == "Ann"
    assert error(ann.me()) == (401, "unauthorized")  # every other session ended
    assert error(lost.post("/api/accounts/recover", body)) == (401, "unauthorized")  # spent
    assert lost.sign_in("Ann", "back in again").status_code == 200


def test_deleting_the_account_keeps_its_games_under_deleted_player(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    code = ann.table("human")  # a game of one: its review is quick to make
    token = ann.join(code, 0)
    while ann.get(f"/api/tables/{code}").json()["game"]["status"] != "finished":
        rolled = ann.act(code, 0, token, {"kind": "roll"}).json()["game"]
        category = next(iter(rolled["potentials"]))
        assert ann.act(code, 0, token, {"kind": "score", "category": category}).is_success
    portal = web.http.portal
    assert portal is not None
    portal.call(web.app.state.runner.idle)  # the game's review written
    game_id = ann.get("/api/games").json()[0]["id"]
    assert ann.get(f"/api/games/{game_id}").json()["players"][0] == "Ann"

    r = ann.delete("/api/me", {"password": "not it"})
    assert error(r) == (401, "unauthorized")
    r = ann.delete("/api/me", {"password": PASSWORD})
    assert r.status_code == 204, r.text
    assert error(ann.me()) == (401, "unauthorized")
    assert ann.get(f"/api/games/{game_id}").json()["players"] == [DELETED_NAME]
    replay = ann.get(f"/api/games/{game_id}/replay").json()
    assert replay["players"][0] == DELETED_NAME
    review = ann.get(f"/api/games/{game_id}/review").json()
    assert [p["name"] for p in review["players"]] == [DELETED_NAME]
    assert ann.get(f"/api/tables/{code}").json()["seats"][0]["name"] == DELETED_NAME
    # the name stays taken: nobody can pass for the player who left
    again = ann.post("/api/accounts", {"name": "Ann", "password": PASSWORD})
    assert error(again) == (409, "name_taken")
    assert error(ann.sign_in("Ann")) == (401, "unauthorized")


def test_my_data_is_one_json_file_with_my_games(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    code = ann.table("human", "human")
    ann.join(code, 0)
    r = ann.get("/api/me/data")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="yacht-account.json"'
    data = r.json()
    assert data["format"] == "yacht-account" and data["account"]["name"] == "Ann"
    assert [(s["table"], s["seat"], s["name"]) for s in data["seats"]] == [(code, 0, "Ann")]
    assert [(g["table"], g["seats"], g["status"]) for g in data["games"]] == [
        (code, [0], "waiting")
    ]
    assert [s["this_browser"] for s in data["sessions"]] == [True]
    text = r.text
    assert ann.session is not None and ann.session not in text
    assert "argon2" not in text and "csrf" not in text  # no hash, no token


def test_the_seat_follows_the_account_to_another_device(web: Site) -> None:
    laptop = web.device()
    laptop.sign_up("Ann")
    code = laptop.table("human", "human")
    r = laptop.post(f"/api/tables/{code}/join", {"seat": 0, "name": "whatever"})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    assert r.json()["table"]["seats"][0]["name"] == "Ann"  # the account's name
    web.device("198.51.100.7").join(code, 1, "Bob")

    phone = web.device("198.51.100.2")
    assert error(phone.get(f"/api/tables/{code}/mine")) == (401, "unauthorized")
    assert phone.sign_in("Ann").status_code == 200
    mine = phone.get(f"/api/tables/{code}/mine").json()
    assert mine == {"code": code, "seats": {"0": token}}
    assert phone.act(code, 0, mine["seats"]["0"], {"kind": "roll"}).status_code == 200
    assert phone.get(f"/api/tables/{code.lower()}/mine").json()["seats"] == {"0": token}
    assert error(phone.get("/api/tables/ZZZZZZ/mine")) == (404, "not_found")


def test_a_guest_who_signs_up_keeps_the_seats_the_browser_holds(web: Site) -> None:
    guest = web.device()
    first = guest.table("human", "human")
    second = guest.table("human", "human")
    kept = guest.join(first, 0, "Zoë")
    other = web.device("198.51.100.7")
    theirs = other.join(second, 1, "Bob")
    guest.sign_up("Zoe")
    claim = {first: {"0": kept, "1": "not a token"}, second: {"1": "stolen?"}, "ZZZZZZ": {"0": "x"}}
    r = guest.post("/api/me/seats", claim)
    assert r.status_code == 200, r.text
    seats = r.json()["seats"]
    assert list(seats) == [first] and list(seats[first]) == ["0"]
    # the browser's own token still holds the seat (refused only because nobody sits at 1)
    assert error(guest.act(first, 0, kept, {"kind": "roll"})) == (409, "not_started")
    phone = web.device("198.51.100.2")
    phone.sign_in("Zoe")
    assert phone.get(f"/api/tables/{first}/mine").json()["seats"] == seats[first]
    assert phone.get(f"/api/tables/{second}/mine").json()["seats"] == {}
    assert guest.get(f"/api/tables/{first}").json()["seats"][0]["name"] == "Zoë"  # kept
    assert error(other.act(second, 1, theirs, {"kind": "roll"})) == (409, "not_started")


def test_the_operator_resets_a_password_with_a_new_recovery_code(
    db: Path, web: Site, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YACHT_LANG", "en")
    ann = web.device()
    ann.sign_up("Ann")
    assert main(["admin", "reset-password", "ANN", "--database", f"sqlite:///{db}"]) == 0
    printed = capsys.readouterr().out
    code = re.search(r"[0-9A-Z]{5}(-[0-9A-Z]{5}){3}", printed)
    assert code is not None and "Ann" in printed
    assert error(ann.me()) == (401, "unauthorized")  # signed out everywhere
    assert error(ann.sign_in("Ann")) == (401, "unauthorized")  # the old password is gone
    body = {"name": "Ann", "recovery_code": code.group(0), "new_password": "chosen again"}
    assert ann.post("/api/accounts/recover", body).status_code == 200
    assert main(["admin", "reset-password", "Nobody", "--database", f"sqlite:///{db}"]) == 2
    assert "no account named Nobody" in capsys.readouterr().err


@pytest.mark.services
def test_accounts_on_postgresql() -> None:
    """The account store's statements on PostgreSQL: sign up, a look-alike refused by the
    unique skeleton, a NUL that never reaches the database, a seat that follows the account,
    a claim, the export, and a deletion that renames the games' players."""
    base = os.environ.get("YACHT_TEST_POSTGRES_URL")
    if not base:
        pytest.skip("PostgreSQL not running: `make services` starts it")
    from scale.services import fresh_database

    with fresh_database(base) as url:
        app = create_app(url, settings=Settings(prepare_tables=False), seeds=seed_maker())
        with site(app) as web:
            ann = web.device()
            ann.sign_up("Ann")
            again = web.device("198.51.100.2").post(
                "/api/accounts", {"name": "\u0410NN", "password": PASSWORD}
            )
            assert error(again) == (409, "name_taken")
            before = web.hasher.verifies
            assert error(web.device("198.51.100.3").sign_in("Ann\x00")) == (401, "unauthorized")
            assert web.hasher.verifies == before + 1
            guest = web.device("198.51.100.4")
            code = guest.table("human", "human")
            kept = guest.join(code, 1, "Bob")
            token = ann.join(code, 0)
            phone = web.device("198.51.100.5")
            assert phone.sign_in("ann").status_code == 200
            assert phone.get(f"/api/tables/{code}/mine").json()["seats"] == {"0": token}
            assert phone.act(code, 0, token, {"kind": "roll"}).status_code == 200
            guest.sign_up("Bobby")
            claimed = guest.post("/api/me/seats", {code: {"1": kept}}).json()["seats"]
            assert list(claimed[code]) == ["1"]
            data = ann.get("/api/me/data").json()
            assert [g["seats"] for g in data["games"]] == [[0]]
            assert data["games"][0]["file"]["players"] == ["Ann", "Bob"]
            assert ann.delete("/api/me", {"password": PASSWORD}).status_code == 204
            state = guest.get(f"/api/tables/{code}").json()
            assert [s["name"] for s in state["seats"]] == [DELETED_NAME, "Bob"]
            game = guest.get(f"/api/tables/{code}/game.json").json()
            assert game["players"] == [DELETED_NAME, "Bob"]
            assert error(phone.me()) == (401, "unauthorized")
            assert guest.get(f"/api/tables/{code}/mine").json()["seats"] == {
                "1": claimed[code]["1"]
            }


def test_a_review_made_while_its_player_deleted_the_account_is_kept_under_deleted_player() -> None:
    """The review of a game is made from the game as it ended; if the account went in the
    meantime, the review is stored under the seat's new name."""
    from yacht.web.service import decisions
    from yacht.web.storage.models import GameRow, SeatRow, TableRow, snapshot_row
    from yacht.web.storage.store import TableSnapshot

    seats = (
        snapshot_row(SeatRow, {"position": 0, "name": DELETED_NAME, "kind": "human"}),
        snapshot_row(SeatRow, {"position": 1, "name": "Bob", "kind": "human"}),
    )
    snap = TableSnapshot(
        snapshot_row(TableRow, {"code": "ABCDEF"}),
        seats,
        snapshot_row(GameRow, {"number": 1, "status": "finished", "review": None}),
    )
    review = {"players": [{"player": 0, "name": "Ann"}, {"player": 1, "name": "Bob"}]}
    stored = decisions.keep_review(snap, None, 1, review).game["review"]
    assert [p["name"] for p in stored["players"]] == [DELETED_NAME, "Bob"]

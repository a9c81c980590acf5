"""Accounts under attack: session fixation, CSRF (missing, wrong, another session's, a stolen
cookie without the token), sign-in brute force (refused, while the victim signs in from their
own client), equal work for known and unknown names (argon2 verifies counted, answers compared
byte for byte), names that are markup, look-alikes or reserved, a deleted account's sessions,
a signed-in player acting for another seat, and bodies that are too big or not bodies at all
(422, nothing changed)."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal

import pytest
from sqlalchemy import create_engine, text

from yacht.web.edge.limits import QUOTAS

from ..account_helpers import PASSWORD, Device, Site, error, site


@pytest.fixture
def web(db: Path) -> Iterator[Site]:
    with site(db) as opened:
        yield opened


def _sessions(db: Path) -> list[str]:
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        found = [r[0] for r in c.execute(text("SELECT id_hash FROM sessions"))]
    engine.dispose()
    return found


def _accounts(db: Path) -> int:
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        count = int(c.execute(text("SELECT count(*) FROM accounts")).scalar_one())
    engine.dispose()
    return count


# --- sessions --------------------------------------------------------------------------------


def test_a_session_id_planted_before_sign_in_is_never_the_session(web: Site, db: Path) -> None:
    web.device().sign_up("Ann")
    victim = web.device("198.51.100.2")
    victim.plant("planted-by-the-attacker")
    assert error(victim.me()) == (401, "unauthorized")  # not a session: a guest
    assert victim.sign_in("Ann").status_code == 200
    assert victim.session not in (None, "planted-by-the-attacker")
    attacker = web.device("203.0.113.66")
    attacker.plant("planted-by-the-attacker")
    assert error(attacker.me()) == (401, "unauthorized")
    # and a sign-in on a signed-in browser starts a new session: the old id is dead
    before = victim.session
    assert victim.sign_in("Ann").status_code == 200
    assert victim.session != before
    stale = web.device("198.51.100.3")
    stale.plant(before or "")
    assert error(stale.me()) == (401, "unauthorized")


def test_only_the_sha256_of_a_session_id_is_stored(web: Site, db: Path) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    assert ann.session is not None
    assert _sessions(db) == [hashlib.sha256(ann.session.encode()).hexdigest()]


def test_over_https_the_cookie_is_host_only_and_secure(tmp_path: Path) -> None:
    with site(tmp_path / "s.sqlite3", https=True) as web:
        ann = web.device()
        r = ann.post("/api/accounts", {"name": "Ann", "password": PASSWORD})
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("__Host-yacht_session=")
        assert "Secure" in cookie and "Path=/" in cookie and "Domain" not in cookie
        assert ann.me().json()["name"] == "Ann"
        # a plain-HTTP cookie (one a page of the host without TLS could have set) is not read
        other = web.device("198.51.100.2")
        other.plant(ann.session or "")
        assert error(other.me()) == (401, "unauthorized")


def test_a_deleted_accounts_sessions_are_dead(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    phone = web.device("198.51.100.2")
    phone.sign_in("Ann")
    kept = ann.session
    assert ann.delete("/api/me", {"password": PASSWORD}).status_code == 204
    assert error(phone.me()) == (401, "unauthorized")
    ann.plant(kept or "")
    assert error(ann.me()) == (401, "unauthorized")
    assert error(ann.get("/api/me/data")) == (401, "unauthorized")
    # the deleted name signs nobody in, and costs the same one verify as any wrong name
    before = web.hasher.verifies
    assert error(ann.sign_in("Ann")) == (401, "unauthorized")
    assert web.hasher.verifies == before + 1


# --- CSRF ------------------------------------------------------------------------------------


def _changes(device: Device, csrf: bool | str, code: str, token: str) -> list[tuple[int, str]]:
    """Every cookie-authenticated change, made with ``csrf`` (False: no header)."""
    return [
        error(
            device.post(
                "/api/me/password", {"old_password": PASSWORD, "new_password": "x" * 9}, csrf=csrf
            )
        ),
        error(device.delete("/api/me", {"password": PASSWORD}, csrf=csrf)),
        error(device.post("/api/me/seats", {code: {"1": token}}, csrf=csrf)),
        error(device.post(f"/api/tables/{code}/join", {"seat": 0, "name": "Ann"}, csrf=csrf)),
        error(device.delete("/api/session", csrf=csrf)),
    ]


def test_a_change_without_the_csrf_token_is_refused_and_changes_nothing(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    other = web.device("198.51.100.9")
    other.sign_up("Bob")  # another account's token
    phone = web.device("198.51.100.2")
    phone.sign_in("Ann")  # another session of the same account: its token is not this one's
    guest = web.device("198.51.100.3")
    code = guest.table("human", "human")
    token = guest.join(code, 1, "Zoë")
    assert phone.csrf != ann.csrf
    for csrf in (False, "wrong", other.csrf or "", phone.csrf or ""):
        assert _changes(ann, csrf, code, token) == [(403, "csrf")] * 5, csrf
    # nothing changed: the same password, the account there, no seat taken, still signed in
    assert ann.me().json()["name"] == "Ann"
    assert web.device("198.51.100.4").sign_in("Ann").status_code == 200
    seats = guest.get(f"/api/tables/{code}").json()["seats"]
    assert [s["taken"] for s in seats] == [False, True]
    assert ann.get(f"/api/tables/{code}/mine").json()["seats"] == {}
    # with the token, the same request goes through
    assert ann.post(f"/api/tables/{code}/join", {"seat": 0, "name": "Ann"}).status_code == 200


def test_a_stolen_cookie_without_the_token_changes_nothing(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    thief = web.device("203.0.113.66")
    thief.plant(ann.session or "")  # the cookie, sent by another site's page
    body = {"old_password": PASSWORD, "new_password": "owned it now"}
    assert error(thief.post("/api/me/password", body)) == (403, "csrf")
    assert error(thief.delete("/api/me", {"password": PASSWORD})) == (403, "csrf")
    assert ann.me().status_code == 200
    assert web.device("198.51.100.4").sign_in("Ann").status_code == 200


def test_a_guest_without_a_cookie_is_not_asked_for_a_token(web: Site) -> None:
    guest = web.device()
    code = guest.table("human", "human")
    token = guest.join(code, 0, "Zoë")  # no cookie, no header: as before accounts
    guest.join(code, 1, "Bob")
    assert guest.act(code, 0, token, {"kind": "roll"}).status_code == 200
    # a cookie of no session is no sign-in: cleared, and the request is a guest's
    code = guest.table("human", "human")
    guest.plant("expired-or-made-up")
    r = guest.post(f"/api/tables/{code}/join", {"seat": 0, "name": "Zoë"})
    assert r.status_code == 200 and 'yacht_session=""' in r.headers["set-cookie"]
    guest.plant("expired-or-made-up")  # opening a table too
    r = guest.post("/api/tables", {"seats": [{"kind": "human"}]})
    assert r.status_code == 201 and 'yacht_session=""' in r.headers["set-cookie"]


def test_a_cross_site_form_cannot_sign_anyone_in(web: Site) -> None:
    """A form on another site can post text/plain, not JSON: the body is not read."""
    web.device().sign_up("Ann")
    victim = web.device("198.51.100.2")
    r = victim.request(
        "POST",
        "/api/session",
        content=b'{"name": "Ann", "password": "correct horse battery"}',
        headers={"content-type": "text/plain"},
    )
    assert error(r) == (422, "invalid") and "set-cookie" not in r.headers


# --- brute force and equal work --------------------------------------------------------------


def test_brute_force_is_refused_and_the_victim_still_signs_in_from_home(web: Site) -> None:
    web.device().sign_up("Ann")
    attacker = web.device("203.0.113.66")
    answers = [
        error(attacker.sign_in("Ann", f"guess {i}")) for i in range(QUOTAS["signin_name"].burst + 1)
    ]
    assert answers[:-1] == [(401, "unauthorized")] * QUOTAS["signin_name"].burst
    assert answers[-1] == (429, "rate_limited")
    assert error(attacker.sign_in("Ann")) == (429, "rate_limited")  # even the right one
    home = web.device("198.51.100.2")
    assert home.sign_in("Ann").status_code == 200  # the victim is not locked out
    # spraying many names from one client meets the per-client limit
    sprayer = web.device("203.0.113.77")
    said = [error(sprayer.sign_in(f"Name{i}", "guess")) for i in range(QUOTAS["signin"].burst)]
    assert set(said) == {(401, "unauthorized")}
    assert error(sprayer.sign_in("Another", "guess")) == (429, "rate_limited")
    assert web.device("198.51.100.3").sign_in("Ann").status_code == 200


def test_sign_ups_are_limited_per_client(web: Site, db: Path) -> None:
    many = web.device("203.0.113.88")
    for i in range(QUOTAS["signup"].burst):
        many.sign_up(f"Player{i}")
    r = many.post("/api/accounts", {"name": "OneMore", "password": PASSWORD})
    assert error(r) == (429, "rate_limited")
    assert _accounts(db) == QUOTAS["signup"].burst
    web.device("198.51.100.2").sign_up("Elsewhere")


def test_a_flood_of_sign_ins_is_refused_and_never_stalls_the_moves(web: Site) -> None:
    """argon2 runs on the hashing threads: while they are all taken, a move goes through, and
    one more sign-in is refused at once (503 ``busy``) instead of queueing without end."""
    web.device().sign_up("Ann")
    hashing = web.app.state.service.accounts.hashing
    hashing.slots = 1  # one hash at a time, none waiting (the server's default: 9 per thread)
    started, gate = threading.Event(), threading.Event()
    verify = web.hasher.verify

    def held(hash: str | bytes, password: str | bytes) -> Literal[True]:
        started.set()
        gate.wait(30)
        return verify(hash, password)

    web.hasher.verify = held  # type: ignore[method-assign]
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(web.device("198.51.100.2").sign_in, "Ann")
        assert started.wait(30)  # a sign-in is hashing, and stays there until the gate opens
        guest = web.device("198.51.100.3")
        code = guest.table("human")
        token = guest.join(code, 0, "Zoë")
        assert guest.act(code, 0, token, {"kind": "roll"}).status_code == 200  # moves go on
        before = web.hasher.verifies
        assert error(web.device("198.51.100.4").sign_in("Ann")) == (503, "busy")
        assert web.hasher.verifies == before  # refused before any argon2 work
        gate.set()
        assert pending.result(30).status_code == 200


def test_known_and_unknown_names_cost_one_verify_and_get_the_same_answer(web: Site) -> None:
    web.device().sign_up("Ann")
    deleted = web.device("198.51.100.5")
    deleted.sign_up("Gone")
    deleted.delete("/api/me", {"password": PASSWORD})
    answers = {}
    for i, name in enumerate(["Ann", "Nobody", "Gone", "\u202eBad", "x" * 60]):
        who = web.device(f"198.51.100.{20 + i}")
        before = web.hasher.verifies
        r = who.sign_in(name, "wrong password")
        assert web.hasher.verifies - before == 1, name
        answers[name] = (r.status_code, r.content, r.headers.get("set-cookie"))
    assert len(set(answers.values())) == 1, answers
    before = web.hasher.verifies
    assert web.device("198.51.100.40").sign_in("Ann").status_code == 200
    assert web.hasher.verifies - before == 1
    # recovery codes too
    body = {"recovery_code": "AAAAA-AAAAA-AAAAA-AAAAA", "new_password": "y" * 8}
    said = set()
    for i, name in enumerate(["Ann", "Nobody", "Gone"]):
        before = web.hasher.verifies
        r = web.device(f"198.51.100.{50 + i}").post("/api/accounts/recover", {"name": name, **body})
        assert web.hasher.verifies - before == 1, name
        said.add((r.status_code, r.content))
    assert len(said) == 1 and next(iter(said))[0] == 401


def test_the_refusal_is_in_the_readers_language(web: Site) -> None:
    r = web.device().request(
        "POST",
        "/api/session",
        {"name": "Nobody", "password": "wrong password"},
        headers={"accept-language": "fi"},
    )
    body = r.json()
    assert body["code"] == "unauthorized" and body["message"] == "wrong name or password"
    assert body["detail"] and body["detail"] != body["message"]


# --- names -----------------------------------------------------------------------------------

MARKUP = ["<script>alert(1)</script>", "Ann<img src=x>", "Tom & Jerry", '"Ann"', "x/y", "@ann"]
ALIKE = ["ANN", "ann", "\u0410nn", "\uff21\uff4e\uff4e", " Ann "]
RESERVED = [
    "admin",
    "Administrator",
    "ADMIN",
    "\u0430dmin",
    "deleted player",
    "Guest",
    "moderator",
    "system",
    "Yacht",
    "medium",
    "Medium bot",
    "Medium bot 2",
    "optimal",
]


@pytest.mark.parametrize("name", MARKUP)
def test_a_name_that_is_markup_is_refused(web: Site, db: Path, name: str) -> None:
    r = web.device().post("/api/accounts", {"name": name, "password": PASSWORD})
    assert error(r) == (422, "invalid"), r.text
    assert _accounts(db) == 0


def test_a_look_alike_of_an_account_name_is_refused(web: Site, db: Path) -> None:
    web.device().sign_up("Ann")
    for i, name in enumerate(ALIKE):
        r = web.device(f"198.51.100.{i + 1}").post(
            "/api/accounts", {"name": name, "password": PASSWORD}
        )
        assert error(r) == (409, "name_taken"), name
    assert _accounts(db) == 1
    web.device("198.51.100.20").sign_up("Mika")
    for name in ("MIKA", "mika", "M\u0406KA"):  # case, and a Cyrillic I (U+0406), with an i in it
        r = web.device("198.51.100.21").post("/api/accounts", {"name": name, "password": PASSWORD})
        assert error(r) == (409, "name_taken"), name
    # nor may a guest sit under it at a table (or give it to a bot)
    guest = web.device("198.51.100.30")
    code = guest.table("human", "human")
    r = guest.post(f"/api/tables/{code}/join", {"seat": 0, "name": "\u0410NN"})
    assert error(r) == (409, "name_taken")
    r = guest.post("/api/tables", {"seats": [{"kind": "bot", "bot": "greedy", "name": "Ann"}]})
    assert error(r) == (409, "name_taken")
    assert guest.get(f"/api/tables/{code}").json()["seats"][0]["taken"] is False


@pytest.mark.parametrize("name", RESERVED)
def test_a_reserved_name_is_refused(web: Site, db: Path, name: str) -> None:
    r = web.device().post("/api/accounts", {"name": name, "password": PASSWORD})
    assert error(r) == (409, "name_taken"), r.text
    assert _accounts(db) == 0


# --- seats -----------------------------------------------------------------------------------


def test_a_signed_in_player_cannot_act_for_another_seat(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    code = ann.table("human", "human")
    mine = ann.join(code, 0)
    bob = web.device("198.51.100.2")
    bob.join(code, 1, "Bob")
    assert ann.act(code, 0, mine, {"kind": "roll"}).status_code == 200  # her own seat
    assert error(ann.act(code, 1, mine, {"kind": "roll"})) == (403, "bad_token")
    assert error(ann.act(code, 1, "", {"kind": "roll"})) == (403, "spectator")
    # her account holds seat 0 only, and another account holds nothing here
    assert ann.get(f"/api/tables/{code}/mine").json()["seats"] == {"0": mine}
    eve = web.device("203.0.113.66")
    eve.sign_up("Eve")
    assert eve.get(f"/api/tables/{code}/mine").json()["seats"] == {}
    r = eve.post("/api/me/seats", {code: {"0": "guessed", "1": mine}})
    assert r.json()["seats"] == {}  # Ann's token names seat 0, not 1; a guess names nothing
    r = eve.post("/api/me/seats", {code: {"0": mine}})  # a token of a seat Ann's account holds
    assert r.json()["seats"] == {}
    assert ann.get(f"/api/tables/{code}/mine").json()["seats"] == {"0": mine}


# --- bodies ----------------------------------------------------------------------------------

BAD_SIGN_UPS = [
    {"name": "Ann", "password": "x" * 129},
    {"name": "Ann", "password": "short"},
    {"name": "A" * 200, "password": PASSWORD},
    {"name": "Ann"},
    {"name": 7, "password": PASSWORD},
    {"name": "Ann", "password": PASSWORD, "admin": True},
    ["Ann", PASSWORD],
    "Ann",
]


@pytest.mark.parametrize("body", BAD_SIGN_UPS, ids=range(len(BAD_SIGN_UPS)))
def test_a_bad_sign_up_body_is_invalid_and_makes_nothing(web: Site, db: Path, body: object) -> None:
    r = web.device().post("/api/accounts", body)
    assert error(r) == (422, "invalid"), r.text
    assert "set-cookie" not in r.headers and _accounts(db) == 0


def test_bad_bodies_of_the_signed_in_requests_change_nothing(web: Site, db: Path) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    code = ann.table("human", "human")
    cases = [
        ("POST", "/api/me/password", {"old_password": PASSWORD, "new_password": "x" * 129}),
        ("POST", "/api/me/password", {"old_password": PASSWORD}),
        ("DELETE", "/api/me", {"password": "x" * 500}),
        ("DELETE", "/api/me", None),
        ("POST", "/api/me/seats", {code: {"7": "token"}}),
        ("POST", "/api/me/seats", {"not a code!": {"0": "token"}}),
        ("POST", "/api/me/seats", {f"T{i:05d}": {"0": "t"} for i in range(51)}),
        ("POST", "/api/me/seats", {code: {"0": "t" * 201}}),
        (
            "POST",
            "/api/accounts/recover",
            {"name": "Ann", "recovery_code": "x" * 65, "new_password": "y" * 8},
        ),
        ("POST", "/api/session", {"name": "Ann", "password": "p" * 129}),
    ]
    for method, path, body in cases:
        r = ann.request(method, path, body)
        assert error(r) == (422, "invalid"), (path, body, r.text)
    big = ann.request(
        "POST", "/api/me/password", {"old_password": PASSWORD, "new_password": "z" * 70_000}
    )
    assert error(big) == (413, "too_large")
    assert ann.me().json()["name"] == "Ann"
    assert ann.get(f"/api/tables/{code}/mine").json()["seats"] == {}
    assert web.device("198.51.100.2").sign_in("Ann").status_code == 200  # same password
    assert _accounts(db) == 1

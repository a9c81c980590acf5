"""Web Push through the API, end to end without the internet: a signed-in player's devices
subscribe with keys the test makes; a correspondence move that gives them the turn writes the
message in its own transaction, and the sender (never the move) posts it to a push service on
127.0.0.1, which checks the VAPID JWT and decrypts "Your turn" in each device's language.
Deadline warnings (12 h, 1 h) and the game's end; 404/410 remove a subscription; a failure is
tried again later; the key is the same after a restart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import create_engine, text

from yacht.web.app import create_app
from yacht.web.service.correspondence import DAY
from yacht.web.settings import Settings

from .account_helpers import Device, Site, site
from .helpers import seed_maker, sqlite_value
from .pushservice import PushService, check_vapid
from .test_correspondence import Clock, play_out


def push_app(db: Path) -> FastAPI:
    """An app that may post to 127.0.0.1; its sender is run by the test (``send``)."""
    settings = Settings(prepare_tables=False, push_loopback=True, push_send=False)
    return create_app(f"sqlite:///{db}", settings=settings, seeds=seed_maker(0), bot_delay=0.0)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def web(db: Path, clock: Clock) -> Iterator[Site]:
    with site(push_app(db)) as opened:
        opened.app.state.service.clock = clock
        yield opened


@pytest.fixture
def pushes() -> Iterator[PushService]:
    with PushService() as service:
        yield service


def send(web: Site) -> int:
    """The sender's look at the outbox (what each process's task does when woken)."""
    portal = web.http.portal
    assert portal is not None
    sent: int = portal.call(web.app.state.service.push.look)
    return sent


def outbox(db: Path) -> list[Any]:
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        rows = list(c.execute(text("SELECT kind, attempts, due FROM push_outbox")).all())
    engine.dispose()
    return rows


def subscriptions(db: Path) -> int:
    return int(sqlite_value(db, "SELECT count(*) FROM push_subscriptions"))


def move(device: Device, code: str, seat: int, token: str) -> None:
    """Roll once and score the first open category: the turn passes."""
    r = device.act(code, seat, token, {"kind": "roll"})
    assert r.status_code == 200, r.text
    category = next(iter(r.json()["game"]["potentials"]))
    r = device.act(code, seat, token, {"kind": "score", "category": category})
    assert r.status_code == 200, r.text


def two_players(web: Site) -> tuple[Device, Device, str, str, str]:
    ann, bob = web.device(), web.device("198.51.100.2")
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    code = ann.table("human", "human", move_days=2)
    return ann, bob, code, ann.join(code, 0, "Ann"), bob.join(code, 1, "Bob")


def test_your_turn_reaches_each_device_in_its_language_signed_and_encrypted(
    web: Site, pushes: PushService, db: Path
) -> None:
    ann, bob = web.device(), web.device("198.51.100.2")
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    key = ann.get("/api/push/key").json()["key"]
    phone, laptop = pushes.device("fcm"), pushes.device("moz")
    r = bob.post("/api/push/subscriptions", phone.subscription("fi"))
    assert r.status_code == 201, r.text
    assert r.json() == {
        "endpoint": phone.endpoint,
        "lang": "fi",
        "kinds": {"turn": True, "near": True, "end": True},
    }
    assert bob.post("/api/push/subscriptions", laptop.subscription("en")).status_code == 201
    code = ann.table("human", "human", move_days=2)
    ann_token = ann.join(code, 0, "Ann")
    bob.join(code, 1, "Bob")
    assert send(web) == 0 and pushes.received == []  # the turn is Ann's; she has no device
    move(ann, code, 0, ann_token)
    assert [k for k, _, _ in outbox(db)] == ["turn", "turn"]  # written with the move
    assert pushes.received == []  # the move sent nothing itself
    assert send(web) == 2
    got = {r.path.split("/")[1]: r for r in pushes.wait(2)}
    deadline = bob.get(f"/api/tables/{code}").json()["seats"][1]["deadline"]
    texts = {}
    for name, device in (("fcm", phone), ("moz", laptop)):
        claims = check_vapid(got[name], key, pushes.url)
        assert claims["sub"].startswith(("mailto:", "https://"))
        payload = device.read(got[name])
        texts[name] = payload["title"], payload["body"]
        assert payload["url"] == f"/t/{code}"
        assert payload["tag"] == f"{code}-1-{int(deadline)}"
        assert int(got[name].headers["ttl"]) > 0
    assert got["fcm"].headers["topic"] == got["moz"].headers["topic"]  # one turn, one topic
    assert len(got["fcm"].headers["topic"]) <= 32
    assert texts["moz"] == ("Your turn", f"Table {code}: the game is waiting for your move.")
    assert texts["fcm"] == ("Sinun vuorosi", f"Pöytä {code}: peli odottaa siirtoasi.")
    assert outbox(db) == []  # delivered: done
    assert send(web) == 0 and len(pushes.received) == 2  # nothing sent twice


def test_deadline_warnings_and_the_game_over_in_the_players_language(
    web: Site, pushes: PushService, clock: Clock, db: Path
) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    device = pushes.device("fcm")
    assert ann.post("/api/push/subscriptions", device.subscription("nb")).status_code == 201
    code = ann.table("human", "random", move_days=1)
    token = ann.join(code, 0, "Ann")
    assert send(web) == 1  # the game started: Ann's turn
    assert device.read(pushes.wait(1)[0])["title"] == "Din tur"
    clock.now += DAY - 11 * 3600
    assert send(web) == 1
    clock.now += 10.5 * 3600
    assert send(web) == 1
    clock.now += 60
    assert send(web) == 0  # each warning once
    bodies = [device.read(r)["body"] for r in pushes.wait(3)[1:]]
    assert bodies == [
        f"Bord {code}: 12 timer igjen til trekket ditt.",
        f"Bord {code}: 1 time igjen til trekket ditt.",
    ]
    tags = {device.read(r)["tag"] for r in pushes.wait(3)}
    assert len(tags) == 1  # one turn: each replaces the one before
    play_out(code, {0: (ann, token)})
    assert send(web) == 12  # Ann's 11 turns after the first, and the game's end
    ends = [m for m in map(device.read, pushes.received) if m["tag"].endswith("-end")]
    assert [(m["title"], m["tag"]) for m in ends] == [("Spillet er slutt", f"{code}-1-end")]


def test_a_setting_off_sends_nothing_of_that_kind(web: Site, pushes: PushService) -> None:
    ann, bob, code, ann_token, _ = two_players(web)
    device = pushes.device("fcm")
    body = device.subscription("en", turn=False)
    assert bob.post("/api/push/subscriptions", body).status_code == 201
    move(ann, code, 0, ann_token)
    assert send(web) == 0 and pushes.received == []


def test_gone_subscriptions_are_deleted_and_failures_tried_again_with_backoff(
    web: Site, pushes: PushService, clock: Clock, db: Path
) -> None:
    ann, bob, code, ann_token, _ = two_players(web)
    for name in ("gone", "missing", "down"):
        device = pushes.device(name)
        assert bob.post("/api/push/subscriptions", device.subscription()).status_code == 201
    move(ann, code, 0, ann_token)
    assert send(web) == 0
    assert len(pushes.wait(3)) == 3
    assert subscriptions(db) == 1  # 410 and 404: deleted
    [(kind, attempts, due)] = outbox(db)  # 503: kept, for later
    assert (kind, attempts, due) == ("turn", 1, pytest.approx(clock.now + 30))
    assert send(web) == 0 and len(pushes.received) == 3  # not before it is due
    clock.now += 31
    assert send(web) == 0 and len(pushes.received) == 4
    assert outbox(db)[0][1:] == (2, pytest.approx(clock.now + 60))  # doubled


def test_a_redirect_is_not_followed(web: Site, pushes: PushService, db: Path) -> None:
    ann, bob, code, ann_token, _ = two_players(web)
    device = pushes.device("redirect")
    assert bob.post("/api/push/subscriptions", device.subscription()).status_code == 201
    move(ann, code, 0, ann_token)
    assert send(web) == 0
    assert [r.path.split("/")[1] for r in pushes.wait(1)] == ["redirect"]
    assert outbox(db) == []  # dropped: never better
    assert len(pushes.received) == 1  # nothing went to /elsewhere


def test_the_key_is_made_once_and_kept_across_restarts(db: Path) -> None:
    with site(push_app(db)) as first:
        key = first.device().get("/api/push/key").json()["key"]
    with site(push_app(db)) as again:
        assert again.device().get("/api/push/key").json()["key"] == key
    assert len(key) == 87  # 65 bytes, base64url without padding


def test_unsubscribe_stops_the_messages(web: Site, pushes: PushService, db: Path) -> None:
    ann, bob, code, ann_token, _ = two_players(web)
    device = pushes.device("fcm")
    assert bob.post("/api/push/subscriptions", device.subscription()).status_code == 201
    r = bob.delete("/api/push/subscriptions", {"endpoint": device.endpoint})
    assert r.status_code == 204
    move(ann, code, 0, ann_token)
    assert send(web) == 0 and pushes.received == [] and subscriptions(db) == 0


def test_deleting_the_account_forgets_its_devices(web: Site, pushes: PushService, db: Path) -> None:
    ann, bob, code, ann_token, _ = two_players(web)
    device = pushes.device("fcm")
    assert bob.post("/api/push/subscriptions", device.subscription()).status_code == 201
    assert (
        ann.post("/api/push/subscriptions", pushes.device("moz").subscription()).status_code == 201
    )
    r = bob.delete("/api/me", {"password": "correct horse battery"})
    assert r.status_code == 204, r.text
    assert subscriptions(db) == 1  # Ann's device stays
    move(ann, code, 0, ann_token)
    assert send(web) == 0 and pushes.received == []

"""Web Push subscriptions against hostile input and request forgery: an endpoint the server
would post to anywhere but a browser's push service (plain http, another host or port, an
address inside the network, credentials in the URL) is refused with a clear error and nothing
kept, as are keys it cannot encrypt for, oversized bodies, a guest, a change without the
session's CSRF token, another account's device, and one client changing too often; a kept
endpoint whose host leaves the allow-list is not posted to."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from yacht.web.service.push import Push
from yacht.web.settings import Settings
from yacht.web.storage.push import Delivery

from ..account_helpers import Site, error, site
from ..pushservice import Device, PushService, b64


@pytest.fixture
def web(db: Path) -> Iterator[Site]:
    with site(db) as opened:  # the default settings: no loopback endpoints
        yield opened


def kept(db: Path) -> int:
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        n = int(c.execute(text("SELECT count(*) FROM push_subscriptions")).scalar_one())
    engine.dispose()
    return n


def body(endpoint: str = "https://fcm.googleapis.com/fcm/send/abc", **over: Any) -> dict[str, Any]:
    sent = Device(endpoint).subscription()
    sent.update(over)
    return sent


HOSTILE_ENDPOINTS = [
    "http://fcm.googleapis.com/fcm/send/abc",  # not https
    "https://evil.example/fcm/send/abc",  # not a push service
    "https://fcm.googleapis.com.evil.example/x",  # a listed name as a prefix
    "https://evilfcm.googleapis.com/x",  # not under a listed name
    "https://push.apple.com/x",  # *.push.apple.com is names under it, not itself
    "https://fcm.googleapis.com:8443/x",  # another port
    "https://user:pw@fcm.googleapis.com/x",  # credentials
    "https://127.0.0.1/x",  # this machine (push_loopback is off)
    "http://localhost:8000/api/tables",
    "https://169.254.169.254/latest/meta-data",  # the cloud's metadata service
    "https://[::1]/x",
    "javascript:alert(1)",
    "file:///etc/passwd",
    "https://fcm.googleapis.com:99999/x",  # not a port
    "https://" + "a" * 1100 + ".fcm.googleapis.com/x",  # over 1024 characters
    "",
]


@pytest.mark.parametrize("endpoint", HOSTILE_ENDPOINTS)
def test_an_endpoint_off_the_allow_list_is_refused(web: Site, db: Path, endpoint: str) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    r = ann.post("/api/push/subscriptions", body(endpoint))
    assert error(r) == (422, "invalid")
    assert r.json()["message"]  # says why
    assert kept(db) == 0


POINT = Device("https://fcm.googleapis.com/x").subscription()["keys"]["p256dh"]
HOSTILE_KEYS = [
    {"p256dh": POINT[:-2], "auth": b64(b"0" * 16)},  # 64 bytes
    {"p256dh": b64(b"\x04" + b"\x00" * 64), "auth": b64(b"0" * 16)},  # not on the curve
    {"p256dh": b64(b"\x02" + b"\x01" * 64), "auth": b64(b"0" * 16)},  # not uncompressed
    {"p256dh": POINT, "auth": b64(b"0" * 15)},
    {"p256dh": POINT, "auth": b64(b"0" * 17)},
    {"p256dh": "!!!not base64!!!", "auth": b64(b"0" * 16)},
    {"p256dh": POINT, "auth": "a" * 41},
    {"p256dh": POINT},
]


@pytest.mark.parametrize("keys", HOSTILE_KEYS)
def test_keys_it_cannot_encrypt_for_are_refused(web: Site, db: Path, keys: Any) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    assert error(ann.post("/api/push/subscriptions", body(keys=keys))) == (422, "invalid")
    assert kept(db) == 0


def test_bodies_languages_and_kinds_no_page_sends_are_refused(web: Site, db: Path) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    bad: Any
    for bad in (
        body(lang="de"),
        body(kinds={"turn": "maybe"}),
        body(kinds={"spam": True}),
        body(extra=1),
        {"endpoint": "https://fcm.googleapis.com/x"},
        [],
    ):
        assert error(ann.post("/api/push/subscriptions", bad)) == (422, "invalid")
    huge = body(endpoint="https://fcm.googleapis.com/" + "x" * 70000)
    assert error(ann.post("/api/push/subscriptions", huge)) == (413, "too_large")
    assert kept(db) == 0


def test_a_guest_and_a_change_without_the_csrf_token_are_refused(web: Site, db: Path) -> None:
    guest = web.device("198.51.100.9")
    assert guest.get("/api/push/key").status_code == 200  # the key is public
    assert error(guest.post("/api/push/subscriptions", body())) == (401, "unauthorized")
    ann = web.device()
    ann.sign_up("Ann")
    r = ann.post("/api/push/subscriptions", body(), csrf=False)
    assert error(r) == (403, "csrf")
    r = ann.post("/api/push/subscriptions", body(), csrf="forged")
    assert error(r) == (403, "csrf")
    assert kept(db) == 0
    assert ann.post("/api/push/subscriptions", body()).status_code == 201
    r = ann.delete("/api/push/subscriptions", {"endpoint": body()["endpoint"]}, csrf=False)
    assert error(r) == (403, "csrf")
    assert kept(db) == 1


def test_another_accounts_device_cannot_be_deleted(web: Site, db: Path) -> None:
    ann, bob = web.device(), web.device("198.51.100.2")
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    assert ann.post("/api/push/subscriptions", body()).status_code == 201
    r = bob.delete("/api/push/subscriptions", {"endpoint": body()["endpoint"]})
    assert error(r) == (404, "not_found")
    assert kept(db) == 1


def test_one_client_changing_too_often_is_slowed_down(web: Site, db: Path) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    for n in range(10):
        endpoint = f"https://fcm.googleapis.com/fcm/send/{n}"
        assert ann.post("/api/push/subscriptions", body(endpoint)).status_code == 201
    assert error(ann.post("/api/push/subscriptions", body())) == (429, "rate_limited")
    assert kept(db) == 10


def test_a_kept_endpoint_off_the_allow_list_now_is_not_posted_to(web: Site, db: Path) -> None:
    """The allow-list is checked again at every send: an operator who takes a host off it
    stops the messages to it at once."""
    with PushService() as pushes:
        device = pushes.device("fcm")
        info = device.subscription()
        push = Push(web.app.state.service.store, Settings(), lambda: 0.0)
        d = Delivery(1, 1, device.endpoint, info["keys"]["p256dh"], info["keys"]["auth"], "en",
                     "turn", "ABC", "ABC-0-1", None, 0)  # fmt: skip
        portal = web.http.portal
        assert portal is not None
        assert portal.call(push.deliver, d) is False
        assert pushes.received == []


def test_the_key_is_the_servers_public_key(web: Site) -> None:
    key = web.device().get("/api/push/key").json()["key"]
    raw = base64.urlsafe_b64decode(key + "=")
    assert len(raw) == 65 and raw[0] == 4

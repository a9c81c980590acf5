"""Notifications in the browser: Bob ticks "Notify me here" on his inbox page (the browser's
permission granted to the test's context), the page subscribes and sends the subscription;
Ann moves and closes her tab; the push service on 127.0.0.1 receives Bob's message and
decrypts "Your turn"; delivered to the app's service worker through the DevTools protocol
(``ServiceWorker.deliverPushMessage``), it shows the notification with the table's tag and
URL; unticking deletes the subscription on the server, and so does signing out.

Chromium's ``pushManager.subscribe()`` needs Google's push service online, so the page's
``PushManager`` is given the subscription the test made (its keys and an endpoint on the test
push service): everything after it is the page's, the server's and the worker's own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from .helpers import sqlite_value
from .live import LiveServer
from .pages import Pages, serious_violations
from .pushservice import Device, PushService

PASSWORD = "correct horse battery"


def fake_push_manager(device: Device) -> str:
    """An init script: the page's PushManager hands out ``device``'s subscription."""
    sent = device.subscription()
    subscription = {"endpoint": device.endpoint, "expirationTime": None, "keys": sent["keys"]}
    return f"""
    (() => {{
      const json = {json.dumps(subscription)};
      const KEPT = "test:push-subscribed"; // the browser keeps a subscription across pages
      const made = () => ({{
        endpoint: json.endpoint,
        toJSON: () => json,
        unsubscribe: async () => {{ localStorage.removeItem(KEPT); return true; }},
      }});
      PushManager.prototype.subscribe = async function (options) {{
        const key = new Uint8Array(options.applicationServerKey);
        window.__applicationServerKey = btoa(String.fromCharCode(...key));
        localStorage.setItem(KEPT, "1");
        return made();
      }};
      PushManager.prototype.getSubscription = async function () {{
        return localStorage.getItem(KEPT) ? made() : null;
      }};
    }})();
    """


def sign_up_in_page(page: Page, name: str) -> None:
    page.evaluate(
        """async ([name, password]) => {
          const r = await fetch("api/accounts", {method: "POST",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify({name, password})});
          if (!r.ok) throw new Error(await r.text());
          localStorage.setItem("yacht:account", name);
        }""",
        [name, PASSWORD],
    )


@pytest.fixture
def pushes() -> Iterator[PushService]:
    with PushService() as service:
        yield service


@pytest.fixture
def loopback_server(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, pushes: PushService
) -> Iterator[LiveServer]:
    monkeypatch.setenv("YACHT_PUSH_LOOPBACK", "1")  # the test's push service is on 127.0.0.1
    live = LiveServer(tmp_path / "yacht.sqlite3")
    live.start()
    yield live
    live.stop()


def test_the_opt_in_subscribes_and_the_service_worker_shows_your_turn(
    pages: Pages, loopback_server: LiveServer, pushes: PushService
) -> None:
    server = loopback_server
    device = pushes.device("fcm")
    bob = pages.open(server.url + "/")
    context = bob.context
    context.grant_permissions(["notifications"], origin=server.url)
    context.add_init_script(fake_push_manager(device))
    sign_up_in_page(bob, "Bob")
    bob.goto(server.url + "/inbox")
    toggle = bob.locator("#push-on")
    expect(toggle).to_be_enabled()  # signed in: offered, and off until ticked
    expect(toggle).not_to_be_checked()
    expect(bob.locator("#push-kinds")).to_be_hidden()
    toggle.check()
    expect(bob.locator("#push-note")).to_have_text("This device will be notified.")
    expect(bob.locator("#push-kinds")).to_be_visible()
    with httpx.Client(base_url=server.url) as ann:
        key = ann.get("/api/push/key").json()["key"]
        assert bob.evaluate("window.__applicationServerKey") == _b64std(key)
        csrf = ann.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}).json()
        headers = {"X-CSRF-Token": csrf["csrf_token"]}
        spec = {"seats": [{"kind": "human"}, {"kind": "human"}], "move_days": 2}
        code = ann.post("/api/tables", json=spec, headers=headers).json()["code"]
        joined = ann.post(
            f"/api/tables/{code}/join", json={"seat": 0, "name": "Ann"}, headers=headers
        )
        token = joined.json()["token"]
        bob.evaluate(
            """async (code) => {
              const me = await (await fetch("api/me")).json();
              const r = await fetch(`api/tables/${code}/join`, {method: "POST",
                headers: {"Content-Type": "application/json", "X-CSRF-Token": me.csrf_token},
                body: JSON.stringify({seat: 1, name: "Bob"})});
              if (!r.ok) throw new Error(await r.text());
            }""",
            code,
        )
        for kind in ("roll", "score"):
            game = ann.get(f"/api/tables/{code}").json()["game"]
            action: dict[str, Any] = {"kind": kind}
            if kind == "score":
                action["category"] = next(iter(game["potentials"]))
            body = {"type": "action", "seat": 0, "token": token, "game": game["number"]}
            body |= {"version": game["version"], "action": action}
            assert ann.post(f"/api/tables/{code}/actions", json=body, headers=headers).is_success
    [got] = pushes.wait(1)  # Ann's tab is closed; Bob's device is told
    message = device.read(got)
    assert message["title"] == "Your turn" and message["url"] == f"/t/{code}"

    cdp = context.new_cdp_session(bob)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    bob.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    [registration] = [r for r in registrations if r["scopeURL"] == server.url + "/"]
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": server.url,
            "registrationId": registration["registrationId"],
            "data": json.dumps(message),
        },
    )
    bob.evaluate(
        """() => {
          window.__shown = null;
          const look = async () => {
            const found = await (await navigator.serviceWorker.ready).getNotifications();
            if (!found.length) return setTimeout(look, 50);
            window.__shown = found.map((n) =>
              ({title: n.title, body: n.body, tag: n.tag, url: n.data.url}));
          };
          look();
        }"""
    )
    bob.wait_for_function("() => window.__shown !== null")
    shown = bob.evaluate("window.__shown")
    assert shown == [
        {
            "title": "Your turn",
            "body": f"Table {code}: the game is waiting for your move.",
            "tag": message["tag"],
            "url": f"/t/{code}",
        }
    ]

    assert serious_violations(bob) == []  # axe: the setting as a screen reader meets it
    posted = "**/api/push/subscriptions"
    with bob.expect_response(posted):  # another language: the messages follow the page's
        bob.select_option("#lang", "fi")
    expect(bob.locator("#push-note")).to_have_text("Tälle laitteelle tulee ilmoitukset.")
    assert language(server) == "fi"
    with bob.expect_response(posted):
        bob.select_option("#lang", "en")

    toggle.uncheck()  # off: deleted on the server and in the browser
    expect(toggle).not_to_be_checked()
    expect(toggle).to_be_enabled()
    assert devices(server) == 0
    assert bob.evaluate("localStorage.getItem('test:push-subscribed')") is None
    toggle.check()
    expect(bob.locator("#push-note")).to_have_text("This device will be notified.")
    assert devices(server) == 1
    bob.goto(server.url + "/")  # signing out forgets the device too
    bob.click("#sign-out")
    expect(bob.locator("#account-out")).to_be_visible()
    assert devices(server) == 0


def language(server: LiveServer) -> str:
    return str(sqlite_value(server.db, "SELECT lang FROM push_subscriptions"))


def devices(server: LiveServer) -> int:
    return int(sqlite_value(server.db, "SELECT count(*) FROM push_subscriptions"))


def _b64std(base64url: str) -> str:
    return base64url.replace("-", "+").replace("_", "/") + "=" * (-len(base64url) % 4)

"""Web Push survives crashes (real ``yacht serve`` processes on PostgreSQL, a push service on
127.0.0.1 that checks the VAPID JWT and decrypts).

A process that writes the move's message but dies before sending it (SIGKILL) loses nothing:
the message is a row of the move's own transaction, and the next process delivers it at start.
A process that dies after the push service took the message but before it heard so leaves
the row claimed; another sends it again once the claim's lease runs out, and the second copy
carries the same ``Topic`` and ``tag`` as the first, so it replaces it on the device.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from web.pushservice import PushService, check_vapid

from .servers import Server

PASSWORD = "correct horse battery"


class Player:
    """A signed-in browser on one server (its cookie and CSRF token)."""

    def __init__(self, server: Server, name: str) -> None:
        self.name = name
        self.http = httpx.Client(base_url=server.url, timeout=10)
        r = self.http.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf_token"]

    def on(self, server: Server) -> Player:
        """The same browser, now talking to ``server`` (the cookie is the account's)."""
        self.http.base_url = httpx.URL(server.url)
        return self

    def post(self, path: str, body: Any) -> httpx.Response:
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    def move(self, code: str, seat: int, token: str) -> None:
        for kind in ("roll", "score"):
            game = self.http.get(f"/api/tables/{code}").json()["game"]
            action: dict[str, Any] = {"kind": kind}
            if kind == "score":
                action["category"] = next(iter(game["potentials"]))
            body = {"type": "action", "seat": seat, "token": token, "game": game["number"]}
            r = self.post(
                f"/api/tables/{code}/actions",
                {**body, "version": game["version"], "action": action},
            )
            assert r.status_code == 200, r.text


def test_a_message_survives_the_death_of_the_process_that_wrote_it_and_of_the_one_sending_it(
    pg_url: str, tmp_path: Path
) -> None:
    env = {"YACHT_PUSH_LOOPBACK": "1", "YACHT_PUSH_LEASE": "2", "YACHT_BOT_DELAY": "0"}
    with PushService() as pushes:
        a = Server(pg_url, None, tmp_path / "a.log", env={**env, "YACHT_PUSH_SEND": "0"}).start()
        try:
            ann, bob = Player(a, "Ann"), Player(a, "Bob")
            key = ann.http.get("/api/push/key").json()["key"]
            phone, held = pushes.device("fcm"), pushes.device("hold")
            assert bob.post("/api/push/subscriptions", phone.subscription("en")).status_code == 201
            r = ann.post("/api/tables", {"seats": [{"kind": "human"}] * 2, "move_days": 1})
            code = r.json()["code"]
            tokens = [
                p.post(f"/api/tables/{code}/join", {"seat": i, "name": p.name}).json()["token"]
                for i, p in enumerate((ann, bob))
            ]
            assert ann.post("/api/push/subscriptions", held.subscription("bg")).status_code == 201
            ann.move(code, 0, tokens[0])  # the turn is Bob's: his message is in the outbox
        finally:
            a.kill()  # before any process sent it (A does not send)
        assert pushes.received == []
        b = Server(pg_url, None, tmp_path / "b.log", env=env).start()
        try:
            [got] = pushes.wait(1)  # B delivers what A left, at its start
            check_vapid(got, key, pushes.url)  # the key is the database's, not B's own
            assert phone.read(got)["title"] == "Your turn"
            bob.on(b).move(code, 1, tokens[1])  # Ann's turn: B posts, the service holds it
            first = pushes.wait(2)[1]
        finally:
            b.kill()  # the push service took the message; B never heard so
        c = Server(pg_url, None, tmp_path / "c.log", env=env).start()
        try:
            second = pushes.wait(3)[2]  # C sends it again when B's 2-second lease runs out
            pushes.release.set()
            assert first.path == second.path == held.endpoint.removeprefix(pushes.url)
            assert first.headers["topic"] == second.headers["topic"]
            one, two = held.read(first), held.read(second)
            assert one == two and one["title"] == "Ваш ход"  # the same tag: one notification
            assert one["url"] == f"/t/{code}"
            check_vapid(second, key, pushes.url)
            assert not c.errors()
        finally:
            c.stop()
        assert len(pushes.received) == 3  # delivered: C sends nothing more

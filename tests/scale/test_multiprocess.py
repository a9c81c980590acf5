"""Two ``yacht serve`` processes on one PostgreSQL database, sharing tables through Redis:
a player on process A and a player on process B play one game with live updates, and
spectators on either process see every move. No sticky sessions: any process serves any
table, and either answers the REST API for it the same way."""

from __future__ import annotations

import httpx

from yacht.game import Game
from yacht.web.service.fairness import verify

from .client import action_message, open_table, table_state
from .conftest import Cluster
from .watch import Watcher


def test_players_on_two_processes_play_one_game_live(cluster: Cluster) -> None:
    with httpx.Client(base_url=cluster.a.url) as a, httpx.Client(base_url=cluster.b.url) as b:
        code, tokens = open_table(a, 2)
        ann, bob = Watcher(cluster.a.url, code), Watcher(cluster.b.url, code)
        spectators = [Watcher(cluster.a.url, code), Watcher(cluster.b.url, code)]
        watchers = [ann, bob, *spectators]
        try:
            ann.send({"type": "hello", "seats": [{"seat": 0, "token": tokens[0]}]})
            bob.send({"type": "hello", "seats": [{"seat": 1, "token": tokens[1]}]})
            players = {0: ann, 1: bob}
            game = ann.table["game"]
            while game["status"] == "playing":
                # The player acts on the state its own socket received, through its own process.
                player = players[game["current"]]
                player.send(action_message(player.table["game"], tokens))
                seen = [w.until(game["number"], game["version"] + 1)["game"] for w in watchers]
                assert all(g == seen[0] for g in seen)  # everyone sees the same game
                game = seen[0]
            assert game["status"] == "finished" and game["version"] == 48
            for w in watchers:  # every move reached every socket on both processes
                assert [v for n, v in w.versions if n == 1][-48:] == list(range(1, 49))
            # Either process answers for the table the same way.
            assert table_state(a, code)["game"] == table_state(b, code)["game"] == game
            data = b.get(f"/api/games/{game['id']}").json()
            assert not verify(data).problems and Game.from_json(data).totals == game["totals"]
        finally:
            for w in watchers:
                w.close()


def test_a_table_opened_on_one_process_is_joined_and_played_on_the_other(
    cluster: Cluster,
) -> None:
    with httpx.Client(base_url=cluster.a.url) as a, httpx.Client(base_url=cluster.b.url) as b:
        r = a.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
        code = r.json()["code"]
        watcher = Watcher(cluster.a.url, code)
        try:
            token = b.post(f"/api/tables/{code}/join", json={"seat": 0, "name": "Ann"}).json()
            seen = watcher.until_revision(1)  # the join on B reached the socket on A
            assert seen["seats"][0]["taken"] and seen["seats"][0]["name"] == "Ann"
            b.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"})
            game = table_state(a, code)["game"]
            assert game["status"] == "playing"
            move = action_message(game, {0: token["token"], 1: ""})
            r = b.post(f"/api/tables/{code}/actions", json=move)
            assert r.status_code == 200, r.text
            assert watcher.until(1, 1)["game"]["recent"][-1]["action"] == "roll"
            stale = a.post(f"/api/tables/{code}/actions", json=move)  # the same move again, on A
            assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
        finally:
            watcher.close()


def test_the_servers_logged_json_lines_and_no_errors(cluster: Cluster) -> None:
    for server in (cluster.a, cluster.b):
        records = server.records()  # every line parses as JSON
        assert records and all({"time", "level", "logger", "message"} <= set(r) for r in records)
        assert any(r["logger"] == "yacht.web.edge.access" for r in records)
        assert server.errors() == []

"""Two processes, one table, a seat on each: each move's note reaches the other process, which
decides the next move on its own snapshot brought up to date, without reading the table again
(yacht.web.storage.peers), and the game stored is the game both processes show."""

from __future__ import annotations

import httpx

from yacht.game import Game
from yacht.loadtest.scrape import Samples

from .client import action_message, open_table, table_state
from .conftest import Cluster
from .watch import Watcher


def counters(url: str) -> Samples:
    r = httpx.get(f"{url}/metrics")
    assert r.status_code == 200, r.text
    return Samples.parse(r.text)


def test_moves_on_the_other_process_need_no_read_here(cluster: Cluster) -> None:
    urls = (cluster.a.url, cluster.b.url)
    with httpx.Client(base_url=cluster.a.url) as a:
        code, tokens = open_table(a, 2)
        ann, bob = Watcher(cluster.a.url, code), Watcher(cluster.b.url, code)
        try:
            ann.send({"type": "hello", "seats": [{"seat": 0, "token": tokens[0]}]})
            bob.send({"type": "hello", "seats": [{"seat": 1, "token": tokens[1]}]})
            players = {0: ann, 1: bob}
            before = [counters(url) for url in urls]
            game = ann.table["game"]
            moves = 0
            while game["status"] == "playing":
                player = players[game["current"]]
                player.send(action_message(player.table["game"], tokens))
                seen = [w.until(game["number"], game["version"] + 1)["game"] for w in (ann, bob)]
                assert seen[0] == seen[1]
                game, moves = seen[0], moves + 1
            delta = [
                counters(url).minus(earlier) for url, earlier in zip(urls, before, strict=True)
            ]
            stored = table_state(a, code)["game"]
        finally:
            ann.close()
            bob.close()
    assert moves == 48
    assert {**stored, "review": None} == game  # the review is added once the game is over
    applied = sum(d.value("yacht_peer_notes_total", outcome="applied") for d in delta)
    for d in delta:
        assert d.value("yacht_table_reads_total", why="stale") == 0  # never decided on old news
        assert d.value("yacht_peer_notes_total", outcome="refused") == 0
        assert d.value("yacht_peer_notes_total", outcome="gap") == 0
    # Every move but the other player's last turn (the game ended before anyone needed it)
    # was applied by the other process.
    assert 40 <= applied < moves
    data = httpx.get(f"{cluster.b.url}/api/games/{game['id']}").json()
    assert Game.from_json(data).totals == game["totals"]


def test_a_hint_asked_of_either_process_is_for_the_turn_being_played(cluster: Cluster) -> None:
    """No sticky sessions: a player rolls through one process and asks for a hint through the
    other, which last saw the other player's turn; the hint is for the dice just rolled."""
    # A process's first hint loads the strategy tables, maybe while it writes a review.
    with (
        httpx.Client(base_url=cluster.a.url, timeout=120) as a,
        httpx.Client(base_url=cluster.b.url, timeout=120) as b,
    ):
        code, tokens = open_table(a, 2)
        ann, bob = Watcher(cluster.a.url, code), Watcher(cluster.b.url, code)
        try:
            ann.send({"type": "hello", "seats": [{"seat": 0, "token": tokens[0]}]})
            bob.send({"type": "hello", "seats": [{"seat": 1, "token": tokens[1]}]})
            players = {0: (ann, a), 1: (bob, b)}
            game = ann.table["game"]
            for _ in range(6):  # three turns each way: roll and score through its own process
                socket, _ = players[game["current"]]
                socket.send(action_message(socket.table["game"], tokens))
                seen = [w.until(game["number"], game["version"] + 1)["game"] for w in (ann, bob)]
                game = seen[0]
                if game["phase"] != "decide":
                    continue
                seat = game["current"]
                _, own = players[seat]
                other = b if own is a else a
                for client in (own, other):
                    r = client.post(
                        f"/api/tables/{code}/hint", json={"seat": seat, "token": tokens[seat]}
                    )
                    assert r.status_code == 200, r.text
                    assert r.json()["version"] == game["version"]
        finally:
            ann.close()
            bob.close()

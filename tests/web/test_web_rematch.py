"""A rematch needs every seated person's agreement (bots agree), the table keeps a series
score across its games, shows who watches, and tells an older tab that its seat is open
elsewhere."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from .helpers import Table, until

FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0"


def rematch(t: Table, seat: int, number: int, *, agree: bool = True) -> Any:
    body = {"type": "rematch", "seat": seat, "token": t.tokens[seat], "game": number}
    return t.post("rematch", {**body, "agree": agree})


def finished_pair(client: TestClient) -> Table:
    """Ann and Bob at a table, their game over (Bob let a bot play it for him and
    took his seat back at the end: he is a person again, asked about the rematch)."""
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    body = {"seat": 1, "by": 1, "bot": "random", "token": t.tokens[1]}
    assert t.post("hand-to-bot", {"type": "hand_to_bot", **body}).status_code == 200
    t.play_to_end()
    r = t.post("take-back", {"type": "take_back", "seat": 1, "token": t.tokens[1]})
    assert r.json()["seats"][1]["kind"] == "human", r.text
    return t


def test_one_players_click_proposes_and_the_last_agreement_starts(client: TestClient) -> None:
    t = finished_pair(client)
    proposed = rematch(t, 1, 1)
    assert proposed.status_code == 200, proposed.text
    game = proposed.json()["game"]
    assert game["number"] == 1 and game["status"] == "finished"  # Ann has not agreed yet
    assert game["rematch"] == {"by": 1, "agreed": [1], "waiting": [0], "declined": None}
    started = rematch(t, 0, 1).json()["game"]
    assert started["number"] == 2 and started["status"] == "playing"
    assert started["rematch"] is None


def test_a_decline_withdraws_the_proposal_and_a_new_one_can_follow(client: TestClient) -> None:
    t = finished_pair(client)
    rematch(t, 0, 1)
    declined = rematch(t, 1, 1, agree=False).json()["game"]
    assert declined["status"] == "finished"
    assert declined["rematch"] == {"by": 0, "agreed": [], "waiting": [], "declined": 1}
    again = rematch(t, 1, 1).json()["game"]  # Bob changes his mind: he proposes now
    assert again["rematch"]["by"] == 1 and again["rematch"]["waiting"] == [0]
    assert rematch(t, 0, 1).json()["game"]["number"] == 2


def test_the_proposer_may_withdraw(client: TestClient) -> None:
    t = finished_pair(client)
    rematch(t, 0, 1)
    withdrawn = rematch(t, 0, 1, agree=False).json()["game"]["rematch"]
    assert withdrawn == {"by": 0, "agreed": [], "waiting": [], "declined": 0}
    assert rematch(t, 1, 1).json()["game"]["rematch"]["by"] == 1  # Bob proposes anew


def test_the_series_counts_each_games_winners(client: TestClient) -> None:
    t = Table.create(client, "human", "greedy")
    t.join(0, "Ann")
    first = t.play_to_end()
    assert first["series"] == [int(s in first["winners"]) for s in range(2)]
    playing = rematch(t, 0, 1).json()["game"]
    assert playing["series"] == first["series"]  # game 2 not over: game 1's wins
    second = t.play_to_end()
    wins = [first["series"][s] + (s in second["winners"]) for s in range(2)]
    assert second["series"] == wins and sum(wins) >= 2


def test_a_lone_player_against_bots_rematches_at_once(client: TestClient) -> None:
    t = Table.create(client, "human", "random")
    t.join(0, "Ann")
    t.play_to_end()
    assert rematch(t, 0, 1).json()["game"]["number"] == 2


def test_the_table_shows_its_watchers_with_their_names(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    url = f"/ws/tables/{t.code}"
    with client.websocket_connect(url) as ann, client.websocket_connect(url) as carol:
        assert until(ann, "state")["table"]["watchers"] == {"count": 0, "names": []}
        ann.send_json({"type": "hello", "seats": [{"seat": 0, "token": t.tokens[0]}]})
        until(ann, "welcome")
        until(carol, "state")
        carol.send_json({"type": "hello", "seats": [], "name": "Carol"})
        until(carol, "welcome")
        while (seen := until(ann, "state")["table"]["watchers"])["count"] == 0:
            pass
        assert seen == {"count": 1, "names": ["Carol"]}  # Ann plays: she is not watching
        assert t.state()["watchers"] == {"count": 1, "names": ["Carol"]}
    assert t.state()["watchers"] == {"count": 0, "names": []}


def test_an_older_tab_hears_its_seat_is_open_elsewhere(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    url = f"/ws/tables/{t.code}"
    seat = [{"seat": 0, "token": t.tokens[0]}]
    phone = {"user-agent": FIREFOX_ANDROID}
    with client.websocket_connect(url) as laptop, client.websocket_connect(url) as watcher:
        until(laptop, "state")
        until(watcher, "state")
        laptop.send_json({"type": "hello", "seats": seat})
        assert until(laptop, "welcome")["seats"] == [0]
        with client.websocket_connect(url, headers=phone) as mobile:
            mobile.send_json({"type": "hello", "seats": seat})
            assert until(mobile, "welcome")["seats"] == [0]
            moved = until(laptop, "elsewhere")
            assert moved == {
                "type": "elsewhere",
                "seats": [0],
                "browser": "Firefox",
                "system": "Android",
            }
            roll = {"type": "action", "seat": 0, "token": t.tokens[0], "game": 1, "version": 0}
            laptop.send_json({**roll, "action": {"kind": "roll"}})
            refused = until(laptop, "error")  # the older tab may not play it meanwhile
            assert refused["code"] == "illegal" and "another tab or device" in refused["message"]
            laptop.send_json({"type": "hello", "seats": seat})  # "play here" takes it back
            assert until(laptop, "welcome")["seats"] == [0]
            assert until(mobile, "elsewhere")["seats"] == [0]
            watcher.send_json({"type": "ping", "ref": "p"})  # a watcher hears none of it
            while (message := watcher.receive_json())["type"] != "pong":
                assert message["type"] == "state", message
        assert t.state()["seats"][0]["connected"] is True  # the laptop still holds it

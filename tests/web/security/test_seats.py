"""A seat stays with its holder, so no one can take over a player who only lost the connection;
another player may hand it to a bot only after the holder has been away for the grace period, or
once its turn clock ran out."""

from __future__ import annotations

import time

from starlette.testclient import TestClient

from yacht.web.service.presence import GRACE

from ..helpers import Table


def later(client: TestClient, seconds: float) -> None:
    """Move the server's clock ``seconds`` ahead."""
    service = client.app.state.service  # type: ignore[attr-defined]
    service.clock = lambda: time.time() + seconds


def two(client: TestClient, **options: object) -> Table:
    t = Table.create(client, "human", "human", **options)
    t.join(0, "Ann")
    t.join(1, "Bob")
    return t


def hand(t: Table, seat: int, by: int, **extra: object) -> object:
    body = {"type": "hand_to_bot", "seat": seat, "by": by, "token": t.tokens[by], **extra}
    return t.post("hand-to-bot", body)


def test_a_present_rest_only_players_seat_cannot_be_taken(client: TestClient) -> None:
    t = two(client)
    t.ok(0, {"kind": "roll"})  # Ann plays over REST only: never "connected"
    r = hand(t, 0, by=1, bot="random")  # the attack of the issue: mid-turn, to `random`
    assert r.status_code == 409 and r.json()["code"] == "illegal"  # type: ignore[attr-defined]
    r = hand(t, 0, by=1)  # at the default level either
    assert r.json()["code"] == "illegal" and "60 s" in r.json()["message"]  # type: ignore[attr-defined]
    later(client, GRACE + 1)  # long after Bob's last request, but not Ann's turn: no
    assert hand(t, 1, by=0).json()["code"] == "illegal"  # type: ignore[attr-defined]
    later(client, 0)
    assert t.state()["seats"][0]["kind"] == "human"
    t.ok(0, {"kind": "score", "category": next(iter(t.game["potentials"]))})  # still hers


def test_after_the_grace_period_only_the_default_bot_and_the_holder_takes_it_back(
    client: TestClient,
) -> None:
    t = two(client)
    later(client, GRACE + 1)
    r = hand(t, 0, by=1, bot="random")
    assert r.json()["code"] == "illegal" and "picks its bot level" in r.json()["message"]  # type: ignore[attr-defined]
    r = hand(t, 0, by=1)  # the game has waited on Ann, who has not been seen, for 61 s
    assert r.status_code == 200  # type: ignore[attr-defined]
    seat = t.state()["seats"][0]
    assert (seat["kind"], seat["bot"], seat["name"]) == ("bot", "medium", "Ann")
    # Ann comes back: her token takes the seat back at any time, nobody else's does
    back = {"type": "take_back", "seat": 0, "token": t.tokens[1]}
    assert t.post("take-back", back).json()["code"] == "bad_token"
    r = t.post("take-back", {**back, "token": t.tokens[0]})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][0]["kind"] == "human"
    assert t.post("take-back", {**back, "token": t.tokens[0]}).json()["code"] == "illegal"
    later(client, 0)
    t.settle()
    while t.game["current"] != 0:  # the bot may have played her turn meanwhile
        t.play_turn(1)
    t.play_turn(0)  # Ann plays her own turn with her old token
    assert t.game["current"] == 1


def test_a_seat_whose_turn_clock_ran_out_may_be_handed_over(client: TestClient) -> None:
    t = two(client, turn_seconds=10)
    assert hand(t, 0, by=1).json()["code"] == "illegal"  # type: ignore[attr-defined]
    later(client, 11)  # Ann's clock ran out (before the server's timeout moved)
    r = hand(t, 0, by=1)
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    assert r.json()["seats"][0]["bot"] == "medium"  # type: ignore[attr-defined]


def test_a_connected_holder_keeps_the_seat_even_when_long_silent(client: TestClient) -> None:
    t = two(client)
    with client.websocket_connect(f"/ws/tables/{t.code}") as ann:
        ann.receive_json()
        ann.send_json({"type": "hello", "seats": [{"seat": 0, "token": t.tokens[0]}]})
        while ann.receive_json()["type"] != "welcome":
            pass
        later(client, 10 * GRACE)  # her turn, ten minutes on: she is still connected
        assert hand(t, 0, by=1).json()["code"] == "illegal"  # type: ignore[attr-defined]


def test_the_holder_picks_any_level_for_their_own_seat(client: TestClient) -> None:
    t = two(client)
    r = hand(t, 0, by=0, bot="greedy")
    assert r.status_code == 200  # type: ignore[attr-defined]
    assert r.json()["seats"][0]["bot"] == "greedy"  # type: ignore[attr-defined]
    r = t.act(0, {"kind": "roll"})  # while a bot plays it, the token only takes it back
    assert r.json()["code"] == "illegal" and "take it back" in r.json()["message"]

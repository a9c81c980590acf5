"""The REST API: lobby, seats, every action and every rejection (which changes nothing)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from yacht.dice import FairDice
from yacht.rules import CATEGORIES

from .helpers import Table, seed_maker, sha256

FIRST_SEED = seed_maker()()


def test_create_publishes_the_commitment_and_never_the_seed(client: TestClient) -> None:
    r = client.post(
        "/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
    )
    assert r.status_code == 201
    table = r.json()
    assert len(table["code"]) == 6 and table["invite_path"] == f"/t/{table['code']}"
    assert table["game"]["status"] == "waiting"
    assert table["game"]["commitment"] == sha256(FIRST_SEED) == FairDice(FIRST_SEED).commitment
    assert table["game"]["server_seed"] is None
    assert FIRST_SEED not in r.text
    seats = table["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot"]
    assert seats[1]["name"] == "Greedy bot" and seats[1]["taken"] and not seats[0]["taken"]


@pytest.mark.parametrize(
    "body",
    [
        {"seats": []},
        {"seats": [{"kind": "human"}] * 7},
        {"seats": [{"kind": "human"}], "preset": "yahtzee"},
        {"seats": [{"kind": "bot", "bot": "grandmaster"}]},
        {"seats": [{"kind": "bot"}]},
        {"seats": [{"kind": "human", "bot": "easy"}]},
        {"seats": [{"kind": "alien"}]},
        {"seats": [{"kind": "human"}], "turn_seconds": 3},
        {"seats": [{"kind": "human"}], "start": "coin"},
        {"seats": [{"kind": "human"}], "client_seed": "tab\there"},
        {"seats": [{"kind": "human"}], "surprise": True},
    ],
)
def test_bad_tables_are_refused_clearly(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "invalid" and r.json()["message"]
    assert client.get("/api/tables").json() == []


def test_join_hands_out_a_token_and_the_game_starts_when_full(client: TestClient) -> None:
    t = Table.create(client, "human", "human", "easy")
    token = t.join(0, "  Ann  ")
    assert len(token) >= 24
    state = t.state()
    assert state["seats"][0]["name"] == "Ann" and state["game"]["status"] == "waiting"
    assert token not in str(state)
    assert [s["code"] for s in client.get("/api/tables").json()] == [t.code]
    t.join(1, "Bob")
    game = t.game
    assert game["status"] == "playing" and game["current"] == 0 and game["version"] == 0
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize(
    ("seat", "name", "status", "code"),
    [
        (0, "Eve", 409, "seat_taken"),  # taken by Ann
        (2, "Eve", 409, "seat_taken"),  # a bot's seat
        (3, "Eve", 422, "invalid"),  # no such seat at a 3-seat table
        (9, "Eve", 422, "invalid"),  # no such seat anywhere
        (1, "", 422, "invalid"),
        (1, "x" * 41, 422, "invalid"),
    ],
)
def test_bad_joins_change_nothing(
    client: TestClient, seat: int, name: str, status: int, code: str
) -> None:
    t = Table.create(client, "human", "human", "easy")
    t.join(0, "Ann")
    before = t.state()
    r = t.post("join", {"seat": seat, "name": name})
    assert (r.status_code, r.json()["code"]) == (status, code)
    assert t.state() == before


def test_unknown_table(client: TestClient) -> None:
    for r in (
        client.get("/api/tables/NOSUCH"),
        client.post("/api/tables/NOSUCH/join", json={"seat": 0, "name": "Ann"}),
    ):
        assert (r.status_code, r.json()["code"]) == (404, "not_found")


def test_roll_hold_and_score(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    game = t.ok(0, {"kind": "roll"})
    assert game["version"] == 1 and len(game["dice"]) == 5 and game["rolls_left"] == 2
    assert set(game["potentials"]) == {c.value for c in CATEGORIES}
    assert game["recent"][-1] == {
        "version": 1,
        "seat": 0,
        "action": "roll",
        "dice": game["dice"],
        "points": None,
    }
    dice = game["dice"]
    game = t.ok(0, {"kind": "hold", "positions": [5, 1]})
    assert game["held"] == [1, 5] and game["version"] == 2
    game = t.ok(0, {"kind": "roll"})
    assert game["dice"][0] == dice[0] and game["dice"][4] == dice[4]
    expected = game["potentials"]["choice"]
    game = t.ok(0, {"kind": "score", "category": "choice"})
    assert game["sheets"][0] == {"choice": expected} and game["totals"][0] == expected
    assert game["current"] == 1 and game["dice"] is None and game["round"] == 1
    assert client.app.state.service._locks == {}  # type: ignore[attr-defined]  # none left over


def _ready(client: TestClient) -> Table:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    t.ok(0, {"kind": "roll"})
    return t


REJECTIONS: list[tuple[str, dict[str, Any], int, str]] = [
    ("wrong token", {"token": "not-the-token"}, 403, "bad_token"),
    ("another seat's token", {"token": "BOB"}, 403, "bad_token"),
    ("spectator", {"token": None}, 403, "spectator"),
    ("empty token", {"token": ""}, 403, "spectator"),
    ("stale version", {"version": 0}, 409, "stale_version"),
    ("future version", {"version": 7}, 409, "stale_version"),
    ("other game", {"game": 2}, 409, "stale_version"),
    ("out of turn", {"seat": 1, "token": "BOB"}, 409, "not_your_turn"),
    ("no such seat", {"seat": 4}, 422, "invalid"),
    ("bad action kind", {"action": {"kind": "flip"}}, 422, "invalid"),
    ("die position 6", {"action": {"kind": "hold", "positions": [6]}}, 422, "invalid"),
    ("repeated position", {"action": {"kind": "hold", "positions": [2, 2]}}, 422, "invalid"),
    ("unknown category", {"action": {"kind": "score", "category": "bonus"}}, 422, "invalid"),
    ("negative version", {"version": -1}, 422, "invalid"),
    ("version as text", {"version": "one"}, 422, "invalid"),
    ("extra field", {"cheat": True}, 422, "invalid"),
    ("missing version", {"version": None}, 422, "invalid"),
]


@pytest.mark.parametrize(
    ("why", "change", "status", "code"), REJECTIONS, ids=[r[0] for r in REJECTIONS]
)
def test_rejected_actions_change_nothing(
    client: TestClient, why: str, change: dict[str, Any], status: int, code: str
) -> None:
    t = _ready(client)
    if change.get("token") == "BOB":
        change = {**change, "token": t.tokens[1]}
    before = t.state()
    body = t.message(0, {"kind": "score", "category": "choice"}, **change)
    body = {k: v for k, v in body.items() if v is not None or k == "token"}
    r = t.post("actions", body)
    assert (r.status_code, r.json()["code"]) == (status, code), r.text
    assert r.json()["type"] == "error" and r.json()["message"]
    assert t.state() == before


def test_a_repeated_action_is_rejected_as_stale(client: TestClient) -> None:
    t = _ready(client)
    msg = t.message(0, {"kind": "score", "category": "yacht"})
    assert t.post("actions", msg).status_code == 200
    after = t.state()
    r = t.post("actions", msg)
    assert (r.status_code, r.json()["code"]) == (409, "stale_version")
    assert t.state() == after


@pytest.mark.parametrize(
    ("setup", "action", "message"),
    [
        ([], {"kind": "score", "category": "ones"}, "roll first"),
        ([], {"kind": "hold", "positions": [1]}, "roll first"),
        ([{"kind": "roll"}] * 3, {"kind": "roll"}, "no rolls left"),
        ([{"kind": "roll"}] * 3, {"kind": "hold", "positions": [1]}, "no rolls left"),
    ],
)
def test_illegal_actions_quote_the_rules(
    client: TestClient, setup: list[dict[str, Any]], action: dict[str, Any], message: str
) -> None:
    t = Table.create(client, "human")
    t.join(0, "Ann")
    for step in setup:
        t.ok(0, step)
    before = t.state()
    r = t.act(0, action)
    assert (r.status_code, r.json()["code"]) == (409, "illegal")
    assert message in r.json()["message"]
    assert t.state() == before


def test_a_filled_category_is_illegal(client: TestClient) -> None:
    t = Table.create(client, "human")
    t.join(0, "Ann")
    t.play_turn(0)
    filled = next(iter(t.game["sheets"][0]))
    t.ok(0, {"kind": "roll"})
    before = t.state()
    r = t.act(0, {"kind": "score", "category": filled})
    assert (r.status_code, r.json()["code"]) == (409, "illegal") and "filled" in r.json()["message"]
    assert t.state() == before


def test_actions_before_the_start_and_after_the_end(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    r = t.act(0, {"kind": "roll"})
    assert (r.status_code, r.json()["code"]) == (409, "not_started")
    t2 = Table.create(client, "human")
    t2.join(0, "Solo")
    t2.play_to_end()
    before = t2.state()
    r = t2.act(0, {"kind": "roll"})
    assert (r.status_code, r.json()["code"]) == (409, "game_over")
    assert t2.state() == before


def test_a_solo_game_to_the_end_reveals_the_seed_and_a_review(client: TestClient) -> None:
    t = Table.create(client, "human", client_seed="agreed by all")
    t.join(0, "Solo")
    game = t.play_to_end()
    assert game["status"] == "finished" and game["round"] == 12 and game["winners"] == [0]
    assert len(game["sheets"][0]) == 12 and game["current"] is None
    assert sha256(game["server_seed"]) == game["commitment"]
    review = game["review"]
    assert review is not None and review["players"][0]["name"] == "Solo"
    mine = review["players"][0]
    assert "decisions" not in mine  # the live state carries the summary and the chart
    assert len(mine["series"]) == 13  # the start, then after each of the 12 scorings
    assert mine["series"][-1] == pytest.approx(game["totals"][0], abs=1e-6)
    assert 0 <= mine["accuracy"] <= 100 and mine["loss"] >= 0
    full = client.get(f"/api/games/{game['id']}/review").json()["players"][0]
    assert len(full["decisions"]) == 12 == sum(d["roll"] == 1 for d in full["decisions"])
    assert sum(d["loss"] for d in full["decisions"]) == pytest.approx(mine["loss"], abs=0.05)
    # The three costliest decisions of at least 0.5 points are explained, in codes and numbers.
    costly = sorted((d for d in full["decisions"] if d["loss"] >= 0.5), key=lambda d: -d["loss"])
    explained = [d for d in full["decisions"] if d["why"] is not None]
    assert sorted(d["loss"] for d in explained) == sorted(d["loss"] for d in costly[:3])
    for d in explained:
        assert d["why"]["taken"][-1]["code"] in (
            "vs_keep",
            "vs_all",
            "vs_score",
            "score_keeps_open",
        )
        assert all(
            r["code"]
            in ("keep_two", "keep_one", "keep_ends", "all_two", "all_one", "all_ends", "score_now")
            for r in d["why"]["best"]
        )


def test_hints(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    hint = {"type": "hint", "seat": 0, "token": t.tokens[0]}
    r = t.post("hint", hint)
    assert (r.status_code, r.json()["code"]) == (409, "illegal")
    t.ok(0, {"kind": "roll"})
    r = t.post("hint", hint)
    assert r.status_code == 200, r.text
    options = r.json()["options"]  # two players: best first by the chance of winning
    assert options and [o["win_probability"] for o in options] == sorted(
        (o["win_probability"] for o in options), reverse=True
    )
    for o in options:
        if o["action"] == "keep":
            dice = t.game["dice"]
            assert sorted(dice[p - 1] for p in o["hold"]) == sorted(o["keep"])
    r = t.post("hint", {"type": "hint", "seat": 1, "token": t.tokens[1]})
    assert (r.status_code, r.json()["code"]) == (409, "not_your_turn")
    r = t.post("hint", {"type": "hint", "seat": 0, "token": "nope"})
    assert (r.status_code, r.json()["code"]) == (403, "bad_token")
    r = t.post("hint", {"type": "hint", "seat": 0})
    assert (r.status_code, r.json()["code"]) == (403, "spectator")
    off = Table.create(client, "human", hints=False)
    off.join(0, "Ann")
    off.ok(0, {"kind": "roll"})
    r = off.post("hint", {"type": "hint", "seat": 0, "token": off.tokens[0]})
    assert (r.status_code, r.json()["code"]) == (403, "hints_off")


def test_hand_a_seat_to_a_bot(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    body = {"type": "hand_to_bot", "seat": 1, "bot": "greedy", "by": 1, "token": t.tokens[1]}
    assert t.post("hand-to-bot", {**body, "token": "nope"}).json()["code"] == "bad_token"
    assert t.post("hand-to-bot", {**body, "bot": "nobody"}).json()["code"] == "invalid"
    r = t.post("hand-to-bot", body)  # Bob leaves his own seat to the level he picks
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][1]
    assert (seat["kind"], seat["bot"], seat["name"]) == ("bot", "greedy", "Bob")
    r = t.act(1, {"kind": "roll"}, token=t.tokens[1], seat=1)
    assert r.json()["code"] in ("illegal", "not_your_turn")  # a bot plays it now
    assert t.post("hand-to-bot", body).json()["code"] == "illegal"  # already a bot
    t.play_turn(0)
    t.settle()  # the bot plays Bob's turn at once
    game = t.game
    assert game["current"] == 0 and game["round"] == 2 and len(game["sheets"][1]) == 1


def test_rematch_with_the_same_seats(client: TestClient) -> None:
    t = Table.create(client, "human", "greedy")
    t.join(0, "Ann")
    body = {"type": "rematch", "seat": 0, "token": t.tokens[0], "game": 1}
    assert t.post("rematch", body).json()["code"] == "illegal"  # not over yet
    first = t.play_to_end()
    assert t.post("rematch", {**body, "token": "x"}).json()["code"] == "bad_token"
    r = t.post("rematch", body)
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    assert game["number"] == 2 and game["status"] == "playing" and game["version"] == 0
    assert game["commitment"] != first["commitment"] and game["server_seed"] is None
    assert [s["name"] for s in r.json()["seats"]] == ["Ann", "Greedy bot"]
    assert t.post("rematch", body).json()["code"] == "stale_version"  # game 1 again
    t.ok(0, {"kind": "roll"})


def test_finished_games_can_be_browsed_replayed_and_downloaded(client: TestClient) -> None:
    t = Table.create(client, "human", "easy")
    t.join(0, "Ann")
    r = client.get(f"/api/tables/{t.code}/game.json")
    assert "dice" not in r.json() and r.json()["fair"]["commitment"] == t.game["commitment"]
    t.ok(0, {"kind": "roll"})
    game_id = t.game["id"]
    assert client.get(f"/api/games/{game_id}/replay").json()["code"] == "illegal"
    assert FIRST_SEED not in client.get(f"/api/games/{game_id}").text
    final = t.play_to_end()
    listed = client.get("/api/games").json()
    assert [g["id"] for g in listed] == [game_id]
    assert listed[0]["players"] == ["Ann", "Easy bot"] and listed[0]["totals"] == final["totals"]
    assert listed[0]["finished_at"].endswith("+00:00")
    data = client.get(f"/api/games/{game_id}").json()
    assert data["dice"]["server_seed"] == final["server_seed"]
    replay = client.get(f"/api/games/{game_id}/replay").json()
    frames = replay["frames"]
    reviewed = client.get(f"/api/games/{game_id}/review").status_code == 200
    assert replay["reviewed"] is reviewed  # the page asks for the review only once there is one
    assert len(frames) == len(data["events"]) + 1
    assert frames[0]["totals"] == [0, 0] and frames[-1]["totals"] == final["totals"]
    assert [f["event"]["action"] for f in frames[1:]] == [e["action"] for e in data["events"]]
    assert client.get("/api/games/999").status_code == 404
    assert client.get("/api/games?limit=0").status_code == 422


def test_openapi_documents_rest_and_websocket_messages(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    for name in ("ClientMessage", "ServerMessage", "ActionMessage", "StateMessage", "ErrorMessage"):
        assert name in schemas
    client_types = {s["$ref"].split("/")[-1] for s in schemas["ClientMessage"]["oneOf"]}
    assert client_types == {
        "HelloMessage",
        "ActionMessage",
        "HintMessage",
        "CoachMessage",
        "HandToBotMessage",
        "TakeBackMessage",
        "SeedMessage",
        "RematchMessage",
        "PingMessage",
    }
    assert "/ws/tables/{code}" in doc["info"]["description"]
    act = doc["paths"]["/api/tables/{code}/actions"]["post"]
    assert act["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "ActionMessage"
    )
    assert "HTTPValidationError" not in str(doc)
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text
    # Swagger UI comes with the server, not from a CDN: the docs work offline.
    assert "cdn." not in docs.text and "https://" not in docs.text
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert f"/docs/assets/{asset}" in docs.text
        got = client.get(f"/docs/assets/{asset}")
        assert got.status_code == 200 and len(got.content) > 10_000


def test_texts_and_pages(client: TestClient) -> None:
    fi = client.get("/api/i18n/fi").json()
    assert fi["messages"]["Roll"] == "Heitä" and fi["categories"]["four_of_a_kind"] == "Neljä samaa"
    assert fi["plurals"]["{n} die"] == ["{n} noppa", "{n} noppaa"]  # one, other
    assert client.get("/api/i18n/en").json()["messages"] == {}
    assert client.get("/api/i18n/xx").status_code == 404
    assert client.get("/api/bots").json()[:2] == ["random", "greedy"]
    assert client.get("/api/presets").json()[0]["name"] == "traditional"
    for path in ("/", "/games", "/games/1", "/static/js/table.js"):
        r = client.get(path)
        assert r.status_code == 200, path
    missing = client.get("/t/ABCDEF")  # no such table: the page says so, with a 404
    assert missing.status_code == 404 and "<html" in missing.text
    code = Table.create(client, "human").code
    assert client.get(f"/t/{code}").status_code == 200
    assert "<html" in client.get("/").text


@pytest.mark.parametrize("lang", ["fi", "bg", "nb"])
def test_the_rules_reason_comes_in_the_readers_language(client: TestClient, lang: str) -> None:
    """A refusal the rules give (here: scoring before rolling) says why in the language the
    page asked for, beside the English message; a reader of English gets no detail (the
    message says it) and neither does a refusal that is not the rules' (a bad token)."""
    from english import english_words

    t = Table.create(client, "human")
    t.join(0, "Ann")
    before = t.game
    action = t.message(0, {"kind": "score", "category": "ones"})
    r = t.client.post(
        f"/api/tables/{t.code}/actions", json=action, headers={"Accept-Language": f"{lang},en"}
    )
    error = r.json()
    assert (r.status_code, error["code"]) == (409, "illegal")
    assert "roll first" in error["message"]
    assert error["detail"] and error["detail"] != error["message"]
    assert english_words(error["detail"], lang) == [], error["detail"]
    english = t.client.post(
        f"/api/tables/{t.code}/actions", json=action, headers={"Accept-Language": "en"}
    )
    assert english.json()["detail"] is None
    forged = t.client.post(
        f"/api/tables/{t.code}/actions",
        json={**action, "token": "not-the-token"},
        headers={"Accept-Language": lang},
    )
    assert (forged.json()["code"], forged.json()["detail"]) == ("bad_token", None)
    assert t.game == before


def test_the_rules_reason_comes_over_the_socket_in_its_language(client: TestClient) -> None:
    from english import english_words

    t = Table.create(client, "human")
    t.join(0, "Ann")
    with client.websocket_connect(f"/ws/tables/{t.code}?lang=bg") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json(t.message(0, {"kind": "hold", "positions": [1]}, ref="r1"))
        error = ws.receive_json()
    assert (error["type"], error["code"], error["ref"]) == ("error", "illegal", "r1")
    assert error["detail"] and english_words(error["detail"], "bg") == [], error["detail"]

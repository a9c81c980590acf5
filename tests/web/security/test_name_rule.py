"""Names that draw nothing, and names that look like another seat's name at the same table,
are refused on every way in (join, bot seats); a seat keeps its name through a hand to a bot,
a take-back and a rematch, on the WebSocket as on REST."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from ..helpers import Table

HIDDEN = {
    "zero-width space inside": "An\u200bn",
    "zero-width non-joiner inside": "An\u200cn",
    "word joiner inside": "An\u2060n",
    "soft hyphen inside": "An\u00adn",
    "line separator inside": "An\u2028n",
    "paragraph separator inside": "An\u2029n",
    "tag letter A after": "Ann\U000e0041",
    "tag cancel after": "Ann\U000e007f",
    "leading byte-order mark": "\ufeffAnn",
    "combining grapheme joiner": "An\u034fn",
    "Hangul filler inside": "An\u3164n",
    "joiner between letters": "An\u200dn",
}
ALIKE = {
    "the same name": "Ann",
    "another case": "ANN",
    "a Cyrillic A": "\u0410nn",
    "a Greek capital alpha": "\u0391nn",
    "full-width letters": "\uff21\uff4e\uff4e",
    "spaces around": "  Ann ",
}


def error(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["code"]


@pytest.mark.parametrize("name", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_name_with_a_character_that_draws_nothing_is_refused(
    client: TestClient, name: str
) -> None:
    t = Table.create(client, "human", "human")
    r = t.post("join", {"seat": 0, "name": name})
    assert error(r) == (422, "invalid"), r.text
    assert "invisible" in r.json()["message"]
    bot = {"kind": "bot", "bot": "greedy", "name": name}
    assert error(client.post("/api/tables", json={"seats": [bot]})) == (422, "invalid")
    assert t.state()["seats"][0]["taken"] is False


@pytest.mark.parametrize("name", ALIKE.values(), ids=ALIKE.keys())
def test_a_name_that_looks_like_a_seated_name_is_refused(client: TestClient, name: str) -> None:
    t = Table.create(client, "human", "human", "human")
    t.join(0, "Ann")
    r = t.post("join", {"seat": 1, "name": name})
    assert error(r) == (422, "invalid"), r.text
    assert "Ann" in r.json()["message"]
    assert t.state()["seats"][1]["taken"] is False
    t.join(1, "Anna")  # a different name is fine
    t.join(2, "Bob")
    assert [s["name"] for s in t.state()["seats"]] == ["Ann", "Anna", "Bob"]
    assert t.game["status"] == "playing"


@pytest.mark.parametrize(
    ("first", "second"), [("admin", "ADMIN"), ("Ilkka", "ILKKA"), ("Il", "ll")]
)
def test_names_alike_in_either_case_are_refused(
    client: TestClient, first: str, second: str
) -> None:
    """A capital I maps to l in the skeleton before case is folded: ADMIN and admin must still
    clash, and so must a capital I and an l."""
    t = Table.create(client, "human", "human")
    t.join(0, first)
    r = t.post("join", {"seat": 1, "name": second})
    assert error(r) == (422, "invalid"), r.text
    assert t.state()["seats"][1]["taken"] is False


def test_a_person_cannot_take_a_bots_name(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy", "name": "Ann"}]},
    )
    t = Table(client, r.json()["code"])
    assert error(t.post("join", {"seat": 0, "name": "\u0410NN"})) == (422, "invalid")
    t.join(0, "Zoë")
    assert [s["name"] for s in t.state()["seats"]] == ["Zoë", "Ann"]


def test_two_bots_with_names_alike_are_refused(client: TestClient) -> None:
    bots = [{"kind": "bot", "bot": "greedy", "name": n} for n in ("Ann", "\u0410nn")]
    r = client.post("/api/tables", json={"seats": bots})
    assert error(r) == (422, "invalid")
    assert "look alike" in r.json()["message"]
    plain = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
    assert client.post("/api/tables", json={"seats": plain}).status_code == 201


def names(msg: dict[str, Any]) -> list[str]:
    return [s["name"] for s in msg["table"]["seats"]]


def test_a_seat_keeps_its_name_through_a_bot_and_a_take_back(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    with client.websocket_connect(f"/ws/tables/{t.code}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "hand_to_bot", "seat": 1, "by": 1, "token": t.tokens[1]})
        msg = ws.receive_json()
        assert msg["type"] == "state", msg
        assert names(msg) == ["Ann", "Bob"] and msg["table"]["seats"][1]["kind"] == "bot"
        ws.send_json({"type": "take_back", "seat": 1, "token": t.tokens[1]})
        # The bot may move first if it is its turn (the dice decide who starts): each of its
        # states keeps the names too, until the one that gives the seat back.
        for _ in range(20):
            msg = ws.receive_json()
            assert msg["type"] == "state", msg
            assert names(msg) == ["Ann", "Bob"]
            if msg["table"]["seats"][1]["kind"] == "human":
                break
        else:
            raise AssertionError("the seat was not taken back")


def test_a_rematch_keeps_the_names(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy", "name": "Ann"}]
    t = Table(client, client.post("/api/tables", json={"seats": seats}).json()["code"])
    t.join(0, "Zoë")
    number = t.play_to_end()["number"]
    with client.websocket_connect(f"/ws/tables/{t.code}") as ws:
        ws.receive_json()
        ws.send_json({"type": "rematch", "seat": 0, "token": t.tokens[0], "game": number})
        msg = ws.receive_json()
        assert msg["type"] == "state", msg
        assert msg["table"]["game"]["number"] == number + 1
        assert names(msg) == ["Zoë", "Ann"]

"""A small REST client for one table, shared by the scale tests (works on any httpx-like client)."""

from __future__ import annotations

from typing import Any, Protocol


class HttpClient(Protocol):
    def get(self, url: str) -> Any: ...
    def post(self, url: str, *, json: Any) -> Any: ...


def open_table(client: HttpClient, seats: int = 2, **options: Any) -> tuple[str, dict[int, str]]:
    """A table of ``seats`` people, every seat joined: its code and the seat tokens."""
    r = client.post("/api/tables", json={"seats": [{"kind": "human"}] * seats, **options})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    tokens = {}
    for seat in range(seats):
        r = client.post(f"/api/tables/{code}/join", json={"seat": seat, "name": f"P{seat + 1}"})
        assert r.status_code == 200, r.text
        tokens[seat] = r.json()["token"]
    return code, tokens


def table_state(client: HttpClient, code: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{code}")
    assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()
    return state


def next_action(game: dict[str, Any]) -> dict[str, Any]:
    """A legal move for the player to act: roll, then score the best open category."""
    if game["dice"] is None:
        return {"kind": "roll"}
    potentials: dict[str, int] = game["potentials"]
    return {"kind": "score", "category": max(sorted(potentials), key=lambda c: potentials[c])}


def action_message(game: dict[str, Any], tokens: dict[int, str], **extra: Any) -> dict[str, Any]:
    seat = game["current"]
    return {
        "type": "action",
        "seat": seat,
        "token": tokens[seat],
        "game": game["number"],
        "version": game["version"],
        "action": next_action(game),
        **extra,
    }


def play_rest(client: HttpClient, code: str, tokens: dict[int, str], moves: int) -> dict[str, Any]:
    """Make up to ``moves`` moves over REST (stopping at the end); the last game state."""
    game = table_state(client, code)["game"]
    for _ in range(moves):
        if game["status"] != "playing":
            break
        r = client.post(f"/api/tables/{code}/actions", json=action_message(game, tokens))
        assert r.status_code == 200, r.text
        game = r.json()["game"]
    out: dict[str, Any] = game
    return out

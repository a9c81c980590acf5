"""The inbox at scale, on SQLite (tests/scale/test_inbox_pg.py runs the same on PostgreSQL): its
rows come from the games' stored summaries in two queries and answer what each game's own state
says (round, every seat's total, opponents); a row an older server wrote without a summary, or
with one of another version, answers the same from the game itself; and a dormant game (waiting
on a person for days) is in no process's snapshot cache after start-up, after an inbox read, or
once the last socket watching it closed."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from sqlalchemy import create_engine, text

from yacht.web.app import create_app
from yacht.web.settings import Settings

from .account_helpers import Device, site


def app_on(url: str) -> FastAPI:
    return create_app(url, settings=Settings(prepare_tables=False), bot_delay=0)


def play_turn(device: Device, code: str, seat: int, token: str) -> None:
    """Roll once and score the category with the most points."""
    game = device.act(code, seat, token, {"kind": "roll"}).json()["game"]
    potentials: dict[str, int] = game["potentials"]
    best = max(sorted(potentials), key=lambda c: potentials[c])
    r = device.act(code, seat, token, {"kind": "score", "category": best})
    assert r.status_code == 200, r.text


def cached(app: FastAPI) -> set[str]:
    """The tables in the process's snapshot cache."""
    return set(app.state.service._seen._entries)


def expected(device: Device, codes: list[str]) -> dict[str, tuple[int, list[int], list[str]]]:
    """Round, totals and seat names of each game, from the table's own state."""
    out = {}
    for code in codes:
        state = device.get(f"/api/tables/{code}").json()
        names = [s["name"] for s in state["seats"]]
        out[code] = (state["game"]["round"], state["game"]["totals"], names)
    return out


def opened(url: str) -> tuple[list[str], dict[str, Any]]:
    """Three correspondence games of Ann and Bob, 0, 1 and 2 rounds played, each waiting on
    Ann; a real-time game beside them. Returns the codes, soonest deadline first, and what
    the tables' own states say of them (read by a device of its own)."""
    with site(app_on(url)) as web:
        ann, bob = web.device(), web.device("198.51.100.2")
        ann.sign_up("Ann")
        bob.sign_up("Bob")
        codes = []
        for turns, days in ((0, 7), (1, 3), (2, 1)):
            code = bob.table("human", "human", move_days=days)
            tokens = [ann.join(code, 0), bob.join(code, 1)]
            for _ in range(turns):
                play_turn(ann, code, 0, tokens[0])
                play_turn(bob, code, 1, tokens[1])
            codes.append(code)
        realtime = ann.table("human", "human")
        ann.join(realtime, 0)
        bob.join(realtime, 1)
        return codes[::-1], expected(ann, codes)


def check_inbox(url: str, codes: list[str], states: dict[str, Any]) -> dict[str, Any]:
    """Ann's inbox on a freshly started app (a restart): the games' rows as their states say,
    and none of them in the snapshot cache after start-up nor after the inbox read."""
    app = app_on(url)
    with site(app) as web:
        ann = web.device()
        assert ann.sign_in("Ann").status_code == 200
        assert not cached(app) & set(codes)  # start-up loads no dormant game
        seen: dict[str, Any] = ann.get("/api/inbox").json()
        assert not cached(app) & set(codes)  # nor does the inbox
    assert [g["code"] for g in seen["games"]] == codes
    for game in seen["games"]:
        round_, totals, names = states[game["code"]]
        assert game["round"] == round_
        assert [s["total"] for s in game["scores"]] == totals
        assert [s["name"] for s in game["scores"]] == names
        assert game["opponents"] == ["Bob"] and game["seat"] == 0
    return seen


def older_rows(url: str, codes: list[str]) -> None:
    """What an older server leaves: a game with no summary, one whose summary is a move
    behind (the game moved on without writing it)."""
    engine = create_engine(url)
    with engine.begin() as c:
        c.execute(text("UPDATE games SET summary = NULL WHERE table_code = :c"), {"c": codes[0]})
        c.execute(
            text("UPDATE games SET version = version + 1 WHERE table_code = :c"), {"c": codes[1]}
        )
    engine.dispose()


def the_inbox_answers_from_summaries_and_keeps_no_game(url: str) -> None:
    codes, states = opened(url)
    assert [states[c][0] for c in codes] == [3, 2, 1]
    assert states[codes[0]][1] != [0, 0]  # points on the sheets
    seen = check_inbox(url, codes, states)
    older_rows(url, codes)
    again = check_inbox(url, codes, states)

    def timeless(inbox: dict[str, Any]) -> list[dict[str, Any]]:
        return [{k: v for k, v in g.items() if k != "seconds_left"} for g in inbox["games"]]

    assert timeless(again) == timeless(seen)


def test_the_inbox_answers_from_the_summaries_and_keeps_no_game_in_memory(db: Path) -> None:
    the_inbox_answers_from_summaries_and_keeps_no_game(f"sqlite:///{db}")


def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait for ``condition`` (the server's side of a closed socket runs on its own)."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "the condition never held"
        time.sleep(0.01)


def test_a_dormant_table_leaves_memory_when_its_last_socket_closes(db: Path) -> None:
    app = app_on(f"sqlite:///{db}")
    with site(app) as web:
        ann, bob = web.device(), web.device("198.51.100.2")
        code = ann.table("human", "human", move_days=2)
        token = ann.join(code, 0, "Ann")
        bob.join(code, 1, "Bob")
        assert code not in cached(app)  # its game waits on Ann: nobody watches it
        with web.http.websocket_connect(f"/ws/tables/{code}") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "hello", "seats": [{"seat": 0, "token": token}]})
            while ws.receive_json()["type"] != "welcome":
                pass
            play_turn(ann, code, 0, token)  # the game now waits on Bob; Ann still watches
            assert code in cached(app)
        until(lambda: code not in cached(app))
        realtime = ann.table("human", "human")
        ann.join(realtime, 0, "Ann")
        bob.join(realtime, 1, "Bob")
        assert realtime in cached(app)  # a real-time game is played with its page open

"""Correspondence tables and the inbox against hostile input: settings no form offers are
refused with a clear error and open no table; another player's tokens, forged or mixed, list
nothing of theirs; a signed-in inbox asked for by another site is refused (CSRF); one client
asking too often is slowed down (429)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..account_helpers import Site, error, site

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def web(db: Path) -> Iterator[Site]:
    with site(db) as opened:
        yield opened


HOSTILE: list[dict[str, Any]] = [
    {"move_days": 5},
    {"move_days": 0},
    {"move_days": -1},
    {"move_days": "1"},
    {"move_days": True},
    {"move_days": 1.5},
    {"move_days": 10**12},
    {"move_days": 1, "missed_moves": 0},
    {"move_days": 1, "missed_moves": 11},
    {"move_days": 1, "missed_moves": "3"},
    {"move_days": 1, "missed_moves": None},
    {"move_days": 1, "turn_seconds": 60},
]


def test_a_hostile_setting_is_refused_and_opens_no_table(web: Site) -> None:
    for i, options in enumerate(HOSTILE):  # each from its own address: under the table quota
        guest = web.device(f"198.51.100.{10 + i}")
        r = guest.post("/api/tables", {"seats": HUMANS, **options})
        assert error(r) == (422, "invalid"), options
    assert web.device().get("/api/tables").json() == []


def test_someone_elses_tokens_list_nothing_of_theirs(web: Site) -> None:
    ann, eve = web.device(), web.device("198.51.100.66")
    code = ann.table("human", "human", move_days=1)
    token = ann.join(code, 0, "Ann")
    eve.join(code, 1, "Eve")
    eve_code = eve.table("human", "human", move_days=1)
    eve_token = eve.join(eve_code, 1, "Eve")
    ann.join(eve_code, 0, "Ann")
    forged = [
        {code: {"0": eve_token}},  # a real token, of another table
        {code: {"0": token[:-1] + ("A" if token[-1] != "A" else "B")}},
        {code.lower(): {"1": token}},  # the right token, another seat
    ]
    for body in forged:
        assert eve.post("/api/inbox", body).json() == {"count": 0, "games": []}, body
    # The right token lists the game (the code in any case), and only to its holder's seat.
    seen = eve.post("/api/inbox", {code.lower(): {"0": token}}).json()
    assert [(g["code"], g["seat"]) for g in seen["games"]] == [(code, 0)]


MALFORMED: list[Any] = [
    {f"T{i:05d}": {"0": "x"} for i in range(51)},  # more tables than a browser keeps
    {"ABCDEF": {"6": "x"}},  # no such seat
    {"ABCDEF": {"0": "x" * 500}},
    {"ABCDEF": {"0": ""}},
    {"<script>": {"0": "x"}},
    ["ABCDEF"],
]


def test_a_malformed_inbox_request_is_refused(web: Site) -> None:
    guest = web.device()
    for body in MALFORMED:
        assert error(guest.post("/api/inbox", body)) == (422, "invalid"), body


def test_a_signed_in_inbox_needs_the_sessions_csrf_token_to_post(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    assert ann.get("/api/inbox").status_code == 200  # a GET changes nothing: no token needed
    assert error(ann.post("/api/inbox", {}, csrf=False)) == (403, "csrf")
    assert ann.post("/api/inbox", {}).json() == {"count": 0, "games": []}


def test_one_client_asking_too_often_is_slowed_down(web: Site) -> None:
    greedy, other = web.device("198.51.100.7"), web.device("198.51.100.8")
    answers = [greedy.get("/api/inbox").status_code for _ in range(40)]
    assert 429 in answers and answers[0] == 200
    assert error(greedy.post("/api/inbox", {})) == (429, "rate_limited")
    assert other.get("/api/inbox").status_code == 200  # the others are not

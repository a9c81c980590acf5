"""Practice under attack: a signed-in answer without its CSRF token, answers that try to rate
a made-up position (there is no way to send one: a position is named by where it is), the
same position answered over and over to farm a rating, hostile skip lists, and a flood. Each
is refused with a clear answer, or judged and rated at most once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from yacht.web.edge.limits import QUOTAS

from ..account_helpers import Device, Site, error, site


@pytest.fixture
def web(db: Path) -> Iterator[Site]:
    with site(db) as opened:
        yield opened


def _answers(db: Path) -> int:
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        count = int(c.execute(text("SELECT count(*) FROM practice_answers")).scalar_one())
    engine.dispose()
    return count


def _served(who: Device) -> dict[str, Any]:
    r = who.post("/api/practice/next", {})
    assert r.status_code == 200, r.text
    served: dict[str, Any] = r.json()
    return served


def test_an_answer_without_the_csrf_token_changes_no_rating(web: Site, db: Path) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    served = _served(ann)
    body = {"ref": served["ref"], "keep": []}
    assert error(ann.post("/api/practice/answer", body, csrf=False)) == (403, "csrf")
    assert error(ann.post("/api/practice/answer", body, csrf="0" * 43)) == (403, "csrf")
    assert error(ann.post("/api/practice/next", {}, csrf=False)) == (403, "csrf")
    assert _answers(db) == 0


def test_a_position_cannot_be_made_up_and_repeats_rate_once(web: Site, db: Path) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    served = _served(ann)
    # the dice, sheet or key of a position are not taken from the client
    for extra in ({"dice": [6, 6, 6, 6, 6]}, {"key": "traditional||6 6 6 6 6|0"}):
        r = ann.post("/api/practice/answer", {"ref": served["ref"], "keep": [], **extra})
        assert error(r) == (422, "invalid")
    ratings = []
    for _ in range(5):
        r = ann.post("/api/practice/answer", {"ref": served["ref"], "keep": []})
        if r.status_code == 409:  # rolling all five is not an option here: score one
            r = ann.post("/api/practice/answer", {"ref": served["ref"], "category": "choice"})
        assert r.status_code == 200, r.text
        ratings.append(r.json()["after"])
    assert all(x == ratings[0] for x in ratings)  # rated once, then only judged
    assert _answers(db) == 1


@pytest.mark.parametrize(
    "skip",
    [
        ["x" * 221],
        [1, 2],
        "traditional||1 2 3 4 5|2",
        [{"$gt": ""}],
        ["' OR 1=1 --"] * 200,
    ],
)
def test_hostile_skip_lists_are_refused_or_harmless(web: Site, skip: object) -> None:
    guest = web.device()
    r = guest.post("/api/practice/next", {"skip": skip})
    if isinstance(skip, list) and all(isinstance(s, str) and len(s) <= 220 for s in skip):
        assert r.status_code == 200 and r.json()["ref"]["source"] == "bot"
    else:
        assert error(r) == (422, "invalid")


def test_a_flood_is_held_back(web: Site) -> None:
    guest = web.device()
    served = _served(guest)
    body = {"ref": served["ref"], "category": "choice"}
    for _ in range(QUOTAS["practice"].burst - 1):  # one spent on the position above
        r = guest.post("/api/practice/answer", body)
        assert r.status_code in (200, 409), r.text
    r = guest.post("/api/practice/answer", body)
    assert error(r) == (429, "rate_limited") and "practice requests" in r.json()["message"]
    # another client is not held back by this one's flood
    assert web.device("198.51.100.8").post("/api/practice/next", {}).status_code == 200

"""``POST /api/me/offline-games`` under attack: a signed-in change without its CSRF token, a
guest, records that are not real games (illegal moves, dice the seed does not deal, wrong
totals, a bot's seat, an undo, a game that does not end, a finish in the future or before the
account, an unknown preset), bodies that are too big or hold too many games, and a client
sending too often. Each is refused with a clear answer, and no record is stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from yacht.web.edge.limits import MAX_BODY, QUOTAS
from yacht.web.protocol.offline import MAX_GAMES

from ..account_helpers import Device, Site, error, site
from ..offline_helpers import offline_game, seed, sync


@pytest.fixture
def web(db: Path) -> Iterator[Site]:
    with site(db) as opened:
        yield opened


def _stored(who: Device) -> int:
    count: int = who.get("/api/players/Ann").json()["offline_games"]
    return count


def _signed_in(web: Site) -> Device:
    ann = web.device()
    ann.sign_up("Ann")
    return ann


def test_a_change_without_the_csrf_token_or_an_account_stores_nothing(web: Site) -> None:
    ann = _signed_in(web)
    game = offline_game(seed(1))
    assert error(sync(ann, game, csrf=False)) == (403, "csrf")
    assert error(sync(ann, game, csrf="0" * 43)) == (403, "csrf")
    assert error(sync(web.device("198.51.100.7"), game)) == (401, "unauthorized")
    assert _stored(ann) == 0


def _cheats() -> dict[str, tuple[dict[str, Any], str]]:
    real = offline_game(seed(2))
    moves = real["moves"]
    dice = [dict(m) for m in moves]
    other = [6] * 5 if moves[0]["dice"] != [6] * 5 else [1] * 5
    dice[0] = {"action": "roll", "dice": other}
    early = [*moves[:4], {"action": moves[3]["action"]}, *moves[4:]]  # seat 2 scores unrolled
    now = datetime.now(UTC)
    return {
        "dice": ({**real, "moves": dice}, "not the ones the seed deals"),
        "totals": ({**real, "totals": [real["totals"][0] + 1, real["totals"][1]]}, "totals"),
        "bot seat": ({**real, "seat": 1}, "is not a person's"),
        "undo": ({**real, "moves": [*moves[:2], {"action": "undo"}, *moves[2:]]}, "undo"),
        "unfinished": ({**real, "moves": moves[:-4]}, "is not over"),
        "roll without dice": ({**real, "moves": [{"action": "roll"}, *moves[1:]]}, "only a roll"),
        "score before a roll": ({**real, "moves": early}, "move 5"),
        "future": ({**real, "finished_at": (now + timedelta(hours=2)).isoformat()}, "future"),
        "before the account": (
            {**real, "finished_at": (now - timedelta(days=30)).isoformat()},
            "before the account",
        ),
        "preset": ({**real, "preset": "no-such-rules"}, "no-such-rules"),
    }


def test_records_that_are_not_real_games_are_refused_and_not_stored(web: Site) -> None:
    ann = _signed_in(web)
    cheats = _cheats()
    batch = [{**body, "id": f"cheat-{i}"} for i, (body, _) in enumerate(cheats.values())]
    assert len(batch) == MAX_GAMES  # one request, as the page would send them
    r = sync(ann, *batch)
    assert r.status_code == 200, r.text
    answers = r.json()["games"]
    assert [a["id"] for a in answers] == [g["id"] for g in batch]
    for (case, (_, reason)), answer in zip(cheats.items(), answers, strict=True):
        assert answer["status"] == "refused" and answer["record"] is None, case
        assert reason in answer["reason"], (case, answer["reason"])
    assert _stored(ann) == 0


MALFORMED = {
    "none": {"games": []},
    "too many": {"games": [offline_game(seed(3), game_id=f"g-{i}") for i in range(MAX_GAMES + 1)]},
    "id": {"games": [{**offline_game(seed(3)), "id": "../../etc"}]},
    "seed": {"games": [{**offline_game(seed(3)), "seed": "zz" * 32}]},
    "winner bot": {"games": [{**offline_game(seed(3)), "players": ["human", "winner"]}]},
    "naive date": {"games": [{**offline_game(seed(3)), "finished_at": "2027-01-01T10:00:00"}]},
    "extra": {"games": [{**offline_game(seed(3)), "rated": True}]},
    "six dice": {
        "games": [{**offline_game(seed(3)), "moves": [{"action": "roll", "dice": [1] * 6}]}]
    },
    "text": {"games": "all of them"},
}


def test_a_malformed_body_is_refused_whole(web: Site) -> None:
    ann = _signed_in(web)
    for case, body in MALFORMED.items():
        assert error(ann.post("/api/me/offline-games", body)) == (422, "invalid"), case
    assert _stored(ann) == 0


def test_an_oversized_body_and_a_flood_are_refused(web: Site) -> None:
    ann = _signed_in(web)
    big = offline_game(seed(4), ("human",) * 6)
    games = [{**big, "id": f"big-{i}"} for i in range(MAX_GAMES)]  # as many as allowed, too big
    assert len(json.dumps({"games": games}, separators=(",", ":"))) > MAX_BODY
    assert error(sync(ann, *games)) == (413, "too_large")
    game = offline_game(seed(5))
    for _ in range(QUOTAS["sync"].burst):  # the oversized body was refused before the quota
        assert sync(ann, game).status_code == 200
    assert error(sync(ann, game)) == (429, "rate_limited")
    assert _stored(ann) == 1  # sent eleven times, stored once
    # another client of the same account is not held back by this one's flood
    other = web.device("198.51.100.8")
    assert other.sign_in("Ann").status_code == 200
    assert sync(other, offline_game(seed(6), game_id="other-1")).status_code == 200

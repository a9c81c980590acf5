"""Practice on the web as players use it through the API: the costliest decision of the
signed-in player's own finished games first, judged by the exact strategy, with a practice
rating that a first answer moves and a repeat does not; guests get everyone's games at public
tables, then the easy bot's; a position is always named by where it is, never by its dice."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from yacht.bots import play_game
from yacht.game import Game
from yacht.training import Mistake, mistakes

from .account_helpers import Device, Site, error, site
from .test_rated import play_out


@pytest.fixture
def web(db: Path) -> Iterator[Site]:
    with site(db) as opened:
        yield opened


def solo_game(device: Device, **options: Any) -> int:
    """A solo table played out badly (the first open category each turn): its game id."""
    code = device.table("human", **options)
    token = device.join(code, 0, "Ann")
    game = play_out(code, {0: (device, token)})
    return int(game["id"])


def answer_of(m: Mistake, best: bool = True) -> dict[str, Any]:
    option = m.verdict.best if best else m.verdict.taken
    if option.action == "keep":
        return {"keep": list(option.keep or ())}
    assert option.category is not None
    return {"category": option.category.value}


def stored(device: Device, game_id: int) -> Game:
    r = device.get(f"/api/games/{game_id}")
    assert r.status_code == 200, r.text
    return Game.from_json(r.json())


def test_own_games_first_and_a_first_answer_rates_once(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    game_id = solo_game(ann)
    worst = mistakes(stored(ann, game_id))
    r = ann.post("/api/practice/next", {})
    assert r.status_code == 200, r.text
    served = r.json()
    assert served["own"] is True and served["ref"]["game"] == game_id
    assert served["key"] == worst[0].position.key()
    assert served["dice"] == list(worst[0].position.dice)
    assert served["rating"]["shown"] == 1500 and served["rating"]["provisional"]

    r = ann.post("/api/practice/answer", {"ref": served["ref"], **answer_of(worst[0])})
    assert r.status_code == 200, r.text
    verdict = r.json()
    assert verdict["solved"] is True and verdict["loss"] == 0 and verdict["rated"] is True
    assert verdict["after"]["shown"] > verdict["before"]["shown"] == 1500
    assert verdict["options"][0] == verdict["best"]
    # a second answer to the same position is judged, and rates nothing
    again = ann.post("/api/practice/answer", {"ref": served["ref"], **answer_of(worst[0], False)})
    assert again.status_code == 200 and again.json()["solved"] is False
    assert again.json()["rated"] is False
    assert again.json()["after"] == again.json()["before"] == verdict["after"]
    assert again.json()["loss"] == pytest.approx(worst[0].loss, abs=1e-6)
    # the solved position is not served again: the next is the game's second costliest
    nxt = ann.post("/api/practice/next", {}).json()
    assert nxt["key"] == worst[1].position.key() and nxt["rating"] == verdict["after"]


def test_a_wrong_answer_costs_rating_and_says_what_it_gave_up(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    worst = mistakes(stored(ann, solo_game(ann)))[0]
    served = ann.post("/api/practice/next", {}).json()
    verdict = ann.post(
        "/api/practice/answer", {"ref": served["ref"], **answer_of(worst, best=False)}
    ).json()
    assert verdict["solved"] is False and verdict["rated"] is True
    assert verdict["loss"] == pytest.approx(worst.loss, abs=1e-6)
    best_why, taken_why = worst.verdict.reasons()  # why, as the library says it
    assert verdict["why"] == [r.to_json() for r in (*best_why, *taken_why)]
    assert verdict["why"][-1]["code"].startswith(("vs_", "score_keeps_open"))
    assert verdict["after"]["shown"] < 1500
    taken = verdict["taken"]
    assert taken in verdict["options"] and taken["loss"] == pytest.approx(worst.loss, abs=1e-6)


def test_a_guest_gets_public_games_then_the_easy_bot_and_skip_leaves_out(web: Site) -> None:
    guest = web.device()
    first = guest.post("/api/practice/next", {}).json()  # no finished game yet: the bot's
    bot = mistakes(play_game(["easy"], seed=0))
    assert first["ref"] == {
        "source": "bot",
        "game": None,
        "seed": 0,
        "player": 0,
        "turn": bot[0].turn,
        "rolls_left": bot[0].position.rolls_left,
    }
    assert first["key"] == bot[0].position.key() and first["rating"] is None
    second = guest.post("/api/practice/next", {"skip": [first["key"]]}).json()
    assert second["key"] == bot[1].position.key()
    verdict = guest.post("/api/practice/answer", {"ref": first["ref"], **answer_of(bot[0])})
    assert verdict.json()["solved"] is True and verdict.json()["rated"] is False
    assert verdict.json()["after"] is None

    ann = web.device("198.51.100.7")
    game_id = solo_game(ann)  # a guest's game at a public table: everyone's to practise on
    worst = mistakes(stored(ann, game_id))[0]
    served = guest.post("/api/practice/next", {}).json()
    assert served["ref"]["game"] == game_id and served["own"] is False
    assert served["key"] == worst.position.key() and served["name"] == "Ann"


def test_a_private_tables_game_is_practised_only_by_who_sat_there(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    game_id = solo_game(ann, private=True)
    worst = mistakes(stored(ann, game_id))[0]
    mine = ann.post("/api/practice/next", {}).json()
    assert mine["ref"]["game"] == game_id and mine["own"] is True
    guest = web.device("198.51.100.9")
    theirs = guest.post("/api/practice/next", {}).json()
    assert theirs["ref"]["source"] == "bot"  # not the private game
    r = guest.post("/api/practice/answer", {"ref": mine["ref"], **answer_of(worst)})
    assert error(r) == (404, "not_found")
    r = ann.post("/api/practice/answer", {"ref": mine["ref"], **answer_of(worst)})
    assert r.status_code == 200 and r.json()["solved"] is True
    for bad in ({"player": 1}, {"turn": 12, "rolls_left": 1}):  # no such seat; no reroll
        r = ann.post("/api/practice/answer", {"ref": {**mine["ref"], **bad}, "keep": []})
        assert error(r) == (404, "not_found")


BOT_REF = {"source": "bot", "seed": 0, "player": 0, "turn": 1, "rolls_left": 2}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"ref": BOT_REF}, (422, "invalid")),  # neither keep nor category
        ({"ref": BOT_REF, "keep": [1], "category": "ones"}, (422, "invalid")),
        ({"ref": BOT_REF, "category": "sevens"}, (409, "illegal")),
        ({"ref": BOT_REF, "keep": [6, 6, 6, 6]}, (409, "illegal")),  # not among the dice
        ({"ref": BOT_REF, "keep": [1, 2, 3, 4, 5]}, (422, "invalid")),  # five is not a keep
        ({"ref": {**BOT_REF, "turn": 13}, "keep": []}, (422, "invalid")),
        ({"ref": {**BOT_REF, "game": 5}, "keep": []}, (422, "invalid")),
        ({"ref": {**BOT_REF, "player": 1}, "keep": []}, (422, "invalid")),
        ({"ref": {**BOT_REF, "seed": 1000}, "keep": []}, (422, "invalid")),
        (
            {
                "ref": {"source": "game", "game": 999, "player": 0, "turn": 1, "rolls_left": 2},
                "keep": [],
            },
            (404, "not_found"),
        ),
        ({"ref": {**BOT_REF, "source": "file"}, "keep": []}, (422, "invalid")),
        ({"ref": BOT_REF, "keep": [], "extra": 1}, (422, "invalid")),
    ],
)
def test_a_bad_answer_is_refused_with_its_reason(
    web: Site, body: dict[str, Any], expected: tuple[int, str]
) -> None:
    assert error(web.device().post("/api/practice/answer", body)) == expected


def test_next_refuses_an_unknown_preset_and_too_many_skips(web: Site) -> None:
    guest = web.device()
    assert error(guest.post("/api/practice/next", {"rules": "nope"})) == (422, "invalid")
    assert error(guest.post("/api/practice/next", {"skip": ["x"] * 201})) == (422, "invalid")
    r = guest.post("/api/practice/next", {"rules": "knizia"})  # no game, and no bot's of it
    assert error(r) == (404, "not_found")

"""Playing to win at the web table: hints with each option's chance of winning at
a table with opponents, the same numbers as :func:`yacht.strategy.win.win_hint_for_view`,
and the ``winner`` bot playing a whole game."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from yacht.game import TurnView
from yacht.rules import Category, rules_by_name
from yacht.strategy.win import prepare, win_hint_for_view
from yacht.web.app import create_app
from yacht.web.service.hints import HintDesk
from yacht.web.settings import Settings

from .helpers import Table, until


def _view(table: dict[str, Any]) -> TurnView:
    """The current player's view, rebuilt from what the server sends every client."""
    game = table["game"]
    sheets = tuple({Category(c): p for c, p in s.items()} for s in game["sheets"])
    return TurnView(
        rules=rules_by_name(table["rules"]["name"]),
        player=game["current"],
        sheet=sheets[game["current"]],
        sheets=sheets,
        dice=tuple(game["dice"]),
        held=frozenset(game["held"]),
        rolls_used=game["rolls_used"],
    )


def _same_as_the_engine(reply: dict[str, Any], view: TurnView) -> None:
    hint = win_hint_for_view(view)
    options = reply["options"]
    assert reply["exact"] is hint.exact
    assert reply["solved"] is hint.solved
    assert len(options) == 5
    for got, want in zip(options, hint.options, strict=False):
        assert (got["action"], got["keep"], got["points"]) == (
            want.action,
            None if want.keep is None else list(want.keep),
            want.points,
        )
        assert got["category"] == (want.category.value if want.category else None)
        assert got["win_probability"] == pytest.approx(want.win_probability, abs=1e-12)
        assert got["expected_total"] == pytest.approx(want.expected + view.banked, abs=1e-9)
        assert got["probability"] is None


def _two_players(client: TestClient, turns: int) -> Table:
    """Ann and Bob after ``turns`` turns each, Ann to roll."""
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    for _ in range(turns):
        t.play_turn(0)
        t.play_turn(1)
    return t


def test_a_two_player_hint_gives_the_chance_of_winning(client: TestClient) -> None:
    t = _two_players(client, 3)
    t.ok(0, {"kind": "roll"})
    r = t.post("hint", {"type": "hint", "seat": 0, "token": t.tokens[0]})
    assert r.status_code == 200, r.text
    reply = r.json()
    _same_as_the_engine(reply, _view(t.state()))
    chances = [o["win_probability"] for o in reply["options"]]
    assert chances == sorted(chances, reverse=True) and 0 < chances[0] < 1
    assert reply["exact"] is False  # nine boxes open each: the estimate


def test_a_heads_up_endgame_hint_is_exact_over_the_socket(client: TestClient) -> None:
    t = _two_players(client, 10)  # two boxes left each: inside the endgame table
    t.ok(0, {"kind": "roll"})
    with client.websocket_connect(f"/ws/tables/{t.code}") as ann:
        until(ann, "state")
        ann.send_json({"type": "hint", "seat": 0, "token": t.tokens[0], "ref": "w"})
        reply = until(ann, "hint")
    assert reply["ref"] == "w" and reply["exact"] is True
    _same_as_the_engine(reply, _view(t.state()))


def test_a_hint_from_the_solved_two_player_table_says_so(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the two-player table built (``yacht duel solve``; too big for CI, so the hint is
    marked solved here) an early heads-up hint says ``solved``, which the page words as
    "two-player Yacht is solved" rather than "the endgame is solved"."""
    import dataclasses

    import yacht.strategy.win as win

    real = win.win_hint_for_view
    monkeypatch.setattr(
        win, "win_hint_for_view", lambda view: dataclasses.replace(real(view), solved=True)
    )
    # in this process, where the patch is, instead of the server's worker process
    client.app.state.service.hints = HintDesk(executor=ThreadPoolExecutor(1))  # type: ignore[attr-defined]
    t = _two_players(client, 1)
    t.ok(0, {"kind": "roll"})
    reply = t.post("hint", {"type": "hint", "seat": 0, "token": t.tokens[0]}).json()
    assert reply["solved"] is True and reply["exact"] is False


def test_a_solo_hint_keeps_the_expected_points(client: TestClient) -> None:
    t = Table.create(client, "human")
    t.join(0, "Ann")
    t.ok(0, {"kind": "roll"})
    reply = t.post("hint", {"type": "hint", "seat": 0, "token": t.tokens[0]}).json()
    assert reply["exact"] is None and reply["solved"] is None
    assert all(o["win_probability"] is None for o in reply["options"])
    expected = [o["expected"] for o in reply["options"]]
    assert expected == sorted(expected, reverse=True)


def test_a_whole_game_against_the_winner_bot(client: TestClient) -> None:
    t = Table.create(client, "human", "winner")
    t.join(0, "Ann")
    game = t.play_to_end()
    assert game["status"] == "finished" and all(len(s) == 12 for s in game["sheets"])
    assert t.state()["seats"][1]["bot"] == "winner"


def test_a_new_table_with_opponents_prepares_the_win_tables_once_per_preset(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first P(win) hint or winner move does not wait for tables: opening a table with
    opponents and hints (or a winner seat) starts building them, once per preset and
    table kind (heads-up also needs the endgame table) in each server process."""
    from yacht.web.service import bots

    calls: list[tuple[str, int]] = []

    class Worker:
        def submit(self, work: Any, *args: Any) -> Future[None]:
            if work is prepare:  # (the server's start also has the worker read tables)
                rules, players = args
                calls.append((rules.name, players))
            done: Future[None] = Future()
            done.set_result(None)
            return done

    monkeypatch.setattr(bots, "_PREPARING", set())
    monkeypatch.setattr(bots, "workers", Worker)
    settings = Settings(waiting_per_client=10)  # it opens six tables at once
    with TestClient(create_app(f"sqlite:///{db}", settings=settings)) as client:
        _open_tables(client)
    assert calls == [("traditional", 2), ("traditional", 3), ("clubhouse", 2)]


def _open_tables(client: TestClient) -> None:
    Table.create(client, "human", "human")
    Table.create(client, "human", "human")  # already under way
    Table.create(client, "human")  # alone: nothing beyond the solver
    Table.create(client, "human", "human", "human", hints=False)  # nobody will ask
    Table.create(client, "human", "winner", "medium", hints=False)  # the winner bot will
    Table.create(client, "human", "human", preset="clubhouse")

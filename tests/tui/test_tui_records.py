"""Records of finished games: the SQLite book, ``yacht history``, ``yacht replay``."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.game import Game
from yacht.review import review
from yacht.rules import Category
from yacht.tui.records import Records
from yacht.tui.replay import replay_steps
from yacht.tui.screens.replay import ReplayApp
from yacht.tui.seats import Seat, TableConfig
from yacht.tui.table import describe_event
from yacht.tui.widgets.dice import DieSlot

from .conftest import faces
from .helpers import bots_game, text_of

SEATS = [Seat("Ann"), Seat("Bob", "medium")]
CONFIG = TableConfig(tuple(SEATS))


def _store(records: Records, *seeds: int) -> list[Game]:
    games = [bots_game(CONFIG, faces(seed)) for seed in seeds]
    for game in games:
        records.add(game, SEATS)
    return games


def test_games_are_kept_newest_first_and_high_scores_ranked(records: Records) -> None:
    games = _store(records, 1, 2, 3)
    stored = records.games()
    assert [r.id for r in stored] == [3, 2, 1]
    assert [r.totals for r in stored] == [g.totals for g in reversed(games)]
    assert stored[0].kinds == ["human", "medium"]
    assert stored[0].winners == [games[2].players[i] for i in games[2].winners()]
    assert records.get(2).game().to_json() == games[1].to_json()
    every = sorted((t for g in games for t in g.totals), reverse=True)
    assert [h.total for h in records.high_scores(4)] == every[:4]
    humans = sorted((g.totals[0] for g in games), reverse=True)
    assert [h.total for h in records.high_scores(10, humans_only=True)] == humans


def test_unfinished_games_and_unknown_ids_are_refused(records: Records) -> None:
    game = bots_game(CONFIG, faces(1), scorings=3)
    with pytest.raises(ValueError, match="only finished games"):
        records.add(game, SEATS)
    with pytest.raises(ValueError, match="no stored game with id 5"):
        records.get(5)
    assert records.count() == 0


def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(ValueError, match="newer yacht"):
        Records(path)


def test_history_lists_games_and_high_scores(
    records: Records, capsys: pytest.CaptureFixture[str]
) -> None:
    games = _store(records, 1, 2)
    assert main(["history", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Recent games"
    for number, game in ((2, games[1]), (1, games[0])):
        line = next(li for li in lines if li.startswith(f"  #{number} "))
        assert f"Ann {game.totals[0]}, Bob {game.totals[1]}" in line
        winners = ", ".join(game.players[i] for i in game.winners())
        assert line.endswith(f"(winner: {winners})")
    best = lines[lines.index("High scores") + 1 :]
    totals = [int(li.split()[1]) for li in best if li.strip()[:1].isdigit()]
    assert totals == sorted((t for g in games for t in g.totals), reverse=True)
    assert "(bot)" in out  # bots are marked in the high scores


def test_history_names_the_preset_in_the_language(
    records: Records, capsys: pytest.CaptureFixture[str]
) -> None:
    """The preset's name, as the setup screen shows it; JSON keeps the id."""
    _store(records, 1)
    assert main(["history", "--lang", "fi"]) == 0
    out = capsys.readouterr().out
    assert "Perinteinen" in out and "traditional" not in out
    assert main(["history", "--lang", "en"]) == 0
    assert "Traditional" in capsys.readouterr().out


def test_history_as_json(records: Records, capsys: pytest.CaptureFixture[str]) -> None:
    (game,) = _store(records, 4)
    assert main(["history", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["id"] for g in data["games"]] == [1]
    assert data["games"][0]["players"] == [
        {"name": "Ann", "kind": "human", "total": game.totals[0]},
        {"name": "Bob", "kind": "medium", "total": game.totals[1]},
    ]
    assert [h["total"] for h in data["high_scores"]] == sorted(game.totals, reverse=True)


def test_history_without_games(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--lang", "fi"]) == 0
    assert capsys.readouterr().out.strip() == (
        "Ei vielä päättyneitä pelejä. Pelaa yksi komennolla: ”yacht play”"
    )


def test_replay_plain_prints_every_event_with_its_verdict(
    records: Records, capsys: pytest.CaptureFixture[str]
) -> None:
    (game,) = _store(records, 5)
    assert main(["replay", "1", "--plain", "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Game 1 · ") and out[0].endswith("· preset Traditional")
    assert out[1] == "Players: Ann (Human), Bob (Bot: medium)"
    steps = [li for li in out if re.match(r"^ +\d+\. ", li)]
    assert len(steps) == len(game.events)
    rated = review(game)
    for line, step in zip(steps, replay_steps(game, rated), strict=True):
        assert describe_event(game.players, step.event, "en", step.dice_before) in line
        if step.decision is not None:
            if step.decision.accurate:
                assert line.endswith("best play]")
            else:  # the chance to win lost and the points beside it, a part lost as 0.0 left out
                assert re.search(
                    r"best was .*, (-[\d.]+% to win(, -[\d.]+ points)?|-[\d.]+ points)\]$", line
                )
                assert "-0.0% to win" not in line and "-0.0 points" not in line
    assert sum(1 for s in replay_steps(game, rated) if s.decision) == len(rated.decisions)
    summary = out[out.index("Review") + 1 :]
    for player in rated.players:
        assert f"  {player.name}: accuracy {player.accuracy:.0f}%" in summary


def test_replay_of_an_unknown_game_is_a_one_line_error(
    records: Records, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "9", "--plain", "--lang", "en"]) == 2
    assert capsys.readouterr().err == (
        "yacht: error: no stored game with id 9 (see: yacht history)\n"
    )


async def test_replay_screen_steps_through_a_stored_game(records: Records) -> None:
    (game,) = _store(records, 6)
    record = records.get(1)
    app = ReplayApp(record, review(record.data), "en")
    async with app.run_test(size=(80, 24)) as pilot:
        total = len(game.events)
        assert f"Step 0 of {total}" in text_of(app, "#turn")
        await pilot.press("right")
        first = game.events[0].dice
        assert [s.face for s in app.screen.query(DieSlot)] == list(first or ())
        assert "Ann: roll" in text_of(app, "#turn")
        await pilot.press("down")  # to the end of the turn: Ann's first scoring
        scored = next(i for i, e in enumerate(game.events, 1) if e.points is not None)
        assert f"Step {scored} of {total}" in text_of(app, "#turn")
        assert text_of(app, "#message")  # the verdict on that decision
        scored_dice = game.events[scored - 1].dice
        assert [s.face for s in app.screen.query(DieSlot)] == list(scored_dice or ())
        await pilot.press("end")
        totals = text_of(app, "#row-total")
        assert totals.split()[-2:] == [str(t) for t in game.totals]
        await pilot.press("left", "up")
        assert "Step" in text_of(app, "#turn")
        await pilot.press("home")
        assert f"Step 0 of {total}" in text_of(app, "#turn")
        assert Category.ONES.value  # the sheet is drawn from the same game
        assert "accuracy" in text_of(app, "#summary")


async def test_the_setup_screen_shows_the_high_scores(records: Records, data_dir: Path) -> None:
    (game,) = _store(records, 7)
    from yacht.tui.app import YachtApp

    app = YachtApp(data_dir=data_dir, lang="en")
    async with app.run_test(size=(80, 24)):  # people's scores only: the bot's is not there
        assert text_of(app, "#best-line") == f"High scores: {game.totals[0]} {game.players[0]}"

"""The notes one server process publishes of its moves (yacht.web.storage.peers): another process's
snapshot brought up to date with them is the game the first one stored, and a note that does
not fit changes nothing or is refused."""

from __future__ import annotations

import json

from yacht.dice import FairDice
from yacht.game import Game
from yacht.web.storage.models import GameRow, SeatRow, TableRow
from yacht.web.storage.peers import PeerNotes, note
from yacht.web.storage.snapshots import Entry
from yacht.web.storage.store import TableSnapshot

SEED = "s" * 64


def twins() -> tuple[Game, Game]:
    return tuple(Game(["Ann", "Bo"], dice=FairDice(SEED, "key")) for _ in "ab")  # type: ignore[return-value]


def snapshot(revision: int, version: int = 0) -> TableSnapshot:
    return TableSnapshot(
        TableRow(code="ABC", revision=revision, game_number=1),
        (SeatRow(position=0), SeatRow(position=1)),
        GameRow(number=1, version=version, status="playing", server_seed=SEED),
    )


def moved(game: Game, snap: TableSnapshot, actions: list[str]) -> tuple[TableSnapshot, str]:
    """``actions`` made on ``game`` as one stored change each; the last snapshot and notes."""
    texts = []
    for action in actions:
        before = len(game.events)
        game.apply(action, player=game.current)
        columns = {"state": game.to_json(), "version": game.version, "status": "playing"}
        text = note(snap, snap.revision + 1, columns, game, before)
        assert text is not None
        texts.append(text)
        snap = snapshot(snap.revision + 1, game.version)
    return snap, "\n".join(texts)


def test_notes_bring_the_other_process_to_the_stored_game() -> None:
    theirs, ours = twins()
    start = snapshot(7)
    notes = PeerNotes()
    told: list[str] = []
    _, texts = moved(theirs, start, ["roll", "hold 1 2", "roll", "score choice"])
    for text in texts.split("\n"):
        notes.add("ABC", text)
    entry = notes.advance("ABC", (start, ours), told.append)
    assert entry is not None
    snap, game = entry
    assert game is ours and game.to_json() == theirs.to_json()  # dice position included
    assert snap.revision == 11 and snap.game.version == theirs.version == 4
    assert told == ["applied"] * 4
    assert SEED not in texts  # the seed stays secret until the game ends
    # and the next roll here draws the dice the other process would have drawn
    assert game.apply("roll").dice == theirs.apply("roll").dice


def test_a_note_from_another_revision_leaves_the_snapshot_as_it_was() -> None:
    theirs, ours = twins()
    notes, told = PeerNotes(), list[str]()
    _, text = moved(theirs, snapshot(9), ["roll"])  # made on revision 9; ours is at 7
    notes.add("ABC", text)
    entry: Entry = (snapshot(7), ours)
    assert notes.advance("ABC", entry, told.append) == entry
    assert ours.version == 0 and told == ["gap"]
    assert notes.advance("ABC", entry) == entry  # the note was used up: nothing left


def test_a_note_the_game_does_not_replay_is_refused() -> None:
    theirs, _ = twins()
    snap, rolled = moved(theirs, snapshot(7), ["roll"])
    _, scored = moved(theirs, snap, ["score choice"])
    wrong_points = json.loads(scored)
    wrong_points["events"][0]["points"] += 1  # not what the dice score
    first = json.loads(rolled)["events"][0]["player"]
    wrong_turn = {**json.loads(rolled), "events": [{"player": 1 - first, "action": "roll"}]}
    cases = [[rolled, json.dumps(wrong_points)], [json.dumps(wrong_turn)], ["not json"]]
    cases.append(['{"to": 9}'])
    for texts in cases:
        _, ours = twins()
        notes, told = PeerNotes(), list[str]()
        for text in texts:
            notes.add("ABC", text)
        assert notes.advance("ABC", (snapshot(7), ours), told.append) is None, texts
        assert told == ["applied"] * (len(texts) - 1) + ["refused"]


def test_only_plain_moves_are_noted() -> None:
    game, _ = twins()
    game.apply("roll")
    snap = snapshot(3)
    assert note(snap, 4, {}, game, 0) is None
    assert note(snap, 4, {"version": 1, "finished_at": "now"}, game, 0) is None

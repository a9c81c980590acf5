"""Fair dice rule 3: a die is keyed by its place (seat, turn, roll, slot), not by how many dice
came before, so no other seat's moves and no hold of a player's own can change what a slot
shows."""

from __future__ import annotations

import hashlib
import hmac

from yacht.actions import Hold, Roll, Score
from yacht.dice import FairDice, PlacedDice, dice_from_description
from yacht.game import Game
from yacht.rules import CATEGORIES

SEED = "ab" * 32
KEY = "key-of-the-players-seeds"


def by_the_spec(seat: int, turn: int, roll: int, slot: int) -> int:
    """The face as docs/web/fairness.md states rule 3, computed here on its own."""
    counter = 0
    while True:
        label = f"{KEY}:{seat}:{turn}:{roll}:{slot}:{counter}".encode()
        for byte in hmac.new(SEED.encode(), label, hashlib.sha256).digest():
            if byte < 252:
                return byte % 6 + 1
        counter += 1


def test_a_slot_shows_what_the_spec_derives() -> None:
    dice = PlacedDice(SEED, KEY)
    for seat, turn, roll in [(0, 0, 0), (1, 5, 2), (5, 11, 1)]:
        expected = [by_the_spec(seat, turn, roll, p) for p in range(5)]
        assert dice.roll_at(seat, turn, roll, range(5)) == expected


def test_two_hold_choices_see_the_same_values_in_the_rerolled_slots() -> None:
    shown = []
    for held in ([1, 2], [4], []):
        game = Game(["Ann"], "traditional", PlacedDice(SEED, KEY))
        first = game.apply(Roll()).dice
        if held:
            game.apply(Hold(tuple(held)))
        second = game.apply(Roll()).dice
        assert first is not None and second is not None
        for p in held:  # a held slot keeps its face
            assert second[p - 1] == first[p - 1]
        shown.append({p: second[p - 1] for p in range(1, 6) if p not in held})
    for rerolled in shown:
        for p, face in rerolled.items():
            assert face == by_the_spec(0, 0, 1, p - 1)


def play(bot_holds_all: bool, rule: int = 3) -> list[tuple[int, ...]]:
    """A person (seat 0) and a bot (seat 1) on the same seeds; the server chooses the bot's
    holds. Returns every roll the person saw."""
    dice = PlacedDice(SEED, KEY) if rule == 3 else FairDice(SEED, KEY)
    game = Game(["Ann", "Bot"], "traditional", dice)
    seen: list[tuple[int, ...]] = []
    for _ in range(len(CATEGORIES)):
        for seat in (0, 1):
            for roll in range(3):
                event = game.apply(Roll(), player=seat)
                if seat == 0:
                    assert event.dice is not None
                    seen.append(event.dice)
                if roll < 2:
                    holds = [1, 2, 3, 4, 5] if seat == 1 and bot_holds_all else []
                    if seat == 0:
                        holds = [1] if roll == 0 else [1, 2]
                    game.apply(Hold(tuple(holds)), player=seat)
            open_ = [c for c in CATEGORIES if c not in game.sheet(seat)]
            game.apply(Score(open_[0]), player=seat)
    assert game.finished
    return seen


def test_a_bots_holds_cannot_steer_a_persons_dice() -> None:
    """The steering attack: a server choosing a bot seat's holds (all dice, or none) to move the
    shared counter. Under rule 3 the person sees exactly the same dice either way."""
    assert play(bot_holds_all=True) == play(bot_holds_all=False)
    # under rule 2's one counter the same choice moves every die the person gets next
    assert play(bot_holds_all=True, rule=2) != play(bot_holds_all=False, rule=2)


def test_the_source_and_the_game_round_trip() -> None:
    dice = PlacedDice(SEED, KEY)
    dice.roll(3)
    again = dice_from_description(dice.describe())
    assert isinstance(again, PlacedDice) and again.describe() == dice.describe()
    game = Game(["Ann", "Bo"], "traditional", PlacedDice(SEED, KEY), start="roll-off")
    game.apply(Roll())
    game.apply(Hold((2, 3)))
    game.apply(Roll())
    copy = Game.from_json(game.to_json())
    assert copy.dice == game.dice and copy.first == game.first
    copy.apply(Score(CATEGORIES[0]))
    game.apply(Score(CATEGORIES[0]))
    assert copy.apply(Roll()).dice == game.apply(Roll()).dice

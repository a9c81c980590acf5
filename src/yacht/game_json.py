"""The saved form of a game: versioned JSON, read back by replaying and checking every event.

:meth:`yacht.game.Game.to_json` and :meth:`~yacht.game.Game.from_json` are the way in; this
module holds the format. A saved game is its players, preset, start, house rules and event
log (plus the dice source, to continue it). Reading replays the log through the rules engine,
so a game that loads is a game that could have been played: a wrong type, an illegal or
altered event, a start its own rolls contradict, or totals the events do not add up to is a
ValueError that says what is wrong.

>>> from yacht.dice import ScriptedDice
>>> from yacht.game import Game
>>> g = Game(["Ann"], dice=ScriptedDice([6, 6, 6, 6, 6]))
>>> _ = g.apply("roll"), g.apply("score yacht")
>>> data = g.to_json(include_dice_source=False)
>>> data["events"][1]
{'player': 0, 'action': 'score yacht', 'dice': [6, 6, 6, 6, 6], 'points': 50}
>>> data["events"][1]["points"] = 60
>>> Game.from_json(data)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: bad game JSON: event 1 {...'points': 60} replays as {...'points': 50}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from yacht.actions import Action, GameError, Roll
from yacht.dice import DiceSource, dice_from_description
from yacht.fields import field, is_int
from yacht.rules import Rules, rules_by_name

__all__ = [
    "FORMAT_VERSION",
    "GameFactory",
    "SavableGame",
    "SavedEvent",
    "game_from_json",
    "game_to_json",
]

FORMAT_VERSION = 1
"""The version of the saved form; a reader refuses any other."""


# The format is described by what it reads of a game rather than by yacht.game.Game, so the
# engine can import its saved form and this module never imports the engine back.


class SavedEvent(Protocol):
    """An accepted action as the saved form keeps it: its own JSON."""

    def to_json(self) -> dict[str, Any]: ...


class SavableGame(Protocol):
    """What the saved form reads of a game, and replays into one (:class:`yacht.game.Game`)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> Sequence[str]: ...
    @property
    def start_rule(self) -> str: ...
    @property
    def first(self) -> int: ...
    @property
    def start_rolls(self) -> Sequence[Sequence[int]]: ...
    @property
    def undo_allowed(self) -> bool: ...
    @property
    def events(self) -> Sequence[SavedEvent]: ...
    @property
    def totals(self) -> list[int]: ...
    @property
    def dice_source(self) -> DiceSource: ...
    def winners(self) -> list[int]: ...
    def apply(
        self, action: Action, *, player: int | None = None, dice: Sequence[int] | None = None
    ) -> SavedEvent: ...


G_co = TypeVar("G_co", bound=SavableGame, covariant=True)


class GameFactory(Protocol[G_co]):
    """A new game from its saved parts, as :class:`yacht.game.Game` takes them."""

    def __call__(
        self,
        players: Sequence[str],
        rules: Rules,
        dice: DiceSource | None,
        *,
        start: str,
        undo: bool,
        start_rolls: Sequence[Sequence[int]],
    ) -> G_co: ...


G = TypeVar("G", bound=SavableGame)


def game_to_json(game: SavableGame, *, include_dice_source: bool = True) -> dict[str, Any]:
    """The saved form of ``game``; without the dice source it cannot be continued, only read."""
    out: dict[str, Any] = {
        "format": "yacht-game",
        "version": FORMAT_VERSION,
        "rules": game.rules.name,
        "rules_fingerprint": game.rules.fingerprint(),
        "players": list(game.players),
        "start": {
            "rule": game.start_rule,
            "first": game.first,
            "rolls": [list(r) for r in game.start_rolls],
        },
        "house_rules": {"undo": game.undo_allowed},
        "events": [e.to_json() for e in game.events],
        "totals": game.totals,
        "winners": game.winners(),
    }
    if include_dice_source:
        out["dice"] = game.dice_source.describe()
    return out


def game_from_json(new: GameFactory[G], data: Mapping[str, Any], dice: DiceSource | None) -> G:
    """Rebuild a game with ``new`` from its saved form (see :meth:`yacht.game.Game.from_json`)."""
    if not isinstance(data, Mapping) or data.get("format") != "yacht-game":
        raise ValueError("not a yacht game: missing 'format': 'yacht-game'")
    version = data.get("version")
    if not is_int(version) or version != FORMAT_VERSION:
        raise ValueError(f"unsupported game format version {version!r}")
    try:
        return _replay(new, data, dice)
    except RecursionError:  # a RuntimeError: say it plainly, repr of the data would recurse
        raise ValueError("bad game JSON: nested too deeply") from None
    except (ValueError, RuntimeError, TypeError, KeyError, AttributeError, OverflowError) as e:
        # every field is checked above; this is the net under it (a file is never a crash)
        raise ValueError(f"bad game JSON: {e}"[:500]) from None


def _replay(new: GameFactory[G], data: Mapping[str, Any], dice: DiceSource | None) -> G:
    rules = rules_by_name(field(data, "rules", str))
    fingerprint = data.get("rules_fingerprint")
    if fingerprint is not None and fingerprint != rules.fingerprint():
        raise ValueError(f"preset {rules.name!r} scores differently from this game's")
    players = field(data, "players", list)
    start = field(data, "start", Mapping, {})
    rule = field(start, "rule", str, "seat")
    first = field(start, "first", int, 0)
    rolls = field(start, "rolls", list, [])
    undo = field(field(data, "house_rules", Mapping, {}), "undo", bool, False)
    events = field(data, "events", list)
    if dice is None and "dice" in data:
        dice = dice_from_description(data["dice"])
    game = new(players, rules, dice, start=rule, undo=undo, start_rolls=rolls)
    if game.first != first:
        raise ValueError(f"start {dict(start)!r} does not follow from its rolls")
    for i, raw in enumerate(events):
        if not isinstance(raw, Mapping):
            raise ValueError(f"event {i} is not an object: {raw!r}")
        act = Action.parse(field(raw, "action", str))
        shown = field(raw, "dice", list) if isinstance(act, Roll) else None
        try:
            event = game.apply(act, player=field(raw, "player", int), dice=shown)
        except GameError as e:
            raise ValueError(f"event {i} {dict(raw)!r} is illegal: {e}") from None
        if dict(raw) != event.to_json():
            raise ValueError(f"event {i} {dict(raw)!r} replays as {event.to_json()!r}")
    for key, value in (("totals", game.totals), ("winners", game.winners())):
        if key in data and data[key] != value:
            raise ValueError(f"{key} {data[key]!r} do not match the events ({value!r})")
    return game

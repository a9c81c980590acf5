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
yacht.game_json.GameFileError: bad game JSON: event 1 {...'points': 60} replays as {...'points': 50}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from yacht.actions import Action, GameError, Roll
from yacht.dice import DiceSource, dice_from_description
from yacht.errors import N_, YachtError
from yacht.fields import field, is_int
from yacht.rules import Rules, rules_by_name

__all__ = [
    "FORMAT_VERSION",
    "GameFactory",
    "GameFileError",
    "SavableGame",
    "SavedEvent",
    "game_from_json",
    "game_to_json",
]

FORMAT_VERSION = 1
"""The version of the saved form; a reader refuses any other."""


# The format is described by what it reads of a game rather than by yacht.game.Game, so the
# engine can import its saved form and this module never imports the engine back.


class GameFileError(
    YachtError,
    ValueError,
    messages={
        "not_a_game": N_("not a yacht game: missing 'format': 'yacht-game'"),
        "format_version": N_("unsupported game format version {version!r}"),
        "too_deep": N_("bad game JSON: nested too deeply"),
        "bad_game": N_("bad game JSON: {reason}"),
        "fingerprint": N_("preset {name!r} scores differently from this game's"),
        "start": N_("start {start!r} does not follow from its rolls"),
        "event_not_object": N_("event {number} is not an object: {event!r}"),
        "event_illegal": N_("event {number} {event!r} is illegal: {reason}"),
        "event_replay": N_("event {number} {event!r} replays as {replayed!r}"),
        "totals": N_("totals {given!r} do not match the events ({value!r})"),
        "winners": N_("winners {given!r} do not match the events ({value!r})"),
    },
):
    """A saved game that cannot be read back: not a game, or a record that does not add up."""


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


def game_to_json(
    game: SavableGame,
    *,
    include_dice_source: bool = True,
    events: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The saved form of ``game``; without the dice source it cannot be continued, only read.
    ``events``: the events' saved forms when the caller keeps them already (the web server
    keeps each game's, made once per event), taken as they are."""
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
        "events": [e.to_json() for e in game.events] if events is None else events,
        "totals": game.totals,
        "winners": game.winners(),
    }
    if include_dice_source:
        out["dice"] = game.dice_source.describe()
    return out


def game_from_json(new: GameFactory[G], data: Mapping[str, Any], dice: DiceSource | None) -> G:
    """Rebuild a game with ``new`` from its saved form (see :meth:`yacht.game.Game.from_json`)."""
    if not isinstance(data, Mapping) or data.get("format") != "yacht-game":
        raise GameFileError("not_a_game")
    version = data.get("version")
    if not is_int(version) or version != FORMAT_VERSION:
        raise GameFileError("format_version", version=version)
    try:
        return _replay(new, data, dice)
    except RecursionError:  # a RuntimeError: say it plainly, repr of the data would recurse
        raise GameFileError("too_deep") from None
    except YachtError as e:
        raise GameFileError("bad_game", reason=e) from None
    except (ValueError, RuntimeError, TypeError, KeyError, AttributeError, OverflowError) as e:
        # every field is checked above; this is the net under it (a file is never a crash)
        raise GameFileError("bad_game", reason=str(e)[:480]) from None


def _replay(new: GameFactory[G], data: Mapping[str, Any], dice: DiceSource | None) -> G:
    rules = rules_by_name(field(data, "rules", str))
    fingerprint = data.get("rules_fingerprint")
    if fingerprint is not None and fingerprint != rules.fingerprint():
        raise GameFileError("fingerprint", name=rules.name)
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
        raise GameFileError("start", start=dict(start))
    for i, raw in enumerate(events):
        if not isinstance(raw, Mapping):
            raise GameFileError("event_not_object", number=i, event=raw)
        act = Action.parse(field(raw, "action", str))
        shown = field(raw, "dice", list) if isinstance(act, Roll) else None
        try:
            event = game.apply(act, player=field(raw, "player", int), dice=shown)
        except GameError as e:
            raise GameFileError("event_illegal", number=i, event=dict(raw), reason=e) from None
        if dict(raw) != event.to_json():
            raise GameFileError("event_replay", number=i, event=dict(raw), replayed=event.to_json())
    for key, value in (("totals", game.totals), ("winners", game.winners())):
        if key in data and data[key] != value:
            raise GameFileError(key, given=data[key], value=value)
    return game

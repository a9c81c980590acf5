"""One game of Yacht for 1 to 6 players: phases, turns, actions, events and JSON.

>>> from yacht.dice import ScriptedDice
>>> g = Game(["Ann", "Bob"], dice=ScriptedDice([6, 6, 6, 5, 5, 1, 2, 3, 4, 5]))
>>> g.apply("roll")
Event(player=0, action=Roll(), dice=(6, 6, 6, 5, 5), points=None)
>>> g.apply("score full_house").points
28
>>> g.phase, g.current_name
(<Phase.ROLL: 'roll'>, 'Bob')
>>> g.apply("score ones")
Traceback (most recent call last):
...
yacht.actions.NotRolledError: cannot 'score ones': roll first (Bob's turn, round 1, ...)

An action either applies completely or raises a subclass of ValueError and changes nothing.

Chance is in the open: a roll draws from the game's dice source, or applies the dice it is
given (a replay, a search, a test), and a copy plays on without touching the original:

>>> g.apply("roll", dice=[2, 2, 5, 5, 5]).dice
(2, 2, 5, 5, 5)
>>> trial = g.copy()
>>> trial.apply("score full_house").points, g.phase
(19, <Phase.DECIDE: 'decide'>)
"""

from __future__ import annotations

import copy as copying
import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from types import MappingProxyType
from typing import Any

from yacht.actions import (
    Action,
    CategoryFilledError,
    GameOverError,
    Hold,
    InvalidActionError,
    InvalidRollError,
    NoRollsLeftError,
    NotRolledError,
    NotYourTurnError,
    Roll,
    Score,
    Undo,
    UndoNotAllowedError,
)
from yacht.dice import DiceSource, RandomDice, deals_by_place, outcomes
from yacht.errors import N_, Message
from yacht.game_json import FORMAT_VERSION, GameFactory, game_from_json, game_to_json
from yacht.rules import (
    CATEGORIES,
    UPPER_CATEGORIES,
    Category,
    InvalidDiceError,
    Rules,
    rules_by_name,
    validate_dice,
)
from yacht.start import START_RULES, SetupError, choose_first, replay_start

__all__ = [
    "FORMAT_VERSION",
    "MAX_PLAYERS",
    "MAX_ROLLS",
    "START_RULES",
    "Event",
    "Game",
    "Phase",
    "TurnView",
]

MAX_ROLLS = 3
MAX_PLAYERS = 6
_HOLDS = tuple(Hold(ps) for n in range(6) for ps in combinations(range(1, 6), n))
_SCORES = tuple(Score(c) for c in CATEGORIES)


class Phase(enum.Enum):
    """Where a game is: waiting for a turn's first roll, deciding with dice on the table, or
    finished."""

    ROLL = "roll"  # waiting for the turn's first roll
    DECIDE = "decide"  # dice on the table: hold/reroll or score
    FINISHED = "finished"


def _quote(act: Action, said: object | None) -> object:
    """How a refusal quotes ``act``: as the player put it (``said``), else in the action's own
    words, made only now (an accepted action never makes them, nor keeps them in its game)."""
    return act.words if said is None else said


@dataclass(frozen=True)
class Event:
    """An accepted action: who acted, what, the dice after a roll, the points of a scoring."""

    player: int
    action: Action
    dice: tuple[int, ...] | None = None
    points: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "action": str(self.action)}
        if self.dice is not None:
            out["dice"] = list(self.dice)
        if self.points is not None:
            out["points"] = self.points
        return out


@dataclass(frozen=True)
class TurnView:
    """A read-only snapshot of the game from the current player's seat (what bots get)."""

    rules: Rules
    player: int
    sheet: Mapping[Category, int]
    sheets: tuple[Mapping[Category, int], ...]
    dice: tuple[int, ...] | None
    held: frozenset[int]
    rolls_used: int

    @property
    def rolls_left(self) -> int:
        return MAX_ROLLS - self.rolls_used

    @property
    def used(self) -> frozenset[Category]:
        return frozenset(self.sheet)

    @property
    def open_categories(self) -> list[Category]:
        return [c for c in CATEGORIES if c not in self.sheet]

    @property
    def upper_total(self) -> int:
        return sum(self.sheet.get(c, 0) for c in UPPER_CATEGORIES)

    @property
    def banked(self) -> int:
        """Points already on the current player's sheet (bonus included)."""
        return self.rules.total(self.sheet)


class Game:
    """A game: a preset, 1-6 named players, an injected dice source and an event log.

    ``start_rolls``, when given, are the dice the start (``roll-off`` or ``random``) showed,
    as :attr:`start_rolls` holds them: the first player follows from them (a ValueError if
    they are not exactly such a start). Otherwise the start draws from the dice source.
    """

    def __init__(
        self,
        players: Sequence[str],
        rules: Rules | str = "traditional",
        dice: DiceSource | None = None,
        *,
        start: str = "seat",
        undo: bool = False,
        start_rolls: Sequence[Sequence[int]] | None = None,
    ) -> None:
        names = [players] if isinstance(players, str) else list(players)
        if not 1 <= len(names) <= MAX_PLAYERS or not all(
            isinstance(n, str) and n.strip() for n in names
        ):
            raise SetupError("players", most=MAX_PLAYERS, names=names)
        if start not in START_RULES:
            raise SetupError("start_rule", rule=start, rules=", ".join(START_RULES))
        self.rules = rules_by_name(rules)
        self.players: tuple[str, ...] = tuple(n.strip() for n in names)
        self.dice_source: DiceSource = dice if dice is not None else RandomDice()
        self.start_rule = start
        self.undo_allowed = undo
        if start_rolls is None:
            self.first, start_rolls = choose_first(start, len(self.players), self.dice_source)
        else:
            self.first = replay_start(start, len(self.players), start_rolls)
        self.start_rolls = [list(r) for r in start_rolls]
        self.events: list[Event] = []
        self._sheets: list[dict[Category, int]] = [{} for _ in self.players]
        self._dice: tuple[int, ...] | None = None
        self._held: frozenset[int] = frozenset()
        self._rolls = 0
        self._turns = 0

    # --- state -------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """How many actions have been accepted; every accepted action adds one."""
        return len(self.events)

    @property
    def phase(self) -> Phase:
        if self._turns == len(CATEGORIES) * len(self.players):
            return Phase.FINISHED
        return Phase.ROLL if self._rolls == 0 else Phase.DECIDE

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def current(self) -> int:
        """Index of the player whose turn it is (the last one to play once finished)."""
        turns = min(self._turns, len(CATEGORIES) * len(self.players) - 1)
        return (self.first + turns) % len(self.players)

    @property
    def current_name(self) -> str:
        return self.players[self.current]

    @property
    def round(self) -> int:
        """The round being played, 1 to 12 (12 once finished)."""
        return min(self._turns // len(self.players) + 1, len(CATEGORIES))

    @property
    def dice(self) -> tuple[int, ...] | None:
        return self._dice

    @property
    def held(self) -> frozenset[int]:
        """1-based positions of the held dice."""
        return self._held

    @property
    def rolls_used(self) -> int:
        return self._rolls

    @property
    def rolls_left(self) -> int:
        return MAX_ROLLS - self._rolls

    def sheet(self, player: int) -> Mapping[Category, int]:
        return MappingProxyType(self._sheets[player])

    @property
    def sheets(self) -> tuple[Mapping[Category, int], ...]:
        return tuple(MappingProxyType(s) for s in self._sheets)

    @property
    def totals(self) -> list[int]:
        return [self.rules.total(s) for s in self._sheets]

    def winners(self) -> list[int]:
        """Every player with the highest total once the game is finished (ties share)."""
        if not self.finished:
            return []
        best = max(self.totals)
        return [i for i, t in enumerate(self.totals) if t == best]

    def view(self) -> TurnView:
        """A snapshot for the current player: later actions do not change it."""
        sheets = tuple(MappingProxyType(dict(s)) for s in self._sheets)
        return TurnView(
            self.rules,
            self.current,
            sheets[self.current],
            sheets,
            self._dice,
            self._held,
            self._rolls,
        )

    def potential(self, category: Category) -> int | None:
        """What the current dice would score in ``category`` now, or None before a roll."""
        return None if self._dice is None else self.rules.score(self._dice, category)

    def describe(self) -> str:
        """The state in a few words, for error messages.

        >>> Game(["Ann"]).describe()
        "Ann's turn, round 1, before the first roll"
        """
        return str(self.situation())

    def situation(self) -> Message:
        """:meth:`describe` as a message a face shows in its language."""
        if self.finished:
            names = ", ".join(self.players[i] for i in self.winners())
            return Message(
                N_("the game is over: won by {names} with {points}"),
                names=names,
                points=max(self.totals),
            )
        where = {"name": self.current_name, "round": self.round}
        if self._dice is None:
            return Message(N_("{name}'s turn, round {round}, before the first roll"), **where)
        dice = " ".join(map(str, self._dice))
        roll = {**where, "roll": self._rolls, "rolls": MAX_ROLLS, "dice": dice}
        if not self._held:
            return Message(
                N_("{name}'s turn, round {round}, roll {roll} of {rolls}, dice {dice}, held none"),
                **roll,
            )
        held = " ".join(map(str, sorted(self._held)))
        return Message(
            N_("{name}'s turn, round {round}, roll {roll} of {rolls}, dice {dice}, held {held}"),
            **roll,
            held=held,
        )

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.name} players={list(self.players)!r} version={self.version} "
            f"phase={self.phase.value} turn={self.current_name!r} dice={self._dice!r}>"
        )

    # --- actions -----------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now."""
        out: list[Action] = []
        if self._can_undo():
            out.append(Undo())
        if self.finished:
            return out
        if self.rolls_left > 0:
            out.append(Roll())
        if self._dice is not None:
            if self.rolls_left > 0:
                out.extend(_HOLDS)
            sheet = self._sheets[self.current]
            out.extend(s for s in _SCORES if s.category not in sheet)
        return out

    def apply(
        self,
        action: Action | str,
        *,
        player: int | None = None,
        dice: Sequence[int] | None = None,
    ) -> Event:
        """Validate and apply one action; return its event. Illegal: raise, change nothing.

        ``player``, when given, must be the player whose turn it is. ``dice``, only with a
        roll: the five dice on the table after it (held ones unchanged), applied instead of
        drawing from the dice source, which is left where it was.

        >>> g = Game(["Ann"])
        >>> g.apply("roll", dice=[1, 2, 3, 4, 9])
        Traceback (most recent call last):
        ...
        yacht.actions.InvalidRollError: cannot roll [1, 2, 3, 4, 9]: invalid dice: ...
        >>> g.apply("roll", dice=[1, 1, 3, 4, 6]).dice, g.apply("hold 1 2").dice
        ((1, 1, 3, 4, 6), None)
        >>> g.apply("roll", dice=[2, 1, 5, 5, 5])
        Traceback (most recent call last):
        ...
        yacht.actions.InvalidRollError: cannot roll [2, 1, 5, 5, 5]: it changes held dice (Ann's ...
        """
        if not isinstance(action, str):
            return self.push(action, player=player, dice=dice)
        try:
            act = Action.parse(action)
        except InvalidActionError as e:
            raise InvalidActionError("action_in_state", reason=e, state=self.situation()) from None
        return self._push(act, player, dice, repr(action))

    def push(
        self,
        action: Action,
        *,
        player: int | None = None,
        dice: Sequence[int] | None = None,
    ) -> Event:
        """:meth:`apply` for an action already made (an :class:`~yacht.actions.Action`, not its
        text), as python-chess's ``Board.push`` is to ``push_san``: what the faces use once they
        have read the player's input. A refusal quotes the action in its own words.

        >>> g = Game(["Ann"])
        >>> g.push(Roll(), dice=[2, 2, 5, 2, 6]).dice, g.push(Score(Category.TWOS)).points
        ((2, 2, 5, 2, 6), 6)
        >>> g.push(Hold((1, 2)))
        Traceback (most recent call last):
        ...
        yacht.actions.NotRolledError: cannot 'hold 1 2': roll first (Ann's turn, round 2, ...)
        """
        if not isinstance(action, (Roll, Hold, Score, Undo)):
            raise InvalidActionError("not_an_action", action=action, state=self.situation())
        return self._push(action, player, dice, None)

    def _push(
        self,
        act: Roll | Hold | Score | Undo,
        player: int | None,
        dice: Sequence[int] | None,
        said: object | None,
    ) -> Event:
        """Check ``act`` against the game and apply it; ``said`` quotes it in a refusal (None:
        the action's own words, made only for a refusal)."""
        if dice is not None and not isinstance(act, Roll):
            raise InvalidActionError("dice_without_roll", action=_quote(act, said), dice=dice)
        if self.finished:
            raise GameOverError("game_over", action=_quote(act, said), state=self.situation())
        if isinstance(act, Undo):
            return self._undo(act, player, said)
        if player is not None and player != self.current:
            raise NotYourTurnError(
                "not_your_turn", action=_quote(act, said), player=player, state=self.situation()
            )
        if isinstance(act, Roll):
            return self._roll(act, dice, said)
        if isinstance(act, Hold):
            return self._hold(act, said)
        return self._score(act, said)

    def _roll(self, act: Roll, given: Sequence[int] | None, said: object | None) -> Event:
        if self.rolls_left == 0:
            raise NoRollsLeftError(
                "no_rolls_left", action=_quote(act, said), state=self.situation()
            )
        held = self._held if self._dice is not None else frozenset()
        free = [p for p in range(1, 6) if p not in held]
        if given is None:
            source = self.dice_source
            if deals_by_place(source):  # each die by its place (fair dice rule 3)
                turn = self._turns // len(self.players)
                slots = [p - 1 for p in free]
                new = [int(f) for f in source.roll_at(self.current, turn, self._rolls, slots)]
            else:
                new = [int(f) for f in source.roll(len(free))]
            if len(new) != len(free) or not all(1 <= f <= 6 for f in new):
                raise RuntimeError(f"dice source returned {new!r} for {len(free)} dice")
            faces = list(self._dice or (0,) * 5)
            for p, f in zip(free, new, strict=True):
                faces[p - 1] = f
            dice = tuple(faces)
        else:
            try:
                dice = validate_dice(given)
            except InvalidDiceError as e:
                raise InvalidRollError(
                    "roll_invalid_dice", dice=given, reason=e, state=self.situation()
                ) from None
            if self._dice is not None and any(dice[p - 1] != self._dice[p - 1] for p in held):
                raise InvalidRollError("roll_changes_held", dice=given, state=self.situation())
        self._dice, self._rolls = dice, self._rolls + 1
        return self._log(Event(self.current, act, dice))

    def _hold(self, act: Hold, said: object | None) -> Event:
        if self._dice is None:
            raise NotRolledError("not_rolled", action=_quote(act, said), state=self.situation())
        if self.rolls_left == 0:
            raise NoRollsLeftError(
                "no_rolls_left", action=_quote(act, said), state=self.situation()
            )
        self._held = frozenset(act.positions)
        return self._log(Event(self.current, act))

    def _score(self, act: Score, said: object | None) -> Event:
        if self._dice is None:
            raise NotRolledError("not_rolled", action=_quote(act, said), state=self.situation())
        sheet = self._sheets[self.current]
        if act.category in sheet:
            raise CategoryFilledError(
                "category_filled",
                action=_quote(act, said),
                category=act.category,
                points=sheet[act.category],
                state=self.situation(),
            )
        # the dice are valid and the category is one: the preset's scorer without the checks
        # of Rules.score
        points = self.rules.scorers[act.category](Counter(self._dice))
        event = Event(self.current, act, self._dice, points)
        sheet[act.category] = points
        self._turns += 1
        self._dice, self._held, self._rolls = None, frozenset(), 0
        return self._log(event)

    def roll_outcomes(self) -> list[tuple[tuple[int, ...], Fraction]]:
        """What a roll now can show, as a chance node lists its outcomes: the five dice (held
        ones in place, the rolled ones sorted into the other positions) with their exact
        probability; a search applies one with ``apply("roll", dice=...)``. When no roll is
        possible it raises what a roll would.

        >>> g = Game(["Ann"])
        >>> now = g.roll_outcomes()
        >>> len(now), sum(p for _, p in now), now[0]
        (252, Fraction(1, 1), ((1, 1, 1, 1, 1), Fraction(1, 7776)))
        >>> _ = g.apply("roll", dice=[6, 6, 2, 6, 3]), g.apply("hold 1 2 4")
        >>> [(dice, str(p)) for dice, p in g.roll_outcomes()][:3]
        [((6, 6, 1, 6, 1), '1/36'), ((6, 6, 1, 6, 2), '1/18'), ((6, 6, 1, 6, 3), '1/18')]
        """
        if self.finished:
            raise GameOverError("game_over", action=Roll().words, state=self.situation())
        if self.rolls_left == 0:
            raise NoRollsLeftError("no_rolls_left", action=Roll().words, state=self.situation())
        held = self._held if self._dice is not None else frozenset()
        free = [p for p in range(1, 6) if p not in held]
        out = []
        for faces, chance in outcomes(len(free)):
            dice = list(self._dice or (0,) * 5)
            for p, f in zip(free, faces, strict=True):
                dice[p - 1] = f
            out.append((tuple(dice), chance))
        return out

    def copy(self, dice: DiceSource | None = None) -> Game:
        """An independent game in the same state, with the same log; by default its dice
        source is a copy of this one's (the same rolls to come), else ``dice``.

        >>> from yacht.dice import RandomDice
        >>> g = Game(["Ann"], dice=RandomDice(seed=3))
        >>> a, b = g.copy(), g.copy()
        >>> a.apply("roll").dice == b.apply("roll").dice, g.version
        (True, 0)
        """
        twin = copying.copy(self)
        twin.dice_source = copying.deepcopy(self.dice_source) if dice is None else dice
        twin.start_rolls = [list(r) for r in self.start_rolls]
        twin.events = list(self.events)
        twin._sheets = [dict(s) for s in self._sheets]
        return twin

    def _can_undo(self) -> bool:
        return (
            self.undo_allowed
            and not self.finished
            and self._rolls == 0
            and bool(self.events)
            and isinstance(self.events[-1].action, Score)
        )

    def _undo(self, act: Undo, player: int | None, said: object | None) -> Event:
        if not self._can_undo():
            state = self.situation()
            if not self.undo_allowed:
                raise UndoNotAllowedError("undo_off", action=_quote(act, said), state=state)
            if not any(isinstance(e.action, Score) for e in self.events):
                raise UndoNotAllowedError(
                    "undo_nothing_scored", action=_quote(act, said), state=state
                )
            if isinstance(self.events[-1].action, Undo):
                raise UndoNotAllowedError("undo_already", action=_quote(act, said), state=state)
            raise UndoNotAllowedError(
                "undo_after_roll", action=_quote(act, said), name=self.current_name, state=state
            )
        last = self.events[-1]
        if not isinstance(last.action, Score) or last.dice is None:  # pragma: no cover
            raise RuntimeError(f"undo found {last!r} at the end of the log")
        if player is not None and player != last.player:
            raise NotYourTurnError(
                "undo_not_yours",
                action=_quote(act, said),
                player=player,
                name=self.players[last.player],
                category=last.action.category,
                state=self.situation(),
            )
        # Rebuild the turn as it stood just before the scoring: its rolls and holds.
        turn = self._current_turn_events(before=len(self.events) - 1)
        del self._sheets[last.player][last.action.category]
        self._turns -= 1
        self._dice = last.dice
        self._rolls = sum(isinstance(e.action, Roll) for e in turn)
        holds = [e.action for e in turn if isinstance(e.action, Hold)]
        self._held = frozenset(holds[-1].positions) if holds else frozenset()
        return self._log(Event(last.player, act))

    def _current_turn_events(self, before: int) -> list[Event]:
        """The events of the turn that ends at index ``before`` (a scoring), undos resolved."""
        turn: list[Event] = []
        depth = 0
        for e in reversed(self.events[:before]):
            if isinstance(e.action, Undo):
                depth += 1
                continue
            if isinstance(e.action, Score):
                if depth:
                    depth -= 1
                    continue
                break
            turn.append(e)
        return list(reversed(turn))

    def _log(self, event: Event) -> Event:
        self.events.append(event)
        return event

    # --- JSON (the format and its checks live in yacht.game_json) -------------------------

    def to_json(self, *, include_dice_source: bool = True) -> dict[str, Any]:
        """Versioned JSON; :meth:`from_json` rebuilds an identical game from it."""
        return game_to_json(self, include_dice_source=include_dice_source)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], dice: DiceSource | None = None) -> Game:
        """Rebuild a game by replaying its event log; the dice source continues where it was.

        The JSON must be exactly what :meth:`to_json` writes: a wrong type, an event that is
        illegal or does not replay to itself, a start its own rolls contradict, or totals the
        events do not add up to raise GameFileError (a ValueError) saying what is wrong.

        >>> Game.from_json({"format": "yacht-game", "version": 1, "rules": "traditional",
        ...                 "players": "Ann", "events": []})
        Traceback (most recent call last):
        ...
        yacht.game_json.GameFileError: bad game JSON: 'players' must be a list, got 'Ann'
        """
        new: GameFactory[Game] = cls  # mypy does not infer a class as a factory protocol
        return game_from_json(new, data, dice)

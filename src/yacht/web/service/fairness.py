"""Provably fair dice: check a finished game against its revealed seed (``yacht verify``).

A game file carries the SHA-256 commitment published when the table was made, the rule its
dice were dealt by (``fair.rule``, docs/web/fairness.md), the players' seeds and, once the game
is over, the server seed itself. :func:`verify` checks the seed against the commitment, the
dice key against the commitment and the seeds, the order of the fair log, then plays the game
again from the seed: the start roll-off (if any) and every roll must come out exactly as
recorded, and every scoring must score as recorded. Rule 3 deals each die by its place
(:class:`~yacht.dice.PlacedDice`); rules 2 and 1 (older games) from one counter
(:class:`~yacht.dice.FairDice`). A file that names no rule, or one this check does not know,
fails: the rule is what says how to check it. A game whose key has no player's seed in it is
not fair, however well its dice re-derive: the server dealt it alone (:attr:`Verdict.alone`).

>>> from yacht.dice import PlacedDice
>>> from yacht.game import Game
>>> from yacht.rules import CATEGORIES
>>> seeds = [{"seat": 0, "seed": "ann-7", "at": "2026-12-01T10:00:00+00:00"}]
>>> commitment = PlacedDice("ab" * 32).commitment
>>> g = Game(["Ann"], dice=PlacedDice("ab" * 32, dice_key(commitment, seeds)))
>>> for category in CATEGORIES:
...     _ = g.apply("roll"); _ = g.apply(f"score {category.value}")
>>> fair = {"rule": 3, "commitment": commitment, "contributions": seeds}
>>> data = g.to_json() | {"fair": fair}
>>> verify(data).fair
True
>>> data["events"][0]["dice"] = [6, 6, 6, 6, 6]
>>> print(verify(data).problems[0])  # doctest: +ELLIPSIS
event 1 (roll): recorded 6 6 6 6 6, the seed gives ...
>>> data["fair"] = {"commitment": commitment, "contributions": seeds}
>>> print(verify(data).problems[0])  # doctest: +ELLIPSIS
the file names no fair dice rule...
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from yacht.actions import Action, GameError, Roll
from yacht.dice import FairDice, PlacedDice
from yacht.errors import N_, Message, Term, YachtError
from yacht.fields import is_int
from yacht.game import Game
from yacht.rules import RulesError, rules_by_name

__all__ = [
    "RULE",
    "BadGameFileError",
    "Verdict",
    "VerifyProblem",
    "contribute",
    "daily_seed",
    "dice_key",
    "next_fair",
    "verify",
]

RULE = 3
"""The fair-dice rule new games follow (docs/web/fairness.md). Rule 1 (older games): the dice
key is the table's client seed, given before the server drew its seed. Rule 2 (older games):
every player who takes a seat gives a seed after the commitment is published; the key is
:func:`dice_key` of the commitment and all of them, fixed when the game starts; die number i
of the whole game comes from the key and i. Rule 3: the same seeds and key (its own label),
each die dealt by its place: seat, turn, roll and slot (:class:`~yacht.dice.PlacedDice`)."""

RULES = (1, 2, 3)
"""The rules :func:`verify` knows."""

DICE_KIND = {1: "fair", 2: "fair", 3: "placed"}
"""The dice description each rule's games carry."""


def dice_key(commitment: str, contributions: Sequence[Mapping[str, Any]], rule: int = RULE) -> str:
    """The dice key of rules 2 and 3: SHA-256 (hex) of ``yacht-fair-<rule>``, the commitment
    and each ``seat:seed`` in seat order, one a line. The rule is in the key, so a game's seeds
    cannot be read again under another rule.

    >>> seeds = [{"seat": 1, "seed": "b"}, {"seat": 0, "seed": "a"}]
    >>> dice_key("c0" * 32, seeds, rule=2)[:16]
    'af4aae176ce9fafb'
    >>> dice_key("c0" * 32, seeds) != dice_key("c0" * 32, seeds, rule=2)
    True
    """
    lines = [f"yacht-fair-{rule}", commitment.lower()]
    lines += [f"{c['seat']}:{c['seed']}" for c in sorted(contributions, key=lambda c: c["seat"])]
    return hashlib.sha256(("\n".join(lines) + "\n").encode()).hexdigest()


def daily_seed(preset: str, day: str) -> str:
    """The public seed of a daily game's key (seat 0): the preset and the UTC day, so the key
    follows from the day's commitment and the day alone (docs/web/daily.md).

    >>> daily_seed("traditional", "2026-12-02")
    'daily:traditional:2026-12-02'
    """
    return f"daily:{preset}:{day}"


def next_fair(seed: str, at: str) -> dict[str, Any]:
    """A drawn secret seed with its commitment, published at ``at``, awaiting players' seeds."""
    return {"seed": seed, "commitment": FairDice(seed).commitment, "at": at, "contributions": []}


def contribute(
    fair: Mapping[str, Any] | None, seat: int, seed: str, at: str
) -> dict[str, Any] | None:
    """``fair`` with ``seat``'s seed added; None when the seat has given one already."""
    fair = dict(fair or {"contributions": []})
    given = list(fair.get("contributions", []))
    if any(c["seat"] == seat for c in given):
        return None
    fair["contributions"] = [*given, {"seat": seat, "seed": seed, "at": at}]
    return fair


class BadGameFileError(
    YachtError,
    ValueError,
    messages={
        "fair_not_a_game": N_("not a yacht game file (no 'format': 'yacht-game')"),
        "fair_no_seed_revealed": N_(
            "the game has no revealed dice seed (the server reveals it when the game is over)"
        ),
        "fair_not_fair_dice": N_("the dice are {kind!r}, not provably fair dice"),
        "fair_no_server_seed": N_("the dice description has no server seed"),
        "fair_no_commitment": N_("the game file has no published commitment to check against"),
        "fair_malformed": N_("malformed game file: {reason}"),
        "fair_too_deep": N_("malformed game file: nested too deeply"),
        "fair_contributions": N_("the fair record's contributions are not a list of seat and seed"),
        "fair_fingerprint": N_("preset {name!r} scores differently here"),
        "fair_event_malformed": N_("event {number} is malformed: {reason}"),
    },
):
    """The file cannot be checked: not a game, no revealed seed, no commitment."""


class VerifyProblem(
    YachtError,
    messages={
        "verify_seat_twice": N_("a seat gave more than one seed"),
        "verify_dice_key": N_(
            "the dice key is not the one the commitment and the players' seeds make"
        ),
        "verify_log_order": N_("the fair log is out of order: {kinds}"),
        "verify_log_times": N_("the fair log's times do not go forward"),
        "verify_commitment": N_("the revealed seed does not match the published commitment"),
        "verify_commitment_changed": N_(
            "the file's commitment is not the one you saw: the server changed its seed"
        ),
        "verify_seed_missing": N_("your seed is not among the seeds the dice key is made of"),
        "verify_rule_1": N_("the game follows rule 1: no player's seed went into its dice"),
        "verify_no_rule": N_(
            "the file names no fair dice rule, so nothing says how its dice were dealt"
        ),
        "verify_unknown_rule": N_("unknown fair dice rule {rule!r}"),
        "verify_dice_kind": N_("rule {rule} deals {expected!r} dice, the file has {kind!r}"),
        "verify_start": N_(
            "start: recorded first player {recorded} after rolls {rolls}, the seed gives "
            "{first} after {start_rolls}"
        ),
        "verify_illegal": N_("event {number} is not a legal move: {reason}"),
        "verify_roll": N_("event {number} ({roll}): recorded {recorded}, the seed gives {dice}"),
        "verify_points": N_(
            "event {number} ({action}): recorded {recorded} points, the dice score {points}"
        ),
        "verify_totals": N_("totals: recorded {recorded}, replay gives {totals}"),
        "verify_winners": N_("winners: recorded {recorded}, replay gives {winners}"),
        "verify_unfinished": N_("the game is not finished"),
        "verify_daily": N_(
            "the file says it is the daily game of {day} ({preset}), but its seeds, preset or "
            "players are not a daily game's"
        ),
    },
):
    """What a check found wrong with a game (a value in :attr:`Verdict.problems`, not raised):
    its ``str()`` is English, :func:`yacht.i18n.error_text` gives it in a player's language."""


@dataclass
class Verdict:
    """The outcome of a check: fair, dealt by the server alone, or not fair; how much was
    re-derived, what did not match. ``fair`` is true only when every check holds and the key
    has at least one player's seed in it; ``alone`` when every check holds but it has none."""

    fair: bool
    rolls: int = 0
    dice: int = 0
    commitment: str = ""
    problems: list[VerifyProblem] = field(default_factory=list)
    seeds: int | None = None  # how many players' seeds the dice key is made of
    rule: int | None = None
    alone: bool = False
    daily: str | None = None  # the day of a daily game (its one seed is public, not a player's)

    @property
    def outcome(self) -> str:
        """``fair``, ``daily``, ``server alone`` or ``not fair``."""
        if self.daily is not None and not self.problems:
            return "daily"
        return "fair" if self.fair else "server alone" if self.alone else "not fair"

    def summary(self) -> str:
        """The verdict in English (``yacht verify`` says it in the reader's language)."""
        if self.problems or not (self.fair or self.alone):
            return "NOT fair: " + "; ".join(map(str, self.problems))
        rolls = f"{self.rolls} roll{'' if self.rolls == 1 else 's'}"
        dice = f"{self.dice} {'die' if self.dice == 1 else 'dice'}"
        commitment = f"the seed matches its commitment {self.commitment[:16]}..."
        if self.daily is not None:
            return (
                f"the daily game of {self.daily}: {commitment} and re-derives all {rolls} ({dice})"
            )
        if self.alone:
            return (
                f"dealt by the server alone (rule {self.rule}): no player's seed is in its dice "
                f"key; {commitment} and re-derives all {rolls} ({dice})"
            )
        seeds = f"its key of {self.seeds} player seed{'' if self.seeds == 1 else 's'}"
        return (
            f"fair by rule {self.rule}: {commitment}, {seeds}, and re-derives all {rolls} ({dice})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "fair": self.fair,
            "verdict": self.outcome,
            "rule": self.rule,
            "rolls": self.rolls,
            "dice": self.dice,
            "commitment": self.commitment,
            "problems": [str(problem) for problem in self.problems],
            "seeds": self.seeds,
            "daily": self.daily,
        }


class _Counted:
    """A placed source that counts the dice it deals (a verdict says how many it re-derived)."""

    def __init__(self, dice: PlacedDice) -> None:
        self.dice, self.drawn = dice, 0

    def roll_at(self, seat: int, turn: int, roll: int, slots: Sequence[int]) -> list[int]:
        self.drawn += len(slots)
        return self.dice.roll_at(seat, turn, roll, slots)

    def roll(self, n: int) -> list[int]:
        self.drawn += n
        return self.dice.roll(n)

    def describe(self) -> dict[str, Any]:
        return self.dice.describe()


def _faces(values: Sequence[int] | None) -> str | Message:
    return " ".join(map(str, values)) if values else Message(N_("nothing"))


def _require(data: Mapping[str, Any]) -> tuple[str, str, str, str]:
    """The file's server seed, dice kind, dice key and commitment."""
    if not isinstance(data, Mapping) or data.get("format") != "yacht-game":
        raise BadGameFileError("fair_not_a_game")
    dice = data.get("dice")
    if not isinstance(dice, Mapping):
        raise BadGameFileError("fair_no_seed_revealed")
    kind = dice.get("kind")
    if kind not in ("fair", "placed"):
        raise BadGameFileError("fair_not_fair_dice", kind=kind)
    seed = dice.get("server_seed")
    key = dice.get("client_seed" if kind == "fair" else "key", "")
    fair = data.get("fair")
    commitment = fair.get("commitment") if isinstance(fair, Mapping) else None
    if not isinstance(seed, str) or not seed or not isinstance(key, str):
        raise BadGameFileError("fair_no_server_seed")
    if not isinstance(commitment, str) or not commitment:
        raise BadGameFileError("fair_no_commitment")
    return seed, kind, key, commitment


def verify(
    data: Mapping[str, Any], *, commitment: str | None = None, seed: str | None = None
) -> Verdict:
    """Re-derive every die of a finished fair game; raise BadGameFileError if it can't be read.

    ``commitment`` is the one a player saw before giving ``seed``: the file must carry that
    commitment, and that seed among the ones its dice key is made of.
    """
    try:
        return _verify(data, commitment, seed)
    except BadGameFileError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError) as e:
        raise BadGameFileError("fair_malformed", reason=repr(e)[:280]) from None
    except RecursionError:
        raise BadGameFileError("fair_too_deep") from None


def _seeds(
    fair: Mapping[str, Any], commitment: str, key: str, rule: int, verdict: Verdict
) -> list[str]:
    """Check a record of rule 2 or 3: the key from the commitment and seeds, the log's order.
    Returns the seeds."""
    contributions = fair.get("contributions")
    if not isinstance(contributions, list) or not all(
        isinstance(c, Mapping) and is_int(c.get("seat")) and isinstance(c.get("seed"), str)
        for c in contributions
    ):
        raise BadGameFileError("fair_contributions")
    if len({c["seat"] for c in contributions}) != len(contributions):
        verdict.problems.append(VerifyProblem("verify_seat_twice"))
    if dice_key(commitment, contributions, rule) != key:
        verdict.problems.append(VerifyProblem("verify_dice_key"))
    log = fair.get("log")
    if log is not None:
        kinds = [e.get("event") if isinstance(e, Mapping) else None for e in log]
        expected = ["commitment", *(["contribution"] * len(contributions)), "start"]
        times = [e.get("at") for e in log if isinstance(e, Mapping)]
        if kinds != expected:
            verdict.problems.append(VerifyProblem("verify_log_order", kinds=kinds))
        elif not all(isinstance(t, str) for t in times) or times != sorted(map(str, times)):
            verdict.problems.append(VerifyProblem("verify_log_times"))
    return [c["seed"] for c in contributions]


def _rule(fair: Mapping[str, Any], kind: str, verdict: Verdict) -> int | None:
    """The rule the file names, or None with the problem that it names none, or one unknown,
    or dice of another kind than its rule deals."""
    if "rule" not in fair:
        verdict.problems.append(VerifyProblem("verify_no_rule"))
        return None
    rule = fair["rule"]
    if not is_int(rule) or rule not in RULES:
        verdict.problems.append(VerifyProblem("verify_unknown_rule", rule=rule))
        return None
    if DICE_KIND[rule] != kind:
        verdict.problems.append(
            VerifyProblem("verify_dice_kind", rule=rule, expected=DICE_KIND[rule], kind=kind)
        )
        return None
    verdict.rule = rule
    return int(rule)


def _verify(data: Mapping[str, Any], seen: str | None, mine: str | None) -> Verdict:
    seed, kind, key, commitment = _require(data)
    verdict = Verdict(fair=True, commitment=commitment)
    if hashlib.sha256(seed.encode()).hexdigest() != commitment.lower():
        verdict.problems.append(VerifyProblem("verify_commitment"))
    if seen is not None and seen.lower() != commitment.lower():
        verdict.problems.append(VerifyProblem("verify_commitment_changed"))
    rule = _rule(data["fair"], kind, verdict)
    if rule is None:  # without its rule nothing says how the file's dice were dealt
        verdict.fair = False
        return verdict
    if rule == 1:
        verdict.seeds = 0
        if mine is not None:
            verdict.problems.append(VerifyProblem("verify_rule_1"))
    else:
        seeds = _seeds(data["fair"], commitment, key, rule, verdict)
        verdict.seeds = len(seeds)
        if mine is not None and mine not in seeds:
            verdict.problems.append(VerifyProblem("verify_seed_missing"))
    source: FairDice | _Counted = (
        _Counted(PlacedDice(seed, key)) if rule == 3 else FairDice(seed, key)
    )
    try:
        rules = rules_by_name(data["rules"])
        if data.get("rules_fingerprint") not in (None, rules.fingerprint()):
            raise BadGameFileError("fair_fingerprint", name=rules.name)
        start = data.get("start", {})
        game = Game(
            data["players"],
            rules,
            source,
            start=start.get("rule", "seat"),
            undo=bool(data.get("house_rules", {}).get("undo", False)),
        )
        events = list(data["events"])
    except (KeyError, TypeError, AttributeError, RulesError) as e:
        raise BadGameFileError("fair_malformed", reason=repr(e)) from None
    except ValueError as e:
        raise BadGameFileError("fair_malformed", reason=e) from None
    if game.start_rolls != [list(r) for r in start.get("rolls", [])] or game.first != start.get(
        "first", 0
    ):
        verdict.problems.append(
            VerifyProblem(
                "verify_start",
                recorded=start.get("first"),
                rolls=start.get("rolls"),
                first=game.first,
                start_rolls=game.start_rolls,
            )
        )
    verdict.dice = source.drawn
    for number, raw in enumerate(events, start=1):
        if verdict.problems:
            break
        try:
            action = Action.parse(raw["action"])
            if not is_int(raw["player"]):
                raise TypeError(f"player {raw['player']!r} is not a seat number")
            event = game.apply(action, player=raw["player"])
        except (KeyError, TypeError) as e:
            raise BadGameFileError("fair_event_malformed", number=number, reason=repr(e)) from None
        except GameError as e:
            verdict.problems.append(VerifyProblem("verify_illegal", number=number, reason=e))
            break
        if isinstance(action, Roll):
            verdict.rolls += 1
            if list(raw.get("dice") or []) != list(event.dice or ()):
                verdict.problems.append(
                    VerifyProblem(
                        "verify_roll",
                        number=number,
                        roll=Term("command", "roll"),
                        recorded=_faces(raw.get("dice")),
                        dice=_faces(event.dice),
                    )
                )
        elif raw.get("points", event.points) != event.points:
            verdict.problems.append(
                VerifyProblem(
                    "verify_points",
                    number=number,
                    action=action.words,
                    recorded=raw.get("points"),
                    points=event.points,
                )
            )
    verdict.dice = source.drawn
    if not verdict.problems:
        if "totals" in data and list(data["totals"]) != game.totals:
            verdict.problems.append(
                VerifyProblem("verify_totals", recorded=data["totals"], totals=game.totals)
            )
        if "winners" in data and list(data["winners"]) != game.winners():
            verdict.problems.append(
                VerifyProblem("verify_winners", recorded=data["winners"], winners=game.winners())
            )
        if not game.finished:
            verdict.problems.append(VerifyProblem("verify_unfinished"))
    _daily(data, verdict)
    verdict.alone = not verdict.problems and verdict.seeds == 0 and verdict.daily is None
    verdict.fair = not verdict.problems and not verdict.alone and verdict.daily is None
    return verdict


def _daily(data: Mapping[str, Any], verdict: Verdict) -> None:
    """A file that says it is a daily game: its one seed must be the day's public one, its
    preset the day's and its player one; then the verdict names the day (a daily's key has no
    player's seed: the server's seed was committed to before the day began, see
    docs/web/daily.md)."""
    daily = data["fair"].get("daily")
    if daily is None:
        return
    day = daily.get("day") if isinstance(daily, Mapping) else None
    preset = daily.get("preset") if isinstance(daily, Mapping) else None
    seeds = [(c.get("seat"), c.get("seed")) for c in data["fair"].get("contributions", [])]
    if (
        not isinstance(day, str)
        or not isinstance(preset, str)
        or seeds != [(0, daily_seed(preset, day))]
        or data.get("rules") != preset
        or len(data.get("players", [])) != 1
    ):
        verdict.problems.append(VerifyProblem("verify_daily", day=day, preset=preset))
        return
    verdict.daily = day

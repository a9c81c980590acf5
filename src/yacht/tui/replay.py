"""A stored game step by step, each decision next to the strategy engine's verdict.

Text only: :func:`replay_text` is ``yacht replay ID --plain``; the replay screen uses
:func:`replay_steps` and :func:`step_note`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from yacht.actions import Hold, Roll, Score
from yacht.game import Event, Game
from yacht.tui.records import GameRecord
from yacht.tui.reviews import loss_text, option_text, summary_lines
from yacht.tui.rules_text import preset_label
from yacht.tui.seats import kind_label
from yacht.tui.table import describe_event
from yacht.tui.text import gettext_for

if TYPE_CHECKING:
    from yacht.review import Decision, Review

__all__ = ["ReplayStep", "game_at", "replay_steps", "replay_text", "step_note"]


@dataclass(frozen=True)
class ReplayStep:
    """Event number ``index`` (1-based), who made it, and the review of its decision if any."""

    index: int
    event: Event
    round: int
    decision: Decision | None
    dice_before: tuple[int, ...] | None


def game_at(data: dict[str, Any], events: int) -> Game:
    """The stored game as it stood after its first ``events`` events."""
    head = {k: v for k, v in data.items() if k not in ("totals", "winners", "dice")}
    head["events"] = list(data["events"][:events])
    return Game.from_json(head)


def replay_steps(game: Game, review: Review | None) -> list[ReplayStep]:
    """One step per event. A rated decision sits on the step that shows it: the scoring, the
    hold that chose the dice to keep, or the roll itself when nothing new was held."""
    decisions = list(review.decisions) if review is not None else []
    at = 0
    steps: list[ReplayStep] = []
    dice: tuple[int, ...] | None = None
    held: frozenset[int] = frozenset()
    hold_step: int | None = None  # the last hold since the last roll
    scored = [0] * len(game.players)
    for i, event in enumerate(game.events, start=1):
        act = event.action
        rnd = min(scored[event.player] + 1, 12)
        steps.append(ReplayStep(i, event, rnd, None, dice))
        if at < len(decisions) and dice is not None and isinstance(act, Roll | Score):
            d = decisions[at]
            same = d.player == event.player and d.dice == dice
            if isinstance(act, Score):
                same = same and d.taken.action == "score" and d.taken.category == act.category
            else:
                keep = tuple(sorted(dice[p - 1] for p in held))
                same = same and (len(keep) == 5 or tuple(d.taken.keep or ()) == keep)
            if same:
                where = hold_step if isinstance(act, Roll) and hold_step is not None else i - 1
                steps[where] = replace(steps[where], decision=d)
                at += 1
        if isinstance(act, Hold):
            held, hold_step = frozenset(act.positions), i - 1
        elif isinstance(act, Roll):
            dice, hold_step = event.dice, None
        elif isinstance(act, Score):
            dice, held, hold_step = None, frozenset(), None
            scored[event.player] += 1
        else:  # an undo puts the scoring back: the turn's dice return
            scored[event.player] -= 1
            dice = game_at(game.to_json(include_dice_source=False), i).dice
    return steps


def step_note(step: ReplayStep, lang: str) -> str:
    """The verdict on a step's decision: best, or the hint's top option and what was lost."""
    _ = gettext_for(lang)
    d = step.decision
    if d is None:
        return ""
    taken = option_text(d.taken, lang)
    if d.accurate:
        return _("{taken}: best play").format(taken=taken)
    return _("{taken}: best was {best}, {loss}").format(
        taken=taken, best=option_text(d.best, lang), loss=loss_text(d, lang)
    )


def replay_text(record: GameRecord, review: Review | None, lang: str) -> str:
    """The whole game as text: header, every event with its verdict, result, review."""
    _ = gettext_for(lang)
    game = record.game()
    when = record.finished_at.replace("T", " ")[:16]
    lines = [
        _("Game {id} · {when} · preset {preset}").format(
            id=record.id, when=when, preset=preset_label(record.preset, lang)
        ),
        _("Players: {players}").format(
            players=", ".join(f"{s.name} ({kind_label(s.kind, lang)})" for s in record.seats)
        ),
    ]
    current_round = 0
    for step in replay_steps(game, review):
        if step.round != current_round and step.event.player == game.first:
            current_round = step.round
            lines += ["", _("Round {round}").format(round=current_round)]
        text = (
            f"  {step.index:>3}. {describe_event(game.players, step.event, lang, step.dice_before)}"
        )
        note = step_note(step, lang)
        lines.append(f"{text}   [{note}]" if note else text)
    totals = ", ".join(f"{n} {t}" for n, t in zip(record.names, record.totals, strict=True))
    lines += [
        "",
        _("Final: {totals}. Winner: {names}").format(
            totals=totals, names=", ".join(record.winners)
        ),
    ]
    if review is not None:
        lines += ["", _("Review")]
        lines += ["  " + line for line in summary_lines(review, record.seats, lang, everyone=True)]
    return "\n".join(lines)

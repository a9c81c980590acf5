"""``yacht play --plain``: a line-based game for 1-6 players that works over a pipe.

Commands are the text forms of actions (``roll``, ``hold 1 3``, ``score fours``, ``undo``) plus
``sheet``, ``help`` and ``quit``; a category may also be named by its label in the game's
language (``score Neljä samaa``). Bad input gets one line starting with ``!`` and the prompt
again; the game is never left half-changed and no traceback is ever shown.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from typing import Any, TextIO

from yacht.actions import (
    Action,
    CategoryFilledError,
    GameError,
    InvalidActionError,
    NoRollsLeftError,
    NotRolledError,
    Roll,
    Score,
    Undo,
    UndoNotAllowedError,
)
from yacht.cli import CommandError
from yacht.cli.core import parse_language, parse_preset
from yacht.dice import RandomDice
from yacht.game import MAX_PLAYERS, MAX_ROLLS, START_RULES, Game
from yacht.i18n import category_label, detect_language, translator
from yacht.rules import CATEGORIES
from yacht.sheet import sheet_rows

__all__ = ["PlainGame", "cmd_play", "register"]

Gettext = Callable[[str], str]


def register(subs: Any) -> None:
    _ = translator(detect_language()).gettext
    p = subs.add_parser("play", help=_("play a game (--plain: line mode, works over a pipe)"))
    p.add_argument("--plain", action="store_true", help=_("line mode: read commands from stdin"))
    p.add_argument("--players", default=None, help=_("comma-separated names, 1 to 6"))
    p.add_argument(
        "--rules", default="traditional", help=_("a rules preset (default: traditional)")
    )
    p.add_argument("--seed", default=None, help=_("seed the dice for a reproducible game"))
    p.add_argument("--start", default="seat", help=_("who starts: seat, roll-off or random"))
    p.add_argument("--undo", action="store_true", help=_("house rule: allow taking back a score"))
    p.add_argument("--lang", default=None, help=_("language: en, fi, bg or nb"))
    p.add_argument("--resume", action="store_true", help=_("continue the saved game"))
    p.add_argument("--bot-delay", type=float, default=0.6, help=_("seconds between bot actions"))
    p.add_argument(
        "--no-animation", action="store_true", help=_("no rolling dice (also with NO_COLOR)")
    )
    p.set_defaults(handler=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    if not args.plain and (args.resume or (sys.stdin.isatty() and sys.stdout.isatty())):
        try:  # the full-screen game, when the tui extra and its module are there
            tui = importlib.import_module("yacht.cli.tui")
        except ImportError:
            pass
        else:
            status: int = tui.play_full_screen(args)
            return status
    lang = parse_language(args.lang)
    _ = translator(lang).gettext
    rules = parse_preset(args.rules)
    given = args.players if args.players is not None else _("Player")
    names = [n.strip() for n in given.split(",")]
    if not 1 <= len(names) <= MAX_PLAYERS or not all(names):
        raise CommandError(
            _("--players needs 1 to {n} names separated by commas, got {text!r}").format(
                n=MAX_PLAYERS, text=args.players
            )
        )
    if args.start not in START_RULES:
        raise CommandError(
            _("unknown start rule {rule!r} (one of: {rules})").format(
                rule=args.start, rules=", ".join(START_RULES)
            )
        )
    seed = None
    if args.seed is not None:
        try:
            seed = int(args.seed)
        except ValueError:
            raise CommandError(
                _("--seed needs a whole number, got {text!r}").format(text=args.seed)
            ) from None
    game = Game(names, rules, RandomDice(seed), start=args.start, undo=args.undo)
    return PlainGame(game, lang).run(sys.stdin, sys.stdout)


class PlainGame:
    """Shows the sheet and dice, reads one command a line, answers bad input and asks again."""

    def __init__(self, game: Game, lang: str = "en") -> None:
        self.game = game
        self.lang = lang
        self._: Gettext = translator(lang).gettext

    def run(self, inp: TextIO, out: TextIO) -> int:
        """Play until the game ends (0), the player quits (0) or the input ends (1)."""
        _ = self._
        g = self.game
        echo = not inp.isatty()  # over a pipe, echo each command so the output reads as a session
        if g.start_rolls and len(g.players) > 1:
            out.write(_("{name} starts.").format(name=g.current_name) + "\n")
        show_sheet = True
        while not g.finished:
            if show_sheet:
                out.write(self.render_sheet() + "\n")
                show_sheet = False
            out.write(self.render_turn() + "\n")
            out.write(f"{g.current_name}> ")
            out.flush()
            line = inp.readline()
            if not line:
                out.write("\n" + _("Input ended before the game did; game abandoned.") + "\n")
                return 1
            text = line.strip()
            if echo:
                out.write(text + "\n")
            word = text.lower()
            if not text:
                continue
            if word in ("quit", "exit", "q"):
                out.write(_("Game abandoned.") + "\n")
                return 0
            if word in ("help", "?"):
                out.write(self.help() + "\n")
                continue
            if word == "sheet":
                show_sheet = True
                continue
            try:
                event = g.apply(self.read(text))
            except GameError as e:
                out.write(f'! "{text}": {self.explain(text, e)}\n')
                continue
            if isinstance(event.action, Roll):
                show_sheet = True  # with what the new dice would score in each open row
            elif isinstance(event.action, Score):
                message = _("{name} scores {points} in {category}.").format(
                    name=g.players[event.player],
                    points=event.points,
                    category=category_label(event.action.category, self.lang),
                )
                out.write(message + "\n")
                show_sheet = True
            elif isinstance(event.action, Undo):
                out.write(_("{name} takes back the last score.").format(name=g.current_name))
                out.write("\n")
                show_sheet = True
        out.write(self.render_sheet() + "\n")
        out.write(self.render_result() + "\n")
        return 0

    def read(self, text: str) -> Action:
        """The action a line asks for; ``score`` also takes a category's translated label."""
        verb, _sep, rest = text.strip().partition(" ")
        if verb.lower() == "score" and rest.strip():
            wanted = _fold(rest)
            for category in CATEGORIES:
                if _fold(category_label(category, self.lang)) == wanted:
                    return Score(category)
        return Action.parse(text)

    def explain(self, text: str, error: GameError) -> str:
        """What was wrong with a line, in the game's language."""
        _ = self._
        g = self.game
        verb = text.split()[0].lower()
        if isinstance(error, InvalidActionError):
            if verb == "hold":
                return _("dice positions are 1 to 5, each at most once (hold 1 3 holds two dice)")
            if verb == "score":
                names = ", ".join(c.value for c in CATEGORIES)
                return _("unknown category; the categories are: {names}").format(names=names)
            return _("unknown command; type help to see the commands")
        if isinstance(error, NoRollsLeftError):
            return _("no rolls left: score a category")
        if isinstance(error, NotRolledError):
            return _("roll first")
        if isinstance(error, CategoryFilledError):
            category = self.read(text)
            if isinstance(category, Score):
                return _("{category} is already filled ({points})").format(
                    category=category_label(category.category, self.lang),
                    points=g.sheet(g.current)[category.category],
                )
        if isinstance(error, UndoNotAllowedError):
            if not g.undo_allowed:
                return _("undo is off in this game (start it with --undo)")
            return _("there is no score to take back now")
        return str(error)

    def help(self) -> str:
        _ = self._
        categories = ", ".join(
            c.value if self.lang == "en" else f"{c.value} ({category_label(c, self.lang)})"
            for c in CATEGORIES
        )
        rows = [
            ("roll", _("roll the dice that are not held")),
            ("hold 1 3", _("hold dice 1 and 3 and release the others; hold alone releases all")),
            ("score fours", _("fill an open category with the dice")),
            ("undo", _("take back your last score before the next player rolls (--undo)")),
            ("sheet", _("show the score sheet")),
            ("help", _("show this help")),
            ("quit", _("leave the game")),
        ]
        lines = [_("Commands:")] + [f"  {cmd:<12}  {what}" for cmd, what in rows]
        lines.append(_("Categories: {names}").format(names=categories))
        return "\n".join(lines)

    def render_sheet(self) -> str:
        """The score sheet; the current player's open rows show what the dice would score."""
        _ = self._
        g = self.game
        rows: list[tuple[str, tuple[str, ...]]] = []
        for row in sheet_rows(g):
            if row.category is not None:
                label = category_label(row.category, self.lang)
            else:
                label = _("Bonus") if row.kind == "bonus" else _("Total")
            rows.append((label, row.cells))
        w = max(len(label) for label, _cells in rows)
        cols = [max(6, len(n)) for n in g.players]
        head = (
            " " * w + " | " + " | ".join(n.rjust(c) for n, c in zip(g.players, cols, strict=True))
        )
        rule = "-" * len(head)
        lines = [head, rule]
        for i, (label, cells) in enumerate(rows):
            if i == len(rows) - 1:
                lines.append(rule)
            body = " | ".join(cell.rjust(c) for cell, c in zip(cells, cols, strict=True))
            lines.append((label.ljust(w) + " | " + body).rstrip())
        return "\n".join(lines)

    def render_turn(self) -> str:
        """Whose turn, the dice (held ones in brackets) and the rolls left."""
        _ = self._
        g = self.game
        turn = _("Round {round} of {rounds}, {name}").format(
            round=g.round, rounds=len(CATEGORIES), name=g.current_name
        )
        if g.dice is None:
            return turn + ": " + _("type roll (or help).")
        dice = " ".join(
            f"[{d}]" if i in g.held else f" {d} " for i, d in enumerate(g.dice, start=1)
        )
        rolls = _("roll {n} of {max}").format(n=g.rolls_used, max=MAX_ROLLS)
        held = _("[ ] = held")
        return f"{turn}: {dice}  ({rolls}; {held})"

    def render_result(self) -> str:
        """The winner line; equal highest totals share the win."""
        g = self.game
        winners = g.winners()
        names = ", ".join(g.players[i] for i in winners)
        template = translator(self.lang).ngettext(
            "Game over. Winner: {names} with {total}.",
            "Game over. Winners: {names} with {total}.",
            len(winners),
        )
        return template.format(names=names, total=max(g.totals))


def _fold(text: str) -> str:
    return " ".join(text.replace("_", " ").replace("-", " ").split()).casefold()

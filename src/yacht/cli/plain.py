"""``yacht play --plain``: a line-based game for 1-6 players that works over a pipe.

Commands are the text forms of actions (``roll``, ``hold 1 3``, ``score fours``, ``undo``) plus
``sheet``, ``help`` and ``quit``, or the same commands in the game's language (``heitä``,
``pidä 1 3``, ``merkitse neloset`` in Finnish; the help lists them); a category may also be
named by its label in the game's language (``score Neljä samaa``). Bad input gets one line
starting with ``!`` and the prompt again; the game is never left half-changed and no
traceback is ever shown.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from typing import Any, TextIO, TypeGuard

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
from yacht.cli import CommandError, add_lang_option, cli_gettext, cli_language
from yacht.cli.bounds import MAX_SEED, coach_threshold, decimal, whole
from yacht.cli.core import parse_language, parse_preset, rules_option
from yacht.dice import RandomDice
from yacht.game import MAX_PLAYERS, MAX_ROLLS, START_RULES, Game
from yacht.i18n import category_label, error_text, find_category, translator
from yacht.rules import CATEGORIES, Category
from yacht.sheet import sheet_rows

__all__ = ["PlainGame", "cmd_play", "register"]

Gettext = Callable[[str], str]


COMMANDS: tuple[str, ...] = ("roll", "hold", "score", "undo", "sheet", "help", "quit")
"""The plain game's commands; each also has a word of its own in the game's language."""

_ALIASES = {"?": "help", "q": "quit", "exit": "quit"}


def command_words(lang: str) -> dict[str, str]:
    """Each command's word in a language (a translator gives one word per command).

    >>> command_words("fi")["roll"], command_words("bg")["hold"], command_words("nb")["score"]
    ('heitä', 'задръжте', 'før')
    """
    t = translator(lang)
    return {
        "roll": t.pgettext("command", "roll"),
        "hold": t.pgettext("command", "hold"),
        "score": t.pgettext("command", "score"),
        "undo": t.pgettext("command", "undo"),
        "sheet": t.pgettext("command", "sheet"),
        "help": t.pgettext("command", "help"),
        "quit": t.pgettext("command", "quit"),
    }


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("play a game (--plain: line mode, works over a pipe)")
    p = subs.add_parser("play", help=what, description=what)
    p.add_argument("--plain", action="store_true", help=_("line mode: read commands from stdin"))
    p.add_argument(
        "--players", default=None, metavar=_("NAMES"), help=_("comma-separated names, 1 to 6")
    )
    rules_option(p)
    p.add_argument(
        "--seed",
        type=whole(0, MAX_SEED),
        default=None,
        metavar=_("N"),
        help=_("seed the dice for a reproducible game"),
    )
    p.add_argument(
        "--start",
        default="seat",
        metavar=_("RULE"),
        help=_("who starts: seat (the first name), roll-off or random"),
    )
    p.add_argument("--undo", action="store_true", help=_("house rule: allow taking back a score"))
    p.add_argument(
        "--coach",
        type=coach_threshold,
        default=None,
        metavar=_("POINTS"),
        help=_(
            "live coach: warn before a move that loses more than POINTS (0.1 to 5), or with "
            "opponents more than N%% of the chance of winning (N%%: 0.1%% to 10%%)"
        ),
    )
    add_lang_option(p)
    p.add_argument("--resume", action="store_true", help=_("continue the saved game"))
    p.add_argument(
        "--bot-delay",
        type=decimal(0, 10),
        default=0.6,
        metavar=_("SECONDS"),
        help=_("seconds between bot actions"),
    )
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
    lang = parse_language(args.lang) if args.lang else cli_language()  # yacht --lang X play
    _ = translator(lang).gettext
    if args.coach is not None:
        raise CommandError(_("--coach is for the full-screen game, not the line mode"))
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
    game = Game(names, rules, RandomDice(args.seed), start=args.start, undo=args.undo)
    return PlainGame(game, lang).run(sys.stdin, sys.stdout)


class PlainGame:
    """Shows the sheet and dice, reads one command a line, answers bad input and asks again."""

    def __init__(self, game: Game, lang: str = "en") -> None:
        self.game = game
        self.lang = lang
        self._: Gettext = translator(lang).gettext
        self.words = command_words(lang)
        self._commands = {c: c for c in COMMANDS} | _ALIASES
        self._commands |= {word.casefold(): c for c, word in self.words.items()}

    def command(self, text: str) -> str | None:
        """The command (its English name) a line starts with, in either language."""
        verb = text.strip().partition(" ")[0]
        return self._commands.get(verb.casefold())

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
            if not text:
                continue
            alone = self.command(text) if len(text.split()) == 1 else None
            if alone == "quit":
                out.write(_("Game abandoned.") + "\n")
                return 0
            if alone == "help":
                out.write(self.help() + "\n")
                continue
            if alone == "sheet":
                show_sheet = True
                continue
            try:
                action = self.read(text)
                if not echo and self.scores_zero(action) and not self.confirm(action, inp, out):
                    out.write(_("Not scored: choose another category.") + "\n")
                    continue
                event = g.apply(action)
            except GameError as e:
                out.write(f'! "{text}": {self.explain(text, e)}\n')
                continue
            if isinstance(event.action, Roll):
                show_sheet = True  # with what the new dice would score in each open row
            elif isinstance(event.action, Score):
                points = event.points or 0  # a score event always carries its points
                template = translator(self.lang).ngettext(
                    "{name} scores {points} point in {category}.",
                    "{name} scores {points} points in {category}.",
                    points,
                )
                message = template.format(
                    name=g.players[event.player],
                    points=points,
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
        """The action a line asks for, its command in English or in the game's language;
        ``score`` also takes a category's translated label."""
        rest = text.strip().partition(" ")[2]
        command = self.command(text)
        if command == "score" and rest.strip():
            category = find_category(rest, self.lang)
            if category is not None:
                return Score(category)
        return Action.parse(f"{command} {rest}" if command else text)

    def scores_zero(self, action: Action) -> TypeGuard[Score]:
        """True when ``action`` fills an open box with 0."""
        g = self.game
        return (
            isinstance(action, Score)
            and action in g.legal_actions()
            and g.potential(action.category) == 0
        )

    def confirm(self, action: Score, inp: TextIO, out: TextIO) -> bool:
        """Ask before a zero is scored: one letter mistyped at a terminal must not use up a
        box. A script over a pipe says what it means and is not asked."""
        t = translator(self.lang)
        yes, no = t.pgettext("answer", "y"), t.pgettext("answer", "n")
        question = t.gettext("Score 0 in {category}? The box is then used up ({yes}/{no}): ")
        out.write(
            question.format(category=category_label(action.category, self.lang), yes=yes, no=no)
        )
        out.flush()
        answer = inp.readline().strip().casefold()
        return answer in {"y", "yes", yes.casefold(), t.pgettext("answer", "yes").casefold()}

    def explain(self, text: str, error: GameError) -> str:
        """What was wrong with a line, in the game's language."""
        _ = self._
        g = self.game
        verb = self.command(text)
        if isinstance(error, InvalidActionError):
            if verb == "hold":
                return _(
                    "dice positions are 1 to 5, each at most once ({example} holds two dice)"
                ).format(example=self.words["hold"] + " 1 3")
            if verb == "score":
                return _("unknown category; the categories are: {names}").format(
                    names=self.category_names()
                )
            return _("unknown command; type {help} to see the commands").format(
                help=self.words["help"]
            )
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
        return error_text(error, self.lang)

    def category_names(self) -> str:
        """The categories as a player names them: ``full_house`` in English, the labels else."""
        if self.lang == "en":
            return ", ".join(c.value for c in CATEGORIES)
        return ", ".join(category_label(c, self.lang) for c in CATEGORIES)

    def help(self) -> str:
        """The commands in the game's language (the English ones work as well)."""
        _ = self._
        w = self.words
        fours = w["score"] + " " + category_label(Category.FOURS, self.lang).casefold()
        if self.lang == "en":
            fours = "score fours"
        rows = [
            (w["roll"], _("roll the dice that are not held")),
            (
                w["hold"] + " 1 3",
                _("hold dice 1 and 3 and release the others; {hold} alone releases all").format(
                    hold=w["hold"]
                ),
            ),
            (fours, _("fill an open category with the dice")),
            (w["undo"], _("take back your last score before the next player rolls (--undo)")),
            (w["sheet"], _("show the score sheet")),
            (w["help"], _("show this help")),
            (w["quit"], _("leave the game")),
        ]
        width = max(12, *(len(cmd) for cmd, _what in rows))
        lines = [_("Commands:")] + [f"  {cmd:<{width}}  {what}" for cmd, what in rows]
        lines.append(_("Categories: {names}").format(names=self.category_names()))
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
            return (
                turn
                + ": "
                + _("type {roll} (or {help}).").format(
                    roll=self.words["roll"], help=self.words["help"]
                )
            )
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

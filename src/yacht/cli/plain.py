"""``yacht play --plain``: a line-based game for 1-6 players that works over a pipe."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, TextIO

from yacht.actions import GameError
from yacht.dice import RandomDice
from yacht.game import Game
from yacht.i18n import LANGUAGES, category_label, detect_language, translator
from yacht.rules import CATEGORIES, preset_names

Gettext = Callable[[str], str]


def register(subs: Any) -> None:
    p = subs.add_parser("play", help="play a game (full-screen; --plain for line mode)")
    p.add_argument("--plain", action="store_true", help="line mode: reads commands from stdin")
    p.add_argument(
        "--players", default="Player", help="comma-separated names, 1 to 6 (default: Player)"
    )
    p.add_argument("--rules", default="traditional", choices=preset_names())
    p.add_argument("--seed", type=int, default=None, help="seed the dice for a reproducible game")
    p.add_argument("--start", default="seat", choices=["seat", "roll-off", "random"])
    p.add_argument("--undo", action="store_true", help="house rule: allow taking back a score")
    p.add_argument("--lang", choices=sorted(LANGUAGES), default=None)
    p.set_defaults(handler=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    game = Game(names, args.rules, RandomDice(args.seed), start=args.start, undo=args.undo)
    return PlainGame(game, args.lang or detect_language()).run(sys.stdin, sys.stdout)


class PlainGame:
    """Shows the sheet and dice, reads one command a line, answers bad input and asks again."""

    def __init__(self, game: Game, lang: str = "en") -> None:
        self.game = game
        self.lang = lang
        self._: Gettext = translator(lang).gettext

    def run(self, inp: TextIO, out: TextIO) -> int:
        _ = self._
        g = self.game
        if g.start_rolls:
            out.write(_("{name} starts.").format(name=g.current_name) + "\n")
        while not g.finished:
            out.write(self.render() + "\n")
            out.write(f"{g.current_name}> ")
            out.flush()
            line = inp.readline()
            if not line:
                out.write("\n" + _("Input ended; game abandoned.") + "\n")
                return 1
            text = line.strip()
            if text.lower() in ("quit", "exit", "q"):
                out.write(_("Game abandoned.") + "\n")
                return 0
            if text.lower() in ("help", "?", ""):
                out.write(self.help() + "\n")
                continue
            try:
                event = g.apply(text)
            except GameError as e:
                out.write(f"! {e}\n")
                continue
            if event.points is not None:
                out.write(
                    _("{name} scores {points} in {category}.").format(
                        name=g.players[event.player],
                        points=event.points,
                        category=category_label(event.action.category, self.lang),  # type: ignore[attr-defined]
                    )
                    + "\n"
                )
        out.write(self.render_sheet() + "\n")
        names = ", ".join(g.players[i] for i in g.winners())
        out.write(_("Game over. Winner: {names}").format(names=names) + "\n")
        return 0

    def help(self) -> str:
        _ = self._
        return "\n".join(
            [
                _("Commands:"),
                "  roll            " + _("roll the dice that are not held"),
                "  hold 1 3        " + _("hold dice 1 and 3 (hold alone releases all)"),
                "  score fours     "
                + _("fill a category: ")
                + ", ".join(c.value for c in CATEGORIES),
                "  undo            " + _("take back the last score (house rule)"),
                "  help, quit",
            ]
        )

    def render_sheet(self) -> str:
        _ = self._
        g = self.game
        labels = [category_label(c, self.lang) for c in CATEGORIES]
        w = max(len(s) for s in [*labels, _("Total")])
        cols = [max(6, len(n)) for n in g.players]
        head = (
            " " * w + " | " + " | ".join(n.rjust(c) for n, c in zip(g.players, cols, strict=True))
        )
        lines = [head, "-" * len(head)]
        for cat, label in zip(CATEGORIES, labels, strict=True):
            cells = []
            for p, c in enumerate(cols):
                filled = g.sheet(p).get(cat)
                if filled is not None:
                    cells.append(str(filled).rjust(c))
                elif p == g.current and g.dice is not None:
                    cells.append(f"({g.potential(cat)})".rjust(c))
                else:
                    cells.append(" " * c)
            lines.append(label.ljust(w) + " | " + " | ".join(cells))
        lines.append("-" * len(head))
        totals = " | ".join(str(t).rjust(c) for t, c in zip(g.totals, cols, strict=True))
        lines.append(_("Total").ljust(w) + " | " + totals)
        return "\n".join(lines)

    def render(self) -> str:
        _ = self._
        g = self.game
        lines = [self.render_sheet()]
        turn = _("Round {round}: {name}'s turn").format(round=g.round, name=g.current_name)
        if g.dice is None:
            lines.append(turn + ". " + _("Type roll."))
        else:
            dice = "  ".join(
                f"[{d}]" if i in g.held else f" {d} " for i, d in enumerate(g.dice, start=1)
            )
            left = _("rolls left: {n}").format(n=g.rolls_left)
            lines.append(f"{turn}.  {_('Dice')}: {dice}   ({left}; [ ] = {_('held')})")
        return "\n".join(lines)

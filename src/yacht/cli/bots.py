"""``yacht simulate`` (bots' strength over many games) and ``yacht review`` (rate a game)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from yacht.cli import CommandError, add_lang_option, cli_gettext, cli_language
from yacht.cli.bounds import MAX_SEED, whole
from yacht.cli.core import json_option, preset_shown, rules_option
from yacht.cli.text import bot_label, bot_name_error, count, number, option_text, percent, shown
from yacht.i18n import category_label, translator
from yacht.rules import Category

__all__ = ["ProgressBar", "cmd_review", "cmd_simulate", "register"]


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("play many solo games with a bot and summarise them")
    p = subs.add_parser("simulate", help=what, description=what)
    p.add_argument(
        "--bot",
        type=bot_option,
        default="optimal",
        metavar=_("BOT"),
        help=_(
            "the bot: random, greedy, easy, medium, hard, optimal or target:T (default: optimal)"
        ),
    )
    p.add_argument(
        "--games",
        type=_games,
        default=10_000,
        metavar="N",
        help=_("how many games (default: 10000)"),
    )
    p.add_argument(
        "--seed",
        type=whole(0, MAX_SEED),
        default=None,
        metavar="N",
        help=_("seed for a reproducible run"),
    )
    rules_option(p, choices=True)
    p.add_argument(
        "--engine", action="store_true", help=_("play every game through the engine (slow)")
    )
    json_option(p)
    add_lang_option(p)
    p.set_defaults(handler=cmd_simulate)

    what = _("rate every decision of a saved game")
    p = subs.add_parser("review", help=what, description=what)
    p.add_argument("file", metavar=_("GAME.json"), help=_("a game saved as JSON"))
    json_option(p)
    p.add_argument("--all", action="store_true", help=_("list every decision, not only mistakes"))
    p.add_argument(
        "--explain", action="store_true", help=_("say in words why the best option beat each one")
    )
    add_lang_option(p)
    p.set_defaults(handler=cmd_review)


MAX_GAMES = 100_000_000
"""The most games one ``yacht simulate`` plays (about two minutes vectorised)."""

MAX_TARGET = 10_000
"""The highest ``target:T`` (every preset's most points is far below it)."""

_games = whole(1, MAX_GAMES)


def bot_option(text: str) -> str:
    """A ``--bot`` name as given; the T of ``target:T`` must be a whole number in range (the
    name itself is checked when the bot is made, so an unknown one is one line too)."""
    word = text.strip()
    points = word.partition(":")[2]
    if word.lower().startswith("target:") and points.isascii() and points.isdigit():
        whole(0, MAX_TARGET)(points)
    return text


class ProgressBar:
    """A one-line progress bar on a terminal, shown once a run has taken half a second."""

    def __init__(self, stream: TextIO, label: str, delay: float = 0.5) -> None:
        self.stream = stream
        self.label = label
        self.delay = delay
        self.start = time.perf_counter()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.start
        if elapsed < self.delay and not self.shown:
            return
        width = 30
        filled = width * done // total
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} {elapsed:.1f}s")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def cmd_simulate(args: argparse.Namespace) -> int:
    from yacht.bots import make_bot
    from yacht.bots.play import simulate_bot

    try:
        name = make_bot(args.bot).name  # an unknown bot fails here, before any work
    except ValueError:
        raise CommandError(bot_name_error(args.bot)) from None
    bar = ProgressBar(sys.stderr, bot_label(name)) if sys.stderr.isatty() else None
    try:
        result = simulate_bot(
            name, args.games, args.rules, seed=args.seed, engine=args.engine, progress=bar
        )
    finally:
        if bar is not None:
            bar.close()
    data = result.to_json()
    if args.json:
        print(json.dumps(data))
        return 0
    _ = cli_gettext()
    lang = cli_language()
    methods = {"vectorised": _("vectorised"), "engine": _("engine")}
    print(
        _("{bot} on {rules}: {games} ({method}, {speed} games/s)").format(
            bot=bot_label(name),
            rules=preset_shown(data["rules"]),
            games=count("{n} game", "{n} games", data["games"]),
            method=methods.get(data["method"], data["method"]),
            speed=number(data["games_per_second"], digits=0),
        )
    )
    print(
        _("mean {mean} ± {se} (standard deviation {stdev}), lowest {min}, highest {max}").format(
            mean=number(data["mean"], digits=2),
            se=number(result.standard_error, digits=2),
            stdev=number(data["stdev"], digits=2),
            min=data["min"],
            max=data["max"],
        )
    )
    cuts = ", ".join(
        f"{percent(float(p) / 100, digits=0)}: {v}" for p, v in data["percentiles"].items()
    )
    print(_("percentiles: {cuts}").format(cuts=cuts))
    print(_("mean points per category:"))
    for category, mean in data["category_means"].items():
        label = category if lang == "en" else category_label(Category(category), lang)
        print(f"  {label:<16} {number(mean, digits=2):>7}")
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from yacht.cli.files import read_json
    from yacht.coach import reason_text
    from yacht.game import Game
    from yacht.review import decision_reasons, review

    _ = cli_gettext()
    t = translator(cli_language())
    data = read_json(args.file)
    try:
        game = Game.from_json(data)
    except ValueError as e:  # the file's fault: from_json checks every field and event
        raise CommandError.about(e, args.file) from None
    target = data.get("target") if isinstance(data, dict) else None  # a stored target game
    try:
        result = review(game, target=target)
    except ValueError as e:
        raise CommandError.about(e, args.file) from None
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    names = {p.player: shown(p.name) for p in result.players}  # from the file: escaped, cut
    unit = {
        "points": _("expected points given up"),
        "win": _("chance of finishing first given up, as the hint ranks with opponents"),
        "target": _("chance of reaching {target} given up, as the target hint ranks").format(
            target=result.target
        ),
    }[result.measure]
    print(
        _("Review ({rules}): loss = {unit}; accurate = no loss").format(
            rules=preset_shown(result.rules), unit=unit
        )
    )

    def lost(loss: float, points: float) -> str:
        if result.measure == "points":
            return _("loss {loss}").format(loss=number(loss, digits=2))
        form = t.ngettext("{n} point", "{n} points", 2)  # a decimal takes the plural form
        return _("loss {loss} ({points})").format(
            loss=percent(loss, digits=2), points=form.format(n=number(points, digits=2))
        )

    for p in result.players:
        accuracy = "-" if p.accuracy is None else percent(p.accuracy / 100, digits=1)
        print(
            "  "
            + _("{name}: total {total}, {decisions}, {loss}, accuracy {accuracy}").format(
                name=names[p.player],
                total=p.total,
                decisions=count("{n} decision", "{n} decisions", p.decisions),
                loss=lost(p.loss, p.points_loss),
                accuracy=accuracy,
            )
        )
    listed = [d for d in result.decisions if args.all or not d.accurate]
    if listed:
        print(_("Decisions:") if args.all else _("Mistakes:"))
    for d in listed:
        print(
            "  "
            + _("{name}, turn {turn}, roll {roll} [{dice}]: {taken}; best {best}; {loss}").format(
                name=names[d.player],
                turn=d.turn,
                roll=d.roll,
                dice=" ".join(map(str, d.dice)),
                taken=option_text(d.taken.action, d.taken.keep, d.taken.category, d.taken.points),
                best=option_text(d.best.action, d.best.keep, d.best.category, d.best.points),
                loss=lost(d.loss, d.points_loss),
            )
        )
        if args.explain and not d.accurate:
            best, taken = decision_reasons(game.rules, d)
            for r in (*best, *taken):
                print("      " + reason_text(r.code, r.args, cli_language()))
    return 0

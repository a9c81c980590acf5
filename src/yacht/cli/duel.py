"""``yacht duel solve|stats``: two-player Yacht, solved (the exact heads-up tables)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from yacht.cli import CommandError, add_lang_option, cli_gettext
from yacht.cli.bots import bot_option
from yacht.cli.bounds import MAX_SEED, whole
from yacht.cli.core import json_option, preset_shown, rules_option
from yacht.cli.text import bot_label, bot_name_error, count, number, percent
from yacht.rules import Rules, preset_names, rules_by_name

__all__ = ["register"]


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("two-player Yacht, solved: build and read the exact tables")
    p = subs.add_parser("duel", help=what, description=what)
    add_lang_option(p)
    duel = p.add_subparsers(
        dest="duel_command", required=True, parser_class=type(p), metavar=_("COMMAND")
    )

    what = _("build the minimax table (resumes an interrupted build)")
    s = duel.add_parser("solve", help=what, description=what)
    rules_option(s, choices=True)
    s.add_argument(
        "--jobs", type=whole(1, 256), default=1, metavar="N", help=_("processes (default: 1)")
    )
    s.add_argument(
        "--depth",
        type=whole(1, 12),
        default=None,
        metavar="K",
        help=_("build only the endgame where both players have at most K categories open"),
    )
    s.add_argument(
        "--table",
        default="minimax",
        choices=("minimax", "response"),
        help=_("minimax: both play to win (default); response: the best response to optimal"),
    )
    add_lang_option(s)
    s.set_defaults(handler=cmd_solve)

    what = _("heads-up games through the engine, beside the exact rate")
    m = duel.add_parser("match", help=what, description=what)
    m.add_argument(
        "--bots",
        type=_pair,
        default=("duel:optimal", "optimal"),
        metavar=_("BOTS"),
        help=_("two bots, seat 1 first (default: duel:optimal,optimal)"),
    )
    m.add_argument(
        "--games",
        type=whole(1, 10_000_000),
        default=1000,
        metavar="N",
        help=_("games (default: 1000)"),
    )
    m.add_argument(
        "--seed",
        type=whole(0, MAX_SEED),
        default=None,
        metavar="N",
        help=_("seed for a reproducible run"),
    )
    rules_option(m, choices=True)
    add_lang_option(m)
    m.set_defaults(handler=cmd_match)

    what = _("the exact heads-up numbers from the built tables")
    t = duel.add_parser("stats", help=what, description=what)
    rules_option(t, choices=True)
    json_option(t)
    add_lang_option(t)
    t.set_defaults(handler=cmd_stats)


def _pair(text: str) -> tuple[str, str]:
    from yacht.bots import make_bot

    _ = cli_gettext()
    names = [b.strip().lower() for b in text.split(",")]
    if len(names) != 2:
        raise argparse.ArgumentTypeError(
            _("need two comma-separated bots, got {text!r}").format(text=text)
        )
    for name in names:
        bot_option(name)
        try:
            make_bot(name)
        except ValueError:
            raise argparse.ArgumentTypeError(bot_name_error(name)) from None
    return names[0], names[1]


def _duration(seconds: float) -> str:
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}h{s // 60 % 60:02d}m{s % 60:02d}s"
    return f"{s // 60}m{s % 60:02d}s"


class _Reporter:
    """Progress on stderr: one line rewritten in place on a terminal, else a line every
    ``every`` seconds and one per finished layer."""

    def __init__(self, out: TextIO, total: int, every: float = 15.0) -> None:
        self.out = out
        self.total = total
        self.every = every
        self.tty = out.isatty()
        self.last = 0.0
        self.before = 0  # values computed by this run's earlier tables
        self.seen = 0

    def __call__(self, p: Any) -> None:
        now = time.perf_counter()
        rate = p.values / p.seconds if p.seconds > 0 else 0.0
        self.seen = self.before + p.values
        left = self.total - self.seen
        width = 24
        filled = round(width * p.done / p.size) if p.size else width
        bar = "#" * filled + "." * (width - filled)
        _ = cli_gettext()
        line = _(
            "layer {layer} [{bar}] {share} of {size} values | {elapsed} elapsed | "
            "{rate} million values/s"
        ).format(
            layer=f"{p.layer:2d}",
            bar=bar,
            share=f"{percent(p.done / max(p.size, 1)):>6}",
            size=number(p.size, digits=0),
            elapsed=_duration(p.seconds),
            rate=number(rate / 1e6, digits=2),
        )
        if rate > 0 and left > 0:
            line += " | " + _("ready in {time}").format(time=_duration(left / rate))
        if self.tty:
            self.out.write("\r" + line + ("\n" if p.finished else ""))
        elif p.finished or now - self.last >= self.every:
            self.out.write(line + ("  " + _("done") if p.finished else "") + "\n")
            self.last = now
        self.out.flush()


def _duel_rules(name: str) -> Rules:
    """The preset, if the two-player tables cover it (no upper bonus); else a user error."""
    rules = rules_by_name(name)
    if rules.upper_bonus is not None:
        _ = cli_gettext()
        raise CommandError(
            _("preset {rules} has an upper bonus: the two-player table covers {presets}").format(
                rules=preset_shown(rules.name),
                presets=", ".join(
                    n for n in preset_names() if rules_by_name(n).upper_bonus is None
                ),
            )
        )
    return rules


def cmd_solve(args: argparse.Namespace) -> int:
    from yacht.strategy.duel import MINIMAX, build_layers, table_size
    from yacht.strategy.duel.layout import LAYERS
    from yacht.strategy.duel.response import FIRST, SECOND
    from yacht.strategy.duel.store import read_manifest

    rules = _duel_rules(args.rules)
    lowest = 0 if args.depth is None else max(0, LAYERS - 2 * args.depth)
    kinds = [MINIMAX] if args.table == "minimax" else [FIRST, SECOND]
    todo = sum(table_size(rules, kind, lowest) for kind in kinds)
    report = _Reporter(sys.stderr, todo)
    for kind in kinds:
        start = time.perf_counter()
        folder = build_layers(rules, kind, jobs=args.jobs, lowest=lowest, progress=report)
        report.before = report.seen
        manifest = read_manifest(folder)
        layers = {int(k): v for k, v in manifest["layers"].items() if int(k) >= lowest}
        values = sum(v["values"] for v in layers.values())
        build = sum(v["seconds"] for v in layers.values())
        on_disk = sum(p.stat().st_size for p in folder.glob("layer-*.u16"))
        _ = cli_gettext()
        text = _(
            "{rules}: {kind} table, layers {lowest}-{highest}: {values} in {mebibytes} MiB "
            "({folder}); built in {build} (this run {run})"
        )
        print(
            text.format(
                rules=preset_shown(rules.name),
                kind=kind.name,
                lowest=lowest,
                highest=LAYERS - 1,
                values=count("{n} win probability", "{n} win probabilities", values),
                mebibytes=number(on_disk / 2**20, digits=1),
                folder=folder,
                build=_duration(build),
                run=_duration(time.perf_counter() - start),
            )
        )
    return 0


def stats(rules: Any) -> dict[str, Any]:
    """The exact heads-up numbers of a preset, from whichever tables are built."""
    from yacht.strategy.distribution import distribution
    from yacht.strategy.duel.table import open_table

    out: dict[str, Any] = {"rules": rules.name}
    minimax = open_table(rules, "minimax")
    out["first_player_wins"] = None if minimax is None else minimax.win_probability(0, 0, 0)
    first = open_table(rules, "response-first")
    second = open_table(rules, "response-second")
    seats = [
        None if first is None else first.win_probability(0, 0, 0),
        None if second is None else second.win_probability(0, 0, 0),  # the other moves first
    ]
    out["best_against_optimal"] = {
        "seat1": seats[0],
        "seat2": seats[1],
        "both": None if None in seats else (seats[0] + seats[1]) / 2,  # type: ignore[operator]
    }
    p = distribution(rules).probabilities
    tie = float((p * p).sum())
    out["optimal_against_itself"] = {"seat1": 0.5, "seat2": 0.5, "tie": tie}
    out["seconds"] = {
        "minimax": None if minimax is None else minimax.seconds,
        "response": None if first is None or second is None else first.seconds + second.seconds,
    }
    return out


def cmd_stats(args: argparse.Namespace) -> int:
    from yacht.strategy.duel.store import ERROR_BOUND

    rules = _duel_rules(args.rules)
    data = stats(rules)
    if args.json:
        print(json.dumps(data))
        return 0

    _ = cli_gettext()

    def shown(p: float | None, build: str) -> str:
        if p is not None:
            return percent(p, digits=4)
        return _("not built ({command})").format(command=f"yacht duel solve {build}")

    name = rules.name
    best = data["best_against_optimal"]
    same = data["optimal_against_itself"]
    print(
        _(
            "{rules}, two players, exact (ties count 1/2; to within {margin} percentage points):"
        ).format(rules=preset_shown(name), margin=number(100 * ERROR_BOUND, digits=4))
    )
    print(
        "  "
        + _("both play perfectly: the first player wins {p}").format(
            p=shown(data["first_player_wins"], f"--rules {name}")
        )
    )
    response = f"--rules {name} --table response"
    rows = [
        (_("moving first"), best["seat1"]),
        (_("moving second"), best["seat2"]),
        (_("over both"), best["both"]),
    ]
    width = max(len(label) for label, _p in rows)
    print("  " + _("the best possible against optimal:"))
    for label, p in rows:
        print(f"    {label:<{width}}  {shown(p, response)}")
    print(
        "  "
        + _(
            "optimal against itself: {half} in each seat (independent totals, same "
            "distribution); ties {ties}"
        ).format(half=percent(0.5, digits=0), ties=percent(same["tie"], digits=4))
    )
    match = f"yacht match --bots winner,optimal --rotate --rules {name}"
    print("  " + _("winner against optimal, simulated: {command}").format(command=match))
    return 0


def exact_rate(rules: Any, bots: tuple[str, str]) -> tuple[float, str] | None:
    """Seat 1's exact win probability for a pair of bots, and where it comes from, when a
    built table (or symmetry) gives it."""
    from yacht.strategy.duel.table import open_table

    if bots == ("optimal", "optimal"):
        return 0.5, "symmetry"
    if bots == ("duel", "duel"):
        table = open_table(rules, "minimax")
        return None if table is None else (table.win_probability(0, 0, 0), "table (a)")
    if bots == ("duel:optimal", "optimal"):
        table = open_table(rules, "response-first")
        return None if table is None else (table.win_probability(0, 0, 0), "table (b)")
    if bots == ("optimal", "duel:optimal"):
        table = open_table(rules, "response-second")
        if table is None:
            return None
        return 1.0 - table.win_probability(0, 0, 0), "table (b)"
    return None


def cmd_match(args: argparse.Namespace) -> int:
    import math
    import random

    from yacht.bots import make_bot
    from yacht.bots.play import play_game
    from yacht.dice import RandomDice

    rules = rules_by_name(args.rules)
    seats = [make_bot(b) for b in args.bots]
    base = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    rng = random.Random(f"bots:{base}")
    wins = 0.0
    start = time.perf_counter()
    for i in range(args.games):
        dice = RandomDice(random.Random(f"dice:{base}:{i}").randrange(2**63))
        game = play_game(seats, rules, rng=rng, dice=dice)
        won = game.winners()
        wins += 1.0 / len(won) if 0 in won else 0.0
    rate = wins / args.games
    se = math.sqrt(max(rate * (1 - rate), 1e-12) / args.games)
    seconds = time.perf_counter() - start
    _ = cli_gettext()
    print(
        _(
            "{bots} ({rules}): {games} in {seconds} s; seat 1 wins {rate} ± {margin} "
            "(95%, ties count 1/2)"
        ).format(
            bots=_(" vs ").join(map(bot_label, args.bots)),
            rules=preset_shown(rules.name),
            games=count("{n} game", "{n} games", args.games),
            seconds=number(seconds, digits=1),
            rate=percent(rate, digits=2),
            margin=percent(1.96 * se, digits=2),
        )
    )
    exact = exact_rate(rules, args.bots)
    if exact is None:
        print("  " + _("exact: no table for this pair (yacht duel stats says what is built)"))
        return 0
    p, source = exact
    off = abs(rate - p) / se
    verdict = _("agrees") if off <= 4 else _("DISAGREES")
    sources = {"symmetry": _("symmetry"), "table (a)": _("table (a)"), "table (b)": _("table (b)")}
    print(
        "  "
        + _("exact ({source}): {p}; the simulation {verdict} ({off} standard errors off)").format(
            source=sources.get(source, source),
            p=percent(p, digits=4),
            verdict=verdict,
            off=number(off, digits=1),
        )
    )
    return 0

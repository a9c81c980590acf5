"""``yacht match`` (bots at one table, win rates) and ``yacht endgame`` (the exact table)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from yacht.cli import CommandError
from yacht.rules import preset_names

__all__ = ["cmd_endgame", "cmd_match", "cmd_win_hint", "register"]


def register(subs: Any) -> None:
    p = subs.add_parser("match", help="bots at one table over many games: win rates")
    p.add_argument(
        "--bots",
        type=_bots,
        default=("winner", "optimal"),
        help="one bot per seat, seat 1 first: winner or optimal, or two of winner, optimal,"
        " duel and duel:optimal (default: winner,optimal)",
    )
    p.add_argument("--games", type=_whole(1), default=10_000, help="games (default 10000)")
    p.add_argument(
        "--seed", type=int, default=None, help="seed for a reproducible run (order n: S + n)"
    )
    p.add_argument("--rules", default="traditional", choices=preset_names())
    p.add_argument(
        "--rotate",
        action="store_true",
        help="also play every other seat order (the bots move round the table), --games each",
    )
    p.add_argument(
        "--depth",
        type=_whole(0),
        default=None,
        help="endgame table depth for winner heads-up (default 3; 0: none)",
    )
    p.add_argument(
        "--plan",
        default="lookahead",
        choices=("lookahead", "rollout", "targets"),
        help="how winner values options before the endgame (default: lookahead; rollout is"
        " ten times faster and a little weaker)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_match)

    p = subs.add_parser("endgame", help="build the exact two-player endgame table")
    p.add_argument("--depth", type=_whole(1), default=None, help="open categories each (3)")
    p.add_argument("--rules", default="traditional", choices=preset_names())
    p.add_argument("--no-cache", action="store_true", help="build the table afresh")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_endgame)


DUEL_BOTS = ("duel", "duel:optimal")
"""Bots of the solved two-player tables: ``yacht duel match`` plays them (through the engine)."""


def _bots(text: str) -> tuple[str, ...]:
    names = tuple(b.strip().lower() for b in text.split(","))
    if not 1 <= len(names) <= 6 or not all(names):
        raise argparse.ArgumentTypeError(f"need 1 to 6 comma-separated bots, got {text!r}")
    bad = [b for b in names if b not in ("winner", "optimal", *DUEL_BOTS)]
    if bad:
        raise argparse.ArgumentTypeError(
            f"match plays winner, optimal, duel and duel:optimal, not {', '.join(bad)}"
        )
    if any(b in DUEL_BOTS for b in names) and len(names) != 2:
        raise argparse.ArgumentTypeError(f"duel bots play heads-up: two bots, got {len(names)}")
    return names


def _whole(low: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    return parse


def cmd_match(args: argparse.Namespace) -> int:
    from yacht.cli.bots import ProgressBar
    from yacht.strategy.endgame import DEFAULT_DEPTH, endgame
    from yacht.strategy.match import play_match

    bots: tuple[str, ...] = args.bots
    if any(b in DUEL_BOTS for b in bots):
        from yacht.cli.duel import cmd_match as duel_match

        if args.rotate or args.json:
            raise SystemExit("yacht match: error: duel bots take neither --rotate nor --json")
        return duel_match(args)
    depth = DEFAULT_DEPTH if args.depth is None else args.depth
    orders = [bots[i:] + bots[:i] for i in range(len(bots))] if args.rotate else [bots]
    orders = list(dict.fromkeys(orders))  # identical bots: one order is enough
    if depth and len(bots) == 2 and "winner" in bots:
        endgame(args.rules, depth)  # built (and cached) before the clock starts
    results = []
    for n, order in enumerate(orders):
        bar = ProgressBar(sys.stderr, ",".join(order)) if sys.stderr.isatty() else None
        try:
            seed = None if args.seed is None else args.seed + n
            m = play_match(
                order,
                args.games,
                args.rules,
                seed=seed,
                depth=depth,
                plan=args.plan,
                progress=bar,
            )
        finally:
            if bar is not None:
                bar.close()
        results.append(m)
    summary = _summary(results)
    if args.json:
        data = {
            "rules": args.rules,
            "bots": list(bots),
            "games": sum(m.games for m in results),
            "depth": depth,
            "plan": args.plan,
            "orders": [m.to_json() for m in results],
            "summary": summary,
        }
        print(json.dumps(data))
        return 0
    for m in results:
        j = m.to_json()
        print(
            f"{' vs '.join(m.bots)} ({m.rules}): {m.games} games, {j['games_per_second']} games/s"
        )
        for s in j["seats"]:
            lo, hi = s["ci95"]
            print(
                f"  seat {s['seat']} {s['bot']:<8} wins {s['win_rate']:.2%}"
                f" (95% CI {lo:.2%} - {hi:.2%}), mean total {s['mean']:.2f}"
            )
    if len(results) > 1:
        print("every seat order together:")
        for name, s in summary.items():
            lo, hi = s["ci95"]
            print(
                f"  {name:<8} wins {s['win_rate']:.2%} (95% CI {lo:.2%} - {hi:.2%})"
                f" over {s['seats']} seats"
            )
    return 0


def _summary(results: list[Any]) -> dict[str, dict[str, Any]]:
    """Per bot name: its mean share of first place per seat it held, over every game, with a
    95% CI (a bot's seats in one game are averaged first: they are not independent)."""
    import numpy as np

    out = {}
    for name in dict.fromkeys(b for m in results for b in m.bots):
        per_game = np.concatenate(
            [
                m.shares[:, [s for s, b in enumerate(m.bots) if b == name]].mean(axis=1)
                for m in results
            ]
        )
        rate = float(per_game.mean())
        half = 1.96 * float(per_game.std(ddof=1)) / math.sqrt(per_game.size)
        seats = sum(m.bots.count(name) for m in results)
        out[name] = {
            "win_rate": round(rate, 6),
            "ci95": [round(rate - half, 6), round(rate + half, 6)],
            "seats": seats,
            "games": int(per_game.size),
        }
    return out


def cmd_endgame(args: argparse.Namespace) -> int:
    from yacht.strategy.endgame import DEFAULT_DEPTH, endgame

    depth = DEFAULT_DEPTH if args.depth is None else args.depth
    if depth > 4:
        raise CommandError(f"--depth {depth}: depths above 4 take hours; use 1 to 4")
    game = endgame(args.rules, depth, use_cache=not args.no_cache)
    data = {
        "rules": args.rules,
        "depth": game.depth,
        "positions": game.positions,
        "size": game.size,
        "bytes": int(game.table.nbytes),
        "seconds": round(game.seconds, 3),
    }
    if args.json:
        print(json.dumps(data))
        return 0
    print(
        f"{args.rules} endgame, at most {game.depth} categories open each: "
        f"{game.positions:,} positions x {2 * game.spread + 1} leads = {game.size:,} "
        f"win probabilities ({game.table.nbytes / 1e6:.1f} MB), built in {game.seconds:.1f} s"
    )
    return 0


def cmd_win_hint(args: argparse.Namespace) -> int:
    """``yacht hint ... --opponents SHEETS``: every option with P(finishing first).

    Your sheet is ``--used`` (filled categories), ``--upper`` (their upper subtotal, for a
    preset with a bonus) and ``--banked`` (your total so far); SHEETS gives the opponents'
    sheets (see :func:`yacht.strategy.win.parse_sheets`).
    """
    from yacht.rules import CATEGORIES, Category, rules_by_name
    from yacht.strategy import mask_of
    from yacht.strategy.win import parse_sheets, seat_hint
    from yacht.strategy.win_tables import Seat, seat_of

    if len(args.dice) != 5:
        raise CommandError(f"need five dice, got {len(args.dice)}: {' '.join(map(str, args.dice))}")
    if args.target is not None:
        raise CommandError("--target and --opponents rank options differently: give one")
    rules = rules_by_name(args.rules)
    if args.upper is not None and rules.upper_bonus is None:
        raise CommandError(f"--upper: preset {args.rules} has no upper bonus")
    used = [Category.parse(n) for n in args.used.replace(" ", ",").split(",") if n]
    if used and args.banked is None:
        raise CommandError("--opponents: give --banked B, the points on your sheet")
    cap = rules.upper_bonus.threshold if rules.upper_bonus is not None else 0
    try:  # the sheets and the position are checked before any work: a ValueError is theirs
        me = Seat(mask_of(used), min(args.upper or 0, cap), args.banked or 0)
        others = [seat_of(rules, s) for s in parse_sheets(args.opponents, rules)]
        h = seat_hint(rules, me, others, args.dice, args.rolls_left)
    except ValueError as e:
        raise CommandError(str(e)) from None
    if args.json:
        print(json.dumps(h.to_json()))
        return 0
    open_ = [c.value for c in CATEGORIES if c not in used]
    shown = "all 12" if len(open_) == len(CATEGORIES) else ", ".join(open_)
    rolls = "1 roll" if args.rolls_left == 1 else f"{args.rolls_left} rolls"
    how = "exact: solved table" if h.solved else "exact endgame" if h.exact else "estimate"
    print(
        f"{args.rules}: dice {' '.join(map(str, args.dice))}, {rolls} left; open: {shown}; "
        f"{h.players} players ({how})"
    )
    width = max(len(str(o)) for o in h.options)
    print(f"  {'option':<{width}}  {'P(win)':>8}  {'expected':>8}")
    for i, o in enumerate(h.options):
        mark = "*" if i == 0 else " "
        print(f"{mark} {o!s:<{width}}  {o.win_probability:8.2%}  {o.expected:8.3f}")
    return 0

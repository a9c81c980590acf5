"""``yacht match`` (bots at one table, win rates) and ``yacht endgame`` (the exact table)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from yacht.cli import CommandError, add_lang_option, cli_gettext
from yacht.cli.bounds import MAX_SEED, whole
from yacht.cli.core import (
    json_option,
    parse_category,
    preset_shown,
    rules_option,
    used_categories,
)
from yacht.cli.errors import dice_error, no_upper_error
from yacht.cli.text import bot_label, count, number, open_text, option_text, percent, rolls_left

__all__ = ["cmd_endgame", "cmd_match", "cmd_win_hint", "register"]


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("bots at one table over many games: win rates")
    p = subs.add_parser("match", help=what, description=what)
    p.add_argument(
        "--bots",
        type=_bots,
        default=("winner", "optimal"),
        metavar=_("BOTS"),
        help=_(
            "one bot per seat, seat 1 first: winner or optimal, or two of winner, optimal,"
            " duel and duel:optimal (default: winner,optimal)"
        ),
    )
    p.add_argument(
        "--games",
        type=whole(1, MAX_GAMES),
        default=10_000,
        metavar="N",
        help=_("games (default: 10000)"),
    )
    p.add_argument(
        "--seed",
        type=whole(0, MAX_SEED),
        default=None,
        metavar="S",
        help=_("seed for a reproducible run (seat order n: S + n)"),
    )
    rules_option(p, choices=True)
    p.add_argument(
        "--rotate",
        action="store_true",
        help=_("also play every other seat order (each bot moves one seat on), N games each"),
    )
    p.add_argument(
        "--depth",
        type=whole(0, 12),
        default=None,
        metavar="K",
        help=_("endgame table depth for winner heads-up (default: 3; 0: none)"),
    )
    p.add_argument(
        "--plan",
        default="lookahead",
        choices=("lookahead", "rollout", "targets"),
        help=_(
            "how winner values options before the endgame (default: lookahead; rollout is"
            " ten times faster and a little weaker)"
        ),
    )
    json_option(p)
    add_lang_option(p)
    p.set_defaults(handler=cmd_match)

    what = _("build the exact two-player endgame table")
    p = subs.add_parser("endgame", help=what, description=what)
    p.add_argument(
        "--depth",
        type=whole(1, 12),
        default=None,
        metavar="K",
        help=_("open categories each (default: 3)"),
    )
    rules_option(p, choices=True)
    p.add_argument("--no-cache", action="store_true", help=_("build the table afresh"))
    json_option(p)
    add_lang_option(p)
    p.set_defaults(handler=cmd_endgame)


MAX_GAMES = 10_000_000
"""The most games of one ``yacht match`` (each seat order)."""

DUEL_BOTS = ("duel", "duel:optimal")
"""Bots of the solved two-player tables: ``yacht duel match`` plays them (through the engine)."""


def _bots(text: str) -> tuple[str, ...]:
    _ = cli_gettext()
    names = tuple(b.strip().lower() for b in text.split(","))
    if not 1 <= len(names) <= 6 or not all(names):
        raise argparse.ArgumentTypeError(
            _("need 1 to 6 comma-separated bots, got {text!r}").format(text=text)
        )
    bad = [b for b in names if b not in ("winner", "optimal", *DUEL_BOTS)]
    if bad:
        raise argparse.ArgumentTypeError(
            _("match plays winner, optimal, duel and duel:optimal, not {bots}").format(
                bots=", ".join(bad)
            )
        )
    if any(b in DUEL_BOTS for b in names) and len(names) != 2:
        raise argparse.ArgumentTypeError(
            _("duel bots play heads-up: two bots, got {n}").format(n=len(names))
        )
    return names


def cmd_match(args: argparse.Namespace) -> int:
    from yacht.cli.bots import ProgressBar
    from yacht.strategy.endgame import DEFAULT_DEPTH, endgame
    from yacht.strategy.match import play_match

    bots: tuple[str, ...] = args.bots
    if any(b in DUEL_BOTS for b in bots):
        from yacht.cli.duel import cmd_match as duel_match

        if args.rotate or args.json:
            _ = cli_gettext()
            message = _("duel bots take neither --rotate nor --json")
            raise SystemExit(_("yacht: error: {message}").format(message=message))
        return duel_match(args)
    depth = DEFAULT_DEPTH if args.depth is None else args.depth
    orders = [bots[i:] + bots[:i] for i in range(len(bots))] if args.rotate else [bots]
    orders = list(dict.fromkeys(orders))  # identical bots: one order is enough
    if depth and len(bots) == 2 and "winner" in bots:
        endgame(args.rules, depth)  # built (and cached) before the clock starts
    results = []
    for n, order in enumerate(orders):
        bar = (
            ProgressBar(sys.stderr, ",".join(map(bot_label, order)))
            if sys.stderr.isatty()
            else None
        )
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
    _ = cli_gettext()
    for m in results:
        j = m.to_json()
        print(
            _("{bots} ({rules}): {games}, {speed} games/s").format(
                bots=_(" vs ").join(map(bot_label, m.bots)),
                rules=preset_shown(m.rules),
                games=count("{n} game", "{n} games", m.games),
                speed=number(j["games_per_second"], digits=1),
            )
        )
        width = max(8, *(len(bot_label(s["bot"])) for s in j["seats"]))
        for s in j["seats"]:
            lo, hi = s["ci95"]
            line = _("seat {seat} {bot} wins {rate} (95% CI {low} - {high}), mean total {mean}")
            print(
                "  "
                + line.format(
                    seat=s["seat"],
                    bot=f"{bot_label(s['bot']):<{width}}",
                    rate=percent(s["win_rate"], digits=2),
                    low=percent(lo, digits=2),
                    high=percent(hi, digits=2),
                    mean=number(s["mean"], digits=2),
                )
            )
    if len(results) > 1:
        print(_("every seat order together:"))
        width = max(8, *(len(bot_label(name)) for name in summary))
        for name, s in summary.items():
            lo, hi = s["ci95"]
            line = _("{bot} wins {rate} (95% CI {low} - {high}) over {seats}")
            print(
                "  "
                + line.format(
                    bot=f"{bot_label(name):<{width}}",
                    rate=percent(s["win_rate"], digits=2),
                    low=percent(lo, digits=2),
                    high=percent(hi, digits=2),
                    seats=count("{n} seat", "{n} seats", s["seats"]),
                )
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
    _ = cli_gettext()
    if depth > 4:
        raise CommandError(
            _("--depth {depth}: depths above 4 take hours; use 1 to 4").format(depth=depth)
        )
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
    text = _(
        "{rules} endgame, at most {depth} each: {positions} x {leads} = {size} "
        "({megabytes} MB), built in {seconds} s"
    )
    print(
        text.format(
            rules=preset_shown(args.rules),
            depth=count("{n} open category", "{n} open categories", game.depth),
            positions=count("{n} position", "{n} positions", game.positions),
            leads=count("{n} lead", "{n} leads", 2 * game.spread + 1),
            size=count("{n} win probability", "{n} win probabilities", game.size),
            megabytes=number(game.table.nbytes / 1e6, digits=1),
            seconds=number(game.seconds, digits=1),
        )
    )
    return 0


def cmd_win_hint(args: argparse.Namespace) -> int:
    """``yacht hint ... --opponents SHEETS``: every option with P(finishing first).

    Your sheet is ``--used`` (filled categories), ``--upper`` (their upper subtotal, for a
    preset with a bonus) and ``--banked`` (your total so far); SHEETS gives the opponents'
    sheets (see :func:`yacht.strategy.win.parse_sheets`).
    """
    from yacht.rules import rules_by_name
    from yacht.strategy import mask_of
    from yacht.strategy.win import parse_sheets, seat_hint
    from yacht.strategy.win_tables import Seat, seat_of

    _ = cli_gettext()
    if len(args.dice) != 5:
        raise dice_error(args.dice)
    if args.target is not None:
        raise CommandError(_("--target and --opponents rank options differently: give one"))
    rules = rules_by_name(args.rules)
    if args.upper is not None and rules.upper_bonus is None:
        raise no_upper_error(args.rules)
    used = used_categories(args.used)
    if used and args.banked is None:
        raise CommandError(_("--opponents: give --banked B, the points on your sheet"))
    cap = rules.upper_bonus.threshold if rules.upper_bonus is not None else 0
    try:  # the sheets and the position are checked before any work: a ValueError is theirs
        me = Seat(mask_of(used), min(args.upper or 0, cap), args.banked or 0)
        others = [seat_of(rules, s) for s in parse_sheets(args.opponents, rules, parse_category)]
        h = seat_hint(rules, me, others, args.dice, args.rolls_left)
    except ValueError as e:
        raise CommandError.about(e) from None
    if args.json:
        print(json.dumps(h.to_json()))
        return 0
    hows = (_("estimate"), _("exact endgame"), _("exact: solved table"))
    how = hows[2 if h.solved else 1 if h.exact else 0]
    line = _("{rules}: dice {dice}, {rolls}; open: {open}; {players} ({how})")
    print(
        line.format(
            rules=preset_shown(args.rules),
            dice=" ".join(map(str, args.dice)),
            rolls=rolls_left(args.rolls_left),
            open=open_text(used),
            players=count("{n} player", "{n} players", h.players),
            how=how,
        )
    )
    texts = [option_text(o.action, o.keep, o.category, o.points) for o in h.options]
    width = max(len(t) for t in [_("option"), *texts])
    win, expected = _("P(win)"), _("expected")
    wide = max(8, len(win), len(expected))
    print(f"  {_('option'):<{width}}  {win:>{wide}}  {expected:>{wide}}")
    for i, (o, text) in enumerate(zip(h.options, texts, strict=True)):
        mark = "*" if i == 0 else " "
        chance = percent(o.win_probability, digits=2)
        print(f"{mark} {text:<{width}}  {chance:>{wide}}  {number(o.expected, digits=3):>{wide}}")
    return 0

"""``yacht skill``: "played like an N-point player" for a saved game, and the bots' marks."""

from __future__ import annotations

import argparse
import json
from typing import Any

from yacht.cli import CommandError, add_lang_option, cli_gettext
from yacht.cli.bounds import MAX_SEED, whole
from yacht.cli.core import json_option, preset_shown, rules_option
from yacht.cli.text import bot_label, count, number, percent, shown
from yacht.game import MAX_PLAYERS

__all__ = ["MAX_MARK_GAMES", "cmd_skill", "register"]

MAX_MARK_GAMES = 100_000
"""The most games per bot one ``yacht skill --marks`` plays (each one reviewed: minutes)."""


def register(subs: Any) -> None:
    _ = cli_gettext()
    what = _("how well a saved game was played, whatever the dice; or the bots' marks")
    p = subs.add_parser("skill", help=what, description=what)
    p.add_argument("file", nargs="?", metavar=_("GAME.json"), help=_("a game saved as JSON"))
    p.add_argument(
        "--player",
        type=whole(1, MAX_PLAYERS),
        default=None,
        metavar="N",
        help=_("only the player in seat N (1 is the first)"),
    )
    p.add_argument(
        "--marks",
        action="store_true",
        help=_("play solo games with each level of bot and show their marks"),
    )
    rules_option(p, choices=True)
    p.add_argument(
        "--games",
        type=whole(1, MAX_MARK_GAMES),
        default=100,
        metavar="G",
        help=_("with --marks: games per bot (default: 100)"),
    )
    p.add_argument(
        "--seed",
        type=whole(0, MAX_SEED),
        default=0,
        metavar="N",
        help=_("with --marks: the seed of the dice (default: 0)"),
    )
    json_option(p)
    add_lang_option(p)
    p.set_defaults(handler=cmd_skill)


def cmd_skill(args: argparse.Namespace) -> int:
    _ = cli_gettext()
    if args.marks and args.file is not None:
        raise CommandError(_("--marks takes no game file"))
    if args.marks:
        return _marks(args)
    if args.file is None:
        raise CommandError(_("give a game file, or --marks for the bots' marks"))
    return _game(args)


def _game(args: argparse.Namespace) -> int:
    from yacht.cli.files import read_json
    from yacht.game import Game
    from yacht.review import review
    from yacht.skill import optimum, played_like, points_lost, win_accuracy

    _ = cli_gettext()
    data = read_json(args.file)
    try:
        game = Game.from_json(data)
        result = review(game, target=data.get("target") if isinstance(data, dict) else None)
    except ValueError as e:  # the file's fault: from_json checks every field and event
        raise CommandError.about(e, args.file) from None
    seats = range(len(result.players))
    if args.player is not None:
        if args.player > len(result.players):
            raise CommandError(
                _("{path}: there is no seat {seat} (the game has {players})").format(
                    path=args.file,
                    seat=args.player,
                    players=count("{n} player", "{n} players", len(result.players)),
                )
            )
        seats = range(args.player - 1, args.player)
    rows = []
    try:
        for seat in seats:
            player = result.players[seat]
            wins = win_accuracy(result, seat) if result.measure == "win" else None
            rows.append((player, played_like(result, seat), points_lost(result, seat), wins))
    except ValueError as e:  # an unfinished game
        raise CommandError.about(e, args.file) from None
    if args.json:
        out = {
            "rules": result.rules,
            "optimum": optimum(result.rules),
            "measure": result.measure,
            "players": [
                {
                    "player": p.player,
                    "name": p.name,
                    "total": p.total,
                    "points_lost": lost,
                    "played_like": n,
                    "win_accuracy": None if w is None else w.to_json(),
                }
                for p, n, lost, w in rows
            ],
        }
        print(json.dumps(out))
        return 0
    print(
        _("Skill on {rules}: the optimum is {optimum} points a game").format(
            rules=preset_shown(result.rules), optimum=number(optimum(result.rules), digits=2)
        )
    )
    for p, n, lost, w in rows:
        print(
            _(
                "{name}: played like a {points}-point player ({lost} expected points given up; "
                "total {total})"
            ).format(
                name=shown(p.name),
                points=number(n, digits=1),
                lost=number(lost, digits=2),
                total=p.total,
            )
        )
        if w is not None:
            print(
                "  "
                + _(
                    "win accuracy {accuracy}; chance of finishing first given up: "
                    "{loss} per decision"
                ).format(
                    accuracy=percent(w.accuracy / 100, digits=1),
                    loss=percent(w.mean_loss, digits=2),
                )
            )
    return 0


def _marks(args: argparse.Namespace) -> int:
    from yacht.skill import bot_marks, optimum

    _ = cli_gettext()
    marks = bot_marks(args.rules, args.games, args.seed)
    best = optimum(args.rules)
    if args.json:
        out = {
            "rules": args.rules,
            "optimum": best,
            "games": args.games,
            "seed": args.seed,
            "marks": [m.to_json() for m in marks],
        }
        print(json.dumps(out))
        return 0
    print(
        _(
            "The bots' marks on {rules} ({games} each, seed {seed}; the optimum is {optimum}):"
        ).format(
            rules=preset_shown(args.rules),
            games=count("{n} game", "{n} games", args.games),
            seed=args.seed,
            optimum=number(best, digits=2),
        )
    )
    header = (
        _("bot"),
        _("mean total"),
        _("played like"),
        _("points given up a game"),
        _("accuracy"),
    )
    rows = [
        (
            bot_label(m.bot),
            f"{number(m.score, digits=1)} ± {number(m.score_se, digits=1)}",
            f"{number(m.played_like, digits=1)} ± {number(m.played_like_se, digits=1)}",
            number(m.loss, digits=2),
            percent(m.accuracy / 100, digits=1),
        )
        for m in marks
    ]
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    for row in (header, *rows):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return 0

"""``yacht daily``: today's daily game of a server, full screen in a terminal (as ``yacht
play``), else line by line (the line mode, ``--plain``).

The day's seed stays secret on the server until the day ends, so the game is played there:
each line (``roll``, ``hold 1 3``, ``score fives``, ``quit``) is one request to the server's
daily API (docs/web/daily.md), as a guest whose token is kept in the data directory
(``$YACHT_DATA_DIR``), so a second run the same day resumes the same game, in either mode (the
client is :mod:`yacht.tui.daily`, shared with the terminal game's Daily screen). A guest's
result is unofficial: sign in on the web page to be ranked.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from yacht.tui.daily import DEFAULT_SERVER

__all__ = ["cmd_daily", "register"]


def register(subs: Any) -> None:
    from yacht.cli import add_lang_option, cli_gettext

    _ = cli_gettext()
    what = _("play today's daily game of a server (the same dice for everyone; --plain: line mode)")
    p = subs.add_parser("daily", help=what, description=what)
    p.add_argument(
        "--server",
        default=DEFAULT_SERVER,
        metavar="URL",
        help=_("the yacht serve to play on (default: {url})").format(url=DEFAULT_SERVER),
    )
    p.add_argument(
        "--rules", default="traditional", metavar=_("PRESET"), help=_("the preset's daily game")
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help=_("line mode: read commands from stdin (a terminal opens the full-screen game)"),
    )
    add_lang_option(p)
    p.set_defaults(handler=cmd_daily)


def _show(game: dict[str, Any], lang: str) -> str:
    from yacht.cli import cli_gettext
    from yacht.i18n import category_label
    from yacht.rules import Category

    _ = cli_gettext()
    lines = [
        _("Round {round} of {rounds}, rolls left: {left}").format(
            round=game["round"], rounds=len(game["best"]), left=game["rolls_left"]
        )
    ]
    if game["dice"] is not None:
        held = set(game["held"])
        shown = " ".join(f"[{d}]" if i + 1 in held else str(d) for i, d in enumerate(game["dice"]))
        lines.append(_("Dice: {dice}").format(dice=shown))
    for name, points in game["potentials"].items():
        label = category_label(Category(name), lang)
        lines.append(f"  {name:16} {label:20} {points:>3}")
    lines.append(_("Total: {total}").format(total=game["total"]))
    return "\n".join(lines)


def cmd_daily(args: argparse.Namespace) -> int:
    from yacht.cli import CommandError, cli_gettext, cli_language
    from yacht.tui.daily import (
        DailyClient,
        Refused,
        Unreachable,
        guest_token,
        server_url,
        share_text,
    )

    _ = cli_gettext()
    lang = cli_language()
    try:
        url = server_url(args.server)
    except ValueError:
        raise CommandError(
            "reason", reason=_("the server's URL must start with http:// or https://")
        ) from None
    if not args.plain and sys.stdin.isatty() and sys.stdout.isatty():
        try:  # the full-screen game, when the tui extra and its module are there
            tui = importlib.import_module("yacht.cli.tui")
        except ImportError:
            pass
        else:
            status: int = tui.daily_full_screen(args)
            return status
    server = DailyClient(url, guest_token(), lang)
    try:
        game = server.start(args.rules)
        print(
            _("The daily game of {day}; your result is unofficial (a guest's).").format(
                day=game["day"]
            )
        )
        while game["status"] != "finished":
            print(_show(game, lang))
            print("> ", end="", flush=True)
            line = sys.stdin.readline()
            if not line or line.strip() in ("quit", "q"):
                print(_("Saved on the server: run yacht daily again today to go on."))
                return 0
            said = line.strip()
            if not said:
                continue
            try:
                game = server.act(game, said)
            except Refused as e:
                print(e, file=sys.stderr)
                if e.status == 409:  # the game moved on elsewhere (another run): read it again
                    game = server.start(args.rules)
        board = server.ranking(game["preset"])
    except Refused as e:
        raise CommandError("reason", reason=str(e)) from None
    except Unreachable as e:
        raise CommandError(
            "reason",
            reason=_(
                "cannot reach the server {url} ({reason}): start one with yacht serve, "
                "or name another with --server URL"
            ).format(url=e.url, reason=e.reason),
        ) from None
    print(_("Total: {total}").format(total=game["total"]))
    print(_("Points lost per decision: {loss}").format(loss=f"{game['skill']:.2f}"))
    if board.get("optimal") is not None:
        print(
            _("The optimal player scored {total} on the same dice.").format(total=board["optimal"])
        )
    print()
    print(share_text(game, lang))
    return 0

"""``yacht daily``: today's daily game of a server, line by line (the line mode).

The day's seed stays secret on the server until the day ends, so the game is played there:
each line (``roll``, ``hold 1 3``, ``score fives``, ``quit``) is one request to the server's
daily API (docs/web/daily.md), as a guest whose token is kept in the data directory
(``$YACHT_DATA_DIR``), so a second run the same day resumes the same game. A guest's result is
unofficial: sign in on the web page to be ranked.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

__all__ = ["cmd_daily", "register"]

DEFAULT_SERVER = "http://127.0.0.1:8000"
TIMEOUT = 30.0
TOKEN_FILE = "daily-guest"


def register(subs: Any) -> None:
    from yacht.cli import add_lang_option, cli_gettext

    _ = cli_gettext()
    what = _("play today's daily game of a server, line by line (the same dice for everyone)")
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
    add_lang_option(p)
    p.set_defaults(handler=cmd_daily)


def _token() -> str:
    """This computer's guest token for daily games (made on first use)."""
    override = os.environ.get("YACHT_DATA_DIR")
    if override:
        folder = Path(override)
    else:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("yacht"))
    path = folder / TOKEN_FILE
    if path.is_file():
        token = path.read_text(encoding="utf-8").strip()
        if 16 <= len(token) <= 64 and token.replace("-", "").replace("_", "").isalnum():
            return token
    folder.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(16)
    path.write_text(token + "\n", encoding="utf-8")
    return token


class Server:
    """The server's daily API, as one guest."""

    def __init__(self, url: str, token: str, lang: str) -> None:
        self.url = url.rstrip("/")
        self.headers = {"X-Yacht-Guest": token, "Accept-Language": lang}

    def call(self, path: str, body: Any = None) -> Any:
        from yacht.cli import CommandError

        data = None if body is None else json.dumps(body).encode()
        headers = dict(self.headers)
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.url + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as e:
            try:
                message = json.loads(e.read()).get("message", str(e))
            except (ValueError, AttributeError):
                message = str(e)
            raise _Refused(e.code, str(message)) from None
        except (urllib.error.URLError, OSError) as e:
            raise CommandError("reason", reason=f"{self.url}: {e}") from None


class _Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


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


def share_text(game: dict[str, Any], lang: str) -> str:
    """The share text of a finished game, as the page writes it: no die in it."""
    from yacht.cli import cli_gettext
    from yacht.i18n import category_label
    from yacht.rules import Category

    _ = cli_gettext()
    lines = [
        _("Yacht daily {day} ({preset})").format(day=game["day"], preset=game["preset"]),
        _("{total} points, {loss} points lost per decision").format(
            total=game["total"], loss=f"{game['skill']:.2f}"
        ),
    ]
    for name, best in game["best"].items():
        filled = round(5 * game["sheet"].get(name, 0) / best) if best else 0
        squares = "■" * filled + "□" * (5 - filled)
        lines.append(f"{squares} {category_label(Category(name), lang)}")
    return "\n".join(lines)


def cmd_daily(args: argparse.Namespace) -> int:
    from yacht.cli import cli_gettext, cli_language

    _ = cli_gettext()
    lang = cli_language()
    if not args.server.startswith(("http://", "https://")):
        from yacht.cli import CommandError

        raise CommandError(
            "reason", reason=_("the server's URL must start with http:// or https://")
        )
    server = Server(args.server, _token(), lang)
    try:
        game = server.call("/api/daily", {"preset": args.rules})
    except _Refused as e:
        from yacht.cli import CommandError

        raise CommandError("reason", reason=str(e)) from None
    print(
        _("The daily game of {day}; your result is unofficial (a guest's).").format(day=game["day"])
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
            game = server.call(
                f"/api/daily/games/{game['id']}/action",
                {"action": said, "version": game["version"]},
            )
        except _Refused as e:
            print(e, file=sys.stderr)
            if e.status == 409:  # the game moved on elsewhere (another run): read it again
                game = server.call("/api/daily", {"preset": args.rules})
    board = server.call(f"/api/daily/ranking?preset={game['preset']}")
    print(_("Total: {total}").format(total=game["total"]))
    print(_("Points lost per decision: {loss}").format(loss=f"{game['skill']:.2f}"))
    if board.get("optimal") is not None:
        print(
            _("The optimal player scored {total} on the same dice.").format(total=board["optimal"])
        )
    print()
    print(share_text(game, lang))
    return 0

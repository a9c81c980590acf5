"""A client of a server's daily game (docs/web/daily.md), shared by ``yacht daily``'s line
mode and the terminal game's Daily screen: standard library only, no Textual.

The day's seed stays secret on the server until the day ends, so the game is played there,
one request a move, as a guest whose token is kept in the data directory
(``$YACHT_DATA_DIR``, :func:`guest_token`): the line mode and the full-screen game use the
same token, so either resumes the attempt the other started, and a second visit the same day
shows the result. A guest's result is unofficial.

>>> server_url("http://127.0.0.1:8000/")
'http://127.0.0.1:8000'
>>> server_url("file:///etc/passwd")
Traceback (most recent call last):
...
ValueError: the server's URL must start with http:// or https://: 'file:///etc/passwd'
"""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from yacht.game import Game
from yacht.i18n import category_label, format_number
from yacht.rules import Category
from yacht.tui.records import data_dir
from yacht.tui.rules_text import preset_label
from yacht.tui.text import gettext_for

__all__ = [
    "DEFAULT_SERVER",
    "DailyClient",
    "Refused",
    "Unreachable",
    "guest_token",
    "played_game",
    "server_url",
    "share_text",
]

DEFAULT_SERVER = "http://127.0.0.1:8000"
"""The local ``yacht serve``'s address."""
TIMEOUT = 30.0
TOKEN_FILE = "daily-guest"


def server_url(url: str) -> str:
    """``url`` without a trailing slash, or a ValueError when it is no http(s) address."""
    if not url.startswith(("http://", "https://")) or not urllib.parse.urlsplit(url).hostname:
        raise ValueError(f"the server's URL must start with http:// or https://: {url!r}")
    return url.rstrip("/")


def guest_token(folder: Path | None = None) -> str:
    """This computer's guest token for daily games, kept in ``folder`` (the data directory
    by default; made on first use, a damaged file replaced)."""
    if folder is None:
        folder = data_dir()
    path = folder / TOKEN_FILE
    if path.is_file():
        token = path.read_text(encoding="utf-8").strip()
        if 16 <= len(token) <= 64 and token.replace("-", "").replace("_", "").isalnum():
            return token
    folder.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(16)
    path.write_text(token + "\n", encoding="utf-8")
    return token


class Refused(Exception):
    """The server answered, and refused: ``status`` (409 a stale version, ...), its message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Unreachable(Exception):
    """No answer from the server at ``url`` (nothing listens, a wrong name, a timeout)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{url}: {reason}")
        self.url = url
        self.reason = reason


class DailyClient:
    """The server's daily API as one guest: each method is one request, and returns the
    answer's JSON (the attempt's view, or the ranking)."""

    def __init__(self, url: str, token: str, lang: str, *, timeout: float = TIMEOUT) -> None:
        self.url = server_url(url)
        self.headers = {"X-Yacht-Guest": token, "Accept-Language": lang}
        self.timeout = timeout

    def call(self, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = dict(self.headers)
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.url + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as e:
            try:
                message = json.loads(e.read()).get("message", str(e))
            except (ValueError, AttributeError):
                message = str(e)
            raise Refused(e.code, str(message)) from None
        except (urllib.error.URLError, OSError, ValueError) as e:
            reason = e.reason if isinstance(e, urllib.error.URLError) else e
            raise Unreachable(self.url, str(reason)) from None

    def start(self, preset: str) -> dict[str, Any]:
        """Today's attempt at ``preset``'s game: started now, or the one started before."""
        found: dict[str, Any] = self.call("/api/daily", {"preset": preset})
        return found

    def act(self, game: Mapping[str, Any], said: str) -> dict[str, Any]:
        """A move (``roll``, ``hold 1 3``, ``score fives``) on the version ``game`` shows."""
        path = f"/api/daily/games/{int(game['id'])}/action"
        found: dict[str, Any] = self.call(path, {"action": said, "version": game["version"]})
        return found

    def ranking(self, preset: str) -> dict[str, Any]:
        """Today's ranking (with the optimal player's total once this guest has finished)."""
        query = urllib.parse.urlencode({"preset": preset})
        found: dict[str, Any] = self.call(f"/api/daily/ranking?{query}")
        return found


def played_game(view: Mapping[str, Any], name: str) -> Game:
    """The attempt as a :class:`~yacht.game.Game` rebuilt from the moves the view carries
    (``game``, no dice source: it is only shown, every move is the server's), its one player
    called ``name``."""
    return Game.from_json({**view["game"], "players": [name]})


def share_text(game: Mapping[str, Any], lang: str) -> str:
    """The share text of a finished attempt, as the web page writes it: the day, the total,
    the points lost per decision, and a line per category with five squares filled by its
    score against the category's best. No die in it.

    >>> print(share_text({"day": "2026-12-02", "preset": "traditional", "total": 30,
    ...     "skill": 1.5, "best": {"fives": 25, "yacht": 50},
    ...     "sheet": {"fives": 15, "yacht": 0}}, "en"))
    Yacht daily 2026-12-02 (Traditional)
    30 points, 1.50 points lost per decision
    ■■■□□ Fives
    □□□□□ Yacht
    """
    _ = gettext_for(lang)
    lines = [
        _("Yacht daily {day} ({preset})").format(
            day=game["day"], preset=preset_label(game["preset"], lang)
        ),
        _("{total} points, {loss} points lost per decision").format(
            total=game["total"], loss=format_number(float(game["skill"] or 0), lang, 2)
        ),
    ]
    for name, best in game["best"].items():
        filled = round(5 * game["sheet"].get(name, 0) / best) if best else 0
        squares = "■" * filled + "□" * (5 - filled)
        lines.append(f"{squares} {category_label(Category(name), lang)}")
    return "\n".join(lines)

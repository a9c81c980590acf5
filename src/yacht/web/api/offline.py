"""The installable app: the web app manifest, the service worker and the page that plays on this
device (``/play``, docs/web/offline.md).

The worker is served from the root of the app (``/sw.js`` under ``root_path``), so its scope is
the whole app, with ``Cache-Control: no-cache`` (a browser checks it for a new version on every
visit). It is the file ``static/sw.js`` with two things filled in: :data:`SHELL`, the URLs it
precaches, and :func:`version`, a digest of those files and of the page texts, which names its
cache; any change to them makes a new worker, which the page offers after the game in progress.

The strategy tables' values files carry their preset's fingerprint and format in their names
(``values-2e9311dcecbf3f38-v1.bin``), so they are served with a year's ``max-age``;
``index.json``, which names them, with ``no-cache``.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope

import yacht
from yacht.i18n import LANGUAGES
from yacht.web.api.pages import page_html

__all__ = ["SHELL", "Tables", "add_offline", "manifest", "version", "worker_script"]

STATIC = Path(__file__).parents[1] / "static"
LOCALE = Path(yacht.__file__).parent / "locale"
TABLES = STATIC / "tables"
SMALL = 65536
"""The tables precached: every preset's values file up to this size (those without an upper
bonus, 32 KiB each); a larger one (clubhouse, 2 MiB) is kept once a game has used it online."""

YEAR = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
LIGHT, DARK = "#1f6f50", "#141916"
"""The theme colours: the brand green (light) and the dark theme's background (style.css)."""

MODULES = (
    *("play.js", "offline-game.js", "solver.js", "fair.js", "i18n.js", "labels.js"),
    *("markup.js", "api.js", "dice.js", "play-outlook.js", "chart.js", "outlook.js"),
    *("outlook-target.js", "outlook-worker.js"),
)
"""The play page's scripts: its own and every one it imports."""


def _small_tables() -> list[str]:
    index = json.loads((TABLES / "index.json").read_text(encoding="utf-8"))
    files = [p["values"] for p in index["presets"]]
    return [str(v["file"]) for v in files if v["bytes"] <= SMALL]


def shell() -> list[str]:
    """The URLs the worker precaches, relative to the app's root: the page, its scripts and
    styles, the icons, the texts in every language and the small presets' tables."""
    return [
        "play",
        "manifest.webmanifest",
        "static/style.css",
        "static/play.css",
        "static/favicon.svg",
        "static/icons/icon-192.png",
        *(f"static/js/{m}" for m in MODULES),
        "static/tables/index.json",
        *(f"static/tables/{name}" for name in _small_tables()),
        *(f"api/i18n/{lang}" for lang in LANGUAGES),
    ]


SHELL = shell()


@cache
def version() -> str:
    """A digest of everything the worker precaches (the texts as their compiled catalogs)."""
    digest = hashlib.sha256(yacht.__version__.encode())
    files = [STATIC / "play.html", STATIC / "sw.js"]
    files += [STATIC / url.removeprefix("static/") for url in SHELL if url.startswith("static/")]
    files += sorted(LOCALE.glob("*/LC_MESSAGES/yacht_web.mo"))
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def worker_script() -> str:
    """``static/sw.js`` with the shell's URLs and the version filled in."""
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    text = text.replace('"__VERSION__"', json.dumps(version()), 1)
    return text.replace("[/* SHELL */]", json.dumps(SHELL), 1)


def manifest(root: str) -> dict[str, Any]:
    """The web app manifest of the app served under ``root`` ("" or "/yacht")."""
    icon = f"{root}/static/icons"
    return {
        "id": f"{root}/play",
        "name": "Yacht",
        "short_name": "Yacht",
        "start_url": f"{root}/play",
        "scope": f"{root}/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#f3efe6",
        "theme_color": LIGHT,
        "icons": [
            {"src": f"{icon}/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": f"{icon}/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": f"{icon}/maskable-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": f"{root}/static/favicon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }


class Tables(StaticFiles):
    """The strategy tables: values files (named by their contents) cached for a year, the
    index that names them checked on every use."""

    def file_response(
        self, full_path: Any, stat_result: Any, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        name = Path(str(full_path)).name
        immutable = name.startswith("values-") and name.endswith(".bin")
        response.headers["Cache-Control"] = YEAR if immutable else NO_CACHE
        return response


def _root(request: Request) -> str:
    root: str = request.scope.get("root_path", "")
    return root.rstrip("/")


async def _manifest(request: Request) -> Response:
    body = json.dumps(manifest(_root(request)), indent=1)
    headers = {"Cache-Control": NO_CACHE}
    return Response(body, media_type="application/manifest+json", headers=headers)


async def _worker() -> Response:
    headers = {"Cache-Control": NO_CACHE}
    return Response(worker_script(), media_type="text/javascript", headers=headers)


async def _play(request: Request) -> HTMLResponse:
    headers = {"Cache-Control": NO_CACHE}
    return HTMLResponse(page_html("play.html", _root(request)), headers=headers)


def add_offline(app: FastAPI) -> None:
    """The manifest, the worker, ``/play`` and the tables' cache headers; called before
    :func:`~yacht.web.api.pages.add_pages` mounts ``/static``, so that the tables' mount is the
    one that answers for them."""
    app.mount("/static/tables", Tables(directory=TABLES), name="tables")
    app.add_api_route("/manifest.webmanifest", _manifest, include_in_schema=False, methods=["GET"])
    app.add_api_route("/sw.js", _worker, include_in_schema=False, methods=["GET"])
    app.add_api_route("/play", _play, include_in_schema=False, methods=["GET"])

"""The session cookie: its name, attributes and reading, in one place.

Over HTTPS (the request's scheme: the connection's own, or X-Forwarded-Proto from a proxy
``yacht serve`` trusts, ``$FORWARDED_ALLOW_IPS``) the cookie is ``__Host-yacht_session``:
``Secure``, ``Path=/`` and no ``Domain``, which the ``__Host-`` prefix makes the browser
enforce, so no other site or plain-HTTP page of the host can set or replace it. Over plain HTTP
(a server on a home network, the tests) it is ``yacht_session``, without ``Secure``, on the
server's path (``root_path``). Either way ``HttpOnly`` (no script reads it) and
``SameSite=Lax`` (no other site's form or script sends it with a change), and a request only
ever reads the cookie of its own scheme.
"""

from __future__ import annotations

from fastapi import Request, Response

from yacht.web.settings import Settings

__all__ = ["PLAIN", "SECURE", "clear_session", "session_cookie", "set_session"]

SECURE = "__Host-yacht_session"
PLAIN = "yacht_session"


def _https(request: Request) -> bool:
    return request.url.scheme in ("https", "wss")


def _name(request: Request) -> str:
    return SECURE if _https(request) else PLAIN


def _settings(request: Request) -> Settings:
    found: Settings = request.app.state.settings
    return found


def session_cookie(request: Request) -> str | None:
    """The session id the request's cookie holds (None: none)."""
    return request.cookies.get(_name(request)) or None


def set_session(request: Request, response: Response, session_id: str) -> None:
    """Give the browser its session cookie (a new session: its id has just been made)."""
    settings = _settings(request)
    https = _https(request)
    response.set_cookie(
        _name(request),
        session_id,
        max_age=int(settings.session_days * 86400),
        path="/" if https else (settings.root_path or "/"),
        secure=https,
        httponly=True,
        samesite="lax",
    )
    response.headers["Cache-Control"] = "no-store"


def clear_session(request: Request, response: Response) -> None:
    """Tell the browser to forget its session cookie."""
    settings = _settings(request)
    https = _https(request)
    response.delete_cookie(
        _name(request),
        path="/" if https else (settings.root_path or "/"),
        secure=https,
        httponly=True,
        samesite="lax",
    )

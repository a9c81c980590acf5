"""Where load may go: loopback servers only, named by an http(s) or ws(s) URL.

>>> loopback_url("http://127.0.0.1:8000/")
'http://127.0.0.1:8000'
>>> loopback_url("localhost:8001")
'http://localhost:8001'
>>> loopback_url("ws://[::1]:8000")
'http://[::1]:8000'
>>> loopback_url("http://example.com:8000")
Traceback (most recent call last):
...
ValueError: yacht loadtest sends traffic to loopback addresses only (127.0.0.0/8, ::1, ...
>>> ws_url("https://127.0.0.1:8443", "ABC")
'wss://127.0.0.1:8443/ws/tables/ABC'
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

__all__ = ["is_loopback", "loopback_url", "ws_url"]

SCHEMES = {"http": "http", "ws": "http", "https": "https", "wss": "https"}


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and ``localhost``; no name is looked up."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def loopback_url(url: str) -> str:
    """The server's base URL (``http[s]://host:port``), or ValueError unless it is loopback."""
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    if parts.scheme not in SCHEMES:
        raise ValueError(f"not a server URL: {url!r} (use http://127.0.0.1:PORT)")
    host = parts.hostname or ""
    if not is_loopback(host):
        raise ValueError(
            "yacht loadtest sends traffic to loopback addresses only "
            f"(127.0.0.0/8, ::1, localhost), not {host or url!r}"
        )
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"bad port in {url!r}") from None
    shown = f"[{host}]" if ":" in host else host
    return f"{SCHEMES[parts.scheme]}://{shown}" + (f":{port}" if port else "")


def ws_url(base: str, code: str) -> str:
    """The WebSocket of table ``code`` on the server at ``base``."""
    return "ws" + base.removeprefix("http") + f"/ws/tables/{code}"

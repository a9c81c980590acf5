"""A Web Push service on 127.0.0.1 for the tests (no internet): it takes each POST a server
sends to a subscription's endpoint, answers with the status the endpoint's path asks for, and
lets the test check the VAPID JWT and decrypt the payload with the device's private key.

A device (:class:`Device`) is what Chromium's ``pushManager.subscribe()`` would make: a P-256
key pair and a 16-byte auth secret, made here, and an endpoint on this service.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

STATUS = {"gone": 410, "missing": 404, "down": 503, "redirect": 302, "bad": 400}
"""An endpoint whose path starts /<word>/ is answered so (the rest: 201 Created); the first
request to a /hold/ endpoint gets its answer only once :attr:`PushService.release` is set (a
server that dies meanwhile never learns that it was delivered)."""


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]  # names lowercased
    body: bytes


@dataclass
class Device:
    """A browser's push subscription: keys made by the test, an endpoint on the service."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, lang: str = "en", **kinds: bool) -> dict[str, Any]:
        """The body of ``POST /api/push/subscriptions`` (PushSubscription.toJSON() and more)."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(point), "auth": b64(self.auth)},
            "lang": lang,
            "kinds": {"turn": True, "near": True, "end": True, **kinds},
        }

    def read(self, got: Received) -> dict[str, Any]:
        """The payload, decrypted (RFC 8291 aes128gcm) with this device's private key."""
        assert got.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            got.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        payload: dict[str, Any] = json.loads(plain)
        return payload


def check_vapid(got: Received, server_key: str, audience: str) -> dict[str, Any]:
    """Check the request's VAPID (RFC 8292) Authorization: the key is the server's
    (``GET /api/push/key``), the JWT is signed with it (ES256), ``aud`` is the push service's
    origin and ``exp`` is in the next 24 hours. Returns the claims."""
    scheme, _, params = got.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.split("=", 1) for p in params.split(","))
    assert parts["k"] == server_key
    header, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(header))["alg"] == "ES256"
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID JWT is not signed with the server's key") from None
    decoded: dict[str, Any] = json.loads(unb64(claims))
    assert decoded["aud"] == audience
    assert time.time() < decoded["exp"] <= time.time() + 86400
    return decoded


class PushService:
    """The push service, served from a thread; :meth:`wait` for what it received."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.release = threading.Event()  # answers the request held on a /hold/ endpoint
        self._held = False
        self._changed = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                got = Received(
                    self.path,
                    {k.lower(): v for k, v in self.headers.items()},
                    self.rfile.read(length),
                )
                with service._changed:
                    service.received.append(got)
                    service._changed.notify_all()
                word = self.path.strip("/").split("/")[0]
                status = STATUS.get(word, 201)
                if word == "hold" and not service._held:  # the first: no answer till released
                    service._held = True
                    service.release.wait(60)
                with suppress(OSError):  # the server that asked may be gone (killed)
                    self.send_response(status)
                    if status == 302:
                        self.send_header("Location", f"{service.url}/elsewhere/{word}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> PushService:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def device(self, name: str) -> Device:
        return Device(f"{self.url}/{name}/{b64(os.urandom(12))}")

    def wait(self, count: int, timeout: float = 30.0) -> list[Received]:
        """The first ``count`` requests, once that many have come (AssertionError if not
        within ``timeout`` seconds: a condition waited on, not a sleep)."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"{len(self.received)} push messages came, not {count}")
            return list(self.received[:count])

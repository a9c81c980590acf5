"""Web Push's requests and answers: the application server key and a device's subscription
(the browser's PushSubscription JSON, with the device's language and the kinds of message it
wants)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from yacht.web.protocol.views import Model

__all__ = ["PushEndpoint", "PushKey", "PushKeys", "PushKinds", "PushSubscribe", "PushSubscribed"]


class PushKey(Model):
    key: str = Field(
        description="the server's VAPID public key (an uncompressed P-256 point, base64url): "
        "pushManager.subscribe's applicationServerKey"
    )


class PushKeys(Model):
    p256dh: str = Field(max_length=100, description="the device's P-256 public key, base64url")
    auth: str = Field(max_length=40, description="the device's 16-byte auth secret, base64url")


class PushKinds(Model):
    turn: bool = Field(default=True, description="a turn comes to you")
    near: bool = Field(default=True, description="your move is due in 12 hours, in 1 hour")
    end: bool = Field(default=True, description="a game of yours has ended")


class PushEndpoint(Model):
    endpoint: str = Field(min_length=1, max_length=1024)


class PushSubscribe(PushEndpoint):
    """PushSubscription.toJSON() (``endpoint``, ``expirationTime``, ``keys``) and the device's
    language and settings."""

    expirationTime: float | None = None  # the browser's own name
    keys: PushKeys
    lang: Literal["en", "fi", "bg", "nb"] = "en"
    kinds: PushKinds = Field(default_factory=PushKinds)


class PushSubscribed(Model):
    endpoint: str
    lang: str
    kinds: PushKinds

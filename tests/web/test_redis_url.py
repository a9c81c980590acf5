"""``yacht serve --redis URL``: a URL that cannot be used stops the server before it starts, in
the user's language, and a Redis that cannot be reached is said at once; every message names
the URL with its password hidden."""

from __future__ import annotations

import socket

import pytest

from yacht.cli import main
from yacht.cli.web import check_redis


def refused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port  # nothing listens there once the socket is closed


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "cannot use the Redis URL http://:***@127.0.0.1:6379/0: a Redis URL starts with"),
        ("fi", "Redis-osoitetta http://:***@127.0.0.1:6379/0 ei voi käyttää"),
        ("bg", "адресът на Redis http://:***@127.0.0.1:6379/0 не може да се използва"),  # noqa: RUF001
        ("nb", "kan ikke bruke Redis-adressen http://:***@127.0.0.1:6379/0"),
    ],
)
def test_a_wrong_url_stops_serve_in_the_users_language(
    lang: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = "http://:hunter2@127.0.0.1:6379/0"
    assert main(["serve", "--lang", lang, "--redis", url, "--database", "sqlite://"]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert "hunter2" not in err


def test_an_unknown_option_and_a_missing_certificate_are_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for url, words in (
        ("redis://u:hunter2@127.0.0.1/0?colour=blue", "unknown option colour"),
        ("rediss://u:hunter2@127.0.0.1/0?ssl_ca_certs=/nowhere/ca.pem", "no such file: /nowhere/"),
    ):
        assert main(["serve", "--lang", "en", "--redis", url]) == 2
        err = capsys.readouterr().err
        assert words in err and "u:***@127.0.0.1" in err and "hunter2" not in err


def test_a_redis_that_cannot_be_reached_is_said_at_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YACHT_LANG", "en")
    port = refused_port()
    check_redis(f"redis://ann:hunter2@127.0.0.1:{port}/0")  # the server would start anyway
    err = capsys.readouterr().err
    assert f"Redis cannot be reached (redis://ann:***@127.0.0.1:{port}/0: Error 111" in err
    assert "hunter2" not in err

"""The bodies and answers of the account endpoints (``/api/accounts``, ``/api/session``,
``/api/me``): plain data for the OpenAPI document.

A password has 8 to 128 characters (NIST SP 800-63B: at least 8, and long passphrases
allowed); any character counts, spaces too.

>>> SignUp(name="Ann", password="correct horse").name
'Ann'
>>> SignUp(name="Ann", password="short")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for SignUp
...
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, RootModel, StringConstraints

from yacht.web.protocol.names import MAX_NAME
from yacht.web.protocol.views import Model

__all__ = [
    "AccountCreated",
    "ChangePassword",
    "ClaimSeats",
    "Claimed",
    "DeleteAccount",
    "Me",
    "MySeats",
    "Recover",
    "SignIn",
    "SignUp",
]

Password = Annotated[
    str,
    StringConstraints(min_length=8, max_length=128),
    Field(description="8 to 128 characters"),
]
GivenPassword = Annotated[str, StringConstraints(max_length=128)]
"""A password as typed at a sign-in: any length up to the longest a password may have (a
shorter one is simply wrong)."""
GivenName = Annotated[str, StringConstraints(max_length=4 * MAX_NAME)]
"""A name as typed at a sign-in: the name rule is applied by the service (a name no account
can have is as wrong as an unknown one, with the same answer)."""
RecoveryCode = Annotated[
    str,
    StringConstraints(max_length=64),
    Field(description="the one-time code shown at sign-up (dashes and case do not matter)"),
]
TableCode = Annotated[
    str, StringConstraints(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")
]
SeatKey = Annotated[str, StringConstraints(pattern=r"^[0-5]$")]
SeatToken = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class SignUp(Model):
    name: str = Field(max_length=4 * MAX_NAME, description="the name rule, unique by look")
    password: Password


class SignIn(Model):
    name: GivenName
    password: GivenPassword


class Me(Model):
    """The signed-in player."""

    name: str
    created: str = Field(description="when the account was made (ISO 8601, UTC)")
    csrf_token: str = Field(
        description="send it as the X-CSRF-Token header with every change this session makes"
    )


class AccountCreated(Me):
    recovery_code: str = Field(
        description="the one way back in without the password: shown this once, keep it"
    )


class ChangePassword(Model):
    old_password: GivenPassword
    new_password: Password


class Recover(Model):
    name: GivenName
    recovery_code: RecoveryCode
    new_password: Password


class DeleteAccount(Model):
    password: GivenPassword


class ClaimSeats(RootModel[dict[TableCode, dict[SeatKey, SeatToken]]]):
    """The seats a guest's browser holds, as it keeps them: table code -> seat (0-5) ->
    token; at most 50 tables."""

    root: dict[TableCode, dict[SeatKey, SeatToken]] = Field(max_length=50)


class Claimed(Model):
    seats: dict[str, dict[str, str]] = Field(
        description="table code -> seat -> the account's token for it, for every seat of the "
        "claim the account holds now"
    )


class MySeats(Model):
    code: str
    seats: dict[str, str] = Field(description="seat (0-5) -> token, the seats you hold here")

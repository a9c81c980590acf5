"""Accounts (optional: a guest plays without one): sign up, sign in and out, the signed-in
player (``/api/me``), their password, recovery, deletion and data, and their seats.

A session is a cookie (:mod:`yacht.web.api.cookies`); every change a signed-in browser makes
carries the session's ``X-CSRF-Token`` header (given by ``GET /api/me`` and at every sign-in),
checked once, in :data:`~yacht.web.api.deps.Player`.
"""

from __future__ import annotations

from contextlib import suppress

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from yacht.web.api.cookies import clear_session, session_cookie, set_session
from yacht.web.api.deps import Client, Code, Player, Service, SignedIn, limit
from yacht.web.protocol.accounts import (
    AccountCreated,
    ChangePassword,
    Claimed,
    ClaimSeats,
    DeleteAccount,
    Me,
    MySeats,
    Recover,
    SignIn,
    SignUp,
)
from yacht.web.protocol.errors import TableError
from yacht.web.service import seats
from yacht.web.service.accounts import Account

__all__ = ["router"]

router = APIRouter(tags=["accounts"])


def _me(account: Account) -> Me:
    return Me(
        name=account.name, created=account.created_at.isoformat(), csrf_token=account.csrf_token
    )


@router.post("/accounts", status_code=201)
async def sign_up(
    body: SignUp, service: Service, client: Client, request: Request, response: Response
) -> AccountCreated:
    """Make an account and sign in. The answer holds the one-time recovery code (shown only
    here: there is no e-mail) and the CSRF token; the session is the cookie. A name follows
    the name rule, holds none of ``< > & " ' ` / \\ @``, is not reserved (the bots' names,
    admin, guest, ...) and looks like no other account's name (409 ``name_taken``)."""
    opened = await service.accounts.sign_up(body.name, body.password, client)
    set_session(request, response, opened.session_id)
    me = _me(opened.account)
    return AccountCreated(**me.model_dump(), recovery_code=opened.recovery_code or "")


@router.post("/session")
async def sign_in(
    body: SignIn, service: Service, client: Client, request: Request, response: Response
) -> Me:
    """Sign in: a new session (a new cookie, whatever session the browser had). A wrong name
    and a wrong password get the same answer, after the same work."""
    opened = await service.accounts.sign_in(
        body.name, body.password, client, replaces=session_cookie(request)
    )
    set_session(request, response, opened.session_id)
    return _me(opened.account)


@router.delete("/session", status_code=204)
async def sign_out(player: Player, service: Service, request: Request) -> Response:
    """Sign out: the session ends on the server and the cookie is cleared (a guest: nothing
    to do)."""
    answer = Response(status_code=204)
    if isinstance(player, Account):
        await service.accounts.sign_out(player)
    clear_session(request, answer)
    return answer


@router.get("/me")
async def me(account: SignedIn, response: Response) -> Me:
    """The signed-in player, with the CSRF token their changes must carry."""
    response.headers["Cache-Control"] = "no-store"
    return _me(account)


@router.post("/me/password")
async def change_password(
    body: ChangePassword,
    account: SignedIn,
    service: Service,
    client: Client,
    request: Request,
    response: Response,
) -> Me:
    """A new password, given the old one: every session of the account ends (other devices
    are signed out), this browser gets a new one."""
    opened = await service.accounts.change_password(
        account, body.old_password, body.new_password, client
    )
    set_session(request, response, opened.session_id)
    return _me(opened.account)


@router.post("/accounts/recover")
async def recover(
    body: Recover, service: Service, client: Client, request: Request, response: Response
) -> AccountCreated:
    """A new password, given the recovery code: the code is spent and the answer holds a new
    one; every session ends and this browser is signed in. Limited as sign-ins are."""
    opened = await service.accounts.recover(
        body.name, body.recovery_code, body.new_password, client
    )
    set_session(request, response, opened.session_id)
    me = _me(opened.account)
    return AccountCreated(**me.model_dump(), recovery_code=opened.recovery_code or "")


@router.delete("/me", status_code=204)
async def delete_me(
    body: DeleteAccount, account: SignedIn, service: Service, client: Client, request: Request
) -> Response:
    """Delete the account, given its password. Its games are kept, under "deleted player"; its
    name stays taken (nobody can pass for someone who left); every session ends."""
    codes = await service.accounts.delete(account, body.password, client)
    for code in codes:  # the tables' players see the new name now
        with suppress(TableError):
            await service.publish(code)
    answer = Response(status_code=204)
    clear_session(request, answer)
    return answer


@router.get("/me/data")
async def my_data(account: SignedIn, service: Service) -> JSONResponse:
    """Everything the server keeps about the account, as one JSON file: the account, its
    sessions (when, never their ids), its seats and every game played in them (each as the
    file ``yacht verify`` checks)."""
    data = await service.accounts.export(account)
    return JSONResponse(
        data,
        headers={
            "Content-Disposition": 'attachment; filename="yacht-account.json"',
            "Cache-Control": "no-store",
        },
    )


@router.post("/me/seats", dependencies=[limit("join")])
async def claim_seats(body: ClaimSeats, account: SignedIn, service: Service) -> Claimed:
    """Claim the seats this browser holds as a guest (its ``yacht:tokens``: table code ->
    seat -> token) for the account, so they follow it to other devices. Only a right token
    claims; a seat another account holds stays theirs."""
    tokens = {code: {int(k): v for k, v in given.items()} for code, given in body.root.items()}
    held = await seats.claim(service, account, tokens)
    return Claimed(
        seats={code: {str(k): v for k, v in found.items()} for code, found in held.items()}
    )


@router.get("/tables/{code}/mine", tags=["table"])
async def my_seats(code: Code, account: SignedIn, service: Service, client: Client) -> MySeats:
    """The tokens of the seats the signed-in player holds at the table: the invite link
    opened on another device, signed in, opens their seat."""
    held = await seats.mine(service, code, account, client)
    return MySeats(code=code.upper(), seats={str(k): v for k, v in held.items()})

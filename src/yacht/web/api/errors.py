"""Every refusal answers the documented body: an :class:`~yacht.web.protocol.messages.ErrorMessage`
(``type``, ``code``, ``message``, ``ref``) with the code's HTTP status, whatever raised it (the
service, request validation, a route that does not exist, a method a route does not take).

A database that cannot be reached is ``unavailable`` (503) with ``Retry-After``, never a 500:
the store raises :class:`~yacht.web.storage.outage.Unavailable`, and a driver's connection
error that reaches an endpoint some other way is answered the same (without a traceback: the
store's outage log says it once)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from yacht.web.protocol.errors import ERROR_STATUS, TableError
from yacht.web.protocol.messages import ErrorCode, ErrorMessage, error_message, reader_language
from yacht.web.storage.outage import RETRY_AFTER, Unavailable, gone

__all__ = ["add_error_handlers"]


def _asyncpg_errors() -> tuple[type[Exception], ...]:
    """asyncpg's connection errors (asyncpg is the [scale] extra's)."""
    try:
        import asyncpg
    except ImportError:
        return ()
    return (asyncpg.PostgresError, asyncpg.InterfaceError)


_BY_STATUS: dict[int, ErrorCode] = {404: "not_found", 405: "not_allowed", 413: "too_large"}


def _answer(
    code: ErrorCode, message: str, status: int | None = None, body: ErrorMessage | None = None
) -> JSONResponse:
    body = body or ErrorMessage(code=code, message=message)
    response = JSONResponse(body.model_dump(), status_code=status or ERROR_STATUS[code])
    if code == "unavailable":
        response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        body = error_message(exc, reader_language(request.headers.get("accept-language")))
        return _answer(exc.code, exc.message, body=body)

    async def database_error(request: Request, exc: Exception) -> JSONResponse:
        if not gone(exc):
            raise exc
        return _answer("unavailable", Unavailable().message)

    drivers: tuple[type[Exception], ...] = (DBAPIError, *_asyncpg_errors())
    for driver_error in drivers:
        app.add_exception_handler(driver_error, database_error)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # a body FastAPI could not parse (too deep, huge numbers)
            return _answer("invalid", f"bad request: {exc.detail}")
        code = _BY_STATUS.get(exc.status_code, "invalid")
        if exc.status_code == 404:
            message = f"nothing at {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        else:
            message = str(exc.detail)
        response = _answer(code, message, exc.status_code)
        response.headers.update(exc.headers or {})
        return response

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [
            f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in list(exc.errors())[:3]
        ]
        return _answer("invalid", "bad request: " + "; ".join(parts))

"""The web game: a FastAPI server and a browser UI (``yacht serve``).

Modules: :mod:`~yacht.web.app` (the app factory), :mod:`~yacht.web.schemas` (REST and
WebSocket messages), :mod:`~yacht.web.models` and :mod:`~yacht.web.store` (SQLAlchemy 2 storage
with Alembic migrations), :mod:`~yacht.web.tables` (tables, seats, tokens and the game service),
:mod:`~yacht.web.broadcast` (live fan-out), :mod:`~yacht.web.fairness` (provably fair dice
checks, also used by ``yacht verify``).

Importing this package stays light: FastAPI and SQLAlchemy are imported by the modules that
need them.
"""

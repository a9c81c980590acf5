"""Alembic environment: migrate the connection handed over by
:func:`yacht.web.storage.store.migrate`.

Outside a migration run (a plain import, e.g. by pytest's doctest collection) it does nothing.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from yacht.web.storage.models import Base


def run() -> None:
    config = context.config
    if context.is_offline_mode():  # `alembic upgrade --sql`: print the DDL for a dialect
        context.configure(
            url=config.get_main_option("sqlalchemy.url"),
            target_metadata=Base.metadata,
            literal_binds=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    connection = config.attributes.get("connection")
    if connection is None:  # the `alembic` command line: use the configured URL
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
        with engine.begin() as conn:
            _migrate(conn)
        return
    _migrate(connection)


def _migrate(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=Base.metadata,
        render_as_batch=True,  # SQLite alters tables by copying them
    )
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "config", None) is not None:
    run()

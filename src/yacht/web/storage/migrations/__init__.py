"""Alembic migrations of the web game's database; run by :func:`yacht.web.storage.store.migrate`."""

"""Private tables: a flag that keeps a table out of the public lists, and table codes of up to
16 characters (a private table's invite code has 13: 65 bits nobody can enumerate).

Revision ID: 0004
Revises: 0003
Create Date: 2027-02-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

CODES = (("tables", "code"), ("seats", "table_code"), ("games", "table_code"))


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    _widen(12, 16)


def downgrade() -> None:
    _widen(16, 12)
    if op.get_context().dialect.name == "sqlite":  # natively: a rebuilt "tables" would cascade
        op.execute("ALTER TABLE tables DROP COLUMN private")
    else:
        op.drop_column("tables", "private")


def _widen(old: int, new: int) -> None:
    """The code columns from VARCHAR(old) to VARCHAR(new)."""
    if op.get_context().dialect.name != "sqlite":
        for table, column in CODES:
            op.alter_column(table, column, type_=sa.String(new), existing_type=sa.String(old))
        return
    # SQLite keeps no length (any text fits), only the declaration: rewriting the tables to
    # change it would drop "tables", and its rows' seats and games with it (ON DELETE
    # CASCADE). So the declarations are rewritten in place, as SQLite documents for changes
    # that leave the stored rows as they are.
    bind = op.get_bind()
    bind.exec_driver_sql("PRAGMA writable_schema=ON")
    for table, column in CODES:
        sql = bind.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).scalar_one()
        sql = sql.replace(f"{column} VARCHAR({old})", f"{column} VARCHAR({new})")
        bind.exec_driver_sql(
            "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?", (sql, table)
        )
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    bind.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema=OFF")

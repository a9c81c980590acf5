"""Who created a table, when a seat's holder was last seen, fair dice with every player's seed.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("fair_next", sa.JSON(), nullable=True))
        batch.create_index("ix_tables_creator", ["creator"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("fair", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("fair")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("seen_at")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_creator")
        batch.drop_column("fair_next")
        batch.drop_column("creator")

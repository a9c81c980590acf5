"""Rematch by agreement and the series score: each game keeps who agreed to play the next
one (``games.rematch``) and the wins per seat of the table's games before it
(``games.series``).

Revision ID: 0005
Revises: 0004
Create Date: 2027-02-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rematch", sa.JSON(none_as_null=True), nullable=True))
    op.add_column("games", sa.Column("series", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    if op.get_context().dialect.name == "sqlite":  # natively: a rebuilt table would cascade
        op.execute("ALTER TABLE games DROP COLUMN series")
        op.execute("ALTER TABLE games DROP COLUMN rematch")
    else:
        op.drop_column("games", "series")
        op.drop_column("games", "rematch")

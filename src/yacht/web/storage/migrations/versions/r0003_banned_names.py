"""Names an operator has banned (``yacht admin names ban``).

Revision ID: 0003
Revises: 0002
Create Date: 2027-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "banned_names",
        sa.Column("name_key", sa.String(160), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("banned_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("banned_names")

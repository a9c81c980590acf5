"""The live coach: ``games.coach`` holds the seats that play a game with it and the threshold
each last set (``{"0": {"unit": "points", "value": 1.0}}``; null: nobody). The game's file
says so and such a game is never rated.

Revision ID: 0014
Revises: 0013
Create Date: 2027-03-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("coach", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    if op.get_context().dialect.name == "sqlite":  # natively: a rebuilt table would cascade
        op.execute("ALTER TABLE games DROP COLUMN coach")
    else:
        op.drop_column("games", "coach")

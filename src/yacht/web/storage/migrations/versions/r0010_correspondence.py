"""Correspondence tables, their deadlines and the inbox.

- ``tables.move_days``: a correspondence table's time per move in days (1, 2, 3 or 7; NULL: a
  real-time table, whose clock is ``turn_seconds`` as before).
- ``tables.missed_limit``: the missed moves after which a seat stays with the bot (NULL: 3).
- ``seats.deadline``: the Unix time the seat's move is due, set while a correspondence game
  waits on that seat; indexed, since the server finds the due ones by it (and the inbox the
  games waiting on a player).
- ``seats.missed``: the moves the bot made for the seat when its deadline ran out.
- ``seats.stand_in``: the bot plays this seat for one move (a deadline ran out); the seat goes
  back to its holder when that move is made.

Revision ID: 0010
Revises: 0009
Create Date: 2027-03-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("move_days", sa.Integer(), nullable=True))
    op.add_column("tables", sa.Column("missed_limit", sa.Integer(), nullable=True))
    op.add_column("seats", sa.Column("deadline", sa.Float(), nullable=True))
    op.add_column(
        "seats", sa.Column("missed", sa.Integer(), nullable=False, server_default=sa.text("0"))
    )
    op.add_column(
        "seats", sa.Column("stand_in", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_index("ix_seats_deadline", "seats", ["deadline"])


def downgrade() -> None:
    op.drop_index("ix_seats_deadline", table_name="seats")
    if op.get_context().dialect.name == "sqlite":  # natively: a rebuilt table would cascade
        for column in ("stand_in", "missed", "deadline"):
            op.execute(f"ALTER TABLE seats DROP COLUMN {column}")
        for column in ("missed_limit", "move_days"):
            op.execute(f"ALTER TABLE tables DROP COLUMN {column}")
    else:
        for column in ("stand_in", "missed", "deadline"):
            op.drop_column("seats", column)
        for column in ("missed_limit", "move_days"):
            op.drop_column("tables", column)

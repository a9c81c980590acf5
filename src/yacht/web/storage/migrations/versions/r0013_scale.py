"""Correspondence at scale: the inbox's rows without reading any game's state.

- ``games.summary``: the round and every seat's total at the game's version
  (``{"version": v, "round": r, "totals": [...]}``), written with the state by each change, so
  the inbox lists 200 games with one join instead of replaying 200 event logs. Rows written
  before this migration have none (NULL): the inbox reads such a game as before until its next
  move writes one.
- ``ix_seats_account_deadline`` on ``seats (account_id, deadline)``: an account's seats a game
  waits on, found without visiting the seats of its finished games.

Revision ID: 0013
Revises: 0012
Create Date: 2027-03-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("summary", sa.JSON(none_as_null=True), nullable=True))
    op.create_index("ix_seats_account_deadline", "seats", ["account_id", "deadline"])


def downgrade() -> None:
    op.drop_index("ix_seats_account_deadline", table_name="seats")
    if op.get_context().dialect.name == "sqlite":  # natively: a rebuilt table would cascade
        op.execute("ALTER TABLE games DROP COLUMN summary")
    else:
        op.drop_column("games", "summary")

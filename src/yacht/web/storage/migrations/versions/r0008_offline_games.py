"""Offline games a signed-in player syncs from the installable app.

- ``offline_games``: one row per game an account played on its device with no server (the
  ``/play`` page) and sent when the network came back: the page's own id for the game
  (unique per account, so a game sent twice is stored once), its preset, seats, the account's
  seat, total and place, the seed and every action (the server replayed them with the engine
  before storing). Kept apart from ``player_games``: a client wrote these games, so they are
  never rated and never counted in a profile's figures or on a leaderboard.

Revision ID: 0008
Revises: 0007
Create Date: 2027-03-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "offline_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("yachts", sa.Integer(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("synced_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("account_id", "client_id", name="uq_offline_games_account_client"),
    )
    op.create_index(
        "ix_offline_games_account_finished", "offline_games", ["account_id", "finished_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_offline_games_account_finished", table_name="offline_games")
    op.drop_table("offline_games")

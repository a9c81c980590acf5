"""The daily duplicate game: its days, commitments and results.

- ``daily_secrets``: one row, the server's secret the days' seeds are derived from
  (HMAC-SHA256 over preset and day, :mod:`yacht.web.service.daily`), made on first use; every
  server process and every restart derives the same seeds from it.
- ``daily_games``: one row per attempt: an account's (at most one per day and preset) or a
  guest browser's (by the SHA-256 of its token, unofficial), the game's JSON, and once it is
  over its total, its points lost and decisions (the review) and the skill figure, written
  with its last move. The day's ranking walks ``ix_daily_games_ranking``.

Revision ID: 0009
Revises: 0008
Create Date: 2027-03-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_secrets",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "daily_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("guest", sa.String(64), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("loss", sa.Float(), nullable=True),
        sa.Column("decisions", sa.Integer(), nullable=True),
        sa.Column("skill", sa.Float(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("day", "preset", "account_id", name="uq_daily_games_account"),
        sa.UniqueConstraint("day", "preset", "guest", name="uq_daily_games_guest"),
    )
    op.create_index("ix_daily_games_ranking", "daily_games", ["day", "preset", "skill"])
    op.create_index("ix_daily_games_account_day", "daily_games", ["account_id", "day"])


def downgrade() -> None:
    op.drop_index("ix_daily_games_account_day", table_name="daily_games")
    op.drop_index("ix_daily_games_ranking", table_name="daily_games")
    op.drop_table("daily_games")
    op.drop_table("daily_secrets")

"""Practice: a signed-in player's practice rating, every position's, and their answers.

- ``practice_ratings``: one OpenSkill rating per account for practice (mu, sigma, answers,
  solved): the player against the positions, as lichess rates puzzles.
- ``practice_positions``: one rating per position (its key: preset, filled categories, dice
  sorted, rolls left), which climbs when players miss it.
- ``practice_answers``: an account's first answer to each position (unique: a position rates
  a player once; later answers are judged but change no rating), newest by
  ``ix_practice_answers_account_answered``.

Revision ID: 0011
Revises: 0010
Create Date: 2027-03-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "practice_ratings",
        sa.Column("account_id", sa.Integer(), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "practice_positions",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
    )
    op.create_table(
        "practice_answers",
        sa.Column("account_id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("loss", sa.Float(), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_practice_answers_account_answered",
        "practice_answers",
        ["account_id", "answered_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_practice_answers_account_answered", table_name="practice_answers")
    op.drop_table("practice_answers")
    op.drop_table("practice_positions")
    op.drop_table("practice_ratings")

"""Rated tables, ratings and the record of each account's finished games.

- ``tables.rated``: a rated table (signed-in players only, no hints, no undo).
- ``ratings``: one OpenSkill rating per account and preset (mu, sigma, rated games) and its
  conservative ``ordinal`` (mu - 3 sigma), which the leaderboard sorts by through an index.
- ``rating_events``: every rating change, one row per account and rated game (unique: a game
  rates a player once), for the chart of a rating over time.
- ``player_games``: one row per account and finished game (rated or not): total, rank, Yachts,
  and, once the review is made, the points lost and the decisions (all, and accurate), so a
  profile reads
  a player's figures from one indexed table instead of every game's event log.
- ``player_stats``: the sums of those rows per account and preset (games, wins, totals, best,
  Yachts, reviewed games, points lost, decisions), kept with them, so a profile's figures are
  one row however many games the player has.

Revision ID: 0007
Revises: 0006
Create Date: 2027-02-11
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), primary_key=True),
        sa.Column("preset", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_preset_ordinal", "ratings", ["preset", "ordinal"])
    op.create_table(
        "rating_events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "account_id", name="uq_rating_events_game_account"),
    )
    op.create_index("ix_rating_events_account", "rating_events", ["account_id", "preset", "id"])
    op.create_table(
        "player_games",
        sa.Column("account_id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), primary_key=True),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("yachts", sa.Integer(), nullable=False),
        sa.Column("loss", sa.Float(), nullable=True),
        sa.Column("decisions", sa.Integer(), nullable=True),
        sa.Column("accurate", sa.Integer(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_player_games_account_finished", "player_games", ["account_id", "finished_at"]
    )
    op.create_table(
        "player_stats",
        sa.Column("account_id", sa.Integer(), primary_key=True),
        sa.Column("preset", sa.String(40), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("total_sum", sa.Integer(), nullable=False),
        sa.Column("best", sa.Integer(), nullable=False),
        sa.Column("yachts", sa.Integer(), nullable=False),
        sa.Column("reviewed", sa.Integer(), nullable=False),
        sa.Column("loss_sum", sa.Float(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("accurate", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_stats")
    op.drop_index("ix_player_games_account_finished", table_name="player_games")
    op.drop_table("player_games")
    op.drop_index("ix_rating_events_account", table_name="rating_events")
    op.drop_table("rating_events")
    op.drop_index("ix_ratings_preset_ordinal", table_name="ratings")
    op.drop_table("ratings")
    if op.get_context().dialect.name == "sqlite":
        op.execute("ALTER TABLE tables DROP COLUMN rated")
    else:
        op.drop_column("tables", "rated")

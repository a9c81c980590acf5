"""Accounts and sessions: an optional account per player (name, its confusable skeleton unique,
argon2id hashes of the password and of the one-time recovery code), the sessions of signed-in
browsers (the SHA-256 of the session id, never the id), and seats that follow an account.

Revision ID: 0006
Revises: 0005
Create Date: 2027-02-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_skeleton", sa.String(160), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("recovery_hash", sa.String(200), nullable=True),
        sa.Column("seat_key", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_accounts_name_skeleton", "accounts", ["name_skeleton"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("csrf_token", sa.String(64), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    # No foreign key on seats.account_id: an account row is never deleted, and SQLite cannot
    # drop a column that has one (the downgrade below).
    op.add_column("seats", sa.Column("account_id", sa.Integer(), nullable=True))
    op.add_column("seats", sa.Column("account_token_hash", sa.String(64), nullable=True))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_account_id", table_name="seats")
    if op.get_context().dialect.name == "sqlite":  # natively: a rebuilt table would cascade
        op.execute("ALTER TABLE seats DROP COLUMN account_token_hash")
        op.execute("ALTER TABLE seats DROP COLUMN account_id")
    else:
        op.drop_column("seats", "account_token_hash")
        op.drop_column("seats", "account_id")
    op.drop_index("ix_sessions_account_id", table_name="sessions")
    op.drop_table("sessions")
    op.drop_index("ix_accounts_name_skeleton", table_name="accounts")
    op.drop_table("accounts")

"""Web Push: the server's VAPID keys, devices' subscriptions and the notifications outbox.

- ``push_keys``: the server's one VAPID key pair (row 1, PEM), made once and kept here so that
  every process and every restart signs with it.
- ``push_subscriptions``: a device's subscription (endpoint, unique; p256dh, auth), the account
  it follows, its language and whether it wants each kind of message (turn, near, ended).
- ``push_outbox``: a message still to deliver to one subscription, written in the move's own
  transaction; ``due`` (indexed): when a sender may take it next.
- ``push_warnings``: the deadline warnings written (table, seat, deadline, hours).

Revision ID: 0012
Revises: 0011
Create Date: 2027-03-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("private_pem", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(40), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("turn", sa.Boolean(), nullable=False),
        sa.Column("near", sa.Boolean(), nullable=False),
        sa.Column("ended", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.UniqueConstraint("endpoint", name="uq_push_subscriptions_endpoint"),
    )
    op.create_index("ix_push_subscriptions_account_id", "push_subscriptions", ["account_id"])
    op.create_table(
        "push_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "subscription_id",
            sa.Integer(),
            sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("tag", sa.String(64), nullable=False),
        sa.Column("hours", sa.Integer(), nullable=True),
        sa.Column("due", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_push_outbox_due", "push_outbox", ["due"])
    op.create_index("ix_push_outbox_subscription_id", "push_outbox", ["subscription_id"])
    op.create_table(
        "push_warnings",
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("position", sa.Integer(), primary_key=True),
        sa.Column("deadline", sa.Float(), primary_key=True),
        sa.Column("hours", sa.Integer(), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("push_warnings")
    op.drop_index("ix_push_outbox_subscription_id", table_name="push_outbox")
    op.drop_index("ix_push_outbox_due", table_name="push_outbox")
    op.drop_table("push_outbox")
    op.drop_index("ix_push_subscriptions_account_id", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("push_keys")

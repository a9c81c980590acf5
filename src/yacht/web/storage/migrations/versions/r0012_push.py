"""Web Push: the server's VAPID keys, devices' subscriptions and the notifications outbox (filled in by that work).

Revision ID: 0012
Revises: 0011
Create Date: 2027-03-03
"""

from __future__ import annotations

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass

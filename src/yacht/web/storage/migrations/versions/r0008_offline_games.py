"""Offline games a signed-in player syncs from the installable app.

Revision ID: 0008
Revises: 0007
Create Date: 2027-03-01
"""

from __future__ import annotations

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass

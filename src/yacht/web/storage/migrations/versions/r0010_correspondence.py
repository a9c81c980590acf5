"""Correspondence tables, their deadlines and the inbox.

Revision ID: 0010
Revises: 0009
Create Date: 2027-03-01
"""

from __future__ import annotations

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass

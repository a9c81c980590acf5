"""The daily duplicate game: its days, commitments and results.

Revision ID: 0009
Revises: 0008
Create Date: 2027-03-01
"""

from __future__ import annotations

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass

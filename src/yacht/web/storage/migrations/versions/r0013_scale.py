"""Correspondence at scale: the indexes the inbox and dormant tables read by (filled in by that work).

Revision ID: 0013
Revises: 0012
Create Date: 2027-03-04
"""

from __future__ import annotations

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass

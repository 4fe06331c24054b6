"""Every scan belongs to a site; scans stored before sites existed are given the site 'default'.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

import sys

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# Written out, not imported: a migration keeps the value it was written with.
DEFAULT_SITE = "default"


def upgrade() -> None:
    with op.batch_alter_table("scans") as batch:
        batch.add_column(sa.Column("site", sa.String(100), nullable=False, server_default=DEFAULT_SITE))
        batch.create_index("ix_scans_site", ["site"])
    existing = op.get_bind().execute(sa.text("SELECT count(*) FROM scans")).scalar_one()
    if existing:
        # Said once, when it happens, so nobody wonders later where the name came from.
        print(
            f"hostlint: history database upgraded: its {existing} earlier scan(s) were stored before scans "
            f"had a site and now belong to site '{DEFAULT_SITE}'",
            file=sys.stderr,
        )


def downgrade() -> None:
    with op.batch_alter_table("scans") as batch:
        batch.drop_index("ix_scans_site")
        batch.drop_column("site")

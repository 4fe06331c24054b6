"""Each scan's `hostlint probe` evidence, one row per probe, and its probe counts on the scan.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("scans") as batch:
        batch.add_column(sa.Column("probe_count", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("probe_failed_count", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "scan_probes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("scan_id", sa.Integer(), sa.ForeignKey("scans.id", ondelete="CASCADE"), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(20), nullable=False),
        sa.Column("source_host", sa.Text(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("netstack", sa.Text(), nullable=False),
        sa.Column("target_host", sa.Text(), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("target_ip", sa.Text(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("dont_fragment", sa.Boolean(), nullable=False),
        sa.Column("purpose", sa.String(20), nullable=False),
        sa.Column("via", sa.String(40), nullable=False),
        sa.Column("sent", sa.Integer(), nullable=True),
        sa.Column("received", sa.Integer(), nullable=True),
        sa.Column("round_trip_ms", sa.Float(), nullable=True),
        sa.Column("error_kind", sa.String(40), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_scan_probes_scan_id", "scan_probes", ["scan_id"])


def downgrade() -> None:
    op.drop_index("ix_scan_probes_scan_id", table_name="scan_probes")
    op.drop_table("scan_probes")
    with op.batch_alter_table("scans") as batch:
        batch.drop_column("probe_failed_count")
        batch.drop_column("probe_count")

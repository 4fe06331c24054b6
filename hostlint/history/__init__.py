"""Scan history: each scan's snapshot, findings and skipped rules in SQLite or PostgreSQL, and drift between scans.

Modules: store (open by URL, migrate, read and write scans), schema (tables),
migrations (Alembic), drift (configuration changes between two snapshots),
compare (new and resolved findings, trends), sources (where a scan's snapshot
comes from), render (history and diff output). Nothing is imported here, so
that `hostlint check` does not load the database layer.
"""

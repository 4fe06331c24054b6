"""The typed, versioned snapshot every check runs on."""

from hostlint.snapshot.load import SnapshotError, load_site, load_snapshot
from hostlint.snapshot.model import SCHEMA_VERSION, CablingEntry, Snapshot

__all__ = ["SCHEMA_VERSION", "CablingEntry", "Snapshot", "SnapshotError", "load_site", "load_snapshot"]

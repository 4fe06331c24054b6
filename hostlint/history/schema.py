"""The history tables. Changing them needs a new revision under migrations/versions/.

One row in `scans` per stored scan, written in one transaction with its
findings, skipped rule x object pairs, probes and compressed snapshot: a scan
is either all there or not there at all.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, LargeBinary, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# The site name of scans stored without one, and of every scan stored before sites existed (migration 0002).
DEFAULT_SITE = "default"
SITE_NAME_MAX = 100


class Base(DeclarativeBase):
    pass


class ScanRow(Base):
    __tablename__ = "scans"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    label: Mapped[str | None] = mapped_column(String(200))
    # The estate scanned (inventory `site_name` or `scan --site-name`): history and diff stay within one.
    site: Mapped[str] = mapped_column(String(SITE_NAME_MAX), index=True, server_default=DEFAULT_SITE)
    hostlint_version: Mapped[str] = mapped_column(String(40))
    source: Mapped[str | None] = mapped_column(Text)
    # What was scanned (paths now; inventory sources later) and the rule selection, for reading trends right.
    inputs: Mapped[list[str]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    exit_code: Mapped[int] = mapped_column(Integer)
    errors: Mapped[int] = mapped_column(Integer)
    warnings: Mapped[int] = mapped_column(Integer)
    infos: Mapped[int] = mapped_column(Integer)
    skipped_count: Mapped[int] = mapped_column(Integer)
    passed_count: Mapped[int] = mapped_column(Integer)
    unresolved_count: Mapped[int] = mapped_column(Integer)
    collection_error_count: Mapped[int] = mapped_column(Integer)
    ignored_count: Mapped[int] = mapped_column(Integer)
    # `hostlint probe` evidence in the scanned snapshot: probes, and those lost or refused by their source.
    probe_count: Mapped[int] = mapped_column(Integer, server_default="0")
    probe_failed_count: Mapped[int] = mapped_column(Integer, server_default="0")
    # Unresolved uplinks, collection errors, baseline-ignored findings and notes, as the JSON report has them.
    details: Mapped[dict[str, Any]] = mapped_column(JSON)

    findings: Mapped[list[FindingRow]] = relationship(back_populates="scan", cascade="all, delete-orphan")
    skipped: Mapped[list[SkippedRow]] = relationship(back_populates="scan", cascade="all, delete-orphan")
    snapshot: Mapped[SnapshotRow] = relationship(back_populates="scan", cascade="all, delete-orphan")
    probes: Mapped[list[ProbeRow]] = relationship(back_populates="scan", cascade="all, delete-orphan")


class FindingRow(Base):
    __tablename__ = "scan_findings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scan_id: Mapped[int] = mapped_column(ForeignKey("scans.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(100))
    severity: Mapped[str] = mapped_column(String(10))
    object: Mapped[str] = mapped_column(Text)
    host: Mapped[str] = mapped_column(Text)
    message: Mapped[str] = mapped_column(Text)
    expected: Mapped[Any] = mapped_column(JSON, nullable=True)
    actual: Mapped[Any] = mapped_column(JSON, nullable=True)
    applicability: Mapped[str | None] = mapped_column(String(20))
    fix: Mapped[list[dict[str, Any]]] = mapped_column(JSON)

    scan: Mapped[ScanRow] = relationship(back_populates="findings")


class SkippedRow(Base):
    __tablename__ = "scan_skipped"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scan_id: Mapped[int] = mapped_column(ForeignKey("scans.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(10))
    object: Mapped[str | None] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text)

    scan: Mapped[ScanRow] = relationship(back_populates="skipped")


class ProbeRow(Base):
    """One probe of the scanned snapshot (hostlint.snapshot.probe), with the `label` findings name it by and
    its `outcome`, so `diff` can tell a path that carried its MTU last night and fails tonight."""

    __tablename__ = "scan_probes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scan_id: Mapped[int] = mapped_column(ForeignKey("scans.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(Text)
    outcome: Mapped[str] = mapped_column(String(20))
    source_host: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(Text)
    netstack: Mapped[str] = mapped_column(Text)
    target_host: Mapped[str] = mapped_column(Text)
    target: Mapped[str] = mapped_column(Text)
    target_ip: Mapped[str] = mapped_column(Text)
    size: Mapped[int] = mapped_column(Integer)
    dont_fragment: Mapped[bool] = mapped_column(Boolean)
    purpose: Mapped[str] = mapped_column(String(20))
    via: Mapped[str] = mapped_column(String(40))
    sent: Mapped[int | None] = mapped_column(Integer)
    received: Mapped[int | None] = mapped_column(Integer)
    round_trip_ms: Mapped[float | None] = mapped_column(Float)
    error_kind: Mapped[str | None] = mapped_column(String(40))
    error: Mapped[str | None] = mapped_column(Text)
    at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    scan: Mapped[ScanRow] = relationship(back_populates="probes")


class SnapshotRow(Base):
    """The snapshot the scan checked, as its JSON compressed (`encoding`), so any two scans can be diffed later."""

    __tablename__ = "scan_snapshots"

    scan_id: Mapped[int] = mapped_column(ForeignKey("scans.id", ondelete="CASCADE"), primary_key=True)
    encoding: Mapped[str] = mapped_column(String(20))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    data: Mapped[bytes] = mapped_column(LargeBinary)

    scan: Mapped[ScanRow] = relationship(back_populates="snapshot")

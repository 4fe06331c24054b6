"""Opening the history database by URL, migrating it, and reading and writing scans.

`--db` / `HOSTLINT_DB` takes a SQLAlchemy URL (`sqlite:///path`,
`postgresql+psycopg://user@host/db`) or a plain file path (a SQLite file).
Without either, the file is `$XDG_DATA_HOME/hostlint/history.sqlite`.

Writes: one transaction per scan. On SQLite the file is in WAL mode, every
write transaction starts with `BEGIN IMMEDIATE` (it takes the write lock up
front, so two writers queue on the busy timeout instead of one failing on a
lock upgrade), and readers never block writers. On PostgreSQL a transaction
is enough; first-time migrations are serialised by an advisory lock.

Test hook: with `HOSTLINT_TEST_PAUSE_IN_SCAN=SECONDS` in the environment,
`record` says so on stderr and sleeps that long after the scan row is
inserted and before the transaction commits, so a test can kill a scan in the
middle of its transaction. Never set it outside tests.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlalchemy import Engine, create_engine, delete, event, func, inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session

from hostlint import __version__
from hostlint.history.schema import DEFAULT_SITE, FindingRow, ProbeRow, ScanRow, SkippedRow, SnapshotRow
from hostlint.results import CheckResult, Finding, FixRequest, Skipped
from hostlint.snapshot import Snapshot
from hostlint.snapshot.probe import Probe

MIGRATIONS = Path(__file__).parent / "migrations"
VERSION_TABLE = "hostlint_alembic_version"
# The newest revision under migrations/versions (a test keeps them equal): opening an up-to-date
# database then reads one row and does not load Alembic at all.
HEAD_REVISION = "0003"
SNAPSHOT_ENCODING = "json+zlib"
SQLITE_BUSY_TIMEOUT_S = 60
SQLITE_LOCKED_RETRY_S = 0.2  # pause before opening a SQLite file again that another process is setting up
PG_CONNECT_TIMEOUT_S = 15
# pg_advisory_xact_lock key for migrations: any constant shared by every hostlint ("hl" in ASCII).
PG_MIGRATION_LOCK = 0x686C
TEST_PAUSE_ENV = "HOSTLINT_TEST_PAUSE_IN_SCAN"
# Connections with this execution option start write transactions (BEGIN IMMEDIATE on SQLite).
WRITE_OPTION = "hostlint_write"


class StoreError(Exception):
    """The history database cannot be opened, migrated or read; the message says which and why."""


class ScanCounts(BaseModel):
    error: int
    warning: int
    info: int
    skipped: int
    passed: int
    unresolved: int
    collection_errors: int
    ignored: int
    # `hostlint probe` evidence in the scanned snapshot: probes, and those lost or refused by their source.
    probes: int = 0
    probes_failed: int = 0

    @property
    def findings(self) -> int:
        return self.error + self.warning + self.info


class ScanRecord(BaseModel):
    """One stored scan without its findings, skipped rules and snapshot."""

    id: int
    site: str
    started_at: datetime
    finished_at: datetime
    label: str | None
    hostlint_version: str
    source: str | None
    inputs: list[str]
    settings: dict[str, Any]
    exit_code: int
    counts: ScanCounts


def default_db_path() -> Path:
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "hostlint" / "history.sqlite"


def database_url(value: str | None) -> str:
    """The SQLAlchemy URL for a `--db` value: a URL as given, a path as a SQLite file, nothing as the default file."""
    if value and "://" in value:
        scheme, rest = value.split("://", 1)
        # psycopg (v3) is the PostgreSQL driver hostlint ships with; SQLAlchemy's bare default is psycopg2.
        if scheme in ("postgres", "postgresql"):
            return f"postgresql+psycopg://{rest}"
        return value
    path = Path(value).expanduser() if value else default_db_path()
    return f"sqlite:///{path.resolve()}"


def _as_utc(moment: datetime) -> datetime:
    # SQLite hands timestamps back without a zone; they were written in UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _record(row: ScanRow) -> ScanRecord:
    return ScanRecord(
        id=row.id,
        site=row.site,
        started_at=_as_utc(row.started_at),
        finished_at=_as_utc(row.finished_at),
        label=row.label,
        hostlint_version=row.hostlint_version,
        source=row.source,
        inputs=list(row.inputs),
        settings=dict(row.settings),
        exit_code=row.exit_code,
        counts=ScanCounts(
            error=row.errors,
            warning=row.warnings,
            info=row.infos,
            skipped=row.skipped_count,
            passed=row.passed_count,
            unresolved=row.unresolved_count,
            collection_errors=row.collection_error_count,
            ignored=row.ignored_count,
            probes=row.probe_count or 0,
            probes_failed=row.probe_failed_count or 0,
        ),
    )


def _sqlite_engine(url: str, create: bool = True) -> Engine:
    database = make_url(url).database
    if create and database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver's own transaction handling is off: the "begin" listener below starts every transaction.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_S * 1000}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        write = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _read_only_sqlite_engine(path: Path) -> Engine:
    """A SQLite file opened read-only, for `history` and `diff` on a database they may not write.

    `mode=ro` still needs the WAL index (`-shm`) beside the file; in a read-only directory without
    one, `immutable=1` reads the file as it is (nothing can be writing there).
    """
    import sqlite3

    mode = "mode=ro"
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as probe:
            probe.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        mode = "immutable=1"
    engine = create_engine(f"sqlite:///file:{path}?{mode}&uri=true", connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        dbapi_connection.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_S * 1000}")

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN")

    return engine


def alembic_config() -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


class HistoryStore:
    def __init__(self, engine: Engine, label: str | None = None):
        self.engine = engine
        self._writer = engine.execution_options(**{WRITE_OPTION: True})
        self._label = label

    @property
    def url(self) -> str:
        """The database URL with any password hidden, for messages."""
        return self._label or self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def revision(self) -> str | None:
        """The schema revision of the database; None for a new, empty one."""
        with self.engine.connect() as connection:
            if not inspect(connection).has_table(VERSION_TABLE):
                return None
            return connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()

    def migrate(self, create: bool = True) -> None:
        """Bring the schema to the newest revision this hostlint knows; refuse a database from a newer one.

        With `create` false (reading commands), an empty database stays empty: an error, not a new schema.
        """
        revision = self.revision()
        if revision == HEAD_REVISION:
            return
        if revision is None and not create:
            raise StoreError(f"{self.url}: holds no hostlint history (hostlint scan creates it)")
        from alembic import command
        from alembic.script import ScriptDirectory

        config = alembic_config()
        script = ScriptDirectory.from_config(config)
        if revision is not None and revision not in {rev.revision for rev in script.walk_revisions()}:
            raise StoreError(
                f"{self.url}: schema revision {revision} is newer than this hostlint ({__version__}) knows; upgrade it"
            )
        with self._writer.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        try:
            yield
        except SQLAlchemyError as exc:
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
            raise StoreError(f"{self.url}: cannot {doing}: {reason}") from exc

    def record(
        self,
        snapshot: Snapshot,
        result: CheckResult,
        *,
        started_at: datetime,
        exit_code: int,
        label: str | None = None,
        site: str = DEFAULT_SITE,
        inputs: list[str] | None = None,
        settings: dict[str, Any] | None = None,
    ) -> ScanRecord:
        """Store one scan (snapshot, findings, skipped, probes) in one transaction, and return it."""
        severities = [f.severity for f in result.findings]
        snapshot_json = snapshot.model_dump_json().encode("utf-8")
        row = ScanRow(
            started_at=started_at,
            finished_at=datetime.now(UTC),
            label=label,
            site=site,
            hostlint_version=__version__,
            source=snapshot.source,
            inputs=inputs or [],
            settings=settings or {},
            exit_code=int(exit_code),
            errors=severities.count("error"),
            warnings=severities.count("warning"),
            infos=severities.count("info"),
            skipped_count=len(result.skipped),
            passed_count=len(result.passed),
            unresolved_count=len(result.unresolved),
            collection_error_count=len(result.collection_errors),
            ignored_count=len(result.ignored),
            probe_count=len(snapshot.probes),
            probe_failed_count=sum(p.outcome in ("lost", "refused-locally") for p in snapshot.probes),
            details={
                "unresolved": [u.model_dump(mode="json") for u in result.unresolved],
                "collection_errors": [e.model_dump(mode="json") for e in result.collection_errors],
                "ignored": [i.model_dump(mode="json") for i in result.ignored],
                "notes": list(result.notes),
            },
        )
        with self._errors("store the scan"), Session(self._writer, expire_on_commit=False) as session:
            with session.begin():
                session.add(row)
                session.flush()
                _pause_for_tests()
                session.add_all(
                    FindingRow(scan_id=row.id, **f.model_dump(mode="json", exclude={"fact"})) for f in result.findings
                )
                session.add_all(
                    SkippedRow(scan_id=row.id, code=s.code, object=s.object, reason=s.reason) for s in result.skipped
                )
                session.add_all(_probe_row(row.id, probe) for probe in snapshot.probes)
                session.add(
                    SnapshotRow(
                        scan_id=row.id,
                        encoding=SNAPSHOT_ENCODING,
                        size=len(snapshot_json),
                        sha256=hashlib.sha256(snapshot_json).hexdigest(),
                        data=zlib.compress(snapshot_json, 6),
                    )
                )
            return _record(row)

    def scans(self, limit: int | None = None, site: str | None = None) -> list[ScanRecord]:
        """Stored scans (of `site`, or of every site), oldest first; with `limit`, only the newest `limit`."""
        with self._errors("read scans"), Session(self.engine) as session:
            query = select(ScanRow).order_by(ScanRow.id.desc())
            if site is not None:
                query = query.where(ScanRow.site == site)
            if limit is not None:
                query = query.limit(limit)
            rows = session.scalars(query).all()
            return [_record(row) for row in reversed(rows)]

    def prune(self, site: str | None, older_than: datetime | None, keep: int | None) -> list[int]:
        """Delete the scans (of `site`, or of every site) started before `older_than` or beyond the newest
        `keep` of their site, in one transaction; each site's newest scan always stays, so the next scan
        still has one to be compared with. The ids deleted, oldest first."""
        with self._errors("prune scans"), Session(self._writer) as session, session.begin():
            query = select(ScanRow.id, ScanRow.site, ScanRow.started_at).order_by(ScanRow.id.desc())
            if site is not None:
                query = query.where(ScanRow.site == site)
            seen: dict[str, int] = {}
            doomed = []
            for scan_id, scan_site, started in session.execute(query):
                rank = seen[scan_site] = seen.get(scan_site, 0) + 1
                if rank == 1:
                    continue
                if (keep is not None and rank > keep) or (older_than is not None and _as_utc(started) < older_than):
                    doomed.append(scan_id)
            # Children first: SQLite enforces ON DELETE CASCADE only with PRAGMA foreign_keys on.
            for start in range(0, len(doomed), 500):
                chunk = doomed[start : start + 500]
                for table in (FindingRow, SkippedRow, ProbeRow, SnapshotRow):
                    session.execute(delete(table).where(table.scan_id.in_(chunk)))
                session.execute(delete(ScanRow).where(ScanRow.id.in_(chunk)))
        return sorted(doomed)

    def sites(self) -> dict[str, int]:
        """Each site with scans stored, and how many, by name."""
        with self._errors("read the sites"), Session(self.engine) as session:
            rows = session.execute(select(ScanRow.site, func.count()).group_by(ScanRow.site).order_by(ScanRow.site))
            return {site: count for site, count in rows}

    def count(self) -> int:
        with self._errors("count scans"), Session(self.engine) as session:
            return session.scalar(select(func.count()).select_from(ScanRow)) or 0

    def scan(self, scan_id: int) -> ScanRecord:
        with self._errors(f"read scan {scan_id}"), Session(self.engine) as session:
            row = session.get(ScanRow, scan_id)
            if row is None:
                raise StoreError(f"{self.url}: no scan {scan_id}")
            return _record(row)

    def previous(self, scan: ScanRecord) -> ScanRecord | None:
        """The scan of the same site stored just before `scan`, if any."""
        with self._errors("read scans"), Session(self.engine) as session:
            row = session.scalars(
                select(ScanRow)
                .where(ScanRow.id < scan.id, ScanRow.site == scan.site)
                .order_by(ScanRow.id.desc())
                .limit(1)
            ).first()
            return _record(row) if row else None

    def findings(self, scan_id: int) -> list[Finding]:
        with self._errors(f"read the findings of scan {scan_id}"), Session(self.engine) as session:
            rows = session.scalars(select(FindingRow).where(FindingRow.scan_id == scan_id).order_by(FindingRow.id))
            return [
                Finding(
                    code=r.code,
                    name=r.name,
                    severity=r.severity,
                    object=r.object,
                    host=r.host,
                    message=r.message,
                    expected=r.expected,
                    actual=r.actual,
                    applicability=r.applicability,
                    fix=[FixRequest.model_validate(request) for request in r.fix],
                )
                for r in rows
            ]

    def skipped(self, scan_id: int) -> list[Skipped]:
        with self._errors(f"read the skipped rules of scan {scan_id}"), Session(self.engine) as session:
            rows = session.scalars(select(SkippedRow).where(SkippedRow.scan_id == scan_id).order_by(SkippedRow.id))
            return [Skipped(code=r.code, object=r.object, reason=r.reason) for r in rows]

    def probes(self, scan_id: int) -> list[Probe]:
        """The scan's probes, as the snapshot held them."""
        with self._errors(f"read the probes of scan {scan_id}"), Session(self.engine) as session:
            rows = session.scalars(select(ProbeRow).where(ProbeRow.scan_id == scan_id).order_by(ProbeRow.id))
            return [
                Probe(
                    source_host=r.source_host,
                    source_vmk=r.source,
                    netstack=r.netstack,
                    target_host=r.target_host,
                    target_vmk=r.target,
                    target_ip=r.target_ip,
                    size=r.size,
                    dont_fragment=r.dont_fragment,
                    purpose=r.purpose,  # type: ignore[arg-type]
                    via=r.via,  # type: ignore[arg-type]
                    sent=r.sent,
                    received=r.received,
                    round_trip_ms=r.round_trip_ms,
                    error_kind=r.error_kind,  # type: ignore[arg-type]
                    error=r.error,
                    at=_as_utc(r.at) if r.at is not None else None,
                )
                for r in rows
            ]

    def snapshot(self, scan_id: int) -> Snapshot:
        with self._errors(f"read the snapshot of scan {scan_id}"), Session(self.engine) as session:
            row = session.get(SnapshotRow, scan_id)
            if row is None:
                raise StoreError(f"{self.url}: no snapshot for scan {scan_id}")
            encoding, data = row.encoding, row.data
        if encoding != SNAPSHOT_ENCODING:
            raise StoreError(f"{self.url}: scan {scan_id}: unknown snapshot encoding {encoding!r}")
        try:
            return Snapshot.model_validate_json(zlib.decompress(data))
        except (zlib.error, ValidationError) as exc:
            raise StoreError(f"{self.url}: scan {scan_id}: stored snapshot unreadable: {exc}") from exc


def _probe_row(scan_id: int, probe: Probe) -> ProbeRow:
    return ProbeRow(
        scan_id=scan_id,
        label=probe.label,
        outcome=probe.outcome,
        source_host=probe.source_host,
        source=probe.source_vmk,
        netstack=probe.netstack,
        target_host=probe.target_host,
        target=probe.target_vmk,
        target_ip=probe.target_ip,
        size=probe.size,
        dont_fragment=probe.dont_fragment,
        purpose=probe.purpose,
        via=probe.via,
        sent=probe.sent,
        received=probe.received,
        round_trip_ms=probe.round_trip_ms,
        error_kind=probe.error_kind,
        error=probe.error,
        at=probe.at,
    )


def _pause_for_tests() -> None:
    seconds = os.environ.get(TEST_PAUSE_ENV)
    if seconds:
        print(f"hostlint: test hook: pausing {seconds}s inside the scan transaction", file=sys.stderr, flush=True)
        time.sleep(float(seconds))


def _writable(path: Path) -> bool:
    # access(2) answers EROFS on a read-only file system even for root.
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _existing_sqlite(url: str) -> str | None:
    """The SQLite file of `url` (None for another database); a file that does not exist is an error, since
    connecting would create it: reading (`history`, `diff`) and pruning never create a database."""
    database = make_url(url).database if make_url(url).get_backend_name() == "sqlite" else None
    if database and database != ":memory:" and not Path(database).exists():
        raise StoreError(f"{database}: no history database here (hostlint scan creates it; --db or HOSTLINT_DB)")
    return database


def open_existing(value: str | None = None) -> HistoryStore:
    """The history database for writing to what is stored (`history --prune`); never a new one."""
    _existing_sqlite(database_url(value))
    return open_store(value, create=False)


def open_read_only(value: str | None = None) -> HistoryStore:
    """The history database for reading only (`history`, `diff`): a SQLite file that cannot be written
    (mode 0444, a read-only directory or file system) is opened read-only when its schema is current.
    """
    url = database_url(value)
    database = _existing_sqlite(url)
    if not database or database == ":memory:" or not Path(database).is_file() or _writable(Path(database)):
        return open_store(value, create=False)
    store = HistoryStore(_read_only_sqlite_engine(Path(database)), label=f"{url} (read-only)")
    try:
        with store._errors("open the history database"):
            revision = store.revision()
        if revision != HEAD_REVISION:
            raise StoreError(
                f"{store.url}: schema revision {revision} needs upgrading to {HEAD_REVISION}, "
                "and the database is read-only; run hostlint once with write access to it"
            )
    except StoreError:
        store.close()
        raise
    return store


def open_store(value: str | None = None, create: bool = True) -> HistoryStore:
    """Open (creating and migrating as needed) the history database named by a `--db` value; with `create`
    false, one that holds no hostlint history yet is an error (an existing one is still upgraded)."""
    url = database_url(value)
    try:
        if make_url(url).get_backend_name() == "sqlite":
            engine = _sqlite_engine(url, create)
        else:
            engine = create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": PG_CONNECT_TIMEOUT_S})
    except ArgumentError as exc:
        raise StoreError(f"{value}: not a database URL: {exc}") from exc
    except ModuleNotFoundError as exc:
        raise StoreError(
            f"{make_url(url).render_as_string(hide_password=True)}: driver {exc.name} missing; "
            "for PostgreSQL install hostlint[postgres]"
        ) from exc
    store = HistoryStore(engine)
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_S
    while True:
        try:
            with store._errors("open the history database"):
                store.migrate(create)
            return store
        except StoreError as exc:
            # A new SQLite file opened by two processes at once: switching it to WAL (or reading it while
            # the other does) can answer "database is locked" without waiting on the busy timeout.
            # Bounded: as long as the busy timeout, then the error stands.
            if not (_sqlite_locked(exc) and time.monotonic() < deadline):
                store.close()
                raise
        store.engine.dispose()  # reconnect: each new connection sets WAL and the busy timeout again
        time.sleep(SQLITE_LOCKED_RETRY_S)


def _sqlite_locked(exc: StoreError) -> bool:
    import sqlite3

    orig = getattr(exc.__cause__, "orig", None)
    return isinstance(orig, sqlite3.OperationalError) and "database is locked" in str(orig)

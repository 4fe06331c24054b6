"""Scan history on a real SQLite file and a real PostgreSQL server: scan, history, diff, kills and concurrency."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from click.testing import CliRunner
from pg.server import fresh_database, pg_server
from sqlalchemy import text

from hostlint.check import check_paths
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.history.schema import Base
from hostlint.history.store import (
    HEAD_REVISION,
    TEST_PAUSE_ENV,
    VERSION_TABLE,
    StoreError,
    alembic_config,
    database_url,
    open_store,
)
from hostlint.rules import load_rules

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
# The uplink vmnic3 of esx01's IP-hash vSwitch1 (MTU 9000) is cabled to nx2 Ethernet1/11.
MTU_PORT = ("nx2", "Ethernet1/11")


@pytest.fixture(scope="module")
def pg_admin_url() -> Iterator[str]:
    with pg_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'history.sqlite'}"
        return
    with fresh_database(request.getfixturevalue("pg_admin_url")) as url:
        yield url


@pytest.fixture
def lab(tmp_path: Path) -> Path:
    site = tmp_path / "lab"
    shutil.copytree(LABS / "clean", site)
    return site


def set_port_mtu(site: Path, switch: str, port: str, mtu: int) -> None:
    path = site / "switches.json"
    document = json.loads(path.read_text())
    [target] = [p for s in document["switches"] if s["name"] == switch for p in s["ports"] if p["name"] == port]
    target["mtu"] = mtu
    path.write_text(json.dumps(document, indent=1))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), standalone_mode=False, catch_exceptions=False)
    return result.return_value, result.stdout, result.stderr


def hostlint_process(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", "from hostlint.cli.main import main; main()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )


def wait_for_line(process: subprocess.Popen[str], needle: str, timeout: float = 60) -> str:
    """Read the process's stderr until a line contains `needle` (the test hook's announcement)."""
    assert process.stderr is not None
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 0.5)
        if ready:
            line = process.stderr.readline()
            seen.append(line)
            if needle in line:
                return line
            if not line and process.poll() is not None:
                break
    process.kill()
    raise AssertionError(f"never saw {needle!r}; stderr: {''.join(seen)}")


def table_counts(url: str) -> dict[str, int]:
    store = open_store(url)
    try:
        with store.engine.connect() as connection:
            return {
                table: connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
                for table in ("scans", "scan_findings", "scan_skipped", "scan_snapshots")
            }
    finally:
        store.close()


# --- the done-when cases --------------------------------------------------------------------------------------


def test_two_scans_with_one_mtu_changed_diff_shows_drift_and_new_finding(db_url: str, lab: Path) -> None:
    code, out, _ = run("scan", str(lab), "--db", db_url, "--label", "before")
    assert code == Exit.CLEAN
    assert out.startswith("scan 1 stored in ")

    set_port_mtu(lab, *MTU_PORT, 1500)
    code, out, _ = run("scan", str(lab), "--db", db_url, "--label", "after")
    assert code == Exit.FINDINGS
    assert "since scan 1: 1 new, 0 resolved, 1 configuration change (hostlint diff 1 2)" in out

    code, out, _ = run("diff", "--db", db_url, "--format", "json")
    assert code == Exit.CLEAN
    diff = json.loads(out)
    assert diff["schema_version"] == 1
    assert (diff["before"]["id"], diff["after"]["id"]) == (1, 2)
    assert (diff["before"]["label"], diff["after"]["label"]) == ("before", "after")
    assert [(f["code"], f["object"], f["severity"]) for f in diff["new"]] == [
        ("MT002", "esx01.lab.example.net/vSwitch1", "error")
    ]
    assert diff["resolved"] == []
    assert diff["drift"] == [
        {"object": "nx2/Ethernet1/11", "kind": "switch-port", "field": "mtu", "before": 9216, "after": 1500}
    ]
    assert diff["summary"] == {
        "new": 1,
        "resolved": 0,
        "unchanged": 0,
        "newly_skipped": 0,
        "no_longer_skipped": 0,
        "drift": 1,
        "probes_changed": 0,
    }

    code, human, _ = run("diff", "1", "2", "--db", db_url)
    assert "New findings (1)" in human and "MT002 vswitch-mtu-above-switch" in human
    assert "nx2/Ethernet1/11  mtu  9216 → 1500" in human

    # Putting the MTU back resolves the finding: the diff from scan 2 to 3 says so, and the history's trend too.
    set_port_mtu(lab, *MTU_PORT, 9216)
    assert run("scan", str(lab), "--db", db_url)[0] == Exit.CLEAN
    back = json.loads(run("diff", "2", "--db", db_url, "--format", "json")[1])
    assert [f["code"] for f in back["resolved"]] == ["MT002"] and back["new"] == []
    assert back["drift"][0]["before"] == 1500 and back["drift"][0]["after"] == 9216

    history = json.loads(run("history", "--db", db_url, "--format", "json")[1])
    assert history["schema_version"] == 1
    rows = [(s["id"], s["counts"]["error"], s["exit_code"], s["trend"]) for s in history["scans"]]
    assert rows == [
        (1, 0, 0, None),
        (2, 1, 1, {"previous": 1, "findings_delta": 1, "new": 1, "resolved": 0}),
        (3, 0, 0, {"previous": 2, "findings_delta": -1, "new": 0, "resolved": 1}),
    ]
    human_history = run("history", "--db", db_url)[1]
    assert "▲ +1 (1 new, 0 resolved)" in human_history and "▼ -1 (0 new, 1 resolved)" in human_history
    # --limit shows the newest scans, still with their trend against the scan before them.
    limited = json.loads(run("history", "--db", db_url, "--format", "json", "--limit", "1")[1])
    assert [(s["id"], s["trend"]["previous"]) for s in limited["scans"]] == [(3, 2)]


def test_scan_killed_inside_its_transaction_leaves_the_database_valid(db_url: str, lab: Path) -> None:
    assert run("scan", str(LABS / "demo"), "--db", db_url, "--label", "kept")[0] == Exit.FINDINGS
    before = table_counts(db_url)
    assert before == {"scans": 1, "scan_findings": 7, "scan_skipped": 0, "scan_snapshots": 1}

    process = hostlint_process("scan", str(LABS / "demo"), "--db", db_url, env={TEST_PAUSE_ENV: "60"})
    wait_for_line(process, "inside the scan transaction")
    process.send_signal(signal.SIGKILL)
    assert process.wait(timeout=30) == -signal.SIGKILL

    assert table_counts(db_url) == before
    if db_url.startswith("sqlite"):
        path = db_url.removeprefix("sqlite:///")
        with sqlite3.connect(path) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    history = json.loads(run("history", "--db", db_url, "--format", "json")[1])
    assert [(s["id"], s["label"]) for s in history["scans"]] == [(1, "kept")]

    assert run("scan", str(LABS / "demo"), "--db", db_url, "--label", "next")[0] == Exit.FINDINGS
    after = table_counts(db_url)
    assert after == {"scans": 2, "scan_findings": 14, "scan_skipped": 0, "scan_snapshots": 2}
    diff = json.loads(run("diff", "--db", db_url, "--format", "json")[1])
    assert diff["before"]["label"] == "kept" and diff["after"]["label"] == "next"
    assert diff["summary"]["unchanged"] == 7 and diff["drift"] == []


def test_two_scans_at_once_both_land_whole(db_url: str) -> None:
    """The first scan holds its transaction open; the second waits for it (SQLite) or runs alongside (PostgreSQL)."""
    run("history", "--db", db_url)  # create the schema first, as an earlier scan would have
    # The hook holds the transaction open long enough for the second process to start and begin its scan
    # even on a loaded machine (a second hostlint process can take several seconds to import).
    slow = hostlint_process("scan", str(LABS / "demo"), "--db", db_url, "--label", "slow", env={TEST_PAUSE_ENV: "15"})
    wait_for_line(slow, "inside the scan transaction")
    # The slow scan commits no earlier than this (its hook sleeps 15 s after announcing; reading the pipe takes ms).
    slow_commits_after = datetime.now(UTC) + timedelta(seconds=14.5)
    fast = hostlint_process("scan", str(LABS / "clean"), "--db", db_url, "--label", "fast")
    exited: dict[str, datetime] = {}
    deadline = time.monotonic() + 120
    while len(exited) < 2 and time.monotonic() < deadline:
        for name, process in (("slow", slow), ("fast", fast)):
            if name not in exited and process.poll() is not None:
                exited[name] = datetime.now(UTC)
        time.sleep(0.02)
    _, fast_err = fast.communicate(timeout=10)
    _, slow_err = slow.communicate(timeout=10)
    assert (fast.returncode, slow.returncode) == (Exit.CLEAN, Exit.FINDINGS), fast_err + slow_err
    assert table_counts(db_url) == {"scans": 2, "scan_findings": 7, "scan_skipped": 0, "scan_snapshots": 2}
    history = json.loads(run("history", "--db", db_url, "--format", "json")[1])
    scans = {s["label"]: s for s in history["scans"]}
    assert {label: s["counts"]["error"] + s["counts"]["warning"] for label, s in scans.items()} == {
        "slow": 7,
        "fast": 0,
    }
    # The fast scan began while the slow one's transaction was still open ...
    assert datetime.fromisoformat(scans["fast"]["started_at"]) < slow_commits_after
    if db_url.startswith("sqlite"):
        # ... and on SQLite it could only commit after the slow one (it queued on the write lock).
        assert exited["fast"] > slow_commits_after
        assert scans["slow"]["id"] < scans["fast"]["id"]


def test_first_opens_at_once_migrate_the_new_database_once(db_url: str) -> None:
    # Two scans (`history` no longer creates a database: reading never writes).
    processes = [hostlint_process("scan", str(LABS / "clean"), "--isolated", "--db", db_url) for _ in range(2)]
    results = [(p.wait(timeout=120), p.communicate()[1]) for p in processes]
    assert results == [(Exit.CLEAN, "")] * 2
    store = open_store(db_url)
    try:
        assert store.revision() == HEAD_REVISION and store.count() == 2
    finally:
        store.close()


def test_reading_an_empty_database_leaves_it_empty(db_url: str) -> None:
    """`history`, `diff` and `history --prune` on a database without hostlint's tables (a new PostgreSQL
    database, a missing SQLite file) are exit 2 and create nothing."""
    for args in (["history"], ["diff"], ["history", "--prune", "--keep-scans", "1"]):
        code, _, err = run(*args, "--db", db_url)
        assert code == Exit.USAGE and ("holds no hostlint history" in err or "no history database here" in err), err
    if db_url.startswith("sqlite"):
        assert not Path(db_url.removeprefix("sqlite:///")).exists()
        return
    from sqlalchemy import create_engine, inspect

    engine = create_engine(db_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as connection:
            assert inspect(connection).get_table_names() == []
    finally:
        engine.dispose()


def test_head_revision_constant_is_the_newest_migration() -> None:
    from alembic.script import ScriptDirectory

    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == HEAD_REVISION


def test_migrations_build_exactly_the_models(db_url: str) -> None:
    store = open_store(db_url)
    try:
        with store.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
            assert compare_metadata(context, Base.metadata) == []
            assert context.get_current_revision() == HEAD_REVISION
    finally:
        store.close()


# --- the store --------------------------------------------------------------------------------------------------------


def test_store_keeps_the_snapshot_compressed_and_gives_it_back(tmp_path: Path) -> None:
    snapshot, result = check_paths([LABS / "jumbo-mismatch"], load_rules())
    store = open_store(str(tmp_path / "h.sqlite"))
    try:
        record = store.record(snapshot, result, started_at=datetime.now(UTC), exit_code=1, inputs=["jumbo"])
        assert store.snapshot(record.id) == snapshot
        assert [f.model_dump() for f in store.findings(record.id)] == [f.model_dump() for f in result.findings]
        assert store.skipped(record.id) == result.skipped
        with store.engine.connect() as connection:
            size, stored = connection.execute(text("SELECT size, length(data) FROM scan_snapshots")).one()
        assert size == len(snapshot.model_dump_json()) and stored < size / 3
        assert record.counts.error + record.counts.warning == len(result.findings)
        assert record.counts.skipped == len(result.skipped) > 0
    finally:
        store.close()
    mode = sqlite3.connect(tmp_path / "h.sqlite").execute("PRAGMA journal_mode").fetchone()
    assert mode == ("wal",)


def test_db_values_are_urls_or_sqlite_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert database_url("postgresql://u@127.0.0.1/h") == "postgresql+psycopg://u@127.0.0.1/h"
    assert database_url("postgresql+psycopg://u@127.0.0.1/h") == "postgresql+psycopg://u@127.0.0.1/h"
    assert database_url(str(tmp_path / "x.sqlite")) == f"sqlite:///{tmp_path / 'x.sqlite'}"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert database_url(None) == f"sqlite:///{tmp_path / 'data' / 'hostlint' / 'history.sqlite'}"
    monkeypatch.setenv("HOSTLINT_DB", str(tmp_path / "env.sqlite"))
    code, out, _ = run("scan", str(LABS / "clean"))
    assert code == Exit.CLEAN and str(tmp_path / "env.sqlite") in out
    assert (tmp_path / "env.sqlite").is_file()


def test_a_database_from_a_newer_hostlint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    open_store(str(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute(f"UPDATE {VERSION_TABLE} SET version_num = '9999'")
    with pytest.raises(StoreError, match="schema revision 9999 is newer than this hostlint"):
        open_store(str(path))
    code, _, err = run("history", "--db", str(path))
    assert code == Exit.USAGE and "newer than this hostlint" in err


def test_diff_and_history_say_what_is_missing(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite")
    # Reading never writes: a missing database (or its folder) is an error and stays missing.
    for command in ("history", "diff"):
        code, _, err = run(command, "--db", str(tmp_path / "no" / "dir" / "h.db"))
        assert code == Exit.USAGE and "no history database here" in err and len(err.splitlines()) == 1
        code, _, err = run(command, "--db", db)
        assert code == Exit.USAGE and "no history database here" in err
    assert list(tmp_path.iterdir()) == []
    open_store(db).close()
    assert run("history", "--db", db)[1].startswith("No scans stored in sqlite:///")
    code, _, err = run("diff", "--db", db)
    assert code == Exit.USAGE and "diff needs two scans, 0 stored" in err
    run("scan", str(LABS / "clean"), "--db", db)
    code, _, err = run("diff", "7", "--db", db)
    assert code == Exit.USAGE and "no scan 7" in err
    code, _, err = run("scan", str(tmp_path / "nowhere"), "--db", db)
    assert code == Exit.USAGE and "no such file or folder" in err
    code, _, err = run("history", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    assert code == Exit.USAGE and "cannot open the history database" in err


def test_scan_writes_an_html_report_of_the_stored_scan(tmp_path: Path) -> None:
    report = tmp_path / "scan.html"
    code, out, _ = run(
        "scan", str(LABS / "demo"), "--db", str(tmp_path / "h.sqlite"), "--label", "nightly", "--html", str(report)
    )
    assert code == Exit.FINDINGS and f"HTML report: {report}" in out
    page = report.read_text()
    assert "hostlint report: scan 1 (nightly)" in page and "stored in" in page and "LG002" in page


def _read_only_mount_works(folder: Path) -> bool:
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder}"],
        capture_output=True,
    )
    return probe.returncode == 0


@pytest.mark.parametrize("leftover_wal_index", [True, False], ids=["with-shm", "without-shm"])
def test_history_and_diff_read_a_database_on_a_read_only_file_system(lab, tmp_path, leftover_wal_index):
    """A database on a read-only mount (root ignores file modes, a read-only file system it cannot)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "history.sqlite"
    assert run("scan", str(lab), "--db", str(db), "--label", "first")[0] == Exit.CLEAN
    set_port_mtu(lab, *MTU_PORT, 1500)
    run("scan", str(lab), "--db", str(db), "--label", "second")
    if leftover_wal_index:
        sqlite3.connect(f"file:{db}?mode=ro", uri=True).execute("SELECT 1 FROM scans").fetchall()
    else:
        for extra in folder.glob("history.sqlite-*"):
            extra.unlink()
    db.chmod(0o444)
    if not _read_only_mount_works(folder):
        pytest.skip("cannot make a read-only bind mount here (unshare -m)")
    root = Path(__file__).resolve().parent.parent
    script = (
        f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} && "
        f"{sys.executable} -m hostlint history --db {db} --format json && "
        f"{sys.executable} -m hostlint diff --db {db} --format json"
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    history_doc, _, diff_doc = done.stdout.partition("\n}\n")
    history_json = json.loads(history_doc + "\n}")
    assert [scan["label"] for scan in history_json["scans"]] == ["first", "second"]
    assert history_json["database"].endswith("(read-only)")
    assert json.loads(diff_doc)["after"]["id"] == 2
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["history.sqlite"] + (["history.sqlite-shm", "history.sqlite-wal"] if leftover_wal_index else [])
    )

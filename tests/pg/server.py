"""A PostgreSQL server for the history tests: HOSTLINT_TEST_PG_URL, or one started by start.sh, or a skip.

Set HOSTLINT_TEST_REQUIRE_PG=1 (CI does) to fail instead of skipping when no server can be had.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def _unavailable(reason: str) -> None:
    if os.environ.get("HOSTLINT_TEST_REQUIRE_PG") == "1":
        pytest.fail(f"PostgreSQL required (HOSTLINT_TEST_REQUIRE_PG=1) but {reason}")
    pytest.skip(f"no PostgreSQL: {reason}")


def _have_server_binaries() -> bool:
    on_path = shutil.which("initdb") and shutil.which("pg_ctl")
    return bool(glob.glob("/usr/lib/postgresql/*/bin/initdb") or on_path)


@contextmanager
def pg_server() -> Iterator[str]:
    """The admin URL of a PostgreSQL server for the length of the block."""
    url = os.environ.get("HOSTLINT_TEST_PG_URL")
    if url:
        yield url
        return
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("the psycopg driver is not installed (pip install 'hostlint[postgres]')")
    if not _have_server_binaries():
        _unavailable("no initdb/pg_ctl (Debian package postgresql) and HOSTLINT_TEST_PG_URL not set")
    started = subprocess.run(["bash", str(HERE / "start.sh")], capture_output=True, text=True, timeout=120)
    if started.returncode != 0:
        _unavailable(f"tests/pg/start.sh failed: {started.stderr.strip()[-500:]}")
    exports = dict(
        line.removeprefix("export ").split("=", 1) for line in started.stdout.splitlines() if line.startswith("export ")
    )
    try:
        yield exports["HOSTLINT_TEST_PG_URL"]
    finally:
        subprocess.run(["bash", str(HERE / "stop.sh"), exports["HOSTLINT_TEST_PG_DIR"]], timeout=60, check=False)


@contextmanager
def fresh_database(admin_url: str) -> Iterator[str]:
    """A new, empty database on the server (dropped afterwards), as a hostlint --db URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(admin_url)
    name = f"hostlint_test_{uuid.uuid4().hex[:12]}"
    libpq = admin.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(libpq, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

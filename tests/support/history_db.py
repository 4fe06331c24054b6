"""The scan-history databases the history tests run on: a SQLite file and a real PostgreSQL server
(tests/pg/server.py). Fixtures, registered for every test module in tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pg.server import fresh_database, pg_server


@pytest.fixture(scope="module")
def pg_admin_url() -> Iterator[str]:
    """A PostgreSQL server for the module: its administrator's URL."""
    with pg_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each test twice: on a fresh SQLite file, then on a fresh database of the module's PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'history.sqlite'}"
        return
    with fresh_database(request.getfixturevalue("pg_admin_url")) as url:
        yield url

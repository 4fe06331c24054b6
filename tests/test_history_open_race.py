"""A new SQLite history file opened by several scans at the same moment: every one of them opens it.

Switching a new file to WAL while another connection does the same can answer "database is
locked" without waiting on the busy timeout; before open_store retried that (bounded), about one
open in thirty failed here with four openers.
"""

from __future__ import annotations

import threading
from pathlib import Path

from hostlint.history.store import HEAD_REVISION, StoreError, open_store


def test_openers_of_a_new_sqlite_file_at_once_all_open_it(tmp_path: Path) -> None:
    failures: list[str] = []
    for trial in range(30):
        path = tmp_path / f"history-{trial}.sqlite"
        start = threading.Barrier(4)

        def opener(path: Path = path, start: threading.Barrier = start) -> None:
            start.wait(timeout=30)
            try:
                open_store(str(path)).close()
            except StoreError as exc:
                failures.append(str(exc))

        threads = [threading.Thread(target=opener) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        store = open_store(str(path))
        try:
            assert store.revision() == HEAD_REVISION
        finally:
            store.close()
    assert failures == []

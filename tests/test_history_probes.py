"""Probe evidence in the scan history, on a real SQLite file and a real PostgreSQL server: each scan keeps its
probes, `history` counts them, and `diff` names a path that carried jumbo last night and fails tonight."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import text
from test_history import db_url, pg_admin_url, run  # noqa: F401 (fixtures)
from test_probe_reports import LOST, _site

from hostlint.cli.exit import Exit
from hostlint.history.store import open_store
from hostlint.snapshot import Snapshot


def _write(site: Path, snapshot: Snapshot) -> None:
    site.mkdir(exist_ok=True)
    (site / "hosts.json").write_text(snapshot.model_dump_json())


def _night(snapshot: Snapshot, jumbo_lost: bool) -> Snapshot:
    """The site with esx01 -> esx03's jumbo probe delivered (last night) or lost (tonight)."""
    probes = []
    for probe in snapshot.probes:
        if probe.label == LOST:
            received = 0 if jumbo_lost else 3
            probe = probe.model_copy(update={"sent": 3, "received": received, "round_trip_ms": None})
        probes.append(probe)
    return snapshot.model_copy(update={"probes": probes})


def test_scans_keep_their_probes_and_diff_names_a_path_that_stopped_carrying_jumbo(db_url: str, tmp_path: Path):  # noqa: F811
    site = tmp_path / "site"
    snapshot = _site()
    _write(site, _night(snapshot, jumbo_lost=False))
    code, _, err = run("scan", str(site), "--isolated", "--db", db_url, "--label", "last night")
    assert code == Exit.FINDINGS, err
    _write(site, _night(snapshot, jumbo_lost=True))
    code, _, err = run("scan", str(site), "--isolated", "--db", db_url, "--label", "tonight")
    assert code == Exit.FINDINGS, err

    store = open_store(db_url)
    try:
        with store.engine.connect() as connection:
            rows = connection.execute(text("SELECT scan_id, count(*) FROM scan_probes GROUP BY scan_id")).all()
        assert sorted(rows) == [(1, len(snapshot.probes)), (2, len(snapshot.probes))]
        # the stored probes are the snapshot's, field for field
        assert store.probes(2) == _night(snapshot, jumbo_lost=True).probes
    finally:
        store.close()

    code, out, _ = run("history", "--db", db_url, "--format", "json")
    assert code == Exit.CLEAN
    counts = [(s["label"], s["counts"]["probes"], s["counts"]["probes_failed"]) for s in json.loads(out)["scans"]]
    # last night: esx04's refused-locally probe; tonight the lost jumbo path too
    assert counts == [("last night", len(snapshot.probes), 1), ("tonight", len(snapshot.probes), 2)]
    code, out, _ = run("history", "--db", db_url, "--format", "human")
    assert "probes" in out and f"{len(snapshot.probes)} (2 failed)" in out

    code, out, _ = run("diff", "--db", db_url, "--format", "json")
    assert code == Exit.CLEAN
    document = json.loads(out)
    assert document["summary"]["probes_changed"] == 1
    assert document["probes"] == [
        {
            "probe": LOST,
            "before": "delivered",
            "after": "lost",
            "before_detail": "3/3 replies",
            "after_detail": "0/3 replies",
        }
    ]
    assert [f["object"] for f in document["new"] if f["code"] == "MT020"] == [LOST]
    code, out, _ = run("diff", "--db", db_url)
    assert "Probed paths that changed (1)" in out
    assert f"{LOST}  delivered (3/3 replies) → lost (0/3 replies)" in out
    assert "1 probed path changed" in out


def test_a_scan_without_probes_stores_none_and_diff_says_nothing_of_them(db_url: str, tmp_path: Path):  # noqa: F811
    site = tmp_path / "site"
    _write(site, _site().model_copy(update={"probes": []}))
    for _ in range(2):
        run("scan", str(site), "--isolated", "--db", db_url)
    _, out, _ = run("diff", "--db", db_url, "--format", "json")
    assert json.loads(out)["probes"] == [] and json.loads(out)["summary"]["probes_changed"] == 0
    _, out, _ = run("history", "--db", db_url)
    assert "probes" not in out.split("\n", 1)[1]

"""Sites in the history, on a real SQLite file and a real PostgreSQL server: every scan belongs to a site,
`history` and `diff` read one site, two sites are never diffed, and databases from before sites migrate."""

from __future__ import annotations

import hashlib
import json
import shutil
import zlib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from support.cli import run

from hostlint.cli.exit import Exit
from hostlint.history.store import HEAD_REVISION, alembic_config, database_url, open_store
from hostlint.snapshot import load_site

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
# The uplink vmnic3 of esx01's IP-hash vSwitch1 (MTU 9000) in the clean lab is cabled to nx2 Ethernet1/11.
MTU_PORT = ("nx2", "Ethernet1/11")


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def set_port_mtu(site: Path, switch: str, port: str, mtu: int) -> None:
    path = site / "switches.json"
    document = json.loads(path.read_text())
    [target] = [p for s in document["switches"] if s["name"] == switch for p in s["ports"] if p["name"] == port]
    target["mtu"] = mtu
    path.write_text(json.dumps(document, indent=1))


def test_history_and_diff_stay_within_one_site(db_url: str, tmp_path: Path) -> None:
    lon1 = tmp_path / "lon1"
    shutil.copytree(LABS / "clean", lon1)
    code, out, _ = run("scan", str(lon1), "--db", db_url, "--site-name", "lon1")
    assert code == Exit.CLEAN and "scan 1 stored in " in out and "for site lon1" in out
    assert run("scan", str(LABS / "demo"), "--db", db_url, "--site-name", "nyc2")[0] == Exit.FINDINGS
    set_port_mtu(lon1, *MTU_PORT, 1500)
    code, out, _ = run("scan", str(lon1), "--db", db_url, "--site-name", "lon1")
    # The trend is against lon1's previous scan (1), not the newest scan stored (nyc2's 2).
    assert code == Exit.FINDINGS and "since scan 1: 1 new, 0 resolved, 1 configuration change" in out

    code, _, err = run("history", "--db", db_url)
    line = one_line(err)
    assert code == Exit.USAGE and "2 sites" in line and "--site-name" in line
    assert "lon1 (2 scans)" in line and "nyc2 (1 scans)" in line
    history = json.loads(run("history", "--db", db_url, "--site-name", "lon1", "--format", "json")[1])
    assert history["site"] == "lon1"
    assert [(s["id"], s["site"], s["trend"] and s["trend"]["previous"]) for s in history["scans"]] == [
        (1, "lon1", None),
        (3, "lon1", 1),
    ]
    assert "Scans of site nyc2" in run("history", "--db", db_url, "--site-name", "nyc2")[1]
    code, _, err = run("history", "--db", db_url, "--site-name", "lon")
    assert code == Exit.USAGE and "no scans of site 'lon' (did you mean 'lon1'?)" in one_line(err)

    # Two sites: refused, one line, exit 2, whichever way they are named.
    for args in (("1", "2"), ("2", "3"), ("2", "--site-name", "lon1")):
        code, out, err = run("diff", *args, "--db", db_url)
        assert code == Exit.USAGE and out == "", args
        assert "site 'nyc2'" in one_line(err) and "site 'lon1'" in err
    # No scans named and two sites: which one is ambiguous.
    code, _, err = run("diff", "--db", db_url)
    assert code == Exit.USAGE and "choose one with --site-name" in one_line(err)

    drift_only = json.loads(run("diff", "--db", db_url, "--site-name", "lon1", "--format", "json")[1])
    assert (drift_only["before"]["id"], drift_only["after"]["id"]) == (1, 3)
    assert [(d["object"], d["field"]) for d in drift_only["drift"]] == [("nx2/Ethernet1/11", "mtu")]
    # One scan named: against the newest scan of its own site.
    assert json.loads(run("diff", "1", "--db", db_url, "--format", "json")[1])["after"]["id"] == 3
    code, _, err = run("diff", "2", "--db", db_url)
    assert code == Exit.USAGE and "scan 2 is the newest scan of site 'nyc2'" in one_line(err)
    human = run("diff", "1", "3", "--db", db_url)[1]
    assert human.startswith("Site lon1: scan 1")


def test_one_site_needs_no_name_and_scans_without_one_are_default(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite")
    run("scan", str(LABS / "clean"), "--db", db)
    run("scan", str(LABS / "clean"), "--db", db)
    history = json.loads(run("history", "--db", db, "--format", "json")[1])
    assert history["site"] == "default" and [s["site"] for s in history["scans"]] == ["default", "default"]
    diff = json.loads(run("diff", "--db", db, "--format", "json")[1])
    assert (diff["before"]["id"], diff["after"]["id"], diff["drift"]) == (1, 2, [])


def test_the_inventory_names_the_site_and_the_option_wins(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite")
    inventory = tmp_path / "inventory.yaml"
    inventory.write_text(f"site_name: fra3\nsnapshots: [{LABS / 'clean'}]\n")
    code, out, _ = run("scan", "--inventory", str(inventory), "--db", db)
    assert code == Exit.CLEAN and "for site fra3" in out
    assert "for site fra4" in run("scan", "--inventory", str(inventory), "--db", db, "--site-name", "fra4")[1]
    store = open_store(db)
    try:
        assert store.sites() == {"fra3": 1, "fra4": 1}
    finally:
        store.close()
    for bad in ("", " ", "x" * 101, "lon\n1"):
        code, _, err = run("scan", str(LABS / "clean"), "--db", db, "--site-name", bad)
        assert code == Exit.USAGE and "--site-name" in one_line(err), bad
    inventory.write_text(f"site_name: ''\nsnapshots: [{LABS / 'clean'}]\n")
    code, _, err = run("scan", "--inventory", str(inventory), "--db", db)
    assert code == Exit.USAGE and "site_name" in one_line(err)


def _database_from_before_sites(url: str) -> None:
    """A history database as hostlint wrote it before sites: schema revision 0001 and one scan."""
    engine = create_engine(database_url(url))
    try:
        with engine.begin() as connection:
            config = alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, "0001")
            connection.execute(
                text(
                    "INSERT INTO scans (started_at, finished_at, label, hostlint_version, source, inputs, settings, "
                    "exit_code, errors, warnings, infos, skipped_count, passed_count, unresolved_count, "
                    "collection_error_count, ignored_count, details) VALUES (:at, :at, 'old', '0.9', NULL, '[]', "
                    "'{}', 0, 0, 0, 0, 0, 0, 0, 0, 0, '{}')"
                ),
                {"at": datetime(2026, 11, 1, tzinfo=UTC)},
            )
            snapshot = load_site([LABS / "clean"]).model_dump_json().encode()
            connection.execute(
                text(
                    "INSERT INTO scan_snapshots (scan_id, encoding, size, sha256, data) "
                    "VALUES (1, 'json+zlib', :size, :sha, :data)"
                ),
                {"size": len(snapshot), "sha": hashlib.sha256(snapshot).hexdigest(), "data": zlib.compress(snapshot)},
            )
    finally:
        engine.dispose()


def test_a_database_from_before_sites_puts_its_scans_in_site_default_and_says_so(
    db_url: str, capfd: pytest.CaptureFixture[str]
) -> None:
    _database_from_before_sites(db_url)
    capfd.readouterr()
    store = open_store(db_url)
    try:
        assert store.revision() == HEAD_REVISION
        assert [(s.label, s.site) for s in store.scans()] == [("old", "default")]
    finally:
        store.close()
    assert "1 earlier scan(s) were stored before scans had a site and now belong to site 'default'" in (
        capfd.readouterr().err
    )
    # Said once: the next open finds the schema current.
    open_store(db_url).close()
    assert capfd.readouterr().err == ""
    assert run("scan", str(LABS / "clean"), "--db", db_url)[0] == Exit.CLEAN
    history = json.loads(run("history", "--db", db_url, "--format", "json")[1])
    assert [(s["label"], s["site"]) for s in history["scans"]] == [("old", "default"), (None, "default")]
    assert json.loads(run("diff", "--db", db_url, "--format", "json")[1])["drift"] == []

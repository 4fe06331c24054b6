"""`hostlint scan --inventory FILE --probe`: the scan collects the simulated vCenter, then proves the jumbo
paths through it (real SOAP to sim/vcsim, real `ping -M do` in network namespaces: tests/test_probe.py's
fabric), within the inventory's bounds; the probes are stored with the scan. A refused executor is named
per host and the scan is still stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from test_probe import fabric, needs_namespaces, scenario  # noqa: F401 (fixtures)
from test_vsphere_collect import PASSWORD, launcher, vcsim_binary  # noqa: F401 (fixture)

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.history.inventory import scan_inventory_settings
from hostlint.history.store import open_store
from hostlint.snapshot import SnapshotError


def _inventory(path: Path, sim, own: object, shared: dict[str, object]) -> Path:
    entry = {"server": sim.url, "user": sim.user, "ca_bundle": str(sim.cert), "probe": own}
    path.write_text(yaml.safe_dump({"vsphere": [entry], "probe": shared}))
    return path


def _scan(inventory: Path, db: str, *extra: str):
    return CliRunner().invoke(
        cli,
        ["scan", "--inventory", str(inventory), "--db", db, "--isolated", *extra],
        env={"HOSTLINT_VSPHERE_PASSWORD": PASSWORD},
        standalone_mode=False,
    )


@needs_namespaces
def test_a_nightly_scan_probes_through_its_vcenter_and_stores_the_evidence(vcsim_binary, scenario, fabric, tmp_path):  # noqa: F811
    db = f"sqlite:///{tmp_path / 'history.sqlite'}"
    extra = ("-diag-ping", str(fabric))
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD, extra_args=extra) as sim:
        inventory = _inventory(tmp_path / "scan.yaml", sim, {"peers": 3, "count": 2}, {"budget": 120, "wait": 1})
        outcome = _scan(inventory, db, "--probe")
        calls = sim.stats()["methods"]
    assert outcome.return_value == Exit.FINDINGS, outcome.output
    assert "ExecuteSoap" in calls
    assert "--probe: 24 probes: " in outcome.stderr
    store = open_store(db)
    try:
        [scan] = store.scans()
        probes = {(p.source_host, p.target_host, p.purpose): p for p in store.probes(scan.id)}
        findings = {f.object: f for f in store.findings(scan.id) if f.code == "MT020"}
    finally:
        store.close()
    assert len(probes) == 4 * 3 * 2 and scan.counts.probes == 24
    assert probes["esx01", "esx02", "jumbo"].outcome == "delivered" and probes["esx01", "esx02", "jumbo"].sent == 2
    assert probes["esx01", "esx03", "jumbo"].outcome == "lost"
    assert probes["esx04", "esx01", "jumbo"].outcome == "refused-locally"
    assert scan.counts.probes_failed == sum(p.outcome in ("lost", "refused-locally") for p in probes.values())
    assert "a hop hostlint did not collect" in findings["esx01/vmk1 -> esx03/vmk1 at 9000"].message


def test_a_refused_executor_is_named_per_host_and_the_scan_is_stored(vcsim_binary, scenario, tmp_path):  # noqa: F811
    db = f"sqlite:///{tmp_path / 'history.sqlite'}"
    extra = ("-deny", "RetrieveManagedMethodExecuter=Host.Config.Settings")
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD, extra_args=extra) as sim:
        inventory = _inventory(tmp_path / "scan.yaml", sim, True, {"peers": 1})
        outcome = _scan(inventory, db, "--probe")
    assert outcome.return_value in (Exit.CLEAN, Exit.FINDINGS), outcome.output
    assert outcome.stdout.startswith("scan 1 stored in ")
    for host in ("esx01", "esx02", "esx03", "esx04"):
        assert f"hostlint: --probe: {host}: probes not proven (refused): " in outcome.stderr
    assert outcome.stderr.count("Host.Config.Settings") == 4
    history = json.loads(CliRunner().invoke(cli, ["history", "--db", db, "--format", "json"]).stdout)
    assert history["scans"][0]["counts"]["probes"] == 8


def test_a_spent_budget_and_a_source_that_may_not_probe(vcsim_binary, scenario, tmp_path):  # noqa: F811
    db = f"sqlite:///{tmp_path / 'history.sqlite'}"
    with launcher.Simulator(vcsim_binary, scenario, password=PASSWORD) as sim:
        inventory = _inventory(tmp_path / "scan.yaml", sim, False, {})
        outcome = _scan(inventory, db, "--probe")
        assert outcome.return_value != Exit.USAGE, outcome.output
        assert "no vsphere or kvm source of the inventory may probe" in outcome.stderr
        assert "ExecuteSoap" not in sim.stats()["methods"]
        # the whole scan's budget over before the first probe: every probe kept as not sent, none sent
        inventory = _inventory(tmp_path / "scan.yaml", sim, {"concurrency": 1}, {})
        outcome = _scan(inventory, db, "--probe", "--probe-budget", "0.000001")
    assert outcome.return_value != Exit.USAGE, outcome.output
    store = open_store(db)
    try:
        probes = store.probes(store.scans()[-1].id)
    finally:
        store.close()
    assert probes and all(p.error_kind == "not-sent" and "budget" in (p.error or "") for p in probes)


def test_probe_needs_an_inventory_and_the_inventory_schema_documents_it(tmp_path):
    outcome = CliRunner().invoke(cli, ["scan", str(tmp_path), "--probe"], standalone_mode=False)
    assert isinstance(outcome.exception, Exception) and "--probe needs --inventory" in str(outcome.exception)
    inventory = tmp_path / "scan.yaml"
    inventory.write_text(yaml.safe_dump({"snapshots": ["x.json"], "probe": {"budget": 0}}))
    with pytest.raises(SnapshotError, match=r"field probe\.budget: Input should be greater than 0"):
        scan_inventory_settings(inventory)
    schema = CliRunner().invoke(cli, ["schema", "scan-inventory"], standalone_mode=False).stdout
    assert '"ProbeSettings"' in schema and "Probes in flight at once." in schema

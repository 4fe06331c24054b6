"""`hostlint scan --inventory`: live sources collected, merged, checked and stored as one scan."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from dripping_peer import DrippingPeer
from support.vcsim import launcher, needs_go

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.history.inventory import SwitchesSource, VsphereEntry, VsphereSource, load_scan_inventory
from hostlint.snapshot import SnapshotError

ROOT = Path(__file__).resolve().parents[1]
CLEAN_LAB = ROOT / "fixtures" / "labs" / "clean"
PASSWORD = "scan-inventory-secret"


def test_inventory_paths_are_relative_to_the_file(tmp_path: Path) -> None:
    inventory = tmp_path / "scan.yaml"
    inventory.write_text(
        yaml.safe_dump(
            {
                "vsphere": [{"server": "vc01.example.com", "ca_bundle": "vc01.pem"}],
                "switches": "switches/hosts.yaml",
                "snapshots": ["extra.json"],
            }
        )
    )
    sources = load_scan_inventory(inventory)
    assert [type(s).__name__ for s in sources] == ["VsphereSource", "SwitchesSource", "FileSource"]
    assert isinstance(sources[0], VsphereSource) and sources[0].entry.ca_bundle == tmp_path / "vc01.pem"
    assert isinstance(sources[1], SwitchesSource) and sources[1].inventory == tmp_path / "switches" / "hosts.yaml"


def test_inventory_errors_name_the_field(tmp_path: Path) -> None:
    inventory = tmp_path / "scan.yaml"
    inventory.write_text("vsphere:\n  - {host: vc01}\n")
    with pytest.raises(SnapshotError, match=r"scan\.yaml: field vsphere\.0\.server: Field required"):
        load_scan_inventory(inventory)
    inventory.write_text("{}\n")
    with pytest.raises(SnapshotError, match="names no source"):
        load_scan_inventory(inventory)


def test_unreadable_switch_inventory_is_a_collection_error_not_a_crash(tmp_path: Path) -> None:
    snapshot = SwitchesSource(tmp_path / "missing.yaml").snapshot()
    assert [(e.target, e.kind) for e in snapshot.collection_errors] == [(str(tmp_path / "missing.yaml"), "switch")]


@pytest.mark.slow
@needs_go
def test_scan_collects_a_vcenter_merges_switches_and_keeps_going_past_a_dead_one(
    vcsim_binary: Path, tmp_path: Path
) -> None:
    binary = vcsim_binary
    with launcher.Simulator(binary, CLEAN_LAB / "hosts.json", password=PASSWORD) as sim:
        inventory = tmp_path / "scan.yaml"
        inventory.write_text(
            yaml.safe_dump(
                {
                    "vsphere": [
                        {"server": sim.url, "user": sim.user, "ca_bundle": str(sim.cert)},
                        {"server": "127.0.0.1:9", "user": sim.user, "insecure": True},
                    ],
                    "snapshots": [str(CLEAN_LAB / "switches.json")],
                }
            )
        )
        db = f"sqlite:///{tmp_path / 'history.sqlite'}"
        env = {"HOSTLINT_VSPHERE_PASSWORD": PASSWORD}
        run = CliRunner().invoke(
            cli, ["scan", "--inventory", str(inventory), "--db", db], env=env, standalone_mode=False
        )
    assert run.return_value == Exit.PARTIAL, run.output
    assert PASSWORD not in run.output
    history = CliRunner().invoke(cli, ["history", "--db", db, "--format", "json"], standalone_mode=False)
    scans = json.loads(history.stdout)["scans"]
    assert len(scans) == 1 and scans[0]["exit_code"] == Exit.PARTIAL
    assert scans[0]["counts"]["collection_errors"] == 1
    assert "collection error: 127.0.0.1:9 (vcenter): 127.0.0.1:9: cannot connect" in run.stdout
    # The reachable vCenter and the switch snapshot were joined: the clean lab is clean.
    counts = scans[0]["counts"]
    assert sum(counts[s] for s in ("error", "warning", "info")) == 0
    assert counts["passed"] > 30 and counts["unresolved"] == 0


def test_scan_with_a_missing_vcenter_password_keeps_the_other_sources(tmp_path: Path) -> None:
    inventory = tmp_path / "scan.yaml"
    inventory.write_text(
        yaml.safe_dump(
            {
                "vsphere": [{"server": "vc-nopass.invalid", "user": "svc@vsphere.local"}],
                "snapshots": [str(CLEAN_LAB / "hosts.json"), str(CLEAN_LAB / "switches.json")],
            }
        )
    )
    db = f"sqlite:///{tmp_path / 'history.sqlite'}"
    env = {"HOSTLINT_VSPHERE_PASSWORD": "", "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    run = CliRunner().invoke(cli, ["scan", "--inventory", str(inventory), "--db", db], env=env, standalone_mode=False)
    assert run.exception is None, run.exception
    assert run.return_value == Exit.PARTIAL
    assert "Usage:" not in run.output
    failure = "collection error: vc-nopass.invalid (vcenter): no password for svc@vsphere.local on vc-nopass.invalid"
    assert failure in run.stdout
    history = CliRunner().invoke(cli, ["history", "--db", db, "--format", "json"], standalone_mode=False)
    scans = json.loads(history.stdout)["scans"]
    assert len(scans) == 1 and scans[0]["exit_code"] == Exit.PARTIAL
    # the snapshot files were still checked and stored: the clean lab's hosts passed their rules
    assert scans[0]["counts"]["collection_errors"] == 1 and scans[0]["counts"]["passed"] > 30


def test_an_ssh_config_without_a_user_is_an_inventory_error(tmp_path: Path) -> None:
    inventory = tmp_path / "scan.yaml"
    inventory.write_text(yaml.safe_dump({"vsphere": [{"server": "vc01", "esxi_ssh_config": "ssh_config"}]}))
    with pytest.raises(SnapshotError, match="esxi_ssh_config needs esxi_ssh_user"):
        load_scan_inventory(inventory)


@pytest.mark.parametrize("where", ["inventory", "command-line"])
def test_scan_ends_a_dripping_vcenter_at_its_timeout_and_keeps_the_rest(where: str, tmp_path: Path) -> None:
    """A vCenter answering a byte every two seconds: `timeout:` (or `scan --timeout`, which wins) ends it."""
    with DrippingPeer(tls=True) as peer:
        server = f"127.0.0.1:{peer.port}"
        own_timeout = 2 if where == "inventory" else 600
        inventory = tmp_path / "scan.yaml"
        inventory.write_text(
            yaml.safe_dump(
                {
                    "vsphere": [{"server": server, "insecure": True, "timeout": own_timeout}],
                    "snapshots": [str(CLEAN_LAB / "hosts.json"), str(CLEAN_LAB / "switches.json")],
                }
            )
        )
        args = ["scan", "--inventory", str(inventory), "--db", f"sqlite:///{tmp_path / 'history.sqlite'}"]
        args += ["--timeout", "2"] if where == "command-line" else []
        started = time.monotonic()
        run = CliRunner().invoke(cli, args, env={"HOSTLINT_VSPHERE_PASSWORD": PASSWORD}, standalone_mode=False)
        elapsed = time.monotonic() - started
    assert run.exception is None, run.exception
    assert run.return_value == Exit.PARTIAL
    assert elapsed < 2 + 5
    assert f"collection error: {server} (vcenter): {server}: no answer within 2 s during the version probe" in (
        run.stdout
    )


def test_vsphere_source_names_are_readable() -> None:
    entry = VsphereEntry(server="https://[::1]:8443/sdk")
    assert VsphereSource(entry).name == "vsphere:[::1]:8443"

"""`hostlint scan --inventory`: the SSH host-key policy from the inventory or the command line reaches the sources."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from switch_emulator import EmulatedSwitch, SwitchEmulator, build

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.collect.switches.inventory import PASSWORD_ENV
from hostlint.history.inventory import KvmSource, SwitchesSource, VsphereSource, load_scan_inventory
from hostlint.snapshot import SnapshotError


def test_the_inventorys_known_hosts_is_relative_to_it_and_the_command_line_wins(tmp_path: Path) -> None:
    inventory = tmp_path / "scan.yaml"
    (tmp_path / "ssh").mkdir()
    (tmp_path / "ssh" / "known_hosts").write_text("")
    inventory.write_text(
        "vsphere: [{server: vc01, esxi_ssh_user: root}]\nswitches: hosts.yaml\nkvm: [{host: root@kvm01}]\n"
        "known_hosts: ssh/known_hosts\n"
    )
    sources = load_scan_inventory(inventory)
    assert [type(s) for s in sources] == [VsphereSource, SwitchesSource, KvmSource]
    assert {(s.host_keys.known_hosts, s.host_keys.accept_new) for s in sources} == {
        (tmp_path / "ssh" / "known_hosts", False)
    }
    other = tmp_path / "other_known_hosts"
    sources = load_scan_inventory(inventory, known_hosts=other, accept_new_host_keys=True)
    assert {(s.host_keys.known_hosts, s.host_keys.accept_new) for s in sources} == {(other, True)}


def test_a_known_hosts_file_that_is_not_there_is_an_inventory_error(tmp_path: Path) -> None:
    inventory = tmp_path / "scan.yaml"
    inventory.write_text("switches: hosts.yaml\nknown_hosts: nowhere\n")
    with pytest.raises(SnapshotError, match=r"scan\.yaml: known_hosts .*nowhere: no such file"):
        load_scan_inventory(inventory)
    outcome = CliRunner().invoke(cli, ["scan", str(tmp_path), "--accept-new-host-keys"], standalone_mode=False)
    assert "--known-hosts and --accept-new-host-keys need --inventory" in str(outcome.exception)


def test_scan_refuses_an_unknown_switch_key_then_trusts_it_on_first_use(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(PASSWORD_ENV, "lab-secret")
    with SwitchEmulator() as emulator:
        switch = EmulatedSwitch(name="sw-ios1", platform="cisco_ios", outputs=build("cisco_ios"))
        port = emulator.add(switch)
        (tmp_path / "hosts.yaml").write_text(
            f"sw-ios1:\n  hostname: 127.0.0.1\n  port: {port}\n  platform: cisco_ios\n  username: netadmin\n"
        )
        known = tmp_path / "known_hosts"
        known.write_text("")
        inventory = tmp_path / "scan.yaml"
        inventory.write_text("switches: hosts.yaml\nknown_hosts: known_hosts\n")
        args = ["scan", "--inventory", str(inventory), "--db", str(tmp_path / "history.db")]
        refused = CliRunner().invoke(cli, args, standalone_mode=False, catch_exceptions=False)
        assert refused.return_value == Exit.PARTIAL
        assert switch.password_attempts == []
        assert known.read_text() == ""
        accepted = CliRunner().invoke(cli, [*args, "--accept-new-host-keys"], standalone_mode=False)
        assert accepted.exception is None, accepted.output
        assert known.read_text() == emulator.known_hosts_line(port)
        assert switch.password_attempts == [("netadmin", True)]

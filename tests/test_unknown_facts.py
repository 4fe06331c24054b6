"""Unknown is a state: a switch fact the collector did not show is null, and a rule that needs it is
skipped naming device, object, field and command, never fired or passed (through the real CLI)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli

LABS = Path(__file__).parent.parent / "fixtures" / "labs"


def _lab_copy(tmp_path: Path, lab: str, edit) -> Path:
    """A copy of a lab whose switches.json `edit` changes in place."""
    target = tmp_path / lab
    shutil.copytree(LABS / lab, target)
    path = target / "switches.json"
    raw = json.loads(path.read_text())
    edit({s["name"]: s for s in raw["switches"]})
    path.write_text(json.dumps(raw))
    return target


def _check(path: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["check", str(path), "--format", "json"], standalone_mode=False)
    assert result.exception is None, result.output
    return int(result.return_value), json.loads(result.stdout)


def _port(switch: dict, name: str) -> dict:
    return next(p for p in switch["ports"] if p["name"] == name)


def _channel(switch: dict, name: str) -> dict:
    return next(c for c in switch["port_channels"] if c["name"] == name)


def _codes(document: dict, key: str) -> dict[tuple[str, str], str]:
    return {(item["code"], item["object"]): item.get("reason", "") for item in document[key]}


def test_port_without_mtu_skips_mt002_naming_the_field(tmp_path: Path) -> None:
    team = "esx-lon1-02.dc.example.org/vSwitch1"
    code, before = _check(LABS / "jumbo-mismatch")
    assert ("MT002", team) in _codes(before, "findings")

    def drop_mtu(switches: dict) -> None:
        del _port(switches["lon1-leaf02"], "Ethernet22")["l2_mtu"]

    code, after = _check(_lab_copy(tmp_path, "jumbo-mismatch", drop_mtu))
    assert ("MT002", team) not in _codes(after, "findings")
    skipped = _codes(after, "skipped")
    assert skipped[("MT002", team)] == (
        "lon1-leaf02 Ethernet22: l2 mtu not shown by `show running-config` (EOS (all): bridged frames are "
        "limited by l2 mtu (the platform maximum by default))"
    )
    # The rest of the site is still checked: the vmk MTU findings stay.
    assert code == Exit.FINDINGS and ("MT001", "esx-lon1-03.dc.example.org/vmk1") in _codes(after, "findings")


def test_channel_without_mode_skips_the_mode_rules(tmp_path: Path) -> None:
    team = "esx-ams1-c1-02.dc.example.org/vSwitch1"
    assert ("LG002", team) in _codes(_check(LABS / "ip-hash-lacp")[1], "findings")

    def drop_mode(switches: dict) -> None:
        for switch in switches.values():
            _channel(switch, "port-channel122")["mode"] = None

    _, after = _check(_lab_copy(tmp_path, "ip-hash-lacp", drop_mode))
    assert ("LG002", team) not in _codes(after, "findings")
    reason = _codes(after, "skipped")[("LG002", team)]
    assert "port-channel122: mode not shown by `show running-config`" in reason
    assert "ams1-leaf-101" in reason and "ams1-leaf-102" in reason


def test_peer_link_not_shown_means_the_pair_is_not_trusted(tmp_path: Path) -> None:
    def unknown_peer_link(switches: dict) -> None:
        switches["ams1-leaf-101"]["multichassis"]["peer_link_up"] = None

    _, after = _check(_lab_copy(tmp_path, "ip-hash-lacp", unknown_peer_link))
    findings, skipped = _codes(after, "findings"), _codes(after, "skipped")
    team = "esx-ams1-c1-01.dc.example.org/vSwitch1"
    # Neither "split across two switches" (LG004) nor "one port-channel" can be claimed or denied.
    for code in ("LG004", "LG001"):
        assert (code, team) not in findings
        assert skipped[(code, team)] == "ams1-leaf-101 vpc 11: peer link state not shown by `show vpc brief`"


def test_version_1_snapshot_is_refused_in_one_line(tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    raw = json.loads((LABS / "clean" / "switches.json").read_text())
    raw["schema_version"] = 1
    old.write_text(json.dumps(raw))
    result = CliRunner().invoke(cli, ["check", str(old)], standalone_mode=False)
    assert result.return_value == Exit.USAGE and result.stdout == ""
    message = result.stderr.strip()
    assert "\n" not in message
    assert "old.json" in message and "schema_version 1 is no longer read" in message and "collect again" in message


def test_the_l3_mtu_of_an_eos_switchport_is_not_its_bridged_limit(tmp_path: Path) -> None:
    """EOS `mtu` limits routed traffic only: a switchport without it (or at 1500) still bridges jumbo
    frames up to its L2 MTU, and an unread IP MTU is no reason to skip MT002 on a bridged path."""

    def default_l2(switches: dict) -> None:
        port = _port(switches["lon1-leaf02"], "Ethernet22")
        del port["mtu"]
        port["l2_mtu"] = 9214 - 18  # no `l2 mtu`: the platform maximum, less header and tag

    _code, after = _check(_lab_copy(tmp_path, "jumbo-mismatch", default_l2))
    team = "esx-lon1-02.dc.example.org/vSwitch1"
    assert ("MT002", team) not in _codes(after, "findings")
    assert ("MT002", team) not in _codes(after, "skipped")


def test_an_eos_fallback_member_runs_its_own_vlans_and_an_unknown_state_is_no_pass(tmp_path: Path) -> None:
    """EOS `lacp fallback individual`: a member with no LACP partner forwards with its own configuration
    (lab lacp-fallback: access VLAN 1), not its channel's trunk. While it is bundled the channel's applies;
    when its state was not shown, which applies is unknown: VL001 is skipped naming it, never passed."""
    pg = "esx-lon1-01.dc.example.org/vSwitch0/Management Network"
    _, before = _check(LABS / "lacp-fallback")
    assert ("VL001", pg) in _codes(before, "findings")

    def bundled(switches: dict) -> None:
        for name in ("lon1-leaf01", "lon1-leaf02"):
            _port(switches[name], "Ethernet11")["member_state"] = "bundled"

    _, after = _check(_lab_copy(tmp_path, "lacp-fallback", bundled))
    assert ("VL001", pg) not in _codes(after, "findings") and ("VL001", pg) not in _codes(after, "skipped")

    def not_shown(switches: dict) -> None:
        for name in ("lon1-leaf01", "lon1-leaf02"):
            del _port(switches[name], "Ethernet11")["member_state"]

    _, unknown = _check(_lab_copy(tmp_path / "unknown", "lacp-fallback", not_shown))
    assert ("VL001", pg) not in _codes(unknown, "findings")
    assert (
        "Ethernet11: member state not shown by `show port-channel summary`" in _codes(unknown, "skipped")[("VL001", pg)]
    )

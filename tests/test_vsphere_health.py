"""vSphere's own evidence over real SOAP (sim/vcsim, fixtures/vsphere/health/health-check.yaml): the distributed
switch health check read during `collect vsphere` and mapped to pNICs, ESXi's LACP view through the esxcli
executor, and the rules that weigh them against the switch configuration (VL007, VL008, MT009, MT010, LG013,
LG014).

One host per case: esx41 enabled and clean, esx42 VLAN untrunked (the switch agrees on one uplink and
disagrees on the other), esx43 MTU not carried (likewise), esx44 teaming mismatch, esx45 checks off,
esx46 health check config not reported, esx47 one result missing, esx48 ESXi's LACP partner out of sync
where the switch has the member bundled, esx49 VLAN and MTU carried where the configuration read says not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from support.vcsim import PASSWORD, launcher

from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.snapshot import Snapshot, load_snapshot

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "fixtures" / "vsphere" / "health" / "health-check.yaml"
SWITCHES = ROOT / "fixtures" / "vsphere" / "health" / "health-switches.json"
NEW_RULES = ("VL007", "VL008", "MT009", "MT010", "LG013", "LG014")
DENY_ESXCLI = ("-deny", "RetrieveManagedMethodExecuter=Host.Config.Settings")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not launcher.go_available() and not os.environ.get("CI"), reason="Go builds the simulator"),
]


def collect(binary: Path, scenario: Path, out: Path, extra: tuple[str, ...] = (), parser: str = "lxml"):
    with launcher.Simulator(binary, scenario, password=PASSWORD, extra_args=extra) as sim:
        args = ["collect", "vsphere", "--server", sim.url, "--user", sim.user, "--ca-bundle", sim.cert, "-o", str(out)]
        env = {"HOSTLINT_VSPHERE_PASSWORD": PASSWORD, "HOSTLINT_VSPHERE_PARSER": parser}
        return CliRunner().invoke(cli, args, env=env, standalone_mode=False)


def check(snapshot: Path, tmp_path: Path) -> tuple[int, dict]:
    out = tmp_path / "check.json"
    outcome = CliRunner().invoke(
        cli, ["check", str(snapshot), str(SWITCHES), "--format", "json", "-o", str(out)], standalone_mode=False
    )
    return outcome.return_value, json.loads(out.read_text())


@pytest.fixture(scope="module")
def collected(vcsim_binary, tmp_path_factory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("health") / "snap.json"
    return out, collect(vcsim_binary, SCENARIO, out)


def member(snapshot: Snapshot, dvs: str, host: str):
    switch = next(d for d in snapshot.distributed_switches if d.name == dvs)
    return switch, next(m for m in switch.hosts if m.host.startswith(host))


def test_health_check_results_are_collected_per_uplink_and_mapped_to_pnics(collected):
    out, outcome = collected
    assert outcome.return_value == Exit.CLEAN, outcome.output
    snapshot = load_snapshot(out)
    switch, esx42 = member(snapshot, "DSwitch-HC", "esx42")
    assert switch.health_check is not None
    assert (switch.health_check.vlan_mtu, switch.health_check.teaming) == (True, True)
    by_nic = {u.nic: u for u in esx42.health.uplinks}
    # uplink1 -> vmnic1 has port key 10, uplink2 -> vmnic2 key 11 on this host's proxy switch
    assert (by_nic["vmnic1"].uplink_port_key, by_nic["vmnic2"].uplink_port_key) == ("10", "11")
    assert by_nic["vmnic2"].untrunked_vlans == [(100, 100)] and by_nic["vmnic2"].trunked_vlans == []
    _, esx43 = member(snapshot, "DSwitch-HC", "esx43")
    assert [u.mtu_vlans_failing for u in esx43.health.uplinks] == [[(100, 100)], [(100, 100)]]
    _, esx44 = member(snapshot, "DSwitch-HC-IP", "esx44")
    assert esx44.health.teaming == "iphashMismatch"
    off, _ = member(snapshot, "DSwitch-HC-Off", "esx45")
    assert (off.health_check.vlan_mtu, off.health_check.teaming) == (False, False)
    unset, _ = member(snapshot, "DSwitch-HC-Unset", "esx46")
    assert unset.health_check is None
    _, esx47 = member(snapshot, "DSwitch-HC", "esx47")
    vmnic1 = next(u for u in esx47.health.uplinks if u.nic == "vmnic1")
    assert vmnic1.trunked_vlans is None and vmnic1.untrunked_vlans is None and vmnic1.mtu_mismatch is False


def test_both_parsers_read_the_same_evidence(collected, vcsim_binary, tmp_path):
    out = tmp_path / "pyvmomi.json"
    assert collect(vcsim_binary, SCENARIO, out, parser="pyvmomi").return_value == Exit.CLEAN
    fast, slow = load_snapshot(collected[0]), load_snapshot(out)
    assert [(d.health_check, [m.health for m in d.hosts]) for d in fast.distributed_switches] == [
        (d.health_check, [m.health for m in d.hosts]) for d in slow.distributed_switches
    ]
    assert [h.lacp_status for h in fast.esxi_hosts] == [h.lacp_status for h in slow.esxi_hosts]


def test_esxi_lacp_view_is_read_for_hosts_with_a_lag_only(collected):
    snapshot = load_snapshot(collected[0])
    hosts = {h.name.split(".")[0]: h for h in snapshot.esxi_hosts}
    assert all(hosts[name].lacp_status is None for name in hosts if name != "esx48")
    status = {s.nic: s for s in hosts["esx48"].lacp_status}
    assert status["vmnic1"].state == "bundled" and "SYN" in status["vmnic1"].partner_port_state
    assert status["vmnic2"].state == "individual" and status["vmnic2"].state_text == "Independent"
    assert status["vmnic2"].partner_port_state == ["ACT", "AGG"]
    assert status["vmnic2"].dvswitch == "DSwitch-LAG" and status["vmnic2"].partner_device == "00:de:fb:11:22:33"


def test_rules_weigh_the_evidence_against_the_switch_configuration(collected, tmp_path):
    code, report = check(collected[0], tmp_path)
    assert code == Exit.FINDINGS
    found = {(f["code"], f["object"].split(".")[0]): f["message"] for f in report["findings"]}
    new = {key: message for key, message in found.items() if key[0] in NEW_RULES}
    assert sorted(new) == [
        ("LG013", "esx44"),
        ("LG014", "esx48"),
        ("MT009", "esx43"),
        ("MT010", "esx49"),
        ("VL007", "esx42"),
        ("VL008", "esx49"),
    ]
    # VLAN 100 untrunked on both esx42 uplinks: leaf-h drops it on Ethernet2/1 (agrees, VL001 too) and
    # allows it on Ethernet2/2 (the switch fact is suspect).
    assert ("VL001", "esx42") in found
    assert "Ethernet2/1 (the switch configuration agrees (VL001))" in new[("VL007", "esx42")]
    assert (
        "Ethernet2/2 (the switch configuration read says its trunk allows it: the two disagree"
        in new[("VL007", "esx42")]
    )
    assert (
        "Ethernet3/1 drops them on VLAN 100 (the switch configuration agrees: MTU 1500 (MT002))"
        in new[("MT009", "esx43")]
    )
    assert "Ethernet3/2 drops them on VLAN 100 (the switch configuration read says MTU 9216" in new[("MT009", "esx43")]
    assert ("LG001", "esx44") in found and "iphashMismatch" in new[("LG013", "esx44")]
    assert "(the switch configuration agrees: no port-channel)" in new[("LG013", "esx44")]
    assert new[("LG014", "esx48")] == (
        "ESXi sees vmnic2 Independent (partner not in sync), the switch shows leaf-h Ethernet8/2 bundled in "
        "port-channel48: the two ends of the LAG member disagree"
    )
    # esx49: the health check carries VLAN 100 and 9000-byte frames where the configuration read says not.
    assert ("VL001", "esx49") in found and ("MT002", "esx49") in found
    assert "VLAN 100 trunked on vmnic1 -> leaf-h Ethernet9/1 (trunk allowing 200)" in new[("VL008", "esx49")]
    assert "carried on vmnic2 -> leaf-h Ethernet9/2, whose MTU read is 1500" in new[("MT010", "esx49")]
    # The clean host gives none of them.
    assert not [key for key in found if key[1] == "esx41"]


def test_a_check_that_is_off_or_not_reported_is_skipped_by_name_never_passed(collected, tmp_path):
    _, report = check(collected[0], tmp_path)
    skipped = {(s["code"], s["object"].split(".")[0]): s["reason"] for s in report["skipped"]}
    # (VL008 and MT010 pass there: the configuration read carries VLAN 100 and 9000 bytes, nothing to contradict.)
    for code in ("VL007", "MT009", "LG013"):
        assert "health check disabled" in skipped[(code, "esx45")], code
        assert "health check configuration not read (VMwareDVSConfigInfo.healthCheckConfig)" in skipped[(code, "esx46")]
    # esx45's stale results say VLAN 100 is untrunked, but a check that is off is no evidence either way.
    assert ("VL007", "esx45") not in {(f["code"], f["object"].split(".")[0]) for f in report["findings"]}
    assert skipped[("VL007", "esx47")].endswith(
        "vmnic1 on DSwitch-HC: no VLAN health check result reported for its uplink port"
    )


def test_a_refused_esxcli_is_a_named_error_and_keeps_the_host(vcsim_binary, tmp_path):
    out = tmp_path / "snap.json"
    outcome = collect(vcsim_binary, SCENARIO, out, DENY_ESXCLI)
    assert outcome.return_value == Exit.PARTIAL, outcome.output
    snapshot = load_snapshot(out)
    esx48 = next(h for h in snapshot.esxi_hosts if h.name.startswith("esx48"))
    assert esx48.lacp_status is None and esx48.pnics
    errors = [e for e in snapshot.collection_errors if e.target.startswith("esx48")]
    assert len(errors) == 1 and "LACP status" in errors[0].reason and "Host.Config.Settings" in errors[0].reason
    assert len(snapshot.collection_errors) == 1  # only the host with a LAG is asked
    _, report = check(out, tmp_path)
    skipped = {(s["code"], s["object"]) for s in report["skipped"]}
    assert ("LG014", "esx48.health.example/vmnic2") in skipped


def test_health_check_runtime_not_reported_is_unknown_and_named(vcsim_binary, tmp_path):
    scenario = yaml.safe_load(SCENARIO.read_text())
    scenario["unset"].append({"dvs": "DSwitch-HC", "property": "runtime"})
    path = tmp_path / "no-runtime.yaml"
    path.write_text(yaml.safe_dump(scenario))
    out = tmp_path / "snap.json"
    outcome = collect(vcsim_binary, path, out)
    assert outcome.return_value == Exit.PARTIAL, outcome.output
    snapshot = load_snapshot(out)
    _, esx42 = member(snapshot, "DSwitch-HC", "esx42")
    assert esx42.health is None
    assert any("runtime.hostMemberRuntime not reported" in e.reason for e in snapshot.collection_errors)
    _, report = check(out, tmp_path)
    skipped = {(s["code"], s["object"].split(".")[0]): s["reason"] for s in report["skipped"]}
    assert "health check results not read (runtime.hostMemberRuntime)" in skipped[("VL007", "esx42")]


def test_lacp_states_esxi_prints_are_normalised_and_a_silent_partner_is_not_in_sync():
    from xml.etree import ElementTree

    from hostlint.collect.vsphere.lacp import parse
    from hostlint.collect.vsphere.record import Recorder

    def nic(name: str, state: str, partner: str | None) -> str:
        info = f"<PartnerInformation><DataObject><PortState>{partner}</PortState></DataObject></PartnerInformation>"
        return f"<DataObject><Nic>{name}</Nic>{info if partner is not None else ''}<State>{state}</State></DataObject>"

    answer = (
        '<obj xmlns="urn:vim25"><DataObject><DVSwitch>DSwitch</DVSwitch><LAGID>7</LAGID><NicList>'
        + nic("vmnic1", "Hot-standby", "ACT,AGG,")
        + nic("vmnic2", "Stand-alone", None)
        + nic("vmnic3", "Waiting", "ACT,")
        + "</NicList></DataObject></obj>"
    )
    rec = Recorder("esx", "esxi")
    found = {s.nic: s for s in parse(ElementTree.fromstring(answer), rec)}
    assert not rec.errors
    assert (found["vmnic1"].state, found["vmnic1"].partner_port_state) == ("hot-standby", ["ACT", "AGG"])
    assert (found["vmnic2"].state, found["vmnic2"].partner_port_state) == ("individual", None)
    assert (found["vmnic3"].state, found["vmnic3"].state_text) == ("other", "Waiting")
    assert {s.dvswitch for s in found.values()} == {"DSwitch"} and found["vmnic1"].lag_id == "7"

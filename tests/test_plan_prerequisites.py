"""`hostlint plan` on real labs: the prerequisites the domain requires (MTU raise: switch path, then
the vSwitch or distributed switch, then the vmk), no-ops explained, and a verdict that names what it
refers to."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from hostlint.change.whatif import what_if
from hostlint.cli.exit import Exit
from hostlint.cli.main import cli
from hostlint.fixes.simulate import simulate
from hostlint.rules import load_rules
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.esxi import Vmk

LABS = Path(__file__).parent.parent / "fixtures" / "labs"
RULES = load_rules()
ESX01 = "esx01.lab.example.net"


def plan(*args: str) -> tuple[int, str]:
    outcome = CliRunner().invoke(cli, ["plan", *args], standalone_mode=False)
    assert outcome.exception is None, outcome.exception
    return outcome.return_value, outcome.stdout


def non_jumbo() -> Snapshot:
    """The clean lab with every switch port, channel, vSwitch1 and vmk at 1500."""
    site = load_site([LABS / "clean"])
    for switch in site.switches:
        for item in [*switch.ports, *switch.port_channels]:
            item.mtu = 1500
    for host in site.esxi_hosts:
        host.vswitches[1].mtu = 1500
        for vmk in host.vmks:
            vmk.mtu = 1500
    return site


def test_a_vmk_mtu_raise_plans_switch_path_then_vswitch_then_vmk() -> None:
    site = non_jumbo()
    result = what_if(site, RULES, ["esx01*/vmk1.mtu=9000"])
    assert [(s.stage, s.device, s.change.action, s.change.target) for s in result.plan.steps] == [
        ("switch", "nx1", "switch-port-mtu", "port-channel11"),
        ("switch", "nx2", "switch-port-mtu", "port-channel11"),
        ("host", ESX01, "host-vswitch-mtu", "vSwitch1"),
        ("vmk", ESX01, "vmk-mtu", "vmk1"),
    ]
    assert result.simulation is not None and result.simulation.accepted
    # Each prerequisite says which request needs it and why.
    for step in result.plan.steps[:3]:
        [why] = [s.message for s in step.sources if s.code == "NEEDS"]
        assert why.startswith("needed by esx01*/vmk1.mtu=9000: ")
    assert "vSwitch1 (MTU 1500) raised first" in result.plan.steps[2].sources[0].message
    # The order is the safety: the vSwitch before its switch path, or the vmk first, is an outage.
    changes = [s.change for s in result.plan.steps]
    vswitch_first = simulate(site, [changes[2], changes[0], changes[1], changes[3]], RULES)
    assert "MT002" in [f.code for f in vswitch_first.first_failure.new_outages]
    vmk_first = simulate(site, [changes[3], *changes[:3]], RULES)
    assert "MT001" in [f.code for f in vmk_first.first_failure.new_outages]


def test_cli_names_prerequisites_and_the_verdict_names_its_objects(tmp_path: Path) -> None:
    code, out = plan(str(LABS / "clean"), "--set", f"{ESX01}/vmk0.mtu=9000")
    assert code == Exit.FINDINGS
    assert f"1. [host] {ESX01}: vSwitch0: MTU 1500 -> 9000  (needed by {ESX01}/vmk0.mtu=9000; MT001;" in out
    assert "why: vmk0 at MTU 9000 needs its vSwitch vSwitch0 (MTU 1500) raised first" in out
    verdict = out.strip().splitlines()[-1]
    assert verdict.startswith("Verdict: NOT safe as given: ")
    assert f"introduces MT001 on {ESX01}/vmk0" in verdict
    assert f"safe with the prerequisite step 1 ({ESX01} vSwitch0) in the order above" in verdict
    # The other vmks of the segment stay at 1500: the plan says so rather than calling it settled.
    assert f"the plan still leaves MT003 on {ESX01}/vmk0" in verdict

    snapshot = tmp_path / "site.json"
    snapshot.write_text(non_jumbo().model_dump_json())
    code, out = plan(str(snapshot), "--set", "esx01*/vmk1.mtu=9000", "--format", "json")
    document = json.loads(out)
    assert code == Exit.FINDINGS and document["plan_accepted"] is True
    assert [(s["device"], s["needed_by"], s["requested"]) for s in document["steps"]] == [
        ("nx1", ["esx01*/vmk1.mtu=9000"], False),
        ("nx2", ["esx01*/vmk1.mtu=9000"], False),
        (ESX01, ["esx01*/vmk1.mtu=9000"], False),
        (ESX01, [], True),
    ]
    assert (
        "prerequisite steps 1-3 (nx1 port-channel11, nx2 port-channel11, esx01.lab.example.net vSwitch1)"
        in (document["verdict"])
    )


def test_a_value_already_set_is_a_no_op_said_so_exit_0() -> None:
    code, out = plan(str(LABS / "clean"), "--set", "esx01*/vmk1.mtu=9000")
    assert code == Exit.CLEAN
    assert f"Already set, no step: {ESX01} vmk1: mtu is already 9000" in out
    assert "As given" not in out and "Order" not in out
    assert out.strip().splitlines()[-1] == f"Verdict: nothing to change: {ESX01} vmk1: mtu is already 9000."
    code, out = plan(str(LABS / "clean"), "--set", "esx01*/vSwitch1.teaming=loadbalance_ip", "--format", "json")
    document = json.loads(out)
    assert code == Exit.CLEAN and document["changes"] == [] and document["steps"] == []
    assert document["introduced"] == [] and document["cleared"] == []
    assert document["already_set"] == [
        {
            "change": "esx01*/vSwitch1.teaming=loadbalance_ip",
            "device": ESX01,
            "target": "vSwitch1",
            "field": "teaming",
            "value": "loadbalance_ip",
        }
    ]


def test_a_pattern_changes_only_the_hosts_not_already_set(tmp_path: Path) -> None:
    site = load_site([LABS / "clean"])
    site.esxi_hosts[2].vswitches[1].mtu = 1500
    for vmk in site.esxi_hosts[2].vmks:
        vmk.mtu = min(vmk.mtu or 1500, 1500)
    snapshot = tmp_path / "site.json"
    snapshot.write_text(site.model_dump_json())
    code, out = plan(str(snapshot), "--set", "esx*/vSwitch1.mtu=9000", "--format", "json")
    document = json.loads(out)
    assert code == Exit.CLEAN, document["verdict"]
    assert [(s["device"], s["action"]) for s in document["steps"]] == [("esx03.lab.example.net", "host-vswitch-mtu")]
    assert [a["device"] for a in document["already_set"]] == [ESX01, "esx02.lab.example.net"]
    assert document["verdict"] == "safe as given: esx*/vSwitch1.mtu=9000 introduces no finding."


def test_a_vmk_on_a_distributed_switch_needs_the_switch_raised_in_vcenter_first() -> None:
    site = load_site([LABS / "jumbo-mismatch"])
    site.distributed_switches[0].max_mtu = 1500
    host = site.esxi_hosts[0]
    host.vmks.append(
        Vmk(name="vmk5", portgroup="dvpg-db-220", dvswitch="lon1-dvs-vm", mtu=1500, ip="10.220.0.11", prefix=24)
    )
    result = what_if(site, RULES, [f"{host.name}/vmk5.mtu=9000"])
    [by_hand] = [m for m in result.plan.manual if m.source.code == "NEEDS"]
    assert by_hand.source.object == "lon1-dvs-vm"
    assert "raise distributed switch lon1-dvs-vm's MTU to 9000 in vCenter" in by_hand.reason
    # Simulated from the state after the by-hand step, the vmk raise leaves no outage.
    assert result.simulation is not None and result.simulation.accepted
    assert [s.change.action for s in result.plan.steps] == ["vmk-mtu"]


def test_verdicts_of_teaming_changes_name_their_steps() -> None:
    code, out = plan(str(LABS / "port-channel-no-ip-hash"), "--set", "esx-mad1-03*/vSwitch1.teaming=loadbalance_ip")
    assert code == Exit.CLEAN
    assert out.strip().splitlines()[-1] == (
        "Verdict: safe as given: esx-mad1-03*/vSwitch1.teaming=loadbalance_ip introduces no finding."
    )
    code, out = plan(str(LABS / "clean"), "--set", "esx02*/vSwitch1.teaming=loadbalance_srcid")
    verdict = out.strip().splitlines()[-1]
    # Going back to port ID with one link of the team forwarding (KB 1022751): nx2's port shut before the
    # host goes to port ID, both channels removed after it, nx2's port back last; each step named.
    assert code == Exit.FINDINGS and "introduces LG006 on esx02.lab.example.net/vSwitch1" in verdict
    assert (
        "the prerequisite steps 1, 3, 4, 5 (nx2 Ethernet1/13, nx1 Ethernet1/13, nx2 Ethernet1/13 and 1 more)" in verdict
    )


def test_lowering_a_vswitch_lowers_its_vmks_first() -> None:
    code, out = plan(str(LABS / "clean"), "--set", "esx01*/vSwitch1.mtu=1500", "--format", "json")
    document = json.loads(out)
    assert code == Exit.FINDINGS and document["plan_accepted"] is True
    assert [(s["stage"], s["action"], s["needed_by"]) for s in document["steps"]] == [
        ("host-undo", "vmk-mtu", ["esx01*/vSwitch1.mtu=1500"]),
        ("host", "host-vswitch-mtu", []),
    ]
    assert "vmk1 (MTU 9000) must be lowered before its vSwitch vSwitch1 goes to 1500" in document["steps"][0]["why"][0]
    assert f"prerequisite step 1 ({ESX01} vmk1)" in document["verdict"]


def test_moving_a_vmk_onto_a_distributed_switch_below_its_mtu_needs_the_switch_raised(tmp_path: Path) -> None:
    site = load_site([LABS / "jumbo-mismatch"])
    site.distributed_switches[0].max_mtu = 1500
    snapshot = tmp_path / "site.json"
    snapshot.write_text(site.model_dump_json())
    host = site.esxi_hosts[0].name
    code, out = plan(str(snapshot), "--set", f"{host}/vmk1.portgroup=lon1-dvs-vm/dvpg-db-220", "--format", "json")
    document = json.loads(out)
    assert code == Exit.FINDINGS and document["plan_accepted"] is True
    [by_hand] = [m for m in document["manual"] if m["action"] == "prerequisite"]
    assert by_hand["object"] == "lon1-dvs-vm" and "MTU to 9000 in vCenter" in by_hand["reason"]
    assert "once done by hand first: raise distributed switch lon1-dvs-vm's MTU to 9000" in document["verdict"]

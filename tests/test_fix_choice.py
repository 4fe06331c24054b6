"""The plan an engineer would choose (issue 13, Deliver 2): among a rule's alternative fixes the least
disruptive that, simulated on the whole site, clears the finding without another; and a removed
port-channel's switchport configuration carried onto its members, restored by the rollback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from hostlint.check import check_snapshot
from hostlint.fixes import build_plan
from hostlint.fixes.plan_md import plan_markdown
from hostlint.fixes.render import render
from hostlint.fixes.simulate import simulate
from hostlint.rules import load_rules
from hostlint.rules.model import Fix
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.esxi import EsxiHost, PhysicalNic, PortGroup, StandardVSwitch, Teaming
from hostlint.snapshot.switch import LoadBalance, PortChannel, Switch, SwitchPort

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
RULES = load_rules()


def eos_site(hash_name: str = "src-dst-ip", mode: str = "static", vlans_read: bool = True) -> Snapshot:
    """esx01 vSwitch1 (port ID, VM-10 on VLAN 10) on leaf1 Ethernet1-2, both in Port-Channel7.

    The channel is a trunk (native 1, VLANs 10 and 20) that owns the members' traffic; the members'
    own configuration is EOS's default, an access port in VLAN 1, as it often is under a channel.
    """
    trunk = {"switchport": "trunk", "native_vlan": 1, "allowed_vlans": [(10, 10), (20, 20)]} if vlans_read else {}
    leaf = Switch(
        name="leaf1",
        platform="arista_eos",
        load_balance=LoadBalance(hash=hash_name),
        ports=[
            SwitchPort(
                name=f"Ethernet{n}",
                status="up",
                mode="access",
                access_vlan=1,
                speed_mbps=10000,
                duplex="full",
                mtu=9214,
                port_channel="Port-Channel7",
                member_state="bundled",
            )
            for n in (1, 2)
        ],
        port_channels=[
            PortChannel(
                name="Port-Channel7", mode=mode, members=["Ethernet1", "Ethernet2"], mtu=9214, status="up", **trunk
            )
        ],
    )
    host = EsxiHost(
        name="esx01",
        vswitches=[
            StandardVSwitch(
                name="vSwitch1",
                mtu=1500,
                uplinks=["vmnic0", "vmnic1"],
                teaming=Teaming(policy="loadbalance_srcid", active=["vmnic0", "vmnic1"]),
            )
        ],
        portgroups=[PortGroup(name="VM-10", vswitch="vSwitch1", vlan=10)],
        pnics=[
            PhysicalNic(
                name=f"vmnic{n}",
                link_up=True,
                speed_mbps=10000,
                duplex="full",
                neighbour=Neighbour(protocol="lldp", device_id="leaf1", port_id=f"Ethernet{n + 1}"),
            )
            for n in (0, 1)
        ],
    )
    return Snapshot(source="test:choice", esxi_hosts=[host], switches=[leaf])


def _keys(snapshot: Snapshot) -> set[tuple[str, str]]:
    return {(f.code, f.object) for f in check_snapshot(snapshot, RULES).findings}


def test_eos_static_channel_with_ip_hash_gets_the_one_host_line() -> None:
    snapshot = eos_site()
    result = check_snapshot(snapshot, RULES)
    assert [(f.code, f.object) for f in result.findings] == [("LG006", "esx01/vSwitch1")]
    plan = build_plan(result, snapshot, rules=RULES)
    assert [(s.device, s.action.action, s.change.after) for s in plan.steps] == [
        ("esx01", "host-teaming", "loadbalance_ip")
    ]
    [choice] = plan.choices
    assert choice.chosen == "host to IP hash"
    assert [(r.name, r.reason) for r in choice.rejected] == [
        ("remove the port-channel", "more disruptive (DISRUPTIVE) than host to IP hash")
    ]
    text = plan_markdown(plan, snapshot)
    assert "- LG006 `esx01/vSwitch1`: **host to IP hash**, not disruptive, 1 step" in text
    assert "  - remove the port-channel: not chosen, more disruptive (DISRUPTIVE) than host to IP hash" in text
    final = simulate(snapshot, [s.change for s in plan.steps], RULES).final
    assert final is not None and not _keys(final)


@pytest.mark.parametrize(("hash_name", "mode"), [("src-dst-mac", "static"), ("src-dst-ip", "lacp-active")])
def test_eos_channel_ip_hash_cannot_use_is_removed_and_members_keep_its_vlans(hash_name: str, mode: str) -> None:
    snapshot = eos_site(hash_name, mode)
    result = check_snapshot(snapshot, RULES)
    assert ("LG006", "esx01/vSwitch1") in {(f.code, f.object) for f in result.findings}
    plan = build_plan(result, snapshot, rules=RULES)
    assert not plan.choices  # host to IP hash does not apply: one candidate, no choice to explain
    # KB 1022751: Ethernet2 shut, the channel removed with Ethernet1 forwarding, Ethernet2 back, with
    # the spanning-tree delay of a port re-entering a trunk named.
    assert [(s.action.action, s.stage, s.change.target) for s in plan.steps] == [
        ("switch-port-admin", "members-down", "Ethernet2"),
        ("switch-remove-port-channel", "switch", "Ethernet1,Ethernet2"),
        ("switch-port-admin", "members-up", "Ethernet2"),
    ]
    # Ethernet1 leaves the channel as a trunk port of its own and Ethernet2 comes back as one: each step
    # makes a new spanning-tree port, so each carries the delay (issue 26, invariant 5).
    assert "Ethernet1: a new spanning-tree port" in " ".join(plan.steps[1].change.notes)
    assert "spanning tree holds it about 30 s" in " ".join(plan.steps[2].change.notes)
    assert "- **REVIEW:** Ethernet2: a new spanning-tree port on a trunk" in plan_markdown(plan, snapshot)
    assert render(plan.steps[0], "arista_eos", "change") == "interface Ethernet2\n   shutdown"
    assert render(plan.steps[2], "arista_eos", "change") == "interface Ethernet2\n   no shutdown"
    # Every state in between keeps a link of the team up and passes the outage rules.
    states = simulate(snapshot, [s.change for s in plan.steps[:1]], RULES)
    assert states.accepted and states.final is not None
    assert [p.link_up for p in states.final.esxi_hosts[0].pnics] == [True, False]
    assert simulate(snapshot, [s.change for s in plan.steps], RULES).accepted
    [step] = [s for s in plan.steps if s.action.action == "switch-remove-port-channel"]
    change = render(step, "arista_eos", "change")
    assert "interface Ethernet1\n   no channel-group\n   switchport mode trunk\n" in change
    assert "   switchport trunk native vlan 1\n   switchport trunk allowed vlan 10,20\n   mtu 9214\n" in change
    assert change.rstrip().endswith("no interface Port-Channel7")
    # Without the carried trunk the members would fall back to access VLAN 1 and VM-10 would lose VLAN 10.
    final = simulate(snapshot, [s.change for s in plan.steps], RULES).final
    assert final is not None
    ports = {p.name: p for p in final.switches[0].ports}
    assert [(ports[n].mode, ports[n].allowed_vlans, ports[n].port_channel) for n in ("Ethernet1", "Ethernet2")] == [
        ("trunk", [(10, 10), (20, 20)], None)
    ] * 2
    assert not final.switches[0].port_channels
    assert not _keys(final) - {(f.code, f.object) for f in result.findings}
    assert ("LG006", "esx01/vSwitch1") not in _keys(final)
    # The rollback recreates the channel with its switchport lines, then gives the members their own back.
    rollback = render(step, "arista_eos", "rollback")
    expected_channel = (
        "interface Port-Channel7\n   switchport mode trunk\n   switchport trunk native vlan 1\n"
        "   switchport trunk allowed vlan 10,20\n   mtu 9214\n"
    )
    assert rollback.startswith(expected_channel)
    member = "interface Ethernet1\n   switchport mode access\n   switchport access vlan 1\n"
    assert member + "   channel-group 7 mode " + ("on" if mode == "static" else "active") in rollback


def test_a_channel_whose_vlans_were_not_collected_is_not_removed_by_script() -> None:
    snapshot = eos_site("src-dst-mac", vlans_read=False)
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, rules=RULES)
    assert not [s for s in plan.steps if s.action.action == "switch-remove-port-channel"]
    [manual] = [m for m in plan.manual if m.action == "switch-remove-port-channel"]
    assert "Port-Channel7: its switchport and VLAN configuration was not collected" in manual.reason


def test_unstacked_switches_go_to_port_id_and_lose_their_channels() -> None:
    snapshot = load_site([LABS / "ip-hash-unstacked-switches"])
    result = check_snapshot(snapshot, RULES)
    plan = build_plan(result, snapshot, rules=RULES)
    # One link keeps forwarding (KB 1022751): fra-sw2's port is shut first and back last.
    assert [(s.device, s.action.action, s.stage, s.change.after) for s in plan.steps] == [
        ("fra-sw2", "switch-port-admin", "members-down", "down"),
        ("esx-fra-02.colo.example.de", "host-teaming", "host-undo", "loadbalance_srcid"),
        ("fra-sw1", "switch-remove-port-channel", "switch", "no channel"),
        ("fra-sw2", "switch-remove-port-channel", "switch", "no channel"),
        ("fra-sw2", "switch-port-admin", "members-up", "up"),
    ]
    assert plan.steps[0].change.values["ports"] == ["Ethernet1/13"]
    assert simulate(snapshot, [s.change for s in plan.steps], RULES).accepted
    [choice] = plan.choices
    assert choice.chosen == "port ID on independent ports"
    [(name, reason)] = [(r.name, r.reason) for r in choice.rejected]
    assert name == "one port-channel with IP hash"
    assert "could not script it" in reason and "not one logical switch" in reason
    final = simulate(snapshot, [s.change for s in plan.steps], RULES).final
    assert final is not None
    assert not _keys(final) & {("LG001", "esx-fra-02.colo.example.de/vSwitch1")}
    assert not _keys(final) - {(f.code, f.object) for f in result.findings}


def test_a_finding_with_one_applicable_alternative_plans_as_before() -> None:
    """The port-channel-no-ip-hash lab: a static vPC with an IP hash, so LG006 sets IP hash on the host."""
    snapshot = load_site([LABS / "port-channel-no-ip-hash"])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, rules=RULES)
    assert [(s.action.action, s.change.after) for s in plan.steps] == [("host-teaming", "loadbalance_ip")]


def test_a_fix_has_steps_or_several_alternatives() -> None:
    step = {"action": "host-teaming", "stage": "host"}
    alternative = {"name": "a", "why": "b", "steps": [step]}
    with pytest.raises(ValidationError, match="not both"):
        Fix.model_validate(
            {"applicability": "safe", "summary": "s", "steps": [step], "alternatives": [alternative] * 2}
        )
    with pytest.raises(ValidationError, match="write them there"):
        Fix.model_validate({"applicability": "safe", "summary": "s", "alternatives": [alternative]})
    with pytest.raises(ValidationError, match="one line"):
        Fix.model_validate(
            {"applicability": "safe", "summary": "s", "alternatives": [alternative, {**alternative, "why": "x\ny"}]}
        )


LAB_NAMES = sorted(p.name for p in LABS.iterdir() if (p / "expected.yaml").is_file())


@pytest.mark.parametrize("lab", LAB_NAMES)
def test_every_lab_plan_passes_the_outage_rules_at_every_state(lab: str) -> None:
    """Shut members included: a plan never passes through a state with an outage the site did not have."""
    snapshot = load_site([LABS / lab])
    plan = build_plan(check_snapshot(snapshot, RULES), snapshot, rules=RULES)
    simulation = simulate(snapshot, [s.change for s in plan.steps], RULES)
    failure = simulation.first_failure
    assert failure is None, (failure.step, failure.change.action, [(f.code, f.object) for f in failure.new_outages])


def test_port_id_over_unstacked_channels_loses_them_rather_than_going_to_ip_hash() -> None:
    """IP hash on the host would match each static channel's hash, but two unstacked switches cannot
    share one channel: simulated, it gives LG001 and LG004, so the channels go instead."""
    snapshot = load_site([LABS / "ip-hash-unstacked-switches"])
    host = next(h for h in snapshot.esxi_hosts if h.name == "esx-fra-02.colo.example.de")
    next(v for v in host.vswitches if v.name == "vSwitch1").teaming.policy = "loadbalance_srcid"
    result = check_snapshot(snapshot, RULES)
    assert [(f.code, f.object) for f in result.findings] == [("LG006", "esx-fra-02.colo.example.de/vSwitch1")]
    plan = build_plan(result, snapshot, rules=RULES)
    assert [(s.device, s.action.action) for s in plan.steps] == [
        ("fra-sw2", "switch-port-admin"),
        ("fra-sw1", "switch-remove-port-channel"),
        ("fra-sw2", "switch-remove-port-channel"),
        ("fra-sw2", "switch-port-admin"),
    ]
    [choice] = plan.choices
    assert choice.chosen == "remove the port-channel"
    [rejected] = choice.rejected
    assert rejected.name == "host to IP hash"
    assert rejected.reason.startswith("it would give LG001 (esx-fra-02.colo.example.de/vSwitch1: routes by IP hash")
    assert "; LG004 (esx-fra-02.colo.example.de/vSwitch1: bundles its uplinks" in rejected.reason
    text = plan_markdown(plan, snapshot)
    assert "  - host to IP hash: not chosen, it would give LG001" in text

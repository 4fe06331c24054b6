"""Fix scripts for KVM findings: nmcli / iproute2 / virsh host scripts, the switch side of LACP bonds,
the KVM lab's plan proven by simulated apply, and goldens per platform.

Golden files live under tests/golden/fixes/kvm/<platform>/; regenerate them after a deliberate change
with `HOSTLINT_UPDATE_GOLDEN=1 pytest tests/test_fixes_kvm.py` and review the diff.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from support.kvm_sites import LAB, SWITCH_NAMES, kvm_site, lab, lab_plan, lab_result

from hostlint.check import check_snapshot
from hostlint.fixes import build_plan, write_scripts
from hostlint.fixes.actions.switch_channel_mode_static import channel_mode_static
from hostlint.fixes.facts import parse_fact
from hostlint.fixes.simulate import simulate
from hostlint.fixes.site import Site
from hostlint.fixes.steps import Change
from hostlint.join import build_facts
from hostlint.join.facts import BondFact, GuestNicFact
from hostlint.results import CheckResult
from hostlint.rules import load_rules
from hostlint.rules.model import Rule
from hostlint.snapshot import Snapshot, load_site
from hostlint.snapshot.kvm import LibvirtNetwork

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "fixes" / "kvm"
UPDATE = os.environ.get("HOSTLINT_UPDATE_GOLDEN") == "1"
LAG_CODES = {"LG101", "LG102", "LG103", "LG104"}

# --- goldens --------------------------------------------------------------------------------------


def _compare_golden(directory: Path, produced: dict[str, str]) -> None:
    if UPDATE:
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.iterdir():
            stale.unlink()
        for name, text in produced.items():
            (directory / name).write_text(text, encoding="utf-8")
    expected = {p.name: p.read_text(encoding="utf-8") for p in directory.iterdir()} if directory.is_dir() else {}
    assert sorted(produced) == sorted(expected), "set HOSTLINT_UPDATE_GOLDEN=1 to (re)write the goldens"
    for name, text in produced.items():
        assert text == expected[name], f"{directory.name}/{name} differs from its golden file"


@pytest.mark.parametrize("platform", ["nmcli", "iproute2", "virsh"])
def test_golden_kvm_host_scripts(platform: str, tmp_path: Path) -> None:
    """The KVM lab's host scripts per host platform (with their rollbacks); PLAN.md once, with nmcli. The
    virsh scripts are kvm-jumbo-path's: its app02 is lowered in the guest (its switch port carries 1500),
    where kvm-bonds raises db01's host path instead."""
    snapshot = lab() if platform != "virsh" else load_site([ROOT / "fixtures" / "labs" / "kvm-jumbo-path"])
    written = write_scripts(lab_result(snapshot), snapshot, tmp_path)
    produced = {
        p.name: p.read_text(encoding="utf-8")
        for p in written
        if p.name.endswith(f".{platform}.sh") or (platform == "nmcli" and p.name == "PLAN.md")
    }
    assert produced, f"no {platform} script written"
    _compare_golden(GOLDEN / platform, produced)


@pytest.mark.parametrize("platform", sorted(SWITCH_NAMES))
def test_golden_switch_lacp(platform: str, tmp_path: Path) -> None:
    """switch-channel-mode-lacp (kvm02's static channel 20 -> LACP) on every switch platform."""
    snapshot = kvm_site(platform)
    written = write_scripts(lab_result(snapshot), snapshot, tmp_path)
    produced = {p.name: p.read_text(encoding="utf-8") for p in written if p.name.endswith(f".{platform}.txt")}
    assert set(produced) == {f"sw1.{platform}.txt", f"sw1.rollback.{platform}.txt"}
    _compare_golden(GOLDEN / platform, produced)


# --- what the plan holds --------------------------------------------------------------------------


def test_facts_come_back_typed_and_site_finds_kvm_hosts() -> None:
    snapshot = lab()
    facts = build_facts(snapshot)
    bond = next(b for b in facts.bonds if b.object == "kvm01.lab.example/bond0")
    nic = next(n for n in facts.guest_nics if n.domain == "db01")
    parsed_bond, parsed_nic = parse_fact(bond.model_dump()), parse_fact(nic.model_dump())
    assert type(parsed_bond) is BondFact and parsed_bond == bond
    assert type(parsed_nic) is GuestNicFact and parsed_nic == nic
    site = Site(snapshot)
    assert site.is_kvm("kvm01.lab.example") and not site.is_kvm("leaf1")
    assert site.bond("kvm02.lab.example", "bond0").mode == "802.3ad"
    assert site.domain_interface("kvm01.lab.example", "db01", "52:54:00:1A:00:01").mtu == 9000


def test_lab_plan_steps_platforms_and_order() -> None:
    plan = lab_plan(lab())
    rows = [(s.number, s.stage, s.device, s.action.action, s.change.platforms, s.codes) for s in plan.steps]
    assert rows == [
        (1, "switch", "leaf1", "switch-channel-mode-lacp", ("arista_eos",), ["LG101"]),
        (2, "host", "kvm01.lab.example", "bond-mode", ("nmcli", "iproute2"), ["LG102"]),
        (3, "host", "kvm01.lab.example", "host-path-mtu", ("nmcli", "iproute2"), ["MT101"]),
    ]
    # LG102 is fixed on one side only: the bond goes 802.3ad, leaf1's LACP channel 10 is left alone.
    assert not any(s.action.action == "switch-channel-mode-static" for s in plan.steps)
    bond = plan.steps[1].change
    assert (bond.before, bond.after) == ("balance-xor", "802.3ad")
    assert bond.values["options"] == {"mode": "802.3ad", "miimon": 100, "xmit_hash_policy": "layer2+3"}
    # leaf1's ports bridge 9196-byte packets: db01's 9000 is carried, so its host path is raised (as ESXi's
    # vSwitch is for a vmk), bottom up: the NICs, the bond, then the bridge; the guest stays at 9000.
    path = plan.steps[2].change
    assert path.values["hops"] == [
        {"name": name, "kind": kind, "before": 1500, "ovs": False}
        for name, kind in [("eno1", "physical"), ("eno2", "physical"), ("bond0", "bond"), ("br0", "bridge")]
    ]
    assert (path.target, path.before, path.after) == ("br0", 1500, 9000)
    assert plan.manual == [] and plan.conflicts == []
    # LG010 (eno1, eno2 suspended in the LACP channel) has no script: the bond-mode step cures it.
    # LG012 (kvm03's hot-standby eno3) is a designed standby: a note, no script.
    assert sorted(f.code for f in plan.advice) == ["LG010", "LG010", "LG012", "VN101"]


def test_unsafe_kvm_fixes_are_held_back_without_the_flag(tmp_path: Path) -> None:
    snapshot = lab()
    written = write_scripts(lab_result(snapshot), snapshot, tmp_path, unsafe=False)
    assert sorted(p.name for p in written) == ["PLAN.md"]
    plan_md = (tmp_path / "PLAN.md").read_text(encoding="utf-8")
    held = plan_md.split("## Held back: unsafe fixes", 1)[1].split("\n## ", 1)[0]
    assert "LG101 `kvm02.lab.example/bond0`" in held and "LG102 `kvm01.lab.example/bond0`" in held
    # MT101's fix is unsafe: raising the host path resets NIC links for a moment.
    assert "MT101 `kvm01.lab.example/db01/52:54:00:1a:00:01`" in held


def test_each_host_kind_keeps_its_platforms() -> None:
    """One site with ESXi and KVM hosts: ESXi steps render for esxcli / PowerCLI / vSphere API only, KVM host
    steps for nmcli / iproute2, guest steps for virsh.
    """
    # kvm-jumbo-path's app02 is lowered in the guest (virsh): its switch port carries 1500 only.
    snapshot = load_site([ROOT / "fixtures" / "labs" / "clean", LAB, ROOT / "fixtures" / "labs" / "kvm-jumbo-path"])
    for switch in snapshot.switches:
        if switch.name == "nx2":
            # esx01's vmnic3 out of its vPC channel: LG001, whose fix has ESXi host steps.
            next(p for p in switch.ports if p.name == "Ethernet1/11").port_channel = None
            next(c for c in switch.port_channels if c.name == "port-channel11").members = []
    plan = build_plan(check_snapshot(snapshot, load_rules()), snapshot, unsafe=True)
    site = Site(snapshot)
    by_kind: dict[str, set[str]] = {}
    for step in plan.steps:
        if step.action.device != "host":
            continue
        kind = "guest" if step.action.action.startswith("guest-") else "kvm" if site.is_kvm(step.device) else "esxi"
        by_kind.setdefault(kind, set()).update(step.change.platforms)
    assert by_kind == {
        "esxi": {"esxcli", "powercli", "vsphere-api"},
        "kvm": {"nmcli", "iproute2"},
        "guest": {"virsh"},
    }


def test_display_only_guest_model_is_advice_with_commands(tmp_path: Path) -> None:
    snapshot = lab()
    write_scripts(lab_result(snapshot), snapshot, tmp_path)
    assert not any("guest-nic-model" in p.read_text(encoding="utf-8") for p in tmp_path.glob("*.sh"))
    advice = (tmp_path / "PLAN.md").read_text(encoding="utf-8").split("## Advice (not scripted)", 1)[1]
    advice = advice.split("\n## ", 1)[0]
    assert "virt-xml legacy01 --edit mac=52:54:00:1a:00:02 --network model=virtio" in advice
    assert "REVIEW: install the virtio drivers in legacy01 first" in advice


def test_an_open_vswitch_path_is_raised_through_ovsdb(tmp_path: Path) -> None:
    """kvm01's bond0 and br0 as Open vSwitch's: the NICs and the bridge's internal interface take
    `mtu_request` (ovs-vswitchd resets an MTU set with `ip link`); the OVS bond, a Port with no netdev
    of its own, is left out: its members carry its MTU."""
    snapshot = lab()
    host = snapshot.kvm_hosts[0]
    host.bonds[0].implementation = "ovs"
    host.bridges[0].implementation = "ovs"
    plan = lab_plan(snapshot)
    [step] = [s for s in plan.steps if s.action.action == "host-path-mtu"]
    assert [(h["name"], h["ovs"]) for h in step.change.values["hops"]] == [
        ("eno1", True),
        ("eno2", True),
        ("br0", True),
    ]
    write_scripts(lab_result(snapshot), snapshot, tmp_path)
    for name in ("kvm01.lab.example.iproute2.sh", "kvm01.lab.example.nmcli.sh"):
        block = _blocks((tmp_path / name).read_text(encoding="utf-8"))[step.number]
        commands = [line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith("#")]
        assert commands == [f"ovs-vsctl set Interface {n} mtu_request=9000" for n in ("eno1", "eno2", "br0")], name


def test_a_libvirt_network_bridge_raised_says_to_set_the_network_mtu_too() -> None:
    """nfs01 on libvirt network `storage` (forward mode bridge, br-stor): libvirt sets the bridge's MTU from
    the network's definition when it starts the network, so the runtime raise alone would not last."""
    snapshot = load_site([ROOT / "fixtures" / "labs" / "kvm-jumbo-path"])
    host = snapshot.kvm_hosts[0]
    host.networks = [LibvirtNetwork(name="storage", forward_mode="bridge", bridge="br-stor")]
    nic = host.domains[0].interfaces[0]
    nic.source_type, nic.source = "network", "storage"
    [step] = [s for s in lab_plan(snapshot).steps if s.action.action == "host-path-mtu"]
    assert [h["name"] for h in step.change.values["hops"]] == ["eno1", "br-stor"]
    assert any("virsh net-edit storage" in note and "<mtu size='9000'/>" in note for note in step.change.notes)


def test_only_what_is_below_the_guest_is_raised() -> None:
    """kvm04's eno1 already at 9000 under a 1500 br-stor: only the bridge is raised, and no NIC link resets."""
    snapshot = load_site([ROOT / "fixtures" / "labs" / "kvm-jumbo-path"])
    next(i for i in snapshot.kvm_hosts[0].interfaces if i.name == "eno1").mtu = 9000
    [step] = [s for s in lab_plan(snapshot).steps if s.action.action == "host-path-mtu"]
    assert step.change.values["hops"] == [{"name": "br-stor", "kind": "bridge", "before": 1500, "ovs": False}]
    assert step.change.notes[0] == (
        "the switch ports under br-stor carry 9200 (eno1 -> leaf2 Ethernet9 9200): raised bottom up, so no hop "
        "is ever larger than the one below it"
    )


def test_ovs_bond_mode_is_left_to_a_person() -> None:
    snapshot = lab()
    bond = next(b for b in snapshot.kvm_hosts[0].bonds if b.name == "bond0")
    bond.implementation = "ovs"
    plan = lab_plan(snapshot)
    assert not any(s.action.action == "bond-mode" for s in plan.steps)
    manual = [(m.source.code, m.action) for m in plan.manual]
    assert ("LG102", "bond-mode") in manual
    assert "ovs-vsctl" in next(m.reason for m in plan.manual if m.action == "bond-mode")


# --- the scripts ----------------------------------------------------------------------------------


def _blocks(script: str) -> dict[int, str]:
    return {int(n): body for n, body in re.findall(r"^step_(\d+)\(\) \{\n(.*?)^\}", script, flags=re.M | re.S)}


def test_scripts_change_and_roll_back_one_step_at_a_time(tmp_path: Path) -> None:
    snapshot = lab()
    write_scripts(lab_result(snapshot), snapshot, tmp_path)
    nmcli = _blocks((tmp_path / "kvm01.lab.example.nmcli.sh").read_text(encoding="utf-8"))[2]
    assert 'nmcli connection modify "$con" bond.options mode=802.3ad,miimon=100,xmit_hash_policy=layer2+3' in nmcli
    assert 'nmcli connection up "$con"' in nmcli
    undo_nmcli = _blocks((tmp_path / "kvm01.lab.example.rollback.nmcli.sh").read_text(encoding="utf-8"))[2]
    assert "bond.options mode=balance-xor,miimon=100,xmit_hash_policy=layer2+3" in undo_nmcli
    # The kernel changes a bond's mode only while it is down and has no ports: release, set, re-enslave.
    runtime = _blocks((tmp_path / "kvm01.lab.example.iproute2.sh").read_text(encoding="utf-8"))[2]
    order = [
        "ip link set dev bond0 down",
        "ip link set dev eno1 nomaster",
        "ip link set dev bond0 type bond mode 802.3ad",
        "ip link set dev eno1 master bond0",
        "ip link set dev bond0 up",
    ]
    positions = [runtime.index(line) for line in order]
    assert positions == sorted(positions)
    iproute2 = (tmp_path / "kvm01.lab.example.iproute2.sh").read_text(encoding="utf-8")
    assert "RUNTIME ONLY" in iproute2
    # db01's path: raised bottom up (a bridge set last keeps its MTU), lowered top down.
    mtu_lines = [line.strip() for line in _blocks(iproute2)[3].splitlines() if line.strip().startswith("ip link")]
    assert mtu_lines == [f"ip link set dev {name} mtu 9000" for name in ("eno1", "eno2", "bond0", "br0")]
    undo_runtime = _blocks((tmp_path / "kvm01.lab.example.rollback.iproute2.sh").read_text(encoding="utf-8"))[3]
    undo_lines = [line.strip() for line in undo_runtime.splitlines() if line.strip().startswith("ip link")]
    assert undo_lines == [f"ip link set dev {name} mtu 1500" for name in ("br0", "bond0", "eno2", "eno1")]
    leaf = (tmp_path / "leaf1.rollback.arista_eos.txt").read_text(encoding="utf-8")
    assert "channel-group 20 mode on" in leaf
    plan_md = (tmp_path / "PLAN.md").read_text(encoding="utf-8")
    for number in (2, 3):
        assert (
            f"- **Run:** `sh kvm01.lab.example.nmcli.sh {number}` or `sh kvm01.lab.example.iproute2.sh {number}`"
            in plan_md
        )
    undo = [int(n) for n in re.findall(r"^\d+\. Undo step (\d+) ", plan_md, flags=re.M)]
    assert undo == [3, 2, 1]
    for path in tmp_path.glob("*.sh"):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("#!/bin/sh\n") and "set -eu" in text and 'case "${1:-}" in' in text


# --- simulated apply ------------------------------------------------------------------------------


def _as_outages(rules: list[Rule], codes: set[str]) -> list[Rule]:
    """The rules with `codes` treated as outages, as an engineer in a change window would treat them."""
    return [rule.model_copy(update={"outage": True}) if rule.code in codes else rule for rule in rules]


def test_lab_plan_simulates_to_a_clean_state() -> None:
    snapshot = lab()
    plan = lab_plan(snapshot)
    rules = load_rules()
    simulation = simulate(snapshot, [s.change for s in plan.steps], rules)
    assert simulation.accepted
    remaining = {(f.code, f.object) for f in check_snapshot(simulation.final, rules).findings}
    # kvm03's hot-standby eno3 (max-bundle) is a designed standby the plan leaves alone.
    assert remaining == {
        ("VN101", "kvm01.lab.example/legacy01/52:54:00:1a:00:02"),
        ("LG012", "kvm03.lab.example/eno3"),
    }
    # The start is untouched; the end shows what /proc/net/bonding will: LACP negotiated on every host.
    assert {b.mode for h in snapshot.kvm_hosts for b in h.bonds} == {"balance-xor", "802.3ad"}
    for host in simulation.final.kvm_hosts:
        bond = host.bonds[0]
        assert bond.mode == "802.3ad" and bond.partner_mac == "00:1c:73:5e:10:01"
        assert {m.aggregator_id for m in bond.members} == {1}


def test_lab_plan_passes_through_no_new_lag_finding() -> None:
    """With every bond/channel rule treated as an outage, no intermediate state adds one."""
    snapshot = lab()
    plan = lab_plan(snapshot)
    simulation = simulate(snapshot, [s.change for s in plan.steps], _as_outages(load_rules(), LAG_CODES))
    assert simulation.accepted, simulation.first_failure


def test_changing_both_sides_of_a_bond_is_rejected() -> None:
    """LG102 on kvm01 can be fixed on the host (802.3ad) or on the switch (static); doing both breaks it again.

    That is why the rule asks for one side only: after the bond is 802.3ad, a static channel 10 leaves
    an LACP bond facing a static channel, and the simulation names that state (LG101).
    """
    snapshot = lab()
    plan = lab_plan(snapshot)
    lg102 = CheckResult(findings=[f for f in lab_result(snapshot).findings if f.code == "LG102"])
    assert [(s.device, s.action.action) for s in build_plan(lg102, snapshot).steps] == [
        ("kvm01.lab.example", "bond-mode")
    ]
    static = _static_channel_change(snapshot)
    changes = [s.change for s in plan.steps] + [static]
    simulation = simulate(snapshot, changes, _as_outages(load_rules(), LAG_CODES))
    assert not simulation.accepted
    failure = simulation.first_failure
    assert failure.change is static
    assert ("LG101", "kvm01.lab.example/bond0") in {(f.code, f.object) for f in failure.new_outages}


def _static_channel_change(snapshot: Snapshot) -> Change:
    """The switch-side alternative for kvm01's LG102: leaf1 Port-Channel10 made static."""
    bond = next(b for b in build_facts(snapshot).bonds if b.object == "kvm01.lab.example/bond0")
    [change] = channel_mode_static({}, bond, Site(snapshot))
    return change


def test_the_switch_step_alone_fixes_the_lacp_bond() -> None:
    """kvm02's bond already speaks LACP: leaf1's channel going LACP clears LG101 and LG104 with no host step."""
    snapshot = lab()
    plan = lab_plan(snapshot)
    switch = next(s for s in plan.steps if s.action.action == "switch-channel-mode-lacp")
    simulation = simulate(snapshot, [switch.change], load_rules())
    remaining = {(f.code, f.object) for f in check_snapshot(simulation.final, load_rules()).findings}
    assert not {("LG101", "kvm02.lab.example/bond0"), ("LG104", "kvm02.lab.example/bond0")} & remaining
    assert ("LG102", "kvm01.lab.example/bond0") in remaining


def test_failover_bond_in_a_channel_loses_the_channel() -> None:
    """LG103: an active-backup bond in a static channel; the switch ports leave the channel, the bond stays."""
    snapshot = kvm_site("cisco_ios")
    snapshot.kvm_hosts[1].bonds[0].mode = "active-backup"
    result = CheckResult(findings=[f for f in lab_result(snapshot).findings if f.object == "kvm02/bond0"])
    assert [f.code for f in result.findings] == ["LG103"]
    plan = build_plan(result, snapshot)
    assert [(s.device, s.action.action, s.change.values["members"]) for s in plan.steps] == [
        ("sw1", "switch-remove-port-channel", ["TenGigabitEthernet1/0/3", "TenGigabitEthernet1/0/4"])
    ]
    simulation = simulate(snapshot, [s.change for s in plan.steps], load_rules())
    assert simulation.accepted
    remaining = {(f.code, f.object) for f in check_snapshot(simulation.final, load_rules()).findings}
    assert not any(obj == "kvm02/bond0" for _, obj in remaining)

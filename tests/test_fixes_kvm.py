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
    """The KVM lab's host scripts per host platform (with their rollbacks); PLAN.md once, with nmcli."""
    snapshot = lab()
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
        (1, "host-undo", "kvm01.lab.example", "guest-nic-mtu", ("virsh",), ["MT101"]),
        (2, "switch", "leaf1", "switch-channel-mode-lacp", ("arista_eos",), ["LG101"]),
        (3, "host", "kvm01.lab.example", "bond-mode", ("nmcli", "iproute2"), ["LG102"]),
    ]
    # LG102 is fixed on one side only: the bond goes 802.3ad, leaf1's LACP channel 10 is left alone.
    assert not any(s.action.action == "switch-channel-mode-static" for s in plan.steps)
    bond = plan.steps[2].change
    assert (bond.before, bond.after) == ("balance-xor", "802.3ad")
    assert bond.values["options"] == {"mode": "802.3ad", "miimon": 100, "xmit_hash_policy": "layer2+3"}
    assert plan.steps[0].change.values == {"domain": "db01", "mac": "52:54:00:1a:00:01"}
    assert (plan.steps[0].change.before, plan.steps[0].change.after) == (9000, 1500)
    assert plan.manual == [] and plan.conflicts == []
    # LG010 (eno1, eno2 suspended in the LACP channel) has no script: the bond-mode step cures it.
    # LG012 (kvm03's hot-standby eno3) is a designed standby: a note, no script.
    assert sorted(f.code for f in plan.advice) == ["LG010", "LG010", "LG012", "VN101"]


def test_unsafe_kvm_fixes_are_held_back_without_the_flag(tmp_path: Path) -> None:
    snapshot = lab()
    written = write_scripts(lab_result(snapshot), snapshot, tmp_path, unsafe=False)
    assert sorted(p.name for p in written) == [
        "PLAN.md",
        "kvm01.lab.example.rollback.virsh.sh",
        "kvm01.lab.example.virsh.sh",
    ]
    plan_md = (tmp_path / "PLAN.md").read_text(encoding="utf-8")
    held = plan_md.split("## Held back: unsafe fixes", 1)[1].split("\n## ", 1)[0]
    assert "LG101 `kvm02.lab.example/bond0`" in held and "LG102 `kvm01.lab.example/bond0`" in held


def test_each_host_kind_keeps_its_platforms() -> None:
    """One site with ESXi and KVM hosts: ESXi steps render for esxcli / PowerCLI / vSphere API only, KVM host
    steps for nmcli / iproute2, guest steps for virsh.
    """
    snapshot = load_site([ROOT / "fixtures" / "labs" / "clean", LAB])
    for switch in snapshot.switches:
        if switch.name == "nx2":
            # esx01's vmnic3 out of its vPC channel: LG001, whose fix has ESXi host steps.
            next(p for p in switch.ports if p.name == "Ethernet1/11").port_channel = None
            next(c for c in switch.port_channels if c.name == "port-channel11").members = []
    plan = build_plan(check_snapshot(snapshot, load_rules()), snapshot)
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
    nmcli = _blocks((tmp_path / "kvm01.lab.example.nmcli.sh").read_text(encoding="utf-8"))[3]
    assert 'nmcli connection modify "$con" bond.options mode=802.3ad,miimon=100,xmit_hash_policy=layer2+3' in nmcli
    assert 'nmcli connection up "$con"' in nmcli
    undo_nmcli = _blocks((tmp_path / "kvm01.lab.example.rollback.nmcli.sh").read_text(encoding="utf-8"))[3]
    assert "bond.options mode=balance-xor,miimon=100,xmit_hash_policy=layer2+3" in undo_nmcli
    # The kernel changes a bond's mode only while it is down and has no ports: release, set, re-enslave.
    runtime = _blocks((tmp_path / "kvm01.lab.example.iproute2.sh").read_text(encoding="utf-8"))[3]
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
    virsh = _blocks((tmp_path / "kvm01.lab.example.virsh.sh").read_text(encoding="utf-8"))[1]
    assert "virt-xml db01 --edit mac=52:54:00:1a:00:01 --network mtu.size=1500" in virsh
    undo_virsh = _blocks((tmp_path / "kvm01.lab.example.rollback.virsh.sh").read_text(encoding="utf-8"))[1]
    assert "--network mtu.size=9000" in undo_virsh
    leaf = (tmp_path / "leaf1.rollback.arista_eos.txt").read_text(encoding="utf-8")
    assert "channel-group 20 mode on" in leaf
    plan_md = (tmp_path / "PLAN.md").read_text(encoding="utf-8")
    assert "- **Run:** `sh kvm01.lab.example.nmcli.sh 3` or `sh kvm01.lab.example.iproute2.sh 3`" in plan_md
    assert "- **Run:** `sh kvm01.lab.example.virsh.sh 1`" in plan_md
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

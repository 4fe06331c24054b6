"""LG104 reads each member's aggregator and partner (/proc/net/bonding), so an 802.3ad bond that never
aggregated fires even when the file has no active-aggregator summary; MT102 compares an Open vSwitch
bond's member MTUs (an OVS bond has no netdev of its own)."""

from __future__ import annotations

import re
from pathlib import Path

from hostlint.collect.kvm.bonding import parse_bonding
from hostlint.join import build_facts
from hostlint.rules import load_rules
from hostlint.rules.engine import run_rules
from hostlint.snapshot import Snapshot
from hostlint.snapshot.kvm import Bond, BondMember, Bridge, KvmHost, LinuxInterface

CAPTURES = Path(__file__).resolve().parent.parent / "fixtures" / "kvm" / "bonding"
RULES = {rule.code: rule for rule in load_rules()}


def _host(bond: Bond, mtus: dict[str, int | None]) -> KvmHost:
    members = [m.name for m in bond.members]
    phys = dict(kind="physical", speed_mbps=10000, duplex="full", operstate="up")
    return KvmHost(
        name="kvm5",
        interfaces=[
            *(LinuxInterface(name=m, mtu=mtus.get(m), master=bond.name, **phys) for m in members),  # type: ignore[arg-type]
            *([LinuxInterface(name=bond.name, kind="bond", mtu=mtus[bond.name])] if bond.name in mtus else []),
        ],
        bonds=[bond],
    )


def _without_summary(text: str) -> str:
    """The capture as a kernel prints it while no aggregator is active: no `Active Aggregator Info`."""
    return re.sub(r"Active Aggregator Info:\n(\t.*\n)+", "", text)


def _lg104(bond: Bond):
    facts = build_facts(Snapshot(kvm_hosts=[_host(bond, {})]))
    return run_rules([RULES["LG104"]], facts), facts.bonds[0]


def test_a_bond_that_never_aggregated_fires_from_its_members() -> None:
    bond = parse_bonding("bond2", _without_summary((CAPTURES / "802.3ad-no-partner").read_text()))
    assert (bond.partner_mac, bond.active_aggregator_id) == (None, None)
    assert [(m.aggregator_id, m.partner_mac) for m in bond.members] == [
        (1, "00:00:00:00:00:00"),
        (2, "00:00:00:00:00:00"),
    ]
    result, fact = _lg104(bond)
    assert fact.partner_mac == "00:00:00:00:00:00"
    assert fact.outside_aggregator == ["eth2 in aggregator 1", "eth3 in aggregator 2"]
    assert [f.object for f in result.findings] == ["kvm5/bond2"]


def test_a_negotiated_bond_passes_and_one_without_any_partner_shown_is_skipped() -> None:
    negotiated = parse_bonding("bond0", (CAPTURES / "802.3ad-negotiated").read_text())
    result, _ = _lg104(negotiated)
    assert not result.findings and [p.object for p in result.passed] == ["kvm5/bond0"]
    unknown = Bond(
        name="bond7",
        mode="802.3ad",
        members=[BondMember(name="eno1", link_up=True), BondMember(name="eno2", link_up=True)],
    )
    result, _ = _lg104(unknown)
    assert not result.findings and not result.passed
    assert (
        "bond7: lacp partner unknown (/proc/net/bonding/bond7 (802.3ad partner) not read)" in result.skipped[0].reason
    )


def _ovs(mtus: dict[str, int | None]):
    bond = Bond(
        name="bond1",
        implementation="ovs",
        mode="balance-slb",
        members=[BondMember(name="eno1", link_up=True), BondMember(name="eno2", link_up=True)],
    )
    host = _host(bond, mtus)
    host.bridges = [Bridge(name="br-vm", members=["bond1"], implementation="ovs")]
    host.interfaces.append(LinuxInterface(name="br-vm", kind="ovs", mtu=mtus.get("br-vm")))
    return run_rules([RULES["MT102"]], build_facts(Snapshot(kvm_hosts=[host])))


def test_mt102_compares_an_ovs_bonds_member_mtus() -> None:
    assert [f.object for f in _ovs({"eno1": 9000, "eno2": 1500, "br-vm": 1500}).findings] == ["kvm5/bond1"]
    agreeing = _ovs({"eno1": 9000, "eno2": 9000, "br-vm": 9000})
    assert not agreeing.findings and not agreeing.skipped and [p.object for p in agreeing.passed] == ["kvm5/bond1"]
    # The bridge above the members carries more than the smallest member passes.
    assert [f.object for f in _ovs({"eno1": 9000, "eno2": 9000, "br-vm": 9100}).findings] == ["kvm5/bond1"]

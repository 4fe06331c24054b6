"""Open vSwitch port VLANs on KVM hosts: OVSDB's JSON read, joined to the uplinks' switch ports as
`portgroups` facts, and the VLAN rules run on them; unread VLANs stay unknown and the rules say so."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from hostlint.check import check_snapshot
from hostlint.collect.kvm.host import Gathered, _ovs_port_vlans
from hostlint.collect.kvm.ovs import PORT_VLANS_COMMAND, OvsParseError, parse_bridge_ports, parse_port_vlans
from hostlint.collect.kvm.runner import Done, Reads
from hostlint.join import build_facts
from hostlint.rules.load import load_rules
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.kvm import Bond, BondMember, Bridge, KvmHost, LinuxInterface, OvsPort, Vlan
from hostlint.snapshot.switch import Switch, SwitchPort

# `ovs-vsctl --format=json --columns=name,tag,trunks,vlan_mode list Port` as OVS 2.17 prints it: a
# one-element set is its bare value, an empty or larger one ["set", [...]].
PORTS_JSON = (
    '{"data":[["vnet0",30,["set",[]],["set",[]]],'
    '["br-vm",["set",[]],["set",[]],["set",[]]],'
    '["vnet3",["set",[]],["set",[]],["set",[]]],'
    '["vnet1",["set",[]],["set",[20,10]],"trunk"],'
    '["vnet2",7,5,"native-untagged"]],'
    '"headings":["name","tag","trunks","vlan_mode"]}'
)


def test_ovsdb_port_vlans_parsed_empty_sets_as_unset() -> None:
    ports = {p.name: (p.tag, p.trunks, p.vlan_mode) for p in parse_port_vlans(PORTS_JSON)}
    assert ports == {
        "br-vm": (None, [], None),
        "vnet0": (30, [], None),
        "vnet1": (None, [10, 20], "trunk"),
        "vnet2": (7, [5], "native-untagged"),
        "vnet3": (None, [], None),
    }


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{}",
        '{"data":[["vnet0",30]],"headings":["name","tag","trunks","vlan_mode"]}',
        '{"data":[["v",5000,["set",[]],["set",[]]]],"headings":["name","tag","trunks","vlan_mode"]}',
    ],
)
def test_ovsdb_port_vlans_unexpected_output_is_an_error_naming_the_command(text: str) -> None:
    with pytest.raises(OvsParseError, match="ovs-vsctl list Port"):
        parse_port_vlans(text)


def _host(ovs_ports: list[OvsPort] | None) -> KvmHost:
    phys = dict(kind="physical", speed_mbps=10000, duplex="full", operstate="up", mtu=1500)
    return KvmHost(
        name="kvm9",
        interfaces=[
            LinuxInterface(
                name=f"eno{n}", neighbour=Neighbour(protocol="lldp", device_id="sw1", port_id=f"Gi1/0/{n}"), **phys
            )  # type: ignore[arg-type]
            for n in (1, 2, 3)
        ],
        bonds=[
            Bond(
                name="bond1",
                implementation="ovs",
                mode="active-backup",
                members=[BondMember(name="eno1", link_up=True), BondMember(name="eno2", link_up=True)],
            )
        ],
        bridges=[*parse_bridge_ports("br-vm: bond1 vnet0 vnet1 vnet3\nbr-sto: eno3 vnet2\n")],
        ovs_ports=ovs_ports,
    )


def _snapshot(ovs_ports: list[OvsPort] | None) -> Snapshot:
    switch = Switch(
        name="sw1",
        platform="cisco_ios",
        ports=[
            SwitchPort(name="GigabitEthernet1/0/1", mode="trunk", native_vlan=1, allowed_vlans=[(10, 20)]),
            SwitchPort(name="GigabitEthernet1/0/2", mode="trunk", native_vlan=1, allowed_vlans=[(10, 40)]),
            SwitchPort(name="GigabitEthernet1/0/3", mode="access", access_vlan=7),
        ],
    )
    return Snapshot(kvm_hosts=[_host(ovs_ports)], switches=[switch])


def test_ovs_ports_become_port_groups_over_their_bridge_uplinks() -> None:
    facts = build_facts(_snapshot(parse_port_vlans(PORTS_JSON)))
    pgs = {p.object: p for p in facts.portgroups}
    assert sorted(pgs) == ["kvm9/br-sto/vnet2", "kvm9/br-vm/vnet0", "kvm9/br-vm/vnet1", "kvm9/br-vm/vnet3"]
    access = pgs["kvm9/br-vm/vnet0"]
    assert (access.host_kind, access.switch_kind, access.vswitch, access.vlan_type, access.vlan) == (
        "kvm",
        "ovs",
        "br-vm",
        "vlan",
        30,
    )
    assert [(u.nic, u.vlan_mode, u.allowed_vlans) for u in access.uplinks] == [
        ("eno1", "trunk", [[10, 20]]),
        ("eno2", "trunk", [[10, 40]]),
    ]
    trunk = pgs["kvm9/br-vm/vnet1"]
    assert (trunk.vlan_type, trunk.trunk_vlans, trunk.trunk_vlans_text) == ("trunk", [[10, 10], [20, 20]], "10,20")
    # No tag, no trunks: OVS passes every VLAN, which ones the guest tags is not known.
    every = pgs["kvm9/br-vm/vnet3"]
    assert every.vlan_type == "trunk" and every.trunk_vlans is None
    assert "passes every VLAN" in every.missing["trunk_vlans"]
    native = pgs["kvm9/br-sto/vnet2"]
    assert (native.vlan_type, native.trunk_vlans, [u.nic for u in native.uplinks]) == (
        "trunk",
        [[5, 5], [7, 7]],
        ["eno3"],
    )


def test_vl001_fires_on_an_ovs_port_whose_tag_a_switch_trunk_does_not_allow() -> None:
    result = check_snapshot(_snapshot(parse_port_vlans(PORTS_JSON)), load_rules())
    vl001 = {f.object: f for f in result.findings if f.code == "VL001"}
    assert list(vl001) == ["kvm9/br-vm/vnet0"]
    assert "eno1 -> sw1 GigabitEthernet1/0/1 (trunk allowing 10-20)" in vl001["kvm9/br-vm/vnet0"].message
    assert "eno2" not in vl001["kvm9/br-vm/vnet0"].message
    vl006 = {f.object for f in result.findings if f.code == "VL006"}
    # vnet2 trunks 5 and 7 over an access port: guest tagging the port cannot carry.
    assert vl006 == {"kvm9/br-sto/vnet2"}


def test_unread_ovs_port_vlans_skip_vl001_naming_ovs_vsctl() -> None:
    result = check_snapshot(_snapshot(None), load_rules())
    assert not [f for f in result.findings if f.code.startswith("VL0")]
    skipped = {s.object: s.reason for s in result.skipped if s.code == "VL001"}
    assert set(skipped) == {"kvm9/br-sto/vnet2", "kvm9/br-vm/vnet0", "kvm9/br-vm/vnet1", "kvm9/br-vm/vnet3"}
    assert "kvm9 OVS port vnet0: ovs port vlan unknown (`ovs-vsctl list Port` not read)" in skipped["kvm9/br-vm/vnet0"]


class _PortTableRefused:
    """A runner whose `ovs-vsctl list Port` fails or garbles its output: a fault a real OVSDB does not
    produce on demand, so the one mock here."""

    target = "kvm9"

    def __init__(self, done: Done):
        self.done = done

    def gather(self, files: Sequence[str] = (), links: Sequence[str] = (), dirs: Sequence[str] = ()) -> Reads:
        raise AssertionError("not called")

    def run(self, argv: list[str]) -> str | None:
        raise AssertionError("not called")

    def call(self, argv: list[str]) -> Done:
        assert argv == PORT_VLANS_COMMAND
        return self.done


@pytest.mark.parametrize(
    ("done", "reason"),
    [
        (Done(1, stderr="ovs-vsctl: unix:/run/openvswitch/db.sock: database connection failed\n"), "connection failed"),
        (Done(0, stdout="not json"), "unexpected output"),
    ],
)
def test_a_port_table_not_read_is_a_named_error_and_leaves_vlans_unknown(done: Done, reason: str) -> None:
    gathered = Gathered(host=KvmHost(name="kvm9"))
    assert _ovs_port_vlans(_PortTableRefused(done), gathered) is None
    (error,) = gathered.errors
    assert error.reason.startswith("OVS port VLANs not read: ovs-vsctl list Port: ") and reason in error.reason


def _linux_vlan_snapshot() -> Snapshot:
    """kvm7: bond0 (eno1, eno2) with VLAN devices bond0.20 (in bridge br20) and bond0.120 (in br120), and
    eno3.30 with no bridge; the switch trunks allow 10-20 (eno1), 10-40 (eno2) and VLAN 30 (eno3)."""
    phys = dict(kind="physical", speed_mbps=10000, duplex="full", operstate="up", mtu=1500)
    host = KvmHost(
        name="kvm7",
        interfaces=[
            LinuxInterface(
                name=f"eno{n}", neighbour=Neighbour(protocol="lldp", device_id="sw1", port_id=f"Gi1/0/{n}"), **phys
            )  # type: ignore[arg-type]
            for n in (1, 2, 3)
        ],
        bonds=[
            Bond(
                name="bond0",
                mode="active-backup",
                members=[BondMember(name="eno1", link_up=True), BondMember(name="eno2", link_up=True)],
            )
        ],
        vlans=[
            Vlan(name="bond0.20", parent="bond0", vlan_id=20),
            Vlan(name="bond0.120", parent="bond0", vlan_id=120),
            Vlan(name="eno3.30", parent="eno3", vlan_id=30),
        ],
        bridges=[Bridge(name="br20", members=["bond0.20"]), Bridge(name="br120", members=["bond0.120"])],
    )
    switch = Switch(
        name="sw1",
        platform="cisco_ios",
        model="C9300-48P",
        ports=[
            SwitchPort(name="GigabitEthernet1/0/1", mode="trunk", native_vlan=1, allowed_vlans=[(10, 20)]),
            SwitchPort(name="GigabitEthernet1/0/2", mode="trunk", native_vlan=1, allowed_vlans=[(10, 40)]),
            SwitchPort(name="GigabitEthernet1/0/3", mode="trunk", native_vlan=1, allowed_vlans=[(30, 30)]),
        ],
    )
    return Snapshot(kvm_hosts=[host], switches=[switch])


def test_linux_vlan_devices_are_checked_against_the_trunks_under_their_parent() -> None:
    snapshot = _linux_vlan_snapshot()
    pgs = {p.object: p for p in build_facts(snapshot).portgroups}
    assert sorted(pgs) == ["kvm7/br120/bond0.120", "kvm7/br20/bond0.20", "kvm7/eno3.30"]
    assert [(u.nic, u.allowed_vlans) for u in pgs["kvm7/br120/bond0.120"].uplinks] == [
        ("eno1", [[10, 20]]),
        ("eno2", [[10, 40]]),
    ]
    result = check_snapshot(snapshot, load_rules())
    vl001 = {f.object: f.message for f in result.findings if f.code == "VL001"}
    # VLAN 120 is on neither trunk under bond0; 20 is on both; eno3's trunk carries 30.
    assert list(vl001) == ["kvm7/br120/bond0.120"]
    assert "eno1 -> sw1 GigabitEthernet1/0/1 (trunk allowing 10-20)" in vl001["kvm7/br120/bond0.120"]


def test_a_linux_vlan_device_on_a_trunk_whose_vlans_were_not_read_is_skipped() -> None:
    snapshot = _linux_vlan_snapshot()
    snapshot.switches[0].ports[0].allowed_vlans = None
    result = check_snapshot(snapshot, load_rules())
    assert "kvm7/br120/bond0.120" not in {f.object for f in result.findings if f.code == "VL001"}
    skipped = {s.object: s.reason for s in result.skipped if s.code == "VL001"}
    assert "trunk allowed VLANs not shown" in skipped["kvm7/br120/bond0.120"]

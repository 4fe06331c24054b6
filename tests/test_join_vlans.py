"""Port group VLAN facts through the real join: the uplinks' switch VLANs come from the interface
that governs their traffic (the port-channel for a member), and what was not read stays unknown."""

from __future__ import annotations

from hostlint.join import build_facts
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.esxi import (
    DistributedSwitch,
    DvPortgroup,
    DvsHostMember,
    EsxiHost,
    PhysicalNic,
    PortGroup,
    StandardVSwitch,
    Teaming,
)
from hostlint.snapshot.switch import PortChannel, Switch, SwitchPort


def _nic(name: str, port: str) -> PhysicalNic:
    return PhysicalNic(
        name=name,
        link_up=True,
        speed_mbps=10000,
        duplex="full",
        neighbour=Neighbour(protocol="cdp", device_id="sw1", port_id=port),
    )


def _snapshot() -> Snapshot:
    host = EsxiHost(
        name="esx01",
        vswitches=[
            StandardVSwitch(
                name="vSwitch1",
                mtu=1500,
                uplinks=["vmnic0", "vmnic1"],
                teaming=Teaming(active=["vmnic0"], standby=["vmnic1"]),
            )
        ],
        portgroups=[
            PortGroup(name="VM-100", vswitch="vSwitch1", vlan=100),
            PortGroup(name="Untagged", vswitch="vSwitch1", vlan=0),
            PortGroup(name="VGT", vswitch="vSwitch1", vlan=4095),
            PortGroup(name="Unread", vswitch="vSwitch1"),
            PortGroup(name="Pinned", vswitch="vSwitch1", vlan=20, teaming=Teaming(active=["vmnic1"])),
        ],
        pnics=[_nic("vmnic0", "Gi1/0/1"), _nic("vmnic1", "Gi1/0/2"), _nic("vmnic2", "Gi1/0/3")],
    )
    dvs = DistributedSwitch(
        name="dvs1",
        max_mtu=1500,
        portgroups=[
            DvPortgroup(
                name="guest-trunk",
                vlan=4095,
                vlan_spec="trunk",
                trunk_ranges=[(300, 310)],
                teaming=Teaming(active=["uplink1"]),
            ),
            DvPortgroup(name="pvlan", vlan=501, vlan_spec="pvlan", teaming=Teaming(active=["uplink1"])),
        ],
        hosts=[DvsHostMember(host="esx01", uplinks={"uplink1": "vmnic2"})],
    )
    switch = Switch(
        name="sw1",
        platform="cisco_ios",
        ports=[
            # The member's own lines say nothing: its channel's configuration carries its traffic.
            SwitchPort(name="GigabitEthernet1/0/1", mode="trunk", port_channel="Port-channel5"),
            SwitchPort(name="GigabitEthernet1/0/2", mode="access", access_vlan=30),
            SwitchPort(name="GigabitEthernet1/0/3", mode=None),
        ],
        port_channels=[
            PortChannel(
                name="Port-channel5",
                members=["GigabitEthernet1/0/1"],
                switchport="trunk",
                native_vlan=99,
                allowed_vlans=[(10, 20), (100, 100)],
            )
        ],
    )
    return Snapshot(esxi_hosts=[host], distributed_switches=[dvs], switches=[switch])


def test_port_groups_carry_their_vlan_and_their_uplinks_switch_vlans():
    facts = build_facts(_snapshot())
    pgs = {p.portgroup: p for p in facts.portgroups}
    assert sorted(pgs) == ["Pinned", "Unread", "Untagged", "VGT", "VM-100", "guest-trunk", "pvlan"]
    vm = pgs["VM-100"]
    assert (vm.object, vm.switch_kind, vm.vlan_type, vm.vlan) == ("esx01/vSwitch1/VM-100", "standard", "vlan", 100)
    member, access = vm.uplinks
    assert (member.nic, member.role, member.vlan_interface, member.vlan_mode) == (
        "vmnic0",
        "active",
        "Port-channel5",
        "trunk",
    )
    assert (member.native_vlan, member.allowed_vlans, member.allowed_vlans_text) == (
        99,
        [[10, 20], [100, 100]],
        "10-20,100",
    )
    assert (access.nic, access.role, access.vlan_mode, access.access_vlan) == ("vmnic1", "standby", "access", 30)
    assert pgs["Untagged"].vlan_type == "none"
    # Guest tagging on a standard switch: every VLAN may be tagged, which ones is not known.
    assert pgs["VGT"].vlan_type == "trunk" and "not known to the host" in pgs["VGT"].missing["trunk_vlans"]
    assert pgs["Unread"].vlan is None and "HostPortGroupSpec.vlanId" in pgs["Unread"].missing["vlan_type"]
    assert [u.nic for u in pgs["Pinned"].uplinks] == ["vmnic1"]
    trunk = pgs["guest-trunk"]
    assert (trunk.object, trunk.switch_kind, trunk.vlan_type, trunk.trunk_vlans, trunk.trunk_vlans_text) == (
        "esx01/dvs1/guest-trunk",
        "distributed",
        "trunk",
        [[300, 310]],
        "300-310",
    )
    (dvs_uplink,) = trunk.uplinks
    assert dvs_uplink.vlan_mode is None
    assert (
        dvs_uplink.missing["vlan_mode"]
        == "sw1 GigabitEthernet1/0/3: switchport mode not shown by `show running-config`"
    )
    assert pgs["pvlan"].vlan_type == "pvlan" and pgs["pvlan"].vlan == 501


def test_a_trunk_without_its_allowed_list_is_unknown_not_all():
    snapshot = _snapshot()
    snapshot.switches[0].port_channels[0].allowed_vlans = None
    snapshot.switches[0].port_channels[0].native_vlan = None
    facts = build_facts(snapshot)
    member = next(p for p in facts.portgroups if p.portgroup == "VM-100").uplinks[0]
    assert member.allowed_vlans is None and member.native_vlan is None
    assert (
        member.missing["allowed_vlans"] == "sw1 Port-channel5: trunk allowed VLANs not shown by `show running-config`"
    )
    assert "native_vlan" in member.missing

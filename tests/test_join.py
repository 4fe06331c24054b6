"""The join: host uplinks to switch ports (CDP/LLDP or cabling), port-channels and switch pairs."""

from __future__ import annotations

from support.join_builders import cdp, esxi_host, nxos_switch

from hostlint.join import build_facts
from hostlint.snapshot import CablingEntry, Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.esxi import PortGroup, Teaming
from hostlint.snapshot.switch import MultiChassis, Switch


def test_cdp_short_port_and_fqdn_with_serial_resolve() -> None:
    snap = Snapshot(
        esxi_hosts=[esxi_host({"vmnic2": cdp("nx1.dc.example(FDO123)", "Eth1/11"), "vmnic3": cdp("NX1", "eth1/12")})],
        switches=[nxos_switch("nx1", {"Ethernet1/11": "port-channel11", "Ethernet1/12": "port-channel11"})],
    )
    facts = build_facts(snap)
    team = facts.teams[0]
    assert [(u.switch, u.port, u.port_channel) for u in team.uplinks] == [
        ("nx1", "Ethernet1/11", "port-channel11"),
        ("nx1", "Ethernet1/12", "port-channel11"),
    ]
    assert team.channel_ids == ["nx1/port-channel11"] and not team.missing and not facts.unresolved
    assert team.uplinks[0].switch_hash_fields == ["src-ip", "dst-ip"]


def test_lldp_system_name_and_alias() -> None:
    nb = Neighbour(
        protocol="lldp", device_id="00:11:22:33:44:55", port_id="Ethernet1/11", system_name="leaf1.dc.example"
    )
    snap = Snapshot(
        esxi_hosts=[esxi_host({"vmnic2": nb})],
        switches=[nxos_switch("LEAF1", {"Ethernet1/11": None}, aliases=["leaf1.dc.example"])],
    )
    uplink = build_facts(snap).teams[0].uplinks[0]
    assert (uplink.switch, uplink.port, uplink.via) == ("LEAF1", "Ethernet1/11", "lldp")


def test_cabling_file_used_when_discovery_is_off() -> None:
    snap = Snapshot(
        esxi_hosts=[esxi_host({"vmnic2": None, "vmnic3": None})],
        switches=[nxos_switch("sw1", {"Ethernet1/1": None})],
        cabling=[CablingEntry(host="ESX01", nic="vmnic2", switch="sw1.dc.example", port="Eth1/1")],
    )
    facts = build_facts(snap)
    first, second = facts.teams[0].uplinks
    assert (first.via, first.switch, first.port) == ("cabling", "sw1", "Ethernet1/1")
    assert "no CDP/LLDP neighbour and no cabling entry" in second.missing["switch"]
    assert [u.object for u in facts.unresolved] == ["esx01.dc.example/vmnic3"]
    assert facts.teams[0].missing["switch"] == second.missing["switch"]


def test_unknown_switch_port_and_unreachable_switch_are_missing_with_reasons() -> None:
    snap = Snapshot(
        esxi_hosts=[
            esxi_host({"vmnic2": cdp("nx1", "Eth1/99"), "vmnic3": cdp("nx2", "Eth1/1"), "vmnic4": cdp("nx9", "Eth1/1")})
        ],
        switches=[
            nxos_switch("nx1", {"Ethernet1/11": None}),
            nxos_switch("nx2", {"Ethernet1/1": None}, connection_state="unreachable"),
        ],
    )
    reasons = {u.nic: u.missing["switch"] for u in build_facts(snap).teams[0].uplinks}
    assert reasons["vmnic2"].endswith("port Ethernet1/99 not found on switch nx1")
    assert "switch nx2 was unreachable" in reasons["vmnic3"]
    assert "names switch nx9 (Eth1/1), which is not in the snapshot" in reasons["vmnic4"]


def _pair(peer_of_nx2: str = "nx1", link: bool = True) -> list[Switch]:
    return [
        nxos_switch(
            "nx1",
            {"Ethernet1/11": "port-channel11"},
            MultiChassis(kind="vpc", domain_id="10", peer="nx2", peer_link_up=True),
        ),
        nxos_switch(
            "nx2",
            {"Ethernet1/11": "port-channel11"},
            MultiChassis(kind="vpc", domain_id="10", peer=peer_of_nx2, peer_link_up=link),
        ),
    ]


def test_vpc_pair_is_one_logical_switch_and_one_channel() -> None:
    snap = Snapshot(
        esxi_hosts=[esxi_host({"vmnic2": cdp("nx1", "Eth1/11"), "vmnic3": cdp("nx2", "Eth1/11")})], switches=_pair()
    )
    team = build_facts(snap).teams[0]
    assert team.logical_switches == ["vpc:10:nx1+nx2"]
    assert team.channel_ids == ["vpc:10:nx1+nx2/11"]
    assert [u.channel_members for u in team.uplinks] == [2, 2]
    assert team.switches == ["nx1", "nx2"]


def test_half_configured_or_broken_pair_is_two_switches() -> None:
    for switches in (_pair(peer_of_nx2="nx3"), _pair(link=False)):
        host = esxi_host({"vmnic2": cdp("nx1", "Eth1/11"), "vmnic3": cdp("nx2", "Eth1/11")})
        snap = Snapshot(esxi_hosts=[host], switches=switches)
        team = build_facts(snap).teams[0]
        assert team.logical_switches == ["nx1", "nx2"]
        assert len(team.channel_ids) == 2


def test_overriding_port_group_is_its_own_team_and_inheriting_one_is_not() -> None:
    host = esxi_host({"vmnic2": cdp("nx1", "Eth1/11"), "vmnic3": cdp("nx1", "Eth1/12")})
    host.portgroups = [
        PortGroup(name="VM-Prod", vswitch="vSwitch1"),
        PortGroup(
            name="VM-Legacy",
            vswitch="vSwitch1",
            teaming=Teaming(policy="failover_explicit", active=["vmnic2"], standby=["vmnic3"]),
        ),
    ]
    snap = Snapshot(esxi_hosts=[host], switches=[nxos_switch("nx1", {"Ethernet1/11": None, "Ethernet1/12": None})])
    teams = {t.object: t for t in build_facts(snap).teams}
    assert set(teams) == {"esx01.dc.example/vSwitch1", "esx01.dc.example/vSwitch1/VM-Legacy"}
    legacy = teams["esx01.dc.example/vSwitch1/VM-Legacy"]
    assert (legacy.kind, legacy.policy) == ("vss-portgroup", "failover_explicit")
    assert [(u.nic, u.role) for u in legacy.uplinks] == [("vmnic2", "active"), ("vmnic3", "standby")]


def test_disconnected_host_marks_every_fact() -> None:
    snap = Snapshot(esxi_hosts=[esxi_host({"vmnic2": None}, connection_state="disconnected")])
    facts = build_facts(snap)
    assert all("disconnected" in f.missing["host"] for f in [*facts.teams, *facts.uplinks])

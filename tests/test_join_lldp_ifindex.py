"""Junos sends the SNMP ifIndex as LLDP port ID and the interface name as port description."""

from __future__ import annotations

import pytest
from support.join_builders import esxi_host

from hostlint import names
from hostlint.join import build_facts
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import Switch, SwitchPort


def _qfx() -> Switch:
    return Switch(
        name="zrh-qfx01",
        platform="juniper_junos",
        model="QFX5110-48S-AFI",
        ports=[SwitchPort(name="xe-0/0/23", mtu=9216), SwitchPort(name="xe-0/0/24", mtu=1514)],
    )


def _lldp(port_id: str, description: str | None) -> Neighbour:
    return Neighbour(
        protocol="lldp", device_id="2c:6b:f5:0a:00:01", system_name="zrh-qfx01", port_id=port_id,
        port_description=description,
    )  # fmt: skip


def _uplink(neighbour: Neighbour):
    (uplink,) = build_facts(Snapshot(esxi_hosts=[esxi_host({"vmnic2": neighbour})], switches=[_qfx()])).uplinks
    return uplink


def test_ifindex_port_id_resolves_by_the_description() -> None:
    uplink = _uplink(_lldp("523", "xe-0/0/23"))
    assert (uplink.switch, uplink.port, uplink.port_mtu) == ("zrh-qfx01", "xe-0/0/23", 9216)
    assert "switch" not in uplink.missing


def test_description_that_names_no_port_leaves_the_ifindex_unresolved() -> None:
    uplink = _uplink(_lldp("523", "uplink to esx01 vmnic2"))
    assert uplink.missing["switch"] == "esx01.dc.example/vmnic2: port 523 not found on switch zrh-qfx01"


def test_a_port_name_id_wins_over_the_description() -> None:
    uplink = _uplink(_lldp("xe-0/0/24", "xe-0/0/23"))
    assert (uplink.port, uplink.port_mtu) == ("xe-0/0/24", 1514)


# Every port ID form with a logical unit or subinterface, per platform: (platform, switch port, port ID).
UNIT_FORMS = [
    ("juniper_junos", "xe-0/0/11", "xe-0/0/11.0"),
    ("juniper_junos", "ge-0/0/3", "ge-0/0/3.100"),
    ("juniper_junos", "et-0/0/48", "et-0/0/48.0"),
    ("juniper_junos", "mge-0/0/1", "mge-0/0/1.0"),
    ("cisco_ios", "GigabitEthernet1/0/1", "GigabitEthernet1/0/1.100"),
    ("cisco_ios", "TenGigabitEthernet1/1/3", "Te1/1/3.20"),
    ("cisco_nxos", "Ethernet1/11", "Ethernet1/11.100"),
    ("cisco_nxos", "Ethernet1/11", "Eth1/11.100"),
    ("arista_eos", "Ethernet11", "Ethernet11.100"),
    ("arista_eos", "Ethernet49/1", "Et49/1.10"),
]
MODELS = {"juniper_junos": "QFX5110-48S-AFI", "cisco_ios": "C9300-48P", "cisco_nxos": "N9K-C93180YC-FX"}


def _one_port_switch(platform: str, port: str) -> Switch:
    return Switch(
        name="leaf1",
        platform=platform,
        model=MODELS.get(platform, "DCS-7050SX3-48YC8"),
        ports=[SwitchPort(name=port, mode="trunk", mtu=9000, l2_mtu=9000 if platform == "arista_eos" else None)],
    )


@pytest.mark.parametrize(("platform", "port", "port_id"), UNIT_FORMS)
def test_a_port_id_with_a_logical_unit_resolves_to_its_physical_port(platform: str, port: str, port_id: str) -> None:
    neighbour = Neighbour(protocol="lldp", device_id="leaf1", system_name="leaf1", port_id=port_id)
    snapshot = Snapshot(esxi_hosts=[esxi_host({"vmnic2": neighbour})], switches=[_one_port_switch(platform, port)])
    (uplink,) = build_facts(snapshot).uplinks
    assert "switch" not in uplink.missing, uplink.missing
    assert (uplink.port, uplink.port_mtu) == (port, 9000)


def test_an_ifindex_with_a_unit_in_its_description_resolves() -> None:
    uplink = _uplink(_lldp("540", "xe-0/0/23.0"))
    assert (uplink.port, uplink.port_mtu) == ("xe-0/0/23", 9216)


@pytest.mark.parametrize(("reported", "port"), [(port_id, port) for _, port, port_id in UNIT_FORMS])
def test_physical_port_of_every_form(reported: str, port: str) -> None:
    assert names.physical_port(reported) == port

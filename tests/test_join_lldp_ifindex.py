"""Junos sends the SNMP ifIndex as LLDP port ID and the interface name as port description."""

from __future__ import annotations

from test_join import _host

from hostlint.join import build_facts
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import Switch, SwitchPort


def _qfx() -> Switch:
    return Switch(
        name="zrh-qfx01",
        platform="juniper_junos",
        ports=[SwitchPort(name="xe-0/0/23", mtu=9216), SwitchPort(name="xe-0/0/24", mtu=1514)],
    )


def _lldp(port_id: str, description: str | None) -> Neighbour:
    return Neighbour(
        protocol="lldp", device_id="2c:6b:f5:0a:00:01", system_name="zrh-qfx01", port_id=port_id,
        port_description=description,
    )  # fmt: skip


def _uplink(neighbour: Neighbour):
    (uplink,) = build_facts(Snapshot(esxi_hosts=[_host({"vmnic2": neighbour})], switches=[_qfx()])).uplinks
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

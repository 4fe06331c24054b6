"""Hosts and switches for the join tests: an ESXi host whose IP-hash vSwitch1 takes the given uplinks and
their neighbours, and an NX-OS switch whose ports (name -> channel or None) form static vPC channels."""

from __future__ import annotations

from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.esxi import EsxiHost, PhysicalNic, StandardVSwitch, Teaming
from hostlint.snapshot.switch import LoadBalance, MultiChassis, PortChannel, Switch, SwitchPort


def esxi_host(neighbours: dict[str, Neighbour | None], policy: str = "loadbalance_ip", **host) -> EsxiHost:
    nics = list(neighbours)
    return EsxiHost(
        name="esx01.dc.example",
        vswitches=[
            StandardVSwitch(name="vSwitch1", mtu=9000, uplinks=nics, teaming=Teaming(policy=policy, active=nics))
        ],
        pnics=[
            PhysicalNic(name=n, link_up=True, speed_mbps=10000, duplex="full", neighbour=nb)
            for n, nb in neighbours.items()
        ],
        **host,
    )


def nxos_switch(name: str, ports: dict[str, str | None], mc: MultiChassis | None = None, **kw) -> Switch:
    channels = {}
    for port, channel in ports.items():
        if channel:
            channels.setdefault(channel, []).append(port)
    return Switch(
        name=name,
        platform="cisco_nxos",
        model="N9K-C93180YC-FX",
        load_balance=LoadBalance(hash="src-dst-ip", raw="src-dst ip"),
        ports=[
            SwitchPort(
                name=p,
                status="up",
                speed_mbps=10000,
                duplex="full",
                mtu=9216,
                port_channel=c,
                member_state="bundled" if c else None,
                mode="trunk",
                native_vlan=1,
                allowed_vlans=[(1, 4094)],
            )
            for p, c in ports.items()
        ],
        port_channels=[
            PortChannel(
                name=c,
                mode="static",
                members=m,
                mtu=9216,
                multichassis_id=11,
                switchport="trunk",
                native_vlan=1,
                allowed_vlans=[(1, 4094)],
            )
            for c, m in channels.items()
        ],
        multichassis=mc,
        **kw,
    )


def cdp(device: str, port: str) -> Neighbour:
    return Neighbour(protocol="cdp", device_id=device, port_id=port)

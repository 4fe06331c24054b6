"""KVM host facts: the Linux host's own network state and libvirt's view.

A fact the collector did not read is None (unknown), never a default: rules that need it are
skipped, naming the file it comes from (hostlint.join.sources).
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field

from hostlint.snapshot.common import (
    ConnectionState,
    Duplex,
    LinuxMtu,
    Model,
    Name,
    Neighbour,
    PciLink,
    SpeedMbps,
    Text,
    VlanId,
)

BondMode = Literal[
    "balance-rr",
    "active-backup",
    "balance-xor",
    "broadcast",
    "802.3ad",
    "balance-tlb",
    "balance-alb",
    "balance-tcp",
    "balance-slb",
]

LacpRate = Literal["slow", "fast"]
LACP_RATES: tuple[LacpRate, ...] = get_args(LacpRate)
InterfaceKind = Literal["physical", "bond", "bridge", "vlan", "tap", "veth", "ovs", "other"]
# How a guest NIC reaches the host: libvirt's <interface type=...>, every other type as "other".
# `hostdev`: a PCI function (an SR-IOV VF) given to the guest, `<interface type='hostdev'>`: no emulated model.
SourceType = Literal["bridge", "network", "direct", "user", "hostdev", "other"]


class LinuxInterface(Model):
    name: Name
    kind: InterfaceKind = "physical"
    mtu: LinuxMtu | None = None
    # The largest MTU its driver accepts (`ip -d -j link show`: max_mtu); None: not read.
    max_mtu: LinuxMtu | None = None
    mac: Text | None = None
    operstate: Text | None = None
    speed_mbps: SpeedMbps | None = None
    duplex: Duplex | None = None
    autoneg: bool | None = None
    master: Name | None = None
    pci: Text | None = None
    neighbour: Neighbour | None = None
    # Global-scope addresses with their prefix (`10.20.0.11/24`, `ip -j address show`); None: not read.
    addresses: list[Text] | None = None
    # The VRF device this interface is enslaved to (`ip -d -j link show`: info_slave_kind vrf); None: none.
    vrf: Name | None = None


class BondMember(Model):
    name: Name
    link_up: bool | None = None
    speed_mbps: SpeedMbps | None = None
    duplex: Duplex | None = None
    aggregator_id: int | None = None
    partner_mac: Text | None = None


class Bond(Model):
    """A Linux bond (`/proc/net/bonding/*`) or an Open vSwitch bond (`ovs-appctl bond/show`).

    `mode` is None when the bond is known (OVSDB lists it) but its mode was not read (ovs-appctl refused)."""

    name: Name
    implementation: Literal["linux", "ovs"] = "linux"
    mode: BondMode | None
    xmit_hash_policy: Text | None = None
    lacp_rate: LacpRate | None = None
    miimon: int | None = None
    active_aggregator_id: int | None = None
    partner_mac: Text | None = None
    members: list[BondMember] = Field(default_factory=list)


class Bridge(Model):
    name: Name
    members: list[Name] = Field(default_factory=list)
    stp: bool = False
    implementation: Literal["linux", "ovs"] = "linux"


class OvsPort(Model):
    """An Open vSwitch port's VLAN settings (OVSDB `Port` table: `tag`, `trunks`, `vlan_mode`).

    An empty `trunks` with no `tag` is not "no VLAN": OVS then trunks every VLAN (ovs-vswitchd.conf.db(5))."""

    name: Name
    tag: VlanId | None = None
    trunks: list[VlanId] = Field(default_factory=list)
    vlan_mode: Text | None = None


class Vlan(Model):
    name: Name
    parent: Name
    vlan_id: VlanId


class DomainInterface(Model):
    mac: Text | None = None
    model: Text | None = None
    source_type: SourceType = "bridge"
    source: Name | None = None
    mtu: LinuxMtu | None = None
    driver: Text | None = None
    queues: int | None = None
    target: Name | None = None


class LibvirtDomain(Model):
    name: Name
    state: Text = "running"
    interfaces: list[DomainInterface] = Field(default_factory=list)


class LibvirtNetwork(Model):
    name: Name
    forward_mode: Text | None = None
    bridge: Name | None = None
    mtu: LinuxMtu | None = None


class KvmHost(Model):
    name: Name
    connection_state: ConnectionState = "connected"
    interfaces: list[LinuxInterface] = Field(default_factory=list)
    bonds: list[Bond] = Field(default_factory=list)
    bridges: list[Bridge] = Field(default_factory=list)
    vlans: list[Vlan] = Field(default_factory=list)
    pci_devices: list[PciLink] | None = None
    domains: list[LibvirtDomain] = Field(default_factory=list)
    networks: list[LibvirtNetwork] = Field(default_factory=list)
    vhost_net: bool | None = None
    # OVS ports' VLANs; None when they were not read (no OVS, or `ovs-vsctl list Port` failed).
    ovs_ports: list[OvsPort] | None = None

"""KVM host facts: the Linux host's own network state and libvirt's view.

A fact the collector did not read is None (unknown), never a default: rules that need it are
skipped, naming the file it comes from (hostlint.join.sources).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from hostlint.snapshot.common import ConnectionState, Duplex, Model, Neighbour, PciLink

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


class LinuxInterface(Model):
    name: str
    kind: Literal["physical", "bond", "bridge", "vlan", "tap", "veth", "ovs", "other"] = "physical"
    mtu: int | None = None
    mac: str | None = None
    operstate: str | None = None
    speed_mbps: int | None = None
    duplex: Duplex | None = None
    autoneg: bool | None = None
    master: str | None = None
    pci: str | None = None
    neighbour: Neighbour | None = None


class BondMember(Model):
    name: str
    link_up: bool | None = None
    speed_mbps: int | None = None
    duplex: Duplex | None = None
    aggregator_id: int | None = None
    partner_mac: str | None = None


class Bond(Model):
    """A Linux bond (`/proc/net/bonding/*`) or an Open vSwitch bond (`ovs-appctl bond/show`)."""

    name: str
    implementation: Literal["linux", "ovs"] = "linux"
    mode: BondMode
    xmit_hash_policy: str | None = None
    lacp_rate: Literal["slow", "fast"] | None = None
    miimon: int | None = None
    active_aggregator_id: int | None = None
    partner_mac: str | None = None
    members: list[BondMember] = Field(default_factory=list)


class Bridge(Model):
    name: str
    members: list[str] = Field(default_factory=list)
    stp: bool = False


class Vlan(Model):
    name: str
    parent: str
    vlan_id: int


class DomainInterface(Model):
    mac: str | None = None
    model: str | None = None
    source_type: Literal["bridge", "network", "direct", "user", "other"] = "bridge"
    source: str | None = None
    mtu: int | None = None
    driver: str | None = None
    queues: int | None = None
    target: str | None = None


class LibvirtDomain(Model):
    name: str
    state: str = "running"
    interfaces: list[DomainInterface] = Field(default_factory=list)


class LibvirtNetwork(Model):
    name: str
    forward_mode: str | None = None
    bridge: str | None = None
    mtu: int | None = None


class KvmHost(Model):
    name: str
    connection_state: ConnectionState = "connected"
    interfaces: list[LinuxInterface] = Field(default_factory=list)
    bonds: list[Bond] = Field(default_factory=list)
    bridges: list[Bridge] = Field(default_factory=list)
    vlans: list[Vlan] = Field(default_factory=list)
    pci_devices: list[PciLink] | None = None
    domains: list[LibvirtDomain] = Field(default_factory=list)
    networks: list[LibvirtNetwork] = Field(default_factory=list)
    vhost_net: bool | None = None

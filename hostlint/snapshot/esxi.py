"""ESXi host facts as the vSphere API reports them.

A fact the collector did not read is None (unknown), never a default: rules that need it are
skipped, naming the vSphere property (hostlint.join.sources).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from hostlint.snapshot.common import (
    ConnectionState,
    Duplex,
    EsxiMtu,
    LagPorts,
    Model,
    Name,
    Neighbour,
    PciLink,
    PrefixLength,
    SpeedMbps,
    Text,
    VlanId,
    VlanRange,
    leaf,
)

TeamingPolicy = Literal[
    "loadbalance_srcid",
    "loadbalance_srcmac",
    "loadbalance_ip",
    "failover_explicit",
    "loadbalance_loadbased",
]
DiscoveryProtocol = Literal["cdp", "lldp", "none"]
DiscoveryOperation = Literal["listen", "advertise", "both", "none"]
IscsiKind = Literal["software", "dependent", "independent"]
SwitchKind = Literal["standard", "distributed", "opaque"]


class Teaming(Model):
    """Effective NIC teaming (HostNicTeamingPolicy / VmwareUplinkPortTeamingPolicy)."""

    policy: TeamingPolicy = "loadbalance_srcid"
    active: list[Name] = Field(default_factory=list)
    standby: list[Name] = Field(default_factory=list)
    unused: list[Name] = Field(default_factory=list)
    failure_detection: Literal["link", "beacon"] = "link"
    notify_switches: bool = True
    failback: bool = True


class Discovery(Model):
    protocol: DiscoveryProtocol = "cdp"
    operation: DiscoveryOperation = "listen"


class StandardVSwitch(Model):
    name: Name
    mtu: EsxiMtu | None = None
    uplinks: list[Name] = Field(default_factory=list)
    teaming: Teaming = Field(default_factory=Teaming)
    discovery: Discovery = Field(default_factory=Discovery)


Inheritance = Literal["inherited", "pinned"]


@leaf
class TeamingSet:
    """Where each teaming field of a standard port group comes from, as set in
    `HostPortGroup.spec.policy.nicTeaming`: `pinned` (set in the port group, even to the vSwitch's
    value) or `inherited` (unset there, so it follows the vSwitch). `order` is the active/standby list."""

    policy: Inheritance
    failure_detection: Inheritance
    notify_switches: Inheritance
    failback: Inheritance
    order: Inheritance


@leaf
class PortGroup:
    """A standard port group. `teaming` is the computed (effective) policy, None where it equals the
    vSwitch's; `teaming_set` says which of its fields the port group pins and which it inherits
    (None: not collected, so a vSwitch change cannot be said to reach it or not).

    `vlan`: 0 untagged, 1-4094 that VLAN, 4095 all VLANs (guest tagging); None not read."""

    name: Name
    vswitch: Name
    vlan: VlanId | None = None
    teaming: Teaming | None = None
    teaming_set: TeamingSet | None = None
    members: list[Name] = Field(default_factory=list)


class Lag(Model):
    """A distributed switch LACP link aggregation group (enhanced LACP)."""

    name: Name
    mode: Literal["active", "passive"] = "active"
    load_balance: Text = "srcDestIpTcpUdpPortVlan"
    uplink_count: LagPorts = 2


class DvPortgroup(Model):
    """`vlan_spec` is the port group's VLAN setting: `vlan` (VlanIdSpec: `vlan` 0 untagged or one
    VLAN), `pvlan` (PvlanSpec: `vlan` is the private VLAN id) or `trunk` (TrunkVlanSpec: `vlan`
    4095, `trunk_ranges` the VLANs the guests may tag, None when not read). `vlan` None: not read."""

    name: Name
    vlan: VlanId | None = None
    vlan_spec: Literal["vlan", "pvlan", "trunk"] = "vlan"
    trunk_ranges: list[VlanRange] | None = None
    teaming: Teaming = Field(default_factory=Teaming)
    uplink_lag: Name | None = None
    # The switch's uplink port group (config.uplinkPortgroup): it holds the host uplinks, never a VM or a
    # vmk, so it is no team of its own; its VLAN 4095 is a trunk of every VLAN.
    uplink: bool = False


class DvsHostMember(Model):
    """Which host pNIC backs which DVS uplink (`uplink1`, or `lag1-0` for a LAG port)."""

    host: Name
    uplinks: dict[Name, Name] = Field(default_factory=dict)
    # The host's proxy switch MTU (config.network.proxySwitch[].mtu); None: not collected
    mtu: EsxiMtu | None = None


class DistributedSwitch(Model):
    name: Name
    max_mtu: EsxiMtu | None = None
    lacp_api_version: Literal["singleLag", "multipleLag"] | None = None
    lags: list[Lag] = Field(default_factory=list)
    portgroups: list[DvPortgroup] = Field(default_factory=list)
    hosts: list[DvsHostMember] = Field(default_factory=list)
    discovery: Discovery = Field(default_factory=Discovery)


@leaf
class Vmk:
    name: Name
    portgroup: Name
    vswitch: Name | None = None
    dvswitch: Name | None = None
    mtu: EsxiMtu | None = None
    ip: Text | None = None
    prefix: PrefixLength | None = None
    mac: Text | None = None
    services: list[Name] = Field(default_factory=list)
    netstack: Name = "defaultTcpipStack"


@leaf
class PhysicalNic:
    """`linkSpeed` (actual; None when down) vs `spec.linkSpeed` (configured; None = auto)."""

    name: Name
    driver: Text | None = None
    mac: Text | None = None
    pci: Text | None = None
    link_up: bool | None = None
    speed_mbps: SpeedMbps | None = None
    duplex: Duplex | None = None
    configured_speed_mbps: SpeedMbps | None = None
    configured_duplex: Duplex | None = None
    neighbour: Neighbour | None = None


class IscsiAdapter(Model):
    name: Name
    kind: IscsiKind = "software"
    bound_vmks: list[Name] = Field(default_factory=list)
    pnic: Name | None = None
    targets: list[Text] = Field(default_factory=list)


@leaf
class VmNic:
    """`switch_kind` and `portgroup_key` come from the NIC's backing (None in older snapshots):
    a distributed port group is told apart from a standard one of the same name by them."""

    label: Name
    model: Text
    portgroup: Name | None = None
    mac: Text | None = None
    switch_kind: SwitchKind | None = None
    portgroup_key: Name | None = None


@leaf
class VirtualMachine:
    name: Name
    vcpus: int | None = None
    cpu_hot_add: bool | None = None
    nics: list[VmNic] = Field(default_factory=list)


class EsxiHost(Model):
    name: Name
    version: Text | None = None
    vcenter: Text | None = None
    connection_state: ConnectionState = "connected"
    # runtime.inMaintenanceMode; None: not collected
    in_maintenance_mode: bool | None = None
    vswitches: list[StandardVSwitch] = Field(default_factory=list)
    portgroups: list[PortGroup] = Field(default_factory=list)
    vmks: list[Vmk] = Field(default_factory=list)
    pnics: list[PhysicalNic] = Field(default_factory=list)
    iscsi_adapters: list[IscsiAdapter] = Field(default_factory=list)
    pci_devices: list[PciLink] | None = None
    vms: list[VirtualMachine] = Field(default_factory=list)

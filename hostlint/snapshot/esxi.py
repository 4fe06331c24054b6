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
# What a VMkernel port sits on: a standard port group, a distributed port group (or a distributed port
# with no port group), an NSX port group of a VDS 7+ (DVPortgroupConfigInfo.backingType `nsx`), or an
# NSX-T opaque network of an N-VDS (HostVirtualNicOpaqueNetworkSpec). NSX's own uplink profile decides
# the teaming of the last two, which the vSphere API does not show.
VmkNetwork = Literal["standard", "distributed", "nsx", "opaque"]
PortgroupBacking = Literal["standard", "nsx"]
LacpMode = Literal["active", "passive"]


class Teaming(Model):
    """Effective NIC teaming (HostNicTeamingPolicy / VmwareUplinkPortTeamingPolicy). `policy` and
    `failure_detection` are optional in the API: None where the server did not report them."""

    policy: TeamingPolicy | None = "loadbalance_srcid"
    active: list[Name] = Field(default_factory=list)
    standby: list[Name] = Field(default_factory=list)
    unused: list[Name] = Field(default_factory=list)
    failure_detection: Literal["link", "beacon"] | None = "link"
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
    # None: the bridge's linkDiscoveryProtocolConfig was not reported.
    discovery: Discovery | None = Field(default_factory=Discovery)


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
    """A distributed switch LACP link aggregation group (enhanced LACP). Every field but the name is
    optional in the API (VMwareDvsLacpGroupConfig): None where the server did not report it."""

    name: Name
    mode: LacpMode | None = "active"
    load_balance: Text | None = "srcDestIpTcpUdpPortVlan"
    uplink_count: LagPorts | None = 2


class DvPortgroup(Model):
    """`vlan_spec` is the port group's VLAN setting: `vlan` (VlanIdSpec: `vlan` 0 untagged or one
    VLAN), `pvlan` (PvlanSpec: `vlan` is the private VLAN id) or `trunk` (TrunkVlanSpec: `vlan`
    4095, `trunk_ranges` the VLANs the guests may tag, None when not read). `vlan` None: not read."""

    name: Name
    # The port group's key (`dvportgroup-12`): its identity, the name being for display. None in older snapshots.
    key: Name | None = None
    # `nsx`: created by NSX (VDS 7+); its VLAN and teaming are NSX's (segment, uplink profile) and are not
    # read, so they are None. None: not reported (before vSphere 7, or older snapshots), a vCenter port group.
    backing: PortgroupBacking | None = None
    vlan: VlanId | None = None
    vlan_spec: Literal["vlan", "pvlan", "trunk"] = "vlan"
    trunk_ranges: list[VlanRange] | None = None
    teaming: Teaming | None = Field(default_factory=Teaming)
    uplink_lag: Name | None = None
    # The switch's uplink port group (config.uplinkPortgroup): it holds the host uplinks, never a VM or a
    # vmk, so it is no team of its own; its VLAN 4095 is a trunk of every VLAN.
    uplink: bool = False
    # Basic (single-LAG) LACP of the uplink port group (VMwareUplinkLacpPolicy, lacpApiVersion singleLag):
    # `active`/`passive` when enabled, `off` when disabled, None when not set or not read.
    lacp: Literal["active", "passive", "off"] | None = None


# VMwareDVSTeamingMatchStatus: whether the switch's teaming (IP hash or not) matches what the physical
# switch shows (an EtherChannel or none).
TeamingMatch = Literal["iphashMatch", "iphashMismatch", "nonIphashMatch", "nonIphashMismatch"]


class HealthCheckConfig(Model):
    """Which distributed switch health checks are on (VMwareDVSConfigInfo.healthCheckConfig:
    VMwareDVSVlanMtuHealthCheckConfig, VMwareDVSTeamingHealthCheckConfig, `enable`). None: not reported,
    so the health check's results are unknown, never a pass."""

    vlan_mtu: bool | None = None
    teaming: bool | None = None


class UplinkHealth(Model):
    """One uplink port's health check results (HostMemberUplinkHealthCheckResult subtypes), keyed by
    `uplinkPortKey` and mapped to the host's pNIC through its proxy switch's pnicSpec (None: the key names
    no pNIC of the host). VLAN lists are merged [first, last] ranges; None: that result was not reported.

    `trunked_vlans`/`untrunked_vlans` (VMwareDVSVlanHealthCheckResult): the VLANs the physical switch
    port carries or drops. `mtu_mismatch` (VMwareDVSMtuHealthCheckResult): the pNIC's MTU differs from
    the switch's (then the VLAN MTU lists stay empty); `mtu_vlans_failing`: VLANs whose physical switch
    MTU drops the switch's largest frames, `mtu_vlans_passing` those that carry them."""

    uplink_port_key: Name
    nic: Name | None = None
    trunked_vlans: list[VlanRange] | None = None
    untrunked_vlans: list[VlanRange] | None = None
    mtu_mismatch: bool | None = None
    mtu_vlans_passing: list[VlanRange] | None = None
    mtu_vlans_failing: list[VlanRange] | None = None


class MemberHealth(Model):
    """A host member's health check results (HostMemberRuntimeInfo.healthCheckResult): per uplink port,
    and the host's teaming result (VMwareDVSTeamingHealthCheckResult, per host, not per uplink)."""

    uplinks: list[UplinkHealth] = Field(default_factory=list)
    teaming: TeamingMatch | None = None


LacpNicState = Literal["bundled", "individual", "hot-standby", "down", "other"]


class LacpNicStatus(Model):
    """ESXi's own LACP view of one LAG member (`esxcli network vswitch dvs vmware lacp status get`):
    `state` as ESXi names it (Bundled, Independent, Stand-alone, Hot-standby, Down), normalised, with
    the text kept in `state_text`; the port states are the LACP actor state flags each end sends
    (`ACT`, `AGG`, `SYN`, `COL`, `DIST`, `DEF`, `EXP`). `partner_port_state` None: no partner reported."""

    dvswitch: Name
    # The LAG's id as ESXi prints it (`LAGID`; the status does not name the LAG).
    lag_id: Text | None = None
    nic: Name
    state: LacpNicState | None = None
    state_text: Text | None = None
    local_port_state: list[Name] | None = None
    partner_port_state: list[Name] | None = None
    partner_device: Text | None = None


class DvsHostMember(Model):
    """Which host pNIC backs which DVS uplink (`uplink1`, or `lag1-0` for a LAG port)."""

    host: Name
    # The host's managed object id in its vCenter (`host-42`): with the switch's vCenter, its identity.
    host_id: Name | None = None
    uplinks: dict[Name, Name] = Field(default_factory=dict)
    # The host's proxy switch MTU (config.network.proxySwitch[].mtu); None: not collected
    mtu: EsxiMtu | None = None
    # The switch's health check results for this host (runtime.hostMemberRuntime[]); None: not collected.
    health: MemberHealth | None = None


class DistributedSwitch(Model):
    """Identified by `uuid` (unique across vCenters); `name` is for display and may repeat across
    datacenters (every new switch is called `DSwitch`). `datacenter` and `vcenter` qualify the name
    where two switches share it. Unset in snapshots before version 3: the name identifies the switch."""

    name: Name
    uuid: Text | None = None
    datacenter: Name | None = None
    vcenter: Text | None = None
    max_mtu: EsxiMtu | None = None
    lacp_api_version: Literal["singleLag", "multipleLag"] | None = None
    lags: list[Lag] = Field(default_factory=list)
    portgroups: list[DvPortgroup] = Field(default_factory=list)
    hosts: list[DvsHostMember] = Field(default_factory=list)
    # None: the switch's config was not returned.
    discovery: Discovery | None = Field(default_factory=Discovery)
    # Which health checks are on; None: not collected (older snapshots, or config not returned).
    health_check: HealthCheckConfig | None = None


@leaf
class Vmk:
    """`portgroup` None: a vmk on a distributed port that belongs to no port group. On an NSX-T opaque
    network, `portgroup` is the segment's name (None where the host does not list it) and
    `opaque_network` its id. `dvswitch_uuid` and `portgroup_key` identify a
    distributed switch and port group whose names may repeat."""

    name: Name
    portgroup: Name | None
    vswitch: Name | None = None
    dvswitch: Name | None = None
    mtu: EsxiMtu | None = None
    ip: Text | None = None
    prefix: PrefixLength | None = None
    mac: Text | None = None
    services: list[Name] = Field(default_factory=list)
    netstack: Name = "defaultTcpipStack"
    network: VmkNetwork | None = None
    dvswitch_uuid: Text | None = None
    portgroup_key: Name | None = None
    dv_port: Name | None = None
    opaque_network: Text | None = None


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
    """Identified by `vcenter_uuid` (the vCenter's instance UUID) and `moid` (`host-42`); `name` is for
    display and may repeat across vCenters. Both unset in snapshots before version 3."""

    name: Name
    version: Text | None = None
    vcenter: Text | None = None
    vcenter_uuid: Text | None = None
    moid: Name | None = None
    datacenter: Name | None = None
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
    # ESXi's own LACP view of its distributed switches' LAG members (esxcli through vCenter); None: not
    # collected (no LAG on the host, or older snapshots).
    lacp_status: list[LacpNicStatus] | None = None

"""ESXi host facts as the vSphere API reports them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from hostlint.snapshot.common import ConnectionState, Duplex, Model, Neighbour, PciLink, leaf

TeamingPolicy = Literal[
    "loadbalance_srcid",
    "loadbalance_srcmac",
    "loadbalance_ip",
    "failover_explicit",
    "loadbalance_loadbased",
]


class Teaming(Model):
    """Effective NIC teaming (HostNicTeamingPolicy / VmwareUplinkPortTeamingPolicy)."""

    policy: TeamingPolicy = "loadbalance_srcid"
    active: list[str] = Field(default_factory=list)
    standby: list[str] = Field(default_factory=list)
    unused: list[str] = Field(default_factory=list)
    failure_detection: Literal["link", "beacon"] = "link"
    notify_switches: bool = True
    failback: bool = True


class Discovery(Model):
    protocol: Literal["cdp", "lldp", "none"] = "cdp"
    operation: Literal["listen", "advertise", "both", "none"] = "listen"


class StandardVSwitch(Model):
    name: str
    mtu: int = 1500
    uplinks: list[str] = Field(default_factory=list)
    teaming: Teaming = Field(default_factory=Teaming)
    discovery: Discovery = Field(default_factory=Discovery)


@leaf
class PortGroup:
    """A standard port group; `teaming` is the computed (effective) policy, None when inherited."""

    name: str
    vswitch: str
    vlan: int = 0
    teaming: Teaming | None = None
    members: list[str] = Field(default_factory=list)


class Lag(Model):
    """A distributed switch LACP link aggregation group (enhanced LACP)."""

    name: str
    mode: Literal["active", "passive"] = "active"
    load_balance: str = "srcDestIpTcpUdpPortVlan"
    uplink_count: int = 2


class DvPortgroup(Model):
    name: str
    vlan: int = 0
    teaming: Teaming = Field(default_factory=Teaming)
    uplink_lag: str | None = None


class DvsHostMember(Model):
    """Which host pNIC backs which DVS uplink (`uplink1`, or `lag1-0` for a LAG port)."""

    host: str
    uplinks: dict[str, str] = Field(default_factory=dict)
    # The host's proxy switch MTU (config.network.proxySwitch[].mtu); None: not collected
    mtu: int | None = None


class DistributedSwitch(Model):
    name: str
    max_mtu: int = 1500
    lacp_api_version: Literal["singleLag", "multipleLag"] | None = None
    lags: list[Lag] = Field(default_factory=list)
    portgroups: list[DvPortgroup] = Field(default_factory=list)
    hosts: list[DvsHostMember] = Field(default_factory=list)
    discovery: Discovery = Field(default_factory=Discovery)


@leaf
class Vmk:
    name: str
    portgroup: str
    vswitch: str | None = None
    dvswitch: str | None = None
    mtu: int = 1500
    ip: str | None = None
    prefix: int | None = None
    mac: str | None = None
    services: list[str] = Field(default_factory=list)
    netstack: str = "defaultTcpipStack"


@leaf
class PhysicalNic:
    """`linkSpeed` (actual; None when down) vs `spec.linkSpeed` (configured; None = auto)."""

    name: str
    driver: str | None = None
    mac: str | None = None
    pci: str | None = None
    link_up: bool = True
    speed_mbps: int | None = None
    duplex: Duplex | None = None
    configured_speed_mbps: int | None = None
    configured_duplex: Duplex | None = None
    neighbour: Neighbour | None = None


class IscsiAdapter(Model):
    name: str
    kind: Literal["software", "dependent", "independent"] = "software"
    bound_vmks: list[str] = Field(default_factory=list)
    pnic: str | None = None
    targets: list[str] = Field(default_factory=list)


@leaf
class VmNic:
    label: str
    model: str
    portgroup: str | None = None
    mac: str | None = None


@leaf
class VirtualMachine:
    name: str
    vcpus: int = 1
    cpu_hot_add: bool = False
    nics: list[VmNic] = Field(default_factory=list)


class EsxiHost(Model):
    name: str
    version: str | None = None
    vcenter: str | None = None
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

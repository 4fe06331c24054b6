"""vSphere API objects (as retrieved) to snapshot models. Pure functions: no calls to the server."""

from __future__ import annotations

import dataclasses
import ipaddress
from typing import Any, Literal, cast

from pyVmomi import vim

from hostlint import vlans
from hostlint.collect.vsphere.hints import HostHints
from hostlint.collect.vsphere.record import Recorder
from hostlint.collect.vsphere.retrieve import Retrieved
from hostlint.snapshot.common import CollectionError, ConnectionState, Neighbour, PciLink
from hostlint.snapshot.esxi import (
    Discovery,
    DiscoveryOperation,
    DiscoveryProtocol,
    DistributedSwitch,
    DvPortgroup,
    DvsHostMember,
    EsxiHost,
    Inheritance,
    IscsiAdapter,
    IscsiKind,
    Lag,
    PhysicalNic,
    PortGroup,
    StandardVSwitch,
    SwitchKind,
    Teaming,
    TeamingPolicy,
    TeamingSet,
    VirtualMachine,
    Vmk,
    VmNic,
)

CONNECTION_STATES: tuple[ConnectionState, ...] = ("connected", "disconnected", "notResponding")
NETWORK_CLASS = 0x02  # PCI base class "network controller"
TRUNK_VLAN = 4095  # what ESXi calls "all VLANs" on a standard port group


# --- teaming -----------------------------------------------------------------------------------


def _unset_true(value: bool | None) -> bool:
    return True if value is None else bool(value)


def host_teaming(policy: vim.host.NetworkPolicy.NicTeamingPolicy | None, uplinks: list[str]) -> Teaming:
    """A standard vSwitch or port group policy; `unused` is every uplink neither active nor standby.
    The policy name and beacon probing are optional in the API: unset, they are unknown."""
    if policy is None:
        return Teaming(policy=None, failure_detection=None, unused=list(uplinks))
    order = policy.nicOrder
    active = list(order.activeNic or []) if order else []
    standby = list(order.standbyNic or []) if order else []
    criteria = policy.failureCriteria
    return Teaming(
        # The API's policy names are the model's; pydantic refuses any other.
        policy=cast(TeamingPolicy, policy.policy or None),
        active=active,
        standby=standby,
        unused=[nic for nic in uplinks if nic not in active and nic not in standby],
        failure_detection=_beacon(criteria.checkBeacon if criteria is not None else None),
        notify_switches=_unset_true(policy.notifySwitches),
        # rollingOrder true means "do not fail back" in the API
        failback=not policy.rollingOrder if policy.rollingOrder is not None else True,
    )


def _beacon(check_beacon: bool | None) -> Literal["link", "beacon"] | None:
    return None if check_beacon is None else ("beacon" if check_beacon else "link")


def _set(value: object) -> Inheritance:
    return "inherited" if value is None else "pinned"


def teaming_set(spec: vim.host.PortGroup.Specification | None) -> TeamingSet | None:
    """Which teaming fields a port group sets itself: an unset field (or no nicTeaming at all) is
    inherited from the vSwitch (HostNetworkPolicy). No spec read: unknown, never "inherited"."""
    if spec is None or spec.policy is None:
        return None
    policy = spec.policy.nicTeaming
    if policy is None:
        return TeamingSet(
            policy="inherited",
            failure_detection="inherited",
            notify_switches="inherited",
            failback="inherited",
            order="inherited",
        )
    criteria = policy.failureCriteria
    return TeamingSet(
        policy=_set(policy.policy),
        failure_detection=_set(criteria.checkBeacon if criteria is not None else None),
        notify_switches=_set(policy.notifySwitches),
        failback=_set(policy.rollingOrder),
        order=_set(policy.nicOrder),
    )


def _value(inheritable: Any, default: Any = None) -> Any:
    return inheritable.value if inheritable is not None and inheritable.value is not None else default


def dvs_teaming(policy: Any, uplink_names: list[str]) -> Teaming:
    """A distributed port group's VmwareUplinkPortTeamingPolicy; `uplink_names` include the LAGs. The
    policy name and beacon probing are optional in the API: unset, they are unknown."""
    if policy is None:
        return Teaming(policy=None, failure_detection=None, unused=list(uplink_names))
    order = policy.uplinkPortOrder
    active = list(order.activeUplinkPort or []) if order else []
    standby = list(order.standbyUplinkPort or []) if order else []
    beacon = _value(policy.failureCriteria.checkBeacon) if policy.failureCriteria else None
    return Teaming(
        policy=_value(policy.policy),
        active=active,
        standby=standby,
        unused=[name for name in uplink_names if name not in active and name not in standby],
        failure_detection=_beacon(beacon),
        notify_switches=_value(policy.notifySwitches, True),
        failback=not _value(policy.rollingOrder, False),
    )


def discovery(config: vim.host.LinkDiscoveryProtocolConfig | None) -> Discovery | None:
    """CDP/LLDP of a vSwitch or distributed switch; the config is optional in the API: unset is unknown
    (a switch with discovery off reports operation `none`)."""
    if config is None:
        return None
    # The API's names are the model's; pydantic refuses any other.
    return Discovery(
        protocol=cast(DiscoveryProtocol, config.protocol or "none"),
        operation=cast(DiscoveryOperation, config.operation or "none"),
    )


# --- standard networking -----------------------------------------------------------------------


def _vswitch_uplinks(vswitch: vim.host.VirtualSwitch, pnic_names: dict[str, str]) -> list[str]:
    bridge = vswitch.spec.bridge if vswitch.spec else None
    if isinstance(bridge, vim.host.VirtualSwitch.BondBridge) and bridge.nicDevice:
        return list(bridge.nicDevice)
    # pyVmomi's stubs type `pnic` as the linked PhysicalNic objects; the API sends their keys.
    keys = cast(list[str], vswitch.pnic or [])
    return [pnic_names.get(key, key) for key in keys]


def vswitches(network: vim.host.NetworkInfo, rec: Recorder) -> list[StandardVSwitch]:
    pnic_names = {p.key: p.device for p in network.pnic or [] if p.key}
    found: list[StandardVSwitch] = []
    for vswitch in network.vswitch or []:
        uplinks = _vswitch_uplinks(vswitch, pnic_names)
        policy = vswitch.spec.policy if vswitch.spec else None
        bridge = vswitch.spec.bridge if vswitch.spec else None
        rec.append(
            found,
            StandardVSwitch,
            f"vSwitch {vswitch.name}",
            name=vswitch.name,
            # Both optional in the API: unset is unknown, not the 1500 a new vSwitch gets.
            mtu=vswitch.mtu or (vswitch.spec.mtu if vswitch.spec else None) or None,
            uplinks=uplinks,
            teaming=host_teaming(policy.nicTeaming if policy else None, uplinks),
            discovery=discovery(getattr(bridge, "linkDiscoveryProtocolConfig", None)),
        )
    return found


def portgroups(network: vim.host.NetworkInfo, switches: list[StandardVSwitch], rec: Recorder) -> list[PortGroup]:
    """Port groups with the computed (effective) teaming, kept only where it differs from the vSwitch's,
    and which teaming fields each pins or inherits."""
    by_name = {vs.name: vs for vs in switches}
    found: list[PortGroup] = []
    for pg in network.portgroup or []:
        vswitch = by_name.get(pg.spec.vswitchName)
        uplinks = vswitch.uplinks if vswitch else []
        computed = pg.computedPolicy.nicTeaming if pg.computedPolicy else None
        teaming = host_teaming(computed, uplinks) if computed is not None else None
        if vswitch is not None and teaming == vswitch.teaming:
            teaming = None
        rec.append(
            found,
            PortGroup,
            f"port group {pg.spec.name}",
            name=pg.spec.name,
            vswitch=pg.spec.vswitchName,
            vlan=pg.spec.vlanId,
            teaming=teaming,
            teaming_set=teaming_set(pg.spec),
            members=[vnic.device for vnic in network.vnic or [] if vnic.portgroup == pg.spec.name],
        )
    return found


def services_by_vmk(nic_manager: vim.host.VirtualNicManagerInfo | None) -> dict[str, list[str]]:
    """VMkernel services (nicType) selected on each vmk, e.g. vmk0 -> [management]."""
    services: dict[str, list[str]] = {}
    for config in (nic_manager.netConfig if nic_manager else None) or []:
        device_by_key = {candidate.key: candidate.device for candidate in config.candidateVnic or []}
        # pyVmomi's stubs type `selectedVnic` as one VirtualNic; the API sends a list of their keys.
        for key in cast(list[str], config.selectedVnic or []):
            device = device_by_key.get(key) or key.rsplit("-", 1)[-1]
            services.setdefault(device, []).append(config.nicType)
    return services


def _prefix(mask: str | None) -> int | None:
    if not mask:
        return None
    try:
        return ipaddress.ip_network(f"0.0.0.0/{mask}").prefixlen
    except ValueError:
        return None


def _vmk_network(vnic: vim.host.VirtualNic, names: NetworkNames, rec: Recorder) -> dict[str, Any]:
    """Where a vmk sits, as Vmk fields: a standard port group, a distributed port (with or without a
    port group, which may be NSX-backed) or an NSX-T opaque network."""
    spec = vnic.spec
    dv_port = spec.distributedVirtualPort if spec else None
    opaque = getattr(spec, "opaqueNetwork", None) if spec else None
    if dv_port is not None:
        key = dv_port.portgroupKey or None
        where: dict[str, Any] = {
            "dvswitch": names.dvs.get(dv_port.switchUuid, dv_port.switchUuid) or None,
            "dvswitch_uuid": dv_port.switchUuid or None,
            "portgroup_key": key,
            "portgroup": names.portgroups.get(key, key) if key else None,
            "dv_port": dv_port.portKey or None,
            "network": "nsx" if key in names.nsx else "distributed",
        }
        if key is None:
            rec.note(
                f"{vnic.device}: on distributed port {dv_port.portKey or '(no key)'} of {where['dvswitch']}, which "
                "belongs to no port group; the port's own teaming and VLAN are not read"
            )
        return where
    if opaque is not None:
        # The segment's name, where the host lists it (config.network.opaqueNetwork); its id identifies it.
        segment = names.opaque.get(opaque.opaqueNetworkId or "")
        return {"network": "opaque", "portgroup": segment, "opaque_network": opaque.opaqueNetworkId or None}
    portgroup = vnic.portgroup or (spec.portgroup if spec else None) or None
    if portgroup is None:
        rec.note(f"{vnic.device}: no port group, distributed port or opaque network reported")
    return {"network": "standard", "portgroup": portgroup, "vswitch": names.vswitch_of.get(portgroup or "")}


def vmks(
    network: vim.host.NetworkInfo,
    services: dict[str, list[str]],
    names: NetworkNames,
    rec: Recorder,
) -> list[Vmk]:
    names = dataclasses.replace(
        names,
        vswitch_of={pg.spec.name: pg.spec.vswitchName for pg in network.portgroup or [] if pg.spec},
        opaque={n.opaqueNetworkId: n.opaqueNetworkName for n in network.opaqueNetwork or [] if n.opaqueNetworkName},
    )
    found: list[Vmk] = []
    for vnic in network.vnic or []:
        spec = vnic.spec
        ip = spec.ip if spec else None
        rec.append(
            found,
            Vmk,
            vnic.device or "vmk",
            name=vnic.device,
            **_vmk_network(vnic, names, rec),
            mtu=(spec.mtu if spec else None) or None,
            ip=(ip.ipAddress or None) if ip else None,
            prefix=_prefix(ip.subnetMask) if ip else None,
            mac=(spec.mac or None) if spec else None,
            services=services.get(vnic.device, []),
            netstack=(spec.netStackInstanceKey if spec else None) or "defaultTcpipStack",
        )
    return found


# --- physical NICs, neighbours, PCI ------------------------------------------------------------


def _lldp_parameter(lldp: Any, *keys: str) -> str | None:
    for parameter in lldp.parameter or []:
        if parameter.key in keys and parameter.value not in (None, ""):
            return str(parameter.value)
    return None


def neighbour(hint: Any, rec: Recorder | None = None) -> Neighbour | None:
    """CDP first (it names the platform), then LLDP. ESXi names the LLDP TLVs it passes on in
    `parameter` by their IEEE 802.1AB names (`Port Description`, `System Name`, ...); the Port
    Description is what joins a Junos port that sends its SNMP ifIndex as port ID."""
    rec = rec or Recorder(str(hint.device), "esxi")
    what = f"{hint.device} neighbour"
    cdp = hint.connectedSwitchPort
    if cdp is not None and cdp.devId:
        return rec.build(
            Neighbour,
            what,
            protocol="cdp",
            device_id=cdp.devId,
            port_id=cdp.portId or "",
            system_name=cdp.systemName or None,
            mgmt_address=cdp.mgmtAddr or cdp.address or None,
            platform=cdp.hardwarePlatform or None,
        )
    lldp = hint.lldpInfo
    if lldp is not None and (lldp.chassisId or lldp.portId):
        return rec.build(
            Neighbour,
            what,
            protocol="lldp",
            device_id=lldp.chassisId or "",
            port_id=lldp.portId or "",
            port_description=_lldp_parameter(lldp, "Port Description"),
            system_name=_lldp_parameter(lldp, "System Name"),
            mgmt_address=_lldp_parameter(lldp, "Management Address"),
            platform=_lldp_parameter(lldp, "System Description"),
        )
    return None


def pnics(network: vim.host.NetworkInfo, hints: HostHints | None, rec: Recorder) -> list[PhysicalNic]:
    by_device = {hint.device: hint for hint in (hints.network if hints else [])}
    found: list[PhysicalNic] = []
    for pnic in network.pnic or []:
        actual, configured = pnic.linkSpeed, pnic.spec.linkSpeed if pnic.spec else None
        hint = by_device.get(pnic.device)
        rec.append(
            found,
            PhysicalNic,
            pnic.device or "pNIC",
            name=pnic.device,
            driver=pnic.driver or None,
            mac=pnic.mac or None,
            pci=pnic.pci or None,
            link_up=actual is not None,
            speed_mbps=actual.speedMb if actual else None,
            duplex=("full" if actual.duplex else "half") if actual else None,
            configured_speed_mbps=configured.speedMb if configured else None,
            configured_duplex=("full" if configured.duplex else "half") if configured else None,
            neighbour=neighbour(hint, rec) if hint is not None else None,
        )
    return found


def pci_devices(
    devices: list[Any] | None, nics: list[PhysicalNic], hba_pci: set[str], rec: Recorder
) -> list[PciLink] | None:
    """Network controllers and the devices behind a NIC or HBA; the API has no PCIe link width."""
    if devices is None:
        return None
    nic_by_pci = {nic.pci: nic.name for nic in nics if nic.pci}
    found: list[PciLink] = []
    for device in devices:
        device_class = (device.classId or 0) & 0xFFFF
        if device_class >> 8 != NETWORK_CLASS and device.id not in nic_by_pci and device.id not in hba_pci:
            continue
        rec.append(
            found,
            PciLink,
            f"PCI device {device.id}",
            address=device.id,
            vendor=device.vendorName or None,
            device=device.deviceName or None,
            device_class=getattr(device, "deviceClassName", None) or f"{device_class:04x}",
            nic=nic_by_pci.get(device.id),
        )
    return found


# --- iSCSI -------------------------------------------------------------------------------------


def _targets(hba: vim.host.InternetScsiHba) -> list[str]:
    targets = []
    configured: list[vim.host.InternetScsiHba.SendTarget | vim.host.InternetScsiHba.StaticTarget] = [
        *(hba.configuredSendTarget or []),
        *(hba.configuredStaticTarget or []),
    ]
    for target in configured:
        address = f"[{target.address}]" if ":" in target.address else target.address
        target_text = f"{address}:{target.port or 3260}"
        if target_text not in targets:
            targets.append(target_text)
    return targets


def iscsi_adapters(
    adapters: list[Any] | None, nics: list[PhysicalNic], hints: HostHints | None, rec: Recorder
) -> list[IscsiAdapter]:
    nic_by_pci = {nic.pci: nic.name for nic in nics if nic.pci}
    found: list[IscsiAdapter] = []
    for hba in adapters or []:
        if not isinstance(hba, vim.host.InternetScsiHba):
            continue
        kind: IscsiKind
        if hba.isSoftwareBased:
            kind = "software"
        elif hba.networkBindingSupport == "required":
            kind = "dependent"
        else:
            kind = "independent"
        bound = (hints.bound_vnics.get(hba.device, []) if hints else []) or []
        rec.append(
            found,
            IscsiAdapter,
            f"iSCSI adapter {hba.device}",
            name=hba.device,
            kind=kind,
            bound_vmks=[port.vnicDevice for port in bound if port.vnicDevice],
            pnic=nic_by_pci.get(hba.pci) if kind == "dependent" and hba.pci else None,
            targets=_targets(hba),
        )
    return found


# --- hosts and distributed switches ------------------------------------------------------------


def connection_state(host: Retrieved) -> ConnectionState:
    state = str(host.get("runtime.connectionState") or "notResponding")
    return state if state in CONNECTION_STATES else "notResponding"


def _bool_or_none(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


@dataclasses.dataclass(frozen=True)
class NetworkNames:
    """What the host's references point at: distributed switch uuid -> name, distributed port group
    key -> name, the keys of NSX-backed port groups; per host, standard port group -> vSwitch and
    opaque network (NSX-T segment) id -> name."""

    dvs: dict[str, str] = dataclasses.field(default_factory=dict)
    portgroups: dict[str, str] = dataclasses.field(default_factory=dict)
    nsx: frozenset[str] = frozenset()
    vswitch_of: dict[str, str] = dataclasses.field(default_factory=dict)
    opaque: dict[str, str] = dataclasses.field(default_factory=dict)  # NSX-T segment id -> name, per host


@dataclasses.dataclass(frozen=True)
class Source:
    """The server a collection reads: its name as given (`vc1.example.com`), vCenter's instance UUID
    (None for a standalone ESXi host), and the datacenter of each host and switch by managed object id."""

    vcenter: str | None = None
    instance_uuid: str | None = None
    datacenters: dict[str, str] = dataclasses.field(default_factory=dict)


def esxi_host(
    host: Retrieved,
    hints: HostHints | None,
    source: Source,
    names: NetworkNames,
    rec: Recorder | None = None,
) -> EsxiHost | None:
    """One host, or None when its name is refused (in `rec`); a disconnected host keeps whatever the
    server still had cached. A field the snapshot refuses is unknown, with a collection error in `rec`."""
    rec = rec or Recorder(host.get("name") or host.ref._moId, "esxi")
    network = host.get("config.network")
    state = connection_state(host)
    result = rec.build(
        EsxiHost,
        "host",
        name=host.get("name"),
        version=host.get("config.product.version"),
        vcenter=source.vcenter,
        vcenter_uuid=source.instance_uuid,
        moid=host.ref._moId,
        datacenter=source.datacenters.get(host.ref._moId),
        connection_state=state,
        in_maintenance_mode=_bool_or_none(host.get("runtime.inMaintenanceMode")),
    )
    if result is None:
        return None
    adapters = host.get("config.storageDevice.hostBusAdapter")
    hba_pci = {hba.pci for hba in adapters or [] if getattr(hba, "pci", None)}
    if network is None:
        if state == "connected" and "config.network" not in host.missing:
            rec.note(
                "config.network not returned: the host's networking (vSwitches, port groups, vmks, pNICs) is "
                "unknown, not empty"
            )
        # What the server did return is kept: the PCI devices stand without their NIC names.
        result.pci_devices = pci_devices(host.get("hardware.pciDevice"), [], hba_pci, rec)
        return result
    result.vswitches = vswitches(network, rec)
    result.portgroups = portgroups(network, result.vswitches, rec)
    services = services_by_vmk(host.get("config.virtualNicManagerInfo"))
    result.vmks = vmks(network, services, names, rec)
    result.pnics = pnics(network, hints, rec)
    result.iscsi_adapters = iscsi_adapters(adapters, result.pnics, hints, rec)
    result.pci_devices = pci_devices(host.get("hardware.pciDevice"), result.pnics, hba_pci, rec)
    return result


def _vlan(spec: Any) -> dict[str, Any]:
    """A distributed port group's VLAN setting as DvPortgroup fields; what was not read stays None.

    Trunk ranges are clamped to 1-4094 (vSphere accepts 0-4094; VLAN 0 is the untagged traffic,
    which no switch trunk lists)."""
    dvs = vim.dvs.VmwareDistributedVirtualSwitch
    if isinstance(spec, dvs.VlanIdSpec):
        return {"vlan": spec.vlanId, "vlan_spec": "vlan"}
    if isinstance(spec, dvs.PvlanSpec):
        return {"vlan": spec.pvlanId, "vlan_spec": "pvlan"}
    if isinstance(spec, dvs.TrunkVlanSpec):
        ranges = [
            (max(r.start, vlans.FIRST), min(r.end, vlans.LAST))
            for r in spec.vlanId or []
            if r.start is not None and r.end is not None and r.end >= vlans.FIRST and r.start <= vlans.LAST
        ]
        return {"vlan": TRUNK_VLAN, "vlan_spec": "trunk", "trunk_ranges": vlans.merge(ranges)}
    return {"vlan": None}


def host_uplinks(proxy_switch: vim.host.HostProxySwitch) -> dict[str, str]:
    """DVS uplink name (`uplink1`, `lag1-0`) -> host pNIC, from the host's proxy switch."""
    names = {kv.key: kv.value for kv in proxy_switch.uplinkPort or []}
    backing = proxy_switch.spec.backing if proxy_switch.spec else None
    uplinks = {}
    for pnic_spec in getattr(backing, "pnicSpec", None) or []:
        name = names.get(pnic_spec.uplinkPortKey)
        if name:
            uplinks[name] = pnic_spec.pnicDevice
    return dict(sorted(uplinks.items()))


def _lags(config: Any, rec: Recorder) -> list[Lag]:
    """The enhanced-LACP groups; each field but the name is optional in the API and unknown when unset."""
    found: list[Lag] = []
    for lag in getattr(config, "lacpGroupConfig", None) or []:
        if lag.uplinkNum is None:
            rec.note(f"LAG {lag.name}: uplinkNum not reported; its port count is unknown")
        rec.append(
            found,
            Lag,
            f"LAG {lag.name}",
            name=lag.name,
            mode=lag.mode or None,
            load_balance=lag.loadbalanceAlgorithm or None,
            uplink_count=lag.uplinkNum,
        )
    return found


def _basic_lacp(port_config: Any) -> str | None:
    """The uplink port group's basic LACP (VMwareUplinkLacpPolicy): its mode when enabled, `off`."""
    policy = getattr(port_config, "lacpPolicy", None)
    enabled = _value(getattr(policy, "enable", None))
    if enabled is None:
        return None
    if not enabled:
        return "off"
    mode = _value(getattr(policy, "mode", None))
    return mode if mode in ("active", "passive") else None


def distributed_switch(
    dvs: Retrieved,
    portgroups_of_dvs: list[Retrieved],
    members: list[DvsHostMember],
    source: Source | None = None,
    rec: Recorder | None = None,
) -> DistributedSwitch | None:
    """One distributed switch, or None when its name is refused (in `rec`). A switch whose `config` was
    not returned keeps its port groups and members, with its MTU, LACP, LAGs and discovery unknown."""
    source = source or Source()
    rec = rec or Recorder(dvs.get("name") or dvs.ref._moId, "vcenter")
    config = dvs.get("config")
    if config is None and "config" not in dvs.missing:
        rec.note(
            "distributed switch config not returned: its MTU, LACP, LAGs, uplink names and discovery protocol "
            "are unknown"
        )
    lags = _lags(config, rec)
    uplink_policy = getattr(config, "uplinkPortPolicy", None)
    uplink_names = [*(getattr(uplink_policy, "uplinkPortName", None) or []), *(lag.name for lag in lags)]
    lag_names = {lag.name for lag in lags}
    uplink_pgs = {ref._moId for ref in getattr(config, "uplinkPortgroup", None) or []}
    dv_portgroups: list[DvPortgroup] = []
    for pg in portgroups_of_dvs:
        uplink = bool(pg.get("config.uplink")) or pg.ref._moId in uplink_pgs
        port_config = pg.get("config.defaultPortConfig")
        backing = pg.get("config.backingType") or None
        nsx = backing == "nsx"
        # An NSX port group's teaming and VLAN are NSX's (uplink profile, segment): unknown here, never
        # the defaults an empty vCenter policy would read as.
        teaming = None if nsx else dvs_teaming(getattr(port_config, "uplinkTeamingPolicy", None), uplink_names)
        rec.append(
            dv_portgroups,
            DvPortgroup,
            f"port group {pg.get('name')}",
            name=pg.get("name"),
            key=pg.get("key") or None,
            backing=backing if backing in ("standard", "nsx") else None,
            **({"vlan": None} if nsx else _vlan(getattr(port_config, "vlan", None))),
            teaming=teaming,
            uplink_lag=None
            if uplink or teaming is None
            else next((name for name in teaming.active if name in lag_names), None),
            uplink=uplink,
            lacp=_basic_lacp(port_config) if uplink else None,
        )
    return rec.build(
        DistributedSwitch,
        "distributed switch",
        name=dvs.get("name"),
        uuid=dvs.get("uuid") or None,
        datacenter=source.datacenters.get(dvs.ref._moId),
        vcenter=source.vcenter,
        # maxMtu is optional in VMwareDVSConfigInfo: unset (or no config at all) is unknown.
        max_mtu=getattr(config, "maxMtu", None) or None,
        lacp_api_version=getattr(config, "lacpApiVersion", None) or None,
        lags=lags,
        portgroups=dv_portgroups,
        hosts=members,
        discovery=discovery(getattr(config, "linkDiscoveryProtocolConfig", None)),
    )


# --- virtual machines --------------------------------------------------------------------------

VNIC_MODELS = {
    "VirtualE1000": "e1000",
    "VirtualE1000e": "e1000e",
    "VirtualVmxnet": "vmxnet",
    "VirtualVmxnet2": "vmxnet2",
    "VirtualVmxnet3": "vmxnet3",
    "VirtualVmxnet3Vrdma": "vmxnet3vrdma",
    "VirtualPCNet32": "pcnet32",
    "VirtualSriovEthernetCard": "sriov",
}


def _vnic_backing(backing: Any, dv_portgroup_names: dict[str, str]) -> tuple[str | None, SwitchKind | None, str | None]:
    """(port group name, switch kind, distributed port group key) of a vNIC's backing."""
    if isinstance(backing, vim.vm.device.VirtualEthernetCard.NetworkBackingInfo):
        return backing.deviceName or None, "standard", None
    if isinstance(backing, vim.vm.device.VirtualEthernetCard.DistributedVirtualPortBackingInfo):
        key = (backing.port.portgroupKey if backing.port else None) or None
        return dv_portgroup_names.get(key or "", key), "distributed", key
    if isinstance(backing, vim.vm.device.VirtualEthernetCard.OpaqueNetworkBackingInfo):
        return backing.opaqueNetworkId or None, "opaque", None
    return None, None, None


def virtual_machine(
    vm: Retrieved, dv_portgroup_names: dict[str, str], rec: Recorder | None = None
) -> VirtualMachine | None:
    """One VM, or None when its name is refused (in `rec`); a refused vNIC label leaves that vNIC out."""
    rec = rec or Recorder(vm.get("name") or vm.ref._moId, "vcenter")
    nics: list[VmNic] = []
    for device in vm.get("config.hardware.device") or []:
        if not isinstance(device, vim.vm.device.VirtualEthernetCard):
            continue
        kind = type(device).__name__.rsplit(".", 1)[-1]
        portgroup, switch_kind, portgroup_key = _vnic_backing(device.backing, dv_portgroup_names)
        label = device.deviceInfo.label if device.deviceInfo else f"ethernet-{device.key}"
        rec.append(
            nics,
            VmNic,
            f"virtual machine vNIC {label}",
            label=label,
            model=VNIC_MODELS.get(kind, kind),
            portgroup=portgroup,
            mac=device.macAddress or None,
            switch_kind=switch_kind,
            portgroup_key=portgroup_key,
        )
    return rec.build(
        VirtualMachine,
        "virtual machine",
        name=vm.get("name"),
        # Config not retrieved (no permission on the VM): unknown, not one vCPU without hot-add. Where the
        # config was read, an unset cpuHotAddEnabled is the API's default, off.
        vcpus=vm.get("config.hardware.numCPU"),
        cpu_hot_add=_hot_add(vm),
        nics=nics,
    )


def vms_by_host(
    vms: list[Retrieved], dv_portgroup_names: dict[str, str], refused: list[CollectionError] | None = None
) -> dict[str, list[VirtualMachine]]:
    """Virtual machines (not templates) by the managed object id of the host they run on. What the
    snapshot cannot hold (a VM name with a control character, a bad vNIC) is a collection error in
    `refused`; without `refused`, it raises ValueError."""
    found: dict[str, list[VirtualMachine]] = {}
    for vm in sorted(vms, key=lambda v: v.get("name") or ""):
        host = vm.get("runtime.host")
        if host is None or vm.get("config.template"):
            continue
        rec = Recorder(vm.get("name") or vm.ref._moId, "vcenter")
        converted = virtual_machine(vm, dv_portgroup_names, rec)
        if rec.errors and refused is None:
            raise ValueError("; ".join(e.reason for e in rec.errors))
        refused = refused if refused is not None else []
        refused.extend(rec.errors)
        if converted is not None:
            found.setdefault(host._moId, []).append(converted)
    return found


def _hot_add(vm: Retrieved) -> bool | None:
    enabled = vm.get("config.cpuHotAddEnabled")
    if enabled is not None:
        return bool(enabled)
    return False if vm.get("config.hardware.numCPU") is not None else None

"""Which VMkernel ports to probe, to which peers, at which sizes: chosen from a snapshot alone.

ESXi: a vmk is probed when it runs above 1500 bytes or carries storage or migration traffic (vMotion,
vSAN, provisioning, replication, NVMe/TCP, or bound to an iSCSI adapter): the traffic jumbo frames
are set for, and the traffic that stalls first when a hop drops them. Its peers are VMkernel ports
of other hosts in the same subnet, on the same VLAN (where both are known) and the same TCP/IP
stack: a probe between them crosses the physical path and nothing routed. Among the peers, one is
taken per distinct set of switches its host is cabled to, so the probes cover different physical
paths before they repeat one.

KVM: an interface the host sends from (physical, bond, bridge, VLAN device) with an IPv4 address is
probed when its MTU is above 1500, to peers on other KVM hosts in the same subnet and VRF.

Each pair gets a don't-fragment probe at the vmk's MTU less 28 (IPv4 and ICMP headers) and a
control probe at 1472 (a 1500-byte packet): a path that fails both is down or filtered, not too
small.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import EsxiHost, Vmk
from hostlint.snapshot.kvm import KvmHost

# VirtualNicManager service types whose traffic is storage or migration.
PROBED_SERVICES = frozenset(
    {"vmotion", "vsan", "vsanWitness", "vSphereProvisioning", "vSphereReplication", "vSphereReplicationNFC", "nvmeTcp"}
)
STANDARD_MTU = 1500
HEADERS = 28  # IPv4 (20) and ICMP echo (8)
CONTROL_SIZE = STANDARD_MTU - HEADERS


@dataclass(frozen=True)
class Endpoint:
    """A probe's end: an ESXi vmk (`kind` esxi, `netstack` its TCP/IP stack) or a KVM host's interface
    (`kind` kvm, `vmk` the interface, `netstack` its VRF or `default`)."""

    kind: str
    host: str
    vmk: str
    ip: str
    mtu: int
    netstack: str
    vlan: int | None
    network: ipaddress.IPv4Network | ipaddress.IPv6Network
    switches: frozenset[str]


@dataclass(frozen=True)
class Pair:
    source: Endpoint
    target: Endpoint
    size: int
    purpose: str  # "jumbo" or "control"


@dataclass(frozen=True)
class Skipped:
    host: str
    vmk: str
    reason: str


def endpoints(snapshot: Snapshot) -> tuple[list[Endpoint], list[Skipped]]:
    """Every vmk that could take part in a probe, and why the others cannot."""
    found: list[Endpoint] = []
    skipped: list[Skipped] = []
    for host in snapshot.esxi_hosts:
        if host.connection_state != "connected":
            continue
        switches = _switches(host)
        for vmk in host.vmks:
            endpoint, why = _endpoint(host, vmk, switches, snapshot)
            if endpoint is not None:
                found.append(endpoint)
            elif _wanted(host, vmk):
                skipped.append(Skipped(host.name, vmk.name, why))
    for kvm in snapshot.kvm_hosts:
        if kvm.connection_state == "connected":
            found += _kvm_endpoints(kvm, skipped)
    return found, skipped


# Interfaces a host sends its own traffic from (not a guest's tap, a veth or loopback).
KVM_SOURCES = frozenset({"physical", "bond", "bridge", "vlan", "ovs"})


def _kvm_endpoints(host: KvmHost, skipped: list[Skipped]) -> list[Endpoint]:
    found: list[Endpoint] = []
    switches = frozenset(
        i.neighbour.system_name or i.neighbour.device_id for i in host.interfaces if i.neighbour is not None
    )
    vlans = {vlan.name: vlan.vlan_id for vlan in host.vlans}
    for interface in host.interfaces:
        if interface.kind not in KVM_SOURCES or (interface.master is not None and interface.vrf is None):
            continue  # an enslaved port (bond member, bridge port) has no address of its own
        wanted = (interface.mtu or 0) > STANDARD_MTU
        if interface.addresses is None:
            if wanted:
                skipped.append(Skipped(host.name, interface.name, "its addresses were not collected"))
            continue
        if interface.mtu is None:
            continue
        for address in interface.addresses:
            try:
                network = ipaddress.ip_interface(address).network
            except ValueError:
                continue
            if network.version == 4:
                ip = address.split("/", 1)[0]
                stack = interface.vrf or "default"
                vlan = vlans.get(interface.name)
                found.append(
                    Endpoint("kvm", host.name, interface.name, ip, interface.mtu, stack, vlan, network, switches)
                )
                break
    return found


def _endpoint(host: EsxiHost, vmk: Vmk, switches: frozenset[str], snapshot: Snapshot) -> tuple[Endpoint | None, str]:
    if vmk.ip is None or vmk.prefix is None:
        return None, "its IP address or prefix was not collected"
    if vmk.mtu is None:
        return None, "its MTU was not collected"
    try:
        network = ipaddress.ip_interface(f"{vmk.ip}/{vmk.prefix}").network
    except ValueError:
        return None, f"its address {vmk.ip}/{vmk.prefix} is not an IP address"
    if network.version != 4:
        return None, "probes are IPv4 only (vmkping -d sizes count IPv4 headers)"
    vlan = _vlan(host, vmk, snapshot)
    return Endpoint("esxi", host.name, vmk.name, vmk.ip, vmk.mtu, vmk.netstack, vlan, network, switches), ""


def _wanted(host: EsxiHost, vmk: Vmk) -> bool:
    bound = any(vmk.name in adapter.bound_vmks for adapter in host.iscsi_adapters)
    return bound or (vmk.mtu or 0) > STANDARD_MTU or bool(PROBED_SERVICES.intersection(vmk.services))


def _vlan(host: EsxiHost, vmk: Vmk, snapshot: Snapshot) -> int | None:
    if vmk.dvswitch is not None:
        for dvs in snapshot.distributed_switches:
            if dvs.name == vmk.dvswitch:
                for portgroup in dvs.portgroups:
                    if portgroup.name == vmk.portgroup and portgroup.vlan_spec == "vlan":
                        return portgroup.vlan
        return None
    for standard in host.portgroups:
        if standard.name == vmk.portgroup:
            return standard.vlan
    return None


def _switches(host: EsxiHost) -> frozenset[str]:
    return frozenset(
        pnic.neighbour.system_name or pnic.neighbour.device_id for pnic in host.pnics if pnic.neighbour is not None
    )


def choose(snapshot: Snapshot, peers: int = 2) -> tuple[list[Pair], list[Skipped]]:
    """The probes to send, in a stable order, and the wanted vmks that get none (with why)."""
    found, skipped = endpoints(snapshot)
    wanted = {(host.name, vmk.name) for host in snapshot.esxi_hosts for vmk in host.vmks if _wanted(host, vmk)}
    wanted |= {(e.host, e.vmk) for e in found if e.kind == "kvm" and e.mtu > STANDARD_MTU}
    pairs: list[Pair] = []
    for source in found:
        if (source.host, source.vmk) not in wanted:
            continue
        chosen = list(_peers(source, found, peers))
        if not chosen:
            skipped.append(
                Skipped(source.host, source.vmk, "no VMkernel port of another host shares its subnet, VLAN and stack")
            )
        for target in chosen:
            pairs.extend(_sizes(source, target))
    return pairs, skipped


def _peers(source: Endpoint, found: Iterable[Endpoint], limit: int) -> Iterator[Endpoint]:
    candidates = sorted(
        (
            other
            for other in found
            if other.host != source.host
            and other.kind == source.kind
            and other.network == source.network
            and other.netstack == source.netstack
            and (source.vlan is None or other.vlan is None or source.vlan == other.vlan)
        ),
        key=lambda other: (other.host, other.vmk),
    )
    # One peer per distinct set of switches first, then the others in order, up to the limit.
    first: list[Endpoint] = []
    seen_paths: set[frozenset[str]] = set()
    for other in candidates:
        if other.switches not in seen_paths:
            seen_paths.add(other.switches)
            first.append(other)
    rest = [other for other in candidates if other not in first]
    yield from (first + rest)[:limit]


def _sizes(source: Endpoint, target: Endpoint) -> list[Pair]:
    control = Pair(source, target, CONTROL_SIZE, "control")
    if source.mtu <= STANDARD_MTU:
        return [control]
    return [Pair(source, target, source.mtu - HEADERS, "jumbo"), control]

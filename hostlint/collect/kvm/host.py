"""Gather one KVM host: Linux networking through a runner (local or SSH), guests through libvirt."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from pydantic import ValidationError

from hostlint.collect.kvm.bonding import BondingParseError, parse_bonding
from hostlint.collect.kvm.libvirt_facts import LibvirtError, read_libvirt
from hostlint.collect.kvm.lldp import LldpParseError, parse_lldpctl_json
from hostlint.collect.kvm.ovs import (
    BOND_PORTS_COMMAND,
    BRIDGE_PORTS_SCRIPT,
    PORT_VLANS_COMMAND,
    OvsParseError,
    parse_bond_ports,
    parse_bridge_ports,
    parse_ovs_bonds,
    parse_port_vlans,
)
from hostlint.collect.kvm.runner import CollectionFailure, Done, Reads, Runner
from hostlint.collect.kvm.sysfs import NET, interface_requests, parse_interfaces, read_pci_links
from hostlint.collect.refused import refused
from hostlint.snapshot.common import CollectionError, PciLink
from hostlint.snapshot.kvm import Bond, Bridge, KvmHost, LinuxInterface, OvsPort

BONDING = "/proc/net/bonding"
VHOST_NET = "/dev/vhost-net"


@dataclass
class Gathered:
    """A host as far as it could be read, and what could not be (each a CollectionError)."""

    host: KvmHost
    errors: list[CollectionError] = field(default_factory=list)

    def fail(self, reason: str) -> None:
        self.errors.append(CollectionError(target=self.host.name, kind="kvm", reason=reason))


def _linux_bonds(names: list[str], reads: Reads, gathered: Gathered) -> list[Bond]:
    bonds = []
    for name in names:
        text = reads.files.get(f"{BONDING}/{name}")
        if text is None:
            gathered.fail(f"{BONDING}/{name}: not readable")
            continue
        try:
            bonds.append(parse_bonding(name, text))
        except BondingParseError as exc:
            gathered.fail(str(exc))
    return bonds


def _not_running(done: Done) -> bool:
    """OVS installed but its daemon not started here: no pidfile, no socket. Not a failure: there is no OVS."""
    return "No such file or directory" in done.stderr


def _ovsdb_bonds(runner: Runner, gathered: Gathered) -> list[Bond]:
    """The bonds OVSDB lists, mode and LACP state unknown: the bond rules then say what they skip."""
    done = runner.call(BOND_PORTS_COMMAND)
    if not done.ok:
        gathered.fail(f"OVS bonds not listed either: ovs-vsctl: {done.why()}")
        return []
    try:
        return parse_bond_ports(done.stdout)
    except OvsParseError as exc:
        gathered.fail(str(exc))
        return []


def _ovs_bonds(runner: Runner, interfaces: dict[str, LinuxInterface], gathered: Gathered) -> list[Bond] | None:
    """The OVS bonds; None when there is no OVS here (not installed, or its daemon not running)."""
    bond_show = runner.call(["ovs-appctl", "bond/show"])
    if bond_show.missing or (not bond_show.ok and _not_running(bond_show)):
        return None
    if bond_show.ok:
        lacp_show = runner.call(["ovs-appctl", "lacp/show"])
        if not lacp_show.ok:
            gathered.fail(f"OVS LACP state not read: ovs-appctl lacp/show: {lacp_show.why()}")
        bonds = parse_ovs_bonds(bond_show.stdout, lacp_show.stdout if lacp_show.ok else None)
    else:
        gathered.fail(f"OVS bonds not read: ovs-appctl bond/show: {bond_show.why()}")
        bonds = _ovsdb_bonds(runner, gathered)
    for member in (m for b in bonds for m in b.members):
        nic = interfaces.get(member.name)
        if nic is not None:
            # OVS disables a member whose LACP did not negotiate: its link is still up, and that is LG104's case.
            member.link_up = nic.operstate == "up"
            member.speed_mbps, member.duplex = nic.speed_mbps, nic.duplex
    return bonds


def _ovs_bridges(runner: Runner, known: set[str], gathered: Gathered) -> list[Bridge]:
    """OVS bridges, so guests on them are followed to the bond below."""
    done = runner.call(["sh", "-c", BRIDGE_PORTS_SCRIPT])
    if not done.ok or "ovs-vsctl:" in done.stderr:
        gathered.fail(f"OVS bridges not read: ovs-vsctl: {done.why()}")
    return [b for b in parse_bridge_ports(done.stdout or "") if b.name not in known]


def _ovs_port_vlans(runner: Runner, gathered: Gathered) -> list[OvsPort] | None:
    """Each OVS port's tag, trunks and VLAN mode; None (unknown, never a default) when not read."""
    done = runner.call(PORT_VLANS_COMMAND)
    if not done.ok:
        gathered.fail(f"OVS port VLANs not read: ovs-vsctl list Port: {done.why()}")
        return None
    try:
        return parse_port_vlans(done.stdout)
    except OvsParseError as exc:
        gathered.fail(str(exc))
        return None


def _neighbours(runner: Runner, interfaces: dict[str, LinuxInterface], gathered: Gathered) -> None:
    done = runner.call(["lldpctl", "-f", "json"])
    if done.missing:
        return
    if not done.ok:
        gathered.fail(f"LLDP neighbours not read: lldpctl cannot reach lldpd: {done.why()}")
        return
    try:
        neighbours = parse_lldpctl_json(done.stdout)
    except LldpParseError as exc:
        gathered.fail(str(exc))
        return
    for name, neighbour in neighbours.items():
        if name in interfaces:
            interfaces[name].neighbour = neighbour


def link_kinds(ip_json: str) -> dict[str, str]:
    """Interface name -> the kernel's link kind (`veth`, `bridge`, ...) from `ip -d -j link show`."""
    try:
        links = json.loads(ip_json)
    except ValueError:
        return {}
    return {
        link["ifname"]: link["linkinfo"]["info_kind"]
        for link in links
        if isinstance(link, dict)
        and isinstance(link.get("linkinfo"), dict)
        and "ifname" in link
        and "info_kind" in link["linkinfo"]
    }


def _veths(runner: Runner, interfaces: list[LinuxInterface]) -> None:
    """A veth whose peer is in another namespace can have iflink == ifindex; the kernel's link kind says veth."""
    done = runner.call(["ip", "-d", "-j", "link", "show"])
    if not done.ok:
        return  # only a refinement of what sysfs said
    kinds = link_kinds(done.stdout)
    for interface in interfaces:
        if interface.kind == "other" and kinds.get(interface.name) == "veth":
            interface.kind = "veth"


def _unread_pci(links: list[PciLink], gathered: Gathered) -> None:
    for link in links:
        if link.vendor is None and link.width_capable is None and link.width_negotiated is None:
            gathered.fail(f"PCIe link of {link.nic} ({link.address}) not read: its sysfs files are not readable")


def gather_host(runner: Runner, name: str, libvirt_uri: str | None, lldp: bool = True) -> Gathered:
    """Everything about one host; raises CollectionFailure only when nothing can be read.

    Every source tried (sysfs, bonding files, OVS, lldpd, PCIe, libvirt) gives facts or an error naming
    it. A tool that is not installed is no source (no OVS, no lldpd); one that is there and fails is.
    `lldp=False` says the host runs no lldpd.

    Over SSH every batch is one connection: what to read is listed first, then read at once.
    """
    listing = runner.gather(dirs=[NET, BONDING], links=[VHOST_NET])
    names = listing.dirs.get(NET)
    if not names:
        raise CollectionFailure("no /sys/class/net (not a Linux host?)")
    bond_names = listing.dirs.get(BONDING) or []
    files, links, dirs = interface_requests(names)
    reads = runner.gather(files=files + [f"{BONDING}/{b}" for b in bond_names], links=links, dirs=dirs)
    interfaces, bridges, vlans = parse_interfaces(names, reads)
    gathered = Gathered(host=KvmHost(name=name, interfaces=interfaces, bridges=bridges, vlans=vlans))
    host = gathered.host
    _veths(runner, interfaces)
    by_name = {i.name: i for i in interfaces}
    ovs_bonds = _ovs_bonds(runner, by_name, gathered)
    host.bonds = _linux_bonds(bond_names, reads, gathered) + (ovs_bonds or [])
    # Bridges and port VLANs of a running OVS, bonded or not (a bridge may hold a single NIC).
    if ovs_bonds is not None:
        host.bridges += _ovs_bridges(runner, {b.name for b in bridges}, gathered)
        host.ovs_ports = _ovs_port_vlans(runner, gathered)
    if lldp:
        _neighbours(runner, by_name, gathered)
    host.pci_devices = read_pci_links(runner, interfaces)
    _unread_pci(host.pci_devices, gathered)
    host.vhost_net = listing.links.get(VHOST_NET) is not None
    if libvirt_uri:
        try:
            host.domains, host.networks = read_libvirt(libvirt_uri)
        except LibvirtError as exc:
            gathered.fail(str(exc))
    return gathered


def collect_host(runner: Runner, name: str, libvirt_uri: str | None, lldp: bool = True) -> Gathered:
    """`gather_host`, with a host that cannot be read at all kept as `unreachable` and its reason."""
    try:
        return gather_host(runner, name, libvirt_uri, lldp)
    except CollectionFailure as exc:
        gathered = Gathered(host=KvmHost(name=name, connection_state="unreachable"))
        gathered.errors.append(CollectionError(target=name, kind="kvm", reason=str(exc)))
        return gathered
    except ValidationError as exc:
        # A name the snapshot cannot hold (an interface or domain name with a control character): the
        # host's facts are not recorded, and the error says which field, never a crash.
        gathered = Gathered(host=KvmHost(name=name, connection_state="unreachable"))
        gathered.errors.append(refused(name, "kvm", "host facts", exc))
        return gathered

"""Gather one KVM host: Linux networking through a runner (local or SSH), guests through libvirt."""

from __future__ import annotations

from dataclasses import dataclass, field

from hostlint.collect.kvm.bonding import BondingParseError, parse_bonding
from hostlint.collect.kvm.libvirt_facts import LibvirtError, read_libvirt
from hostlint.collect.kvm.lldp import LldpParseError, parse_lldpctl_json
from hostlint.collect.kvm.ovs import BRIDGE_PORTS_SCRIPT, parse_bridge_ports, parse_ovs_bonds
from hostlint.collect.kvm.runner import CollectionFailure, Reads, Runner
from hostlint.collect.kvm.sysfs import NET, interface_requests, parse_interfaces, read_pci_links
from hostlint.snapshot.common import CollectionError
from hostlint.snapshot.kvm import Bond, Bridge, KvmHost, LinuxInterface

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


def _ovs_bonds(runner: Runner, interfaces: dict[str, LinuxInterface]) -> list[Bond]:
    bond_show = runner.run(["ovs-appctl", "bond/show"])
    if not bond_show:
        return []
    bonds = parse_ovs_bonds(bond_show, runner.run(["ovs-appctl", "lacp/show"]))
    for member in (m for b in bonds for m in b.members):
        nic = interfaces.get(member.name)
        if nic is not None:
            # OVS disables a member whose LACP did not negotiate: its link is still up, and that is LG104's case.
            member.link_up = nic.operstate == "up"
            member.speed_mbps, member.duplex = nic.speed_mbps, nic.duplex
    return bonds


def _ovs_bridges(runner: Runner, known: set[str]) -> list[Bridge]:
    """OVS bridges (when ovs-vsctl answers), so guests on them are followed to the bond below."""
    output = runner.run(["sh", "-c", BRIDGE_PORTS_SCRIPT])
    return [b for b in parse_bridge_ports(output or "") if b.name not in known]


def _neighbours(runner: Runner, interfaces: dict[str, LinuxInterface], gathered: Gathered) -> None:
    output = runner.run(["lldpctl", "-f", "json"])
    if not output:
        return
    try:
        neighbours = parse_lldpctl_json(output)
    except LldpParseError as exc:
        gathered.fail(str(exc))
        return
    for name, neighbour in neighbours.items():
        if name in interfaces:
            interfaces[name].neighbour = neighbour


def gather_host(runner: Runner, name: str, libvirt_uri: str | None) -> Gathered:
    """Everything about one host; raises CollectionFailure only when nothing can be read.

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
    by_name = {i.name: i for i in interfaces}
    ovs_bonds = _ovs_bonds(runner, by_name)
    host.bonds = _linux_bonds(bond_names, reads, gathered) + ovs_bonds
    if ovs_bonds:
        host.bridges += _ovs_bridges(runner, {b.name for b in bridges})
    _neighbours(runner, by_name, gathered)
    host.pci_devices = read_pci_links(runner, interfaces)
    host.vhost_net = listing.links.get(VHOST_NET) is not None
    if libvirt_uri:
        try:
            host.domains, host.networks = read_libvirt(libvirt_uri)
        except LibvirtError as exc:
            gathered.fail(str(exc))
    return gathered


def collect_host(runner: Runner, name: str, libvirt_uri: str | None) -> Gathered:
    """`gather_host`, with a host that cannot be read at all kept as `unreachable` and its reason."""
    try:
        return gather_host(runner, name, libvirt_uri)
    except CollectionFailure as exc:
        gathered = Gathered(host=KvmHost(name=name, connection_state="unreachable"))
        gathered.errors.append(CollectionError(target=name, kind="kvm", reason=str(exc)))
        return gathered

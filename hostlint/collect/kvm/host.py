"""Gather one KVM host: Linux networking through a runner (local or SSH), guests through libvirt."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from pydantic import ValidationError

from hostlint.collect.kvm.bonding import BondingParseError, parse_bonding
from hostlint.collect.kvm.libvirt_facts import LibvirtError
from hostlint.collect.kvm.libvirt_worker import read_libvirt_bounded
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
from hostlint.collect.kvm.sysfs import NET, interface_requests, parse_interfaces, read_pci_links, unread_interfaces
from hostlint.collect.limits import KVM_TIMEOUT_S
from hostlint.collect.refused import refused
from hostlint.snapshot.common import CollectionError, PciLink
from hostlint.snapshot.kvm import Bond, BondMember, Bridge, KvmHost, LinuxInterface, OvsPort

BONDING = "/proc/net/bonding"
VHOST_NET = "/dev/vhost-net"
# lldpd's control socket (lldpd(8): /run/lldpd.socket; /var/run is a link to /run on current distributions).
LLDPD_SOCKET = "/run/lldpd.socket"


@dataclass
class Gathered:
    """A host as far as it could be read, and what could not be (each a CollectionError)."""

    host: KvmHost
    errors: list[CollectionError] = field(default_factory=list)

    def fail(self, reason: str) -> None:
        self.errors.append(CollectionError(target=self.host.name, kind="kvm", reason=reason))


def _linux_bonds(
    interfaces: list[LinuxInterface], listed: list[str] | None, reads: Reads, gathered: Gathered
) -> list[Bond]:
    """Linux bonds, as sysfs and /proc/net/bonding show them together.

    The kernel's bonding driver is the source: no bond in sysfs and no /proc/net/bonding is a host without
    bonds (silent). A bond sysfs shows whose /proc/net/bonding file is not there or not readable is not
    dropped: it is kept with its sysfs members and mode unknown (the bond rules skip it, naming the file),
    and the collection error names the source.
    """
    in_sysfs = [i.name for i in interfaces if i.kind == "bond"]
    bonds = []
    for name in sorted(set(in_sysfs) | set(listed or [])):
        text = reads.files.get(f"{BONDING}/{name}")
        if text is not None and text.strip():
            try:
                bonds.append(parse_bonding(name, text))
                continue
            except BondingParseError as exc:
                gathered.fail(str(exc))
        elif listed is None:
            gathered.fail(f"Linux bond {name} not read: {BONDING} is not there or not readable (sysfs shows {name})")
        elif name not in listed:
            gathered.fail(f"Linux bond {name} not read: {BONDING} does not list it (sysfs shows {name})")
        else:
            gathered.fail(f"Linux bond {name} not read: {BONDING}/{name} is empty or not readable")
        members = [BondMember(name=i.name) for i in interfaces if i.master == name]
        bonds.append(Bond(name=name, implementation="linux", mode=None, members=members))
    return bonds


def _not_running(done: Done) -> bool:
    """ovs-vswitchd not started here: no pidfile, no control socket."""
    return "No such file or directory" in done.stderr


def _ovsdb_bonds(runner: Runner, gathered: Gathered) -> list[Bond] | None:
    """The bonds OVSDB lists, mode and LACP state unknown: the bond rules then say what they skip."""
    done = runner.call(BOND_PORTS_COMMAND)
    if not done.ok:
        gathered.fail(f"OVS bonds not listed by OVSDB: ovs-vsctl: {done.why()}")
        return None
    try:
        return parse_bond_ports(done.stdout)
    except OvsParseError as exc:
        gathered.fail(str(exc))
        return None


def _ovs_absent(runner: Runner, interfaces: dict[str, LinuxInterface], bond_show: Done, gathered: Gathered) -> bool:
    """Whether there is no Open vSwitch here to read, decided from evidence, when `ovs-appctl` did not answer.

    Not installed (no `ovs-appctl`) or installed and unused (neither daemon running, no OVS datapath port in
    sysfs) is no source. OVSDB listing bridges (`ovs-vsctl list-br`) or sysfs showing OVS datapath ports while
    ovs-vswitchd does not answer is a source that is there and not answering: a collection error naming it.
    """
    datapath = sorted(name for name, nic in interfaces.items() if nic.kind == "ovs")
    if bond_show.missing:
        if datapath:
            ports = ", ".join(datapath)
            gathered.fail(f"OVS not read: sysfs shows OVS datapath ports ({ports}) but ovs-appctl is not installed")
        return True
    if not _not_running(bond_show):
        return False
    list_br = runner.call(["ovs-vsctl", "list-br"])
    bridges = list_br.stdout.split() if list_br.ok else []
    if bridges:
        gathered.fail(
            f"OVS bonds not read: ovs-vswitchd is not answering (ovs-appctl bond/show: {bond_show.why()}) "
            f"while OVSDB lists bridges {', '.join(bridges)}"
        )
        return False
    if datapath:
        gathered.fail(
            f"OVS not read: sysfs shows OVS datapath ports ({', '.join(datapath)}) but neither ovs-vswitchd "
            f"(ovs-appctl bond/show: {bond_show.why()}) nor OVSDB (ovs-vsctl list-br: {list_br.why()}) answers"
        )
    return True


def _ovs_bonds(runner: Runner, interfaces: dict[str, LinuxInterface], gathered: Gathered) -> list[Bond] | None:
    """The OVS bonds; None when there is no OVS here (not installed, or installed and not in use).

    ovs-vswitchd (`ovs-appctl bond/show`) knows each bond's mode and LACP state; OVSDB (`ovs-vsctl`) lists
    the bonds configured. A bond OVSDB lists that ovs-vswitchd does not show (it answered with nothing for
    it) is kept, mode unknown, with a collection error: never dropped.
    """
    bond_show = runner.call(["ovs-appctl", "bond/show"])
    if not bond_show.ok:
        if _ovs_absent(runner, interfaces, bond_show, gathered):
            return None
        if not _not_running(bond_show):
            gathered.fail(f"OVS bonds not read: ovs-appctl bond/show: {bond_show.why()}")
        bonds = _ovsdb_bonds(runner, gathered) or []
    else:
        lacp_show = runner.call(["ovs-appctl", "lacp/show"])
        if not lacp_show.ok:
            gathered.fail(f"OVS LACP state not read: ovs-appctl lacp/show: {lacp_show.why()}")
        bonds = parse_ovs_bonds(bond_show.stdout, lacp_show.stdout if lacp_show.ok else None)
        shown = {b.name for b in bonds}
        for listed in _ovsdb_bonds(runner, gathered) or []:
            if listed.name not in shown:
                gathered.fail(f"OVS bond {listed.name} not read: OVSDB lists it, ovs-appctl bond/show does not show it")
                bonds.append(listed)
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


def _neighbours(runner: Runner, interfaces: dict[str, LinuxInterface], lldpd_socket: bool, gathered: Gathered) -> None:
    """LLDP neighbours from lldpd. Asked for (no --no-lldp), lldpd is a source: its client missing, its
    daemon not answering (`lldpctl` cannot reach the socket) or an empty answer are collection errors."""
    done = runner.call(["lldpctl", "-f", "json"])
    if done.missing:
        running = f"lldpd's socket {LLDPD_SOCKET} is there, " if lldpd_socket else ""
        gathered.fail(
            f"LLDP neighbours not read: {running}lldpctl is not installed (--no-lldp for a host without lldpd)"
        )
        return
    if not done.ok:
        gathered.fail(f"LLDP neighbours not read: lldpctl cannot reach lldpd: {done.why()}")
        return
    if not done.stdout.strip():
        gathered.fail("LLDP neighbours not read: lldpctl -f json answered with nothing")
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


def link_vrfs(ip_json: str) -> dict[str, str]:
    """Interface name -> the VRF device it is enslaved to, from `ip -d -j link show`."""
    try:
        links = json.loads(ip_json)
    except ValueError:
        return {}
    return {
        link["ifname"]: link["master"]
        for link in links
        if isinstance(link, dict)
        and isinstance(link.get("linkinfo"), dict)
        and link["linkinfo"].get("info_slave_kind") == "vrf"
        and isinstance(link.get("master"), str)
        and "ifname" in link
    }


def link_max_mtus(ip_json: str) -> dict[str, int]:
    """Interface name -> the largest MTU its driver accepts (`max_mtu`), from `ip -d -j link show`."""
    try:
        links = json.loads(ip_json)
    except ValueError:
        return {}
    return {
        link["ifname"]: link["max_mtu"]
        for link in links
        if isinstance(link, dict)
        and isinstance(link.get("ifname"), str)
        and isinstance(link.get("max_mtu"), int)
        and 68 <= link["max_mtu"] <= 65536
    }


def link_addresses(ip_json: str) -> dict[str, list[str]]:
    """Interface name -> its global-scope addresses as `address/prefix`, from `ip -j address show`."""
    try:
        links = json.loads(ip_json)
    except ValueError:
        return {}
    found: dict[str, list[str]] = {}
    for link in links:
        if not isinstance(link, dict) or not isinstance(link.get("ifname"), str):
            continue
        found[link["ifname"]] = [
            f"{info['local']}/{info['prefixlen']}"
            for info in link.get("addr_info") or []
            if isinstance(info, dict) and info.get("scope") == "global" and "local" in info and "prefixlen" in info
        ]
    return found


def _link_details(runner: Runner, interfaces: list[LinuxInterface]) -> None:
    """What sysfs does not say: a veth whose peer is in another namespace (its iflink can equal its
    ifindex; the kernel's link kind says veth), each interface's VRF, the largest MTU its driver
    accepts (a fix never raises an interface beyond it) and its addresses."""
    done = runner.call(["ip", "-d", "-j", "link", "show"])
    if done.ok:
        kinds = link_kinds(done.stdout)
        vrfs = link_vrfs(done.stdout)
        max_mtus = link_max_mtus(done.stdout)
        for interface in interfaces:
            interface.max_mtu = max_mtus.get(interface.name)
            if interface.kind == "other" and kinds.get(interface.name) == "veth":
                interface.kind = "veth"
            interface.vrf = vrfs.get(interface.name)
    addresses = runner.call(["ip", "-j", "address", "show"])
    if addresses.ok:
        found = link_addresses(addresses.stdout)
        for interface in interfaces:
            interface.addresses = found.get(interface.name, [])


def _unread_pci(links: list[PciLink], gathered: Gathered) -> None:
    for link in links:
        if link.vendor is None and link.width_capable is None and link.width_negotiated is None:
            gathered.fail(f"PCIe link of {link.nic} ({link.address}) not read: its sysfs files are not readable")


def gather_host(
    runner: Runner, name: str, libvirt_uri: str | None, lldp: bool = True, timeout: float = KVM_TIMEOUT_S
) -> Gathered:
    """Everything about one host; raises CollectionFailure only when nothing can be read.

    Every source tried (sysfs, bonding files, OVS, lldpd, PCIe, libvirt) gives facts or an error naming
    it. Each is in one of three states, decided from evidence: not installed (no source, silent), installed
    but not answering, or answering with nothing where another source shows something (both errors).
    `lldp=False` says the host runs no lldpd; otherwise lldpd is expected.

    Over SSH every batch is one connection: what to read is listed first, then read at once.
    """
    listing = runner.gather(dirs=[NET, BONDING], links=[VHOST_NET, LLDPD_SOCKET])
    names = listing.dirs.get(NET)
    if names is None:
        raise CollectionFailure(f"sysfs: no {NET} (not a Linux host?)")
    if not names:
        raise CollectionFailure(f"sysfs: {NET} lists no interfaces (not even lo)")
    bond_names = listing.dirs.get(BONDING)
    files, links, dirs = interface_requests(names)
    # Each interface's bonding file too: a bond sysfs shows is looked for even where the folder is not listable.
    bond_files = [f"{BONDING}/{b}" for b in sorted(set(names) | set(bond_names or []))]
    reads = runner.gather(files=files + bond_files, links=links, dirs=dirs)
    interfaces, bridges, vlans = parse_interfaces(names, reads)
    gathered = Gathered(host=KvmHost(name=name, interfaces=interfaces, bridges=bridges, vlans=vlans))
    for unread in unread_interfaces(names, reads):
        gathered.fail(f"sysfs: {NET}/{unread} not readable (listed, its uevent not there): its facts are unknown")
    host = gathered.host
    _link_details(runner, interfaces)
    by_name = {i.name: i for i in interfaces}
    ovs_bonds = _ovs_bonds(runner, by_name, gathered)
    host.bonds = _linux_bonds(interfaces, bond_names, reads, gathered) + (ovs_bonds or [])
    # Bridges and port VLANs of a running OVS, bonded or not (a bridge may hold a single NIC).
    if ovs_bonds is not None:
        host.bridges += _ovs_bridges(runner, {b.name for b in bridges}, gathered)
        host.ovs_ports = _ovs_port_vlans(runner, gathered)
    if lldp:
        _neighbours(runner, by_name, listing.links.get(LLDPD_SOCKET) is not None, gathered)
    host.pci_devices = read_pci_links(runner, interfaces)
    _unread_pci(host.pci_devices, gathered)
    host.vhost_net = listing.links.get(VHOST_NET) is not None
    if libvirt_uri:
        try:
            host.domains, host.networks = read_libvirt_bounded(libvirt_uri, timeout)
        except LibvirtError as exc:
            gathered.fail(str(exc))
    return gathered


def collect_host(
    runner: Runner, name: str, libvirt_uri: str | None, lldp: bool = True, timeout: float = KVM_TIMEOUT_S
) -> Gathered:
    """`gather_host`, with a host that cannot be read at all kept as `unreachable` and its reason.

    The runner's connection to the host ends here, whatever happened. `timeout` bounds each libvirt read
    (the runner bounds each command with its own)."""
    try:
        return gather_host(runner, name, libvirt_uri, lldp, timeout)
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
    finally:
        runner.close()

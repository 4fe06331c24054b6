"""Interfaces, bridges, VLANs and PCIe links from sysfs and /proc (`/sys/class/net/<if>/...`).

Per interface the kernel exposes one value per file::

    /sys/class/net/eth0/mtu        1500
    /sys/class/net/eth0/speed      10000      (-1 or EINVAL when the link is down)
    /sys/class/net/eth0/duplex     full
    /sys/class/net/eth0/operstate  up
    /sys/class/net/eth0/uevent     DEVTYPE=bond ... (bond, bridge, vlan, openvswitch)
    /sys/class/net/eth0/master  -> ../bond0
    /sys/class/net/eth0/device  -> ../../../0000:3b:00.0

and per PCI function `max_link_width` 8, `max_link_speed` "8.0 GT/s PCIe",
`current_link_width`, `current_link_speed`.
"""

from __future__ import annotations

import re

from hostlint.collect.kvm.runner import Reads, Runner
from hostlint.collect.pcie import parse_gts
from hostlint.snapshot.common import DUPLEXES, PciLink
from hostlint.snapshot.kvm import Bridge, InterfaceKind, LinuxInterface, Vlan

NET = "/sys/class/net"
PCI = "/sys/bus/pci/devices"
VLAN_CONFIG = "/proc/net/vlan/config"
_IF_FILES = (
    "mtu",
    "address",
    "operstate",
    "speed",
    "duplex",
    "uevent",
    "iflink",
    "ifindex",
    "tun_flags",
    "bridge/stp_state",
)
_PCI_FILES = (
    "vendor",
    "device",
    "class",
    "max_link_width",
    "max_link_speed",
    "current_link_width",
    "current_link_speed",
)
_PCI_ADDRESS = re.compile(r"^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$")
_DEVTYPE_KINDS: dict[str, InterfaceKind] = {"bond": "bond", "bridge": "bridge", "vlan": "vlan", "openvswitch": "ovs"}


def _value(reads: Reads, path: str) -> str | None:
    text = reads.files.get(path)
    return text.strip() if text is not None and text.strip() else None


def _int(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text, 0)
    except ValueError:
        return None


def _uevent(text: str | None) -> dict[str, str]:
    pairs = (line.partition("=") for line in (text or "").splitlines())
    return {key: value for key, _, value in pairs if key}


def pci_address(device_path: str | None) -> str | None:
    """The PCI function a NIC sits on, from its resolved `device` link (virtio NICs sit under one)."""
    if not device_path:
        return None
    found = [part for part in device_path.split("/") if _PCI_ADDRESS.match(part)]
    return found[-1] if found else None


def _kind(name: str, reads: Reads, base: str) -> InterfaceKind:
    devtype = _uevent(reads.files.get(f"{base}/uevent")).get("DEVTYPE")
    if devtype in _DEVTYPE_KINDS:
        return _DEVTYPE_KINDS[devtype]
    if reads.files.get(f"{base}/tun_flags") is not None:
        return "tap"
    if reads.links.get(f"{base}/device"):
        return "physical"
    iflink, ifindex = _value(reads, f"{base}/iflink"), _value(reads, f"{base}/ifindex")
    if name != "lo" and iflink is not None and iflink != ifindex:
        return "veth"
    return "other"


def _interface(name: str, reads: Reads) -> LinuxInterface:
    base = f"{NET}/{name}"
    speed = _int(_value(reads, f"{base}/speed"))
    duplex = _value(reads, f"{base}/duplex")
    master = reads.links.get(f"{base}/master")
    kind = _kind(name, reads, base)
    return LinuxInterface(
        name=name,
        kind=kind,
        mtu=_int(_value(reads, f"{base}/mtu")),  # unreadable: unknown, never 1500
        mac=_value(reads, f"{base}/address"),
        operstate=_value(reads, f"{base}/operstate"),
        speed_mbps=speed if speed is not None and speed > 0 else None,
        duplex=duplex if duplex in DUPLEXES else None,
        master=master.rsplit("/", 1)[-1] if master else None,
        pci=pci_address(reads.links.get(f"{base}/device")) if kind == "physical" else None,
    )


def parse_vlan_config(text: str | None) -> list[Vlan]:
    """`/proc/net/vlan/config`: two header lines, then `eth0.100 | 100 | eth0`."""
    vlans = []
    for line in (text or "").splitlines()[2:]:
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[1].isdigit():
            vlans.append(Vlan(name=parts[0], vlan_id=int(parts[1]), parent=parts[2]))
    return vlans


def interface_requests(names: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(files, links, folders) to read for these interfaces, to batch with other reads."""
    bases = [f"{NET}/{n}" for n in names]
    files = [f"{b}/{f}" for b in bases for f in _IF_FILES] + [VLAN_CONFIG]
    links = [f"{b}/{link}" for b in bases for link in ("master", "device")]
    return files, links, [f"{b}/brif" for b in bases]


def parse_interfaces(names: list[str], reads: Reads) -> tuple[list[LinuxInterface], list[Bridge], list[Vlan]]:
    interfaces = [_interface(n, reads) for n in names]
    bridges = [
        Bridge(
            name=i.name,
            members=reads.dirs.get(f"{NET}/{i.name}/brif") or [],
            stp=_value(reads, f"{NET}/{i.name}/bridge/stp_state") not in (None, "0"),
        )
        for i in interfaces
        if i.kind == "bridge"
    ]
    return interfaces, bridges, parse_vlan_config(reads.files.get(VLAN_CONFIG))


def unread_interfaces(names: list[str], reads: Reads) -> list[str]:
    """Interfaces /sys/class/net lists whose folder could not be read: every net device has a `uevent` file."""
    return [n for n in names if reads.files.get(f"{NET}/{n}/uevent") is None]


def read_pci_links(runner: Runner, interfaces: list[LinuxInterface]) -> list[PciLink]:
    """Capable and negotiated PCIe link of each NIC's PCI function (none for NICs without one)."""
    nics = {i.pci: i.name for i in interfaces if i.pci}
    if not nics:
        return []
    reads = runner.gather(files=[f"{PCI}/{a}/{f}" for a in nics for f in _PCI_FILES])
    links = []
    for address, nic in sorted(nics.items()):
        base = f"{PCI}/{address}"
        links.append(
            PciLink(
                address=address,
                vendor=_value(reads, f"{base}/vendor"),
                device=_value(reads, f"{base}/device"),
                device_class=_value(reads, f"{base}/class"),
                nic=nic,
                width_capable=_int(_value(reads, f"{base}/max_link_width")),
                width_negotiated=_int(_value(reads, f"{base}/current_link_width")),
                speed_capable_gts=parse_gts(_value(reads, f"{base}/max_link_speed")),
                speed_negotiated_gts=parse_gts(_value(reads, f"{base}/current_link_speed")),
            )
        )
    return links

"""PCIe links of NIC cards: negotiated vs capable, and what the card's ports need."""

from __future__ import annotations

from collections import defaultdict

from hostlint.join.facts import Facts, PcieFact
from hostlint.join.state import host_missing
from hostlint.snapshot.common import PciLink
from hostlint.snapshot.esxi import EsxiHost
from hostlint.snapshot.kvm import KvmHost

# The PCIe model PC001/PC003 document (rules/PC001.yaml). Per lane and per direction:
# transfer rate (GT/s) times line-code efficiency. Gen1/2 use 8b/10b, Gen3-5 128b/130b;
# Gen6 (PAM4, FLIT mode) has no line code, 236 of every 256 flit bytes carry TLPs.
_LINE_CODE = {2.5: 8 / 10, 5.0: 8 / 10, 8.0: 128 / 130, 16.0: 128 / 130, 32.0: 128 / 130, 64.0: 236 / 256}
# Share of the encoded rate left for packet data: at the usual 256-byte max payload a TLP
# carries 20-28 bytes of framing, sequence number, 3-4 DW header and LCRC (~92% efficient,
# Intel AN 456), and ACK/flow-control DLLPs, SKP ordered sets and the NIC's own descriptor
# and completion traffic take a few percent more. 15% in all, per direction.
PROTOCOL_OVERHEAD = 0.15


def _encoded(width: int | None, speed_gts: float | None) -> float | None:
    """Gbit/s per direction after line coding: lanes x rate x code efficiency (None when unknown)."""
    if not width or not speed_gts or speed_gts not in _LINE_CODE:
        return None
    return width * speed_gts * _LINE_CODE[speed_gts]


def _gbps(width: int | None, speed_gts: float | None) -> float | None:
    encoded = _encoded(width, speed_gts)
    return None if encoded is None else round(encoded, 3)


def _usable(width: int | None, speed_gts: float | None) -> float | None:
    """Gbit/s per direction left for packet data after the protocol overhead."""
    encoded = _encoded(width, speed_gts)
    return None if encoded is None else round(encoded * (1 - PROTOCOL_OVERHEAD), 3)


def _slot(address: str) -> str:
    """`0000:3b:00.1` -> `0000:3b:00`: the functions of one card share its link."""
    return address.rsplit(".", 1)[0].lower()


def _ports(host: EsxiHost | KvmHost) -> list[tuple[str, str, int | None]]:
    if isinstance(host, EsxiHost):
        return [(p.name, p.pci, p.speed_mbps) for p in host.pnics if p.pci]
    return [(i.name, i.pci, i.speed_mbps) for i in host.interfaces if i.pci and i.kind == "physical"]


def _source(host: EsxiHost | KvmHost) -> str:
    """Where this platform's PCIe link status comes from, for a skip reason."""
    if isinstance(host, EsxiHost):
        return "the vSphere API has none: it is read with lspci -vv over SSH, --esxi-ssh-user"
    return "its source is sysfs /sys/bus/pci/devices/*/current_link_{width,speed} and max_link_{width,speed}"


def pcie_facts(host: EsxiHost | KvmHost, facts: Facts) -> None:
    cards: dict[str, list[tuple[str, int | None]]] = defaultdict(list)
    for name, address, speed in _ports(host):
        cards[_slot(address)].append((name, speed))
    devices: dict[str, PciLink] = {}
    for link in host.pci_devices or []:
        devices.setdefault(_slot(link.address), link)
    # An ESXi NIC whose PCI address was not read sits on an unknown card: every card's port count is a lower bound.
    unplaced = [p.name for p in host.pnics if p.pci is None] if isinstance(host, EsxiHost) else []
    for slot, ports in sorted(cards.items()):
        speeds = [s for _, s in ports if s]
        fact = PcieFact(
            object=f"{host.name}/pci-{slot}",
            host=host.name,
            address=slot,
            nics=[n for n, _ in ports],
            port_speeds_mbps=speeds,
            # A down port still needs its share: assume it runs as fast as its siblings.
            ports_gbps=(max(speeds) * len(ports) / 1000) if speeds else 0.0,
            missing=host_missing(host),
        )
        if unplaced:
            reason = f"{host.name} {', '.join(unplaced)}: PCI address unknown (vSphere PhysicalNic.pci not read)"
            fact.missing["ports_gbps"] = fact.missing["port_speeds_mbps"] = fact.missing["nics"] = reason
        device = devices.get(slot)
        if host.pci_devices is None:
            fact.missing["pcie"] = f"PCIe link width of {host.name} not collected ({_source(host)})"
        elif device is None or device.width_negotiated is None or device.speed_negotiated_gts is None:
            fact.missing["pcie"] = (
                f"no PCIe link status for {slot} ({', '.join(fact.nics)}) on {host.name} ({_source(host)})"
            )
        elif _gbps(device.width_negotiated, device.speed_negotiated_gts) is None:
            fact.missing["pcie"] = (
                f"PCIe rate {device.speed_negotiated_gts} GT/s of {slot} on {host.name} is not a PCIe generation "
                "hostlint knows (2.5, 5, 8, 16, 32, 64 GT/s)"
            )
        else:
            fact.device = device.device
            fact.width_capable, fact.width_negotiated = device.width_capable, device.width_negotiated
            fact.speed_capable_gts, fact.speed_negotiated_gts = device.speed_capable_gts, device.speed_negotiated_gts
            fact.capable_gbps = _gbps(device.width_capable, device.speed_capable_gts)
            fact.negotiated_gbps = _gbps(device.width_negotiated, device.speed_negotiated_gts)
            fact.capable_usable_gbps = _usable(device.width_capable, device.speed_capable_gts)
            fact.usable_gbps = _usable(device.width_negotiated, device.speed_negotiated_gts)
        facts.pcie.append(fact)

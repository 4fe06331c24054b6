"""PCIe links of NIC cards: negotiated vs capable, and what the card's ports need."""

from __future__ import annotations

from collections import defaultdict

from hostlint.join.facts import Facts, PcieFact
from hostlint.join.state import host_missing
from hostlint.snapshot.common import PciLink
from hostlint.snapshot.esxi import EsxiHost
from hostlint.snapshot.kvm import KvmHost

# Usable Gbit/s per lane after line coding: Gen1/2 use 8b/10b, Gen3+ 128b/130b.
_LANE_GBPS = {2.5: 2.0, 5.0: 4.0, 8.0: 7.877, 16.0: 15.754, 32.0: 31.508, 64.0: 63.015}


def _gbps(width: int | None, speed_gts: float | None) -> float | None:
    if not width or not speed_gts:
        return None
    return round(width * _LANE_GBPS.get(speed_gts, speed_gts * 128 / 130), 3)


def _slot(address: str) -> str:
    """`0000:3b:00.1` -> `0000:3b:00`: the functions of one card share its link."""
    return address.rsplit(".", 1)[0].lower()


def _ports(host: EsxiHost | KvmHost) -> list[tuple[str, str, int | None]]:
    if isinstance(host, EsxiHost):
        return [(p.name, p.pci, p.speed_mbps) for p in host.pnics if p.pci]
    return [(i.name, i.pci, i.speed_mbps) for i in host.interfaces if i.pci and i.kind == "physical"]


def pcie_facts(host: EsxiHost | KvmHost, facts: Facts) -> None:
    cards: dict[str, list[tuple[str, int | None]]] = defaultdict(list)
    for name, address, speed in _ports(host):
        cards[_slot(address)].append((name, speed))
    devices: dict[str, PciLink] = {}
    for device in host.pci_devices or []:
        devices.setdefault(_slot(device.address), device)
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
        device = devices.get(slot)
        if host.pci_devices is None:
            fact.missing["pcie"] = (
                f"PCIe link width of {host.name} not collected (the vSphere API does not expose it; "
                "collect over SSH to include it)"
            )
        elif device is None or device.width_negotiated is None or device.speed_negotiated_gts is None:
            fact.missing["pcie"] = f"no PCIe link status for {slot} ({', '.join(fact.nics)}) on {host.name}"
            if isinstance(host, EsxiHost):
                fact.missing["pcie"] += " (the vSphere API has none: it is read with lspci over SSH, --esxi-ssh-user)"
        else:
            fact.device = device.device
            fact.width_capable, fact.width_negotiated = device.width_capable, device.width_negotiated
            fact.speed_capable_gts, fact.speed_negotiated_gts = device.speed_capable_gts, device.speed_negotiated_gts
            fact.capable_gbps = _gbps(device.width_capable, device.speed_capable_gts)
            fact.negotiated_gbps = _gbps(device.width_negotiated, device.speed_negotiated_gts)
        facts.pcie.append(fact)

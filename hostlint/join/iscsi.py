"""iSCSI port binding: each bound vmk with its teaming, shared uplinks, targets outside its subnet."""

from __future__ import annotations

import ipaddress
from collections import Counter

from hostlint.join.facts import BoundVmk, Facts, IscsiFact, VmkFact
from hostlint.join.state import host_missing
from hostlint.snapshot.esxi import EsxiHost


def _target_ip(target: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = target.strip()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _outside(network: str | None, targets: list[str]) -> list[str]:
    if network is None:
        return []
    net = ipaddress.ip_network(network)
    return [t for t in targets if (ip := _target_ip(t)) is not None and ip not in net]


def iscsi_facts(host: EsxiHost, host_vmks: list[VmkFact], facts: Facts) -> None:
    vmks = {v.name: v for v in host_vmks}
    for adapter in host.iscsi_adapters:
        fact = IscsiFact(
            object=f"{host.name}/{adapter.name}",
            host=host.name,
            adapter=adapter.name,
            kind=adapter.kind,
            pnic=adapter.pnic,
            targets=list(adapter.targets),
            missing=host_missing(host),
        )
        for name in adapter.bound_vmks:
            vmk = vmks.get(name)
            if vmk is None:
                fact.unknown_vmks.append(name)
                continue
            fact.bound.append(
                BoundVmk(
                    name=name,
                    ip=vmk.ip,
                    network=vmk.network,
                    active=vmk.active,
                    standby=vmk.standby,
                    mtu=vmk.mtu,
                    live=vmk.live,
                    targets_outside=_outside(vmk.network, adapter.targets),
                )
            )
        uses = Counter(nic for b in fact.bound if len(b.active) == 1 for nic in b.active)
        fact.shared_uplinks = sorted(nic for nic, count in uses.items() if count > 1)
        facts.iscsi.append(fact)

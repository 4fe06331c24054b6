"""Join: a snapshot turned into facts rules read directly (uplink -> port -> channel -> pair)."""

from __future__ import annotations

from collections import Counter

from hostlint.join.esxi import dvs_members, esxi_facts
from hostlint.join.facts import Facts, Unresolved
from hostlint.join.kvm import kvm_facts
from hostlint.join.probes import probe_facts
from hostlint.join.switches import SwitchIndex
from hostlint.join.vmk import link_segments
from hostlint.site import SiteParams
from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import EsxiHost


def _server(vcenter: str | None) -> str | None:
    """`vc1.example.com:443` of `https://vc1.example.com:443/sdk`: no slash, as finding objects use them."""
    if not vcenter:
        return None
    return vcenter.split("://", 1)[-1].split("/", 1)[0] or None


def qualified_hosts(hosts: list[EsxiHost]) -> list[EsxiHost]:
    """The hosts as findings name them: a name two hosts share (two vCenters' `esx01`) is qualified by
    the datacenter where that tells them apart, else by the vCenter (`esx01@vc1.example.com`); the
    snapshot keeps the names as collected."""
    seen = Counter(host.name.lower() for host in hosts)
    if all(count == 1 for count in seen.values()):
        return hosts
    shared = [host for host in hosts if seen[host.name.lower()] > 1]
    by_datacenter = Counter((host.name.lower(), host.datacenter) for host in shared)
    qualified = []
    for host in hosts:
        if seen[host.name.lower()] == 1:
            qualified.append(host)
            continue
        where = (
            host.datacenter if host.datacenter and by_datacenter[(host.name.lower(), host.datacenter)] == 1 else None
        )
        where = where or _server(host.vcenter) or host.vcenter_uuid or host.moid
        qualified.append(host.model_copy(update={"name": f"{host.name}@{where}"}) if where else host)
    return qualified


def build_facts(snapshot: Snapshot, site: SiteParams | None = None) -> Facts:
    site = site or SiteParams()
    index = SwitchIndex(snapshot)
    facts = Facts()
    members = dvs_members(snapshot.distributed_switches)
    for host in qualified_hosts(snapshot.esxi_hosts):
        esxi_facts(host, snapshot.distributed_switches, members, index, facts, site)
    for kvm_host in snapshot.kvm_hosts:
        kvm_facts(kvm_host, index, facts)
    link_segments(facts)
    probe_facts(snapshot.probes, facts)
    seen = set()
    for uplink in facts.uplinks:
        reason = uplink.missing.get("switch")
        if reason and uplink.object not in seen:
            seen.add(uplink.object)
            facts.unresolved.append(Unresolved(object=uplink.object, reason=reason))
    return facts


__all__ = ["Facts", "build_facts"]

"""Join: a snapshot turned into facts rules read directly (uplink -> port -> channel -> pair)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

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
    facts = Facts()
    for part in facts_by_host(snapshot, site):
        for kind in Facts.model_fields:
            facts.of_kind(kind).extend(part.of_kind(kind))
    return facts


def facts_by_host(snapshot: Snapshot, site: SiteParams | None = None) -> Iterator[Facts]:
    """The facts `build_facts` gives, one host's at a time, then the site-wide part: every host's VMkernel
    ports (whose L2 segments span hosts), the probes and the unresolved uplinks.

    A check can run its rules on each part and drop it (hostlint.check): at 10,000 hosts the facts of
    the whole site were the largest part of its memory. Each kind's facts come in the same order as
    in `build_facts`.
    """
    site = site or SiteParams()
    index = SwitchIndex(snapshot)
    members = dvs_members(snapshot.distributed_switches)
    site_wide = Facts()
    seen: set[str] = set()

    def done(part: Facts) -> Facts:
        for uplink in part.uplinks:
            reason = uplink.missing.get("switch")
            if reason and uplink.object not in seen:
                seen.add(uplink.object)
                site_wide.unresolved.append(Unresolved(object=uplink.object, reason=reason))
        # A host's iSCSI facts were built from its vmk facts already; segments are linked below.
        site_wide.vmks.extend(part.vmks)
        part.vmks = []
        return part

    for host in qualified_hosts(snapshot.esxi_hosts):
        part = Facts()
        esxi_facts(host, snapshot.distributed_switches, members, index, part, site)
        yield done(part)
    for kvm_host in snapshot.kvm_hosts:
        part = Facts()
        kvm_facts(kvm_host, index, part)
        yield done(part)
    link_segments(site_wide)
    probe_facts(snapshot.probes, site_wide)
    yield site_wide


__all__ = ["Facts", "build_facts", "facts_by_host"]

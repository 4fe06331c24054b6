"""Join: a snapshot turned into facts rules read directly (uplink -> port -> channel -> pair)."""

from __future__ import annotations

from hostlint.join.esxi import dvs_members, esxi_facts
from hostlint.join.facts import Facts, Unresolved
from hostlint.join.kvm import kvm_facts
from hostlint.join.probes import probe_facts
from hostlint.join.switches import SwitchIndex
from hostlint.join.vmk import link_segments
from hostlint.site import SiteParams
from hostlint.snapshot import Snapshot


def build_facts(snapshot: Snapshot, site: SiteParams | None = None) -> Facts:
    site = site or SiteParams()
    index = SwitchIndex(snapshot)
    facts = Facts()
    members = dvs_members(snapshot.distributed_switches)
    for host in snapshot.esxi_hosts:
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

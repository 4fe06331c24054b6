"""The evidence section every report carries when the snapshot holds `hostlint probe` results.

A report grows with findings, not with what went right: delivered probes are counted, and only the
probes that were lost, refused by their own host or not proven (never sent, refused executor, no
answer) are listed, together with any probe a finding cites (MT021 cites a delivered one). Each
listed probe has the id findings use as their `object`, so a finding links to its evidence.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import UTC, datetime

from pydantic import BaseModel

from hostlint.results import CheckResult
from hostlint.snapshot.probe import Probe, ProbeOutcome
from hostlint.wording import plural


class ProbeEvidence(BaseModel):
    """One probe as a report lists it; `id` is the `object` of the findings that cite it."""

    id: str
    source_host: str
    # The VMkernel port (ESXi) or interface (KVM) the probe left from.
    source: str
    netstack: str
    target_host: str
    target: str
    target_ip: str
    size: int
    mtu: int
    dont_fragment: bool
    purpose: str
    via: str
    outcome: ProbeOutcome
    sent: int | None
    received: int | None
    round_trip_ms: float | None
    error_kind: str | None
    error: str | None
    at: datetime | None
    findings: list[str]


class ProbeCounts(BaseModel):
    sent: int
    delivered: int
    lost: int
    refused_locally: int
    not_proven: int


class ProbeSection(BaseModel):
    """Every probe counted; the failures (and the probes a finding cites) listed."""

    counts: ProbeCounts
    listed: list[ProbeEvidence]


def anchor(probe_id: str) -> str:
    """A stable HTML id for a probe (its label has spaces and arrows)."""
    return "probe-" + hashlib.sha256(probe_id.encode()).hexdigest()[:12]


def evidence(probe: Probe, findings: list[str]) -> ProbeEvidence:
    return ProbeEvidence(
        id=probe.label,
        source_host=probe.source_host,
        source=probe.source_vmk,
        netstack=probe.netstack,
        target_host=probe.target_host,
        target=probe.target_vmk,
        target_ip=probe.target_ip,
        size=probe.size,
        mtu=probe.mtu,
        dont_fragment=probe.dont_fragment,
        purpose=probe.purpose,
        via=probe.via,
        outcome=probe.outcome,
        sent=probe.sent,
        received=probe.received,
        round_trip_ms=probe.round_trip_ms,
        error_kind=probe.error_kind,
        error=probe.error,
        at=probe.at.astimezone(UTC) if probe.at is not None and probe.at.tzinfo is not None else probe.at,
        findings=findings,
    )


def section(result: CheckResult) -> ProbeSection | None:
    """The evidence section of `result`, or None when the snapshot holds no probes."""
    if not result.probes:
        return None
    cited: dict[str, list[str]] = {}
    for finding in result.findings:
        cited.setdefault(finding.object, []).append(finding.code)
    by_outcome = Counter(probe.outcome for probe in result.probes)
    listed = [
        evidence(probe, sorted(set(cited.get(probe.label, []))))
        for probe in result.probes
        if probe.outcome != "delivered" or probe.label in cited
    ]
    # Failures first, the delivered probes findings cite last.
    order = {"lost": 0, "refused-locally": 1, "not-proven": 2, "delivered": 3}
    listed.sort(key=lambda item: (order[item.outcome], item.source_host, item.source, item.target_host, item.mtu))
    counts = ProbeCounts(
        sent=len(result.probes),
        delivered=by_outcome["delivered"],
        lost=by_outcome["lost"],
        refused_locally=by_outcome["refused-locally"],
        not_proven=by_outcome["not-proven"],
    )
    return ProbeSection(counts=counts, listed=listed)


def counts_line(counts: ProbeCounts) -> str:
    """`12 probes: 9 delivered, 2 lost, 1 refused locally`."""
    parts = [
        (counts.delivered, "delivered"),
        (counts.lost, "lost"),
        (counts.refused_locally, "refused locally"),
        (counts.not_proven, "not proven"),
    ]
    shown = ", ".join(f"{count} {label}" for count, label in parts if count)
    return f"{plural(counts.sent, 'probe')}: {shown}"


def verdict(item: ProbeEvidence) -> str:
    """What the probe proved, in a few words: `lost 0/3`, `delivered 3/3, 0.41 ms`."""
    if item.outcome == "refused-locally":
        return f"refused locally: {item.source}'s own MTU is below {item.mtu} ({item.error})"
    if item.outcome == "not-proven":
        return f"not proven ({item.error_kind}): {item.error}"
    if item.outcome == "lost":
        return f"lost {item.received}/{item.sent}"
    rtt = f", {item.round_trip_ms:g} ms" if item.round_trip_ms is not None else ""
    return f"delivered {item.received}/{item.sent}{rtt}"


def describe(item: ProbeEvidence) -> str:
    """One line: who to whom, the size, how and when it was sent, and what it proved."""
    when = f" at {item.at:%Y-%m-%d %H:%M:%S}Z" if item.at is not None else ""
    df = "df" if item.dont_fragment else "fragmentable"
    return (
        f"{item.source_host} {item.source} ({item.netstack}) -> {item.target_host} {item.target} ({item.target_ip}): "
        f"{item.size} bytes {df} ({item.purpose}, MTU {item.mtu}) via {item.via}{when}: {verdict(item)}"
    )


def unproven_groups(listed: list[ProbeEvidence]) -> list[tuple[str, list[ProbeEvidence]]]:
    """The probes that proved nothing, one group per cause (a refused executor repeats on every probe of
    its host): what a report names once with a count, as it does skipped checks. A probe a finding
    cites is listed on its own instead."""
    groups: dict[str, list[ProbeEvidence]] = {}
    for item in listed:
        if item.outcome == "not-proven" and not item.findings:
            groups.setdefault(f"{item.error_kind}: {item.error}", []).append(item)
    return sorted(groups.items(), key=lambda group: (-len(group[1]), group[0]))


def one_by_one(listed: list[ProbeEvidence]) -> list[ProbeEvidence]:
    """The probes a report lists one by one: all but the unproven ones nothing cites (unproven_groups)."""
    return [item for item in listed if item.outcome != "not-proven" or item.findings]

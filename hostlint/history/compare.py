"""Comparing stored scans: new and resolved findings, skips that came or went, configuration drift, and
probed paths whose outcome changed."""

from __future__ import annotations

from itertools import pairwise

from pydantic import BaseModel

from hostlint.history.drift import Drift, snapshot_drift
from hostlint.history.sites import SiteError, check_site_name, choose_site, same_site
from hostlint.history.store import HistoryStore, ScanRecord, StoreError
from hostlint.results import SEVERITY_RANK, Finding, Skipped
from hostlint.snapshot.probe import Probe

HISTORY_SCHEMA_VERSION = 1


class Trend(BaseModel):
    """A scan against the one stored before it."""

    previous: int
    findings_delta: int
    new: int
    resolved: int


class ProbeChange(BaseModel):
    """A path probed in both scans whose outcome changed (hostlint.snapshot.probe.Probe.outcome): one that
    carried its MTU last night and is lost tonight, or the reverse."""

    probe: str
    before: str
    after: str
    before_detail: str
    after_detail: str


class ScanDiff(BaseModel):
    before: ScanRecord
    after: ScanRecord
    new: list[Finding]
    resolved: list[Finding]
    unchanged: int
    newly_skipped: list[Skipped]
    no_longer_skipped: list[Skipped]
    drift: list[Drift]
    probes: list[ProbeChange] = []


def finding_key(finding: Finding) -> tuple[str, str]:
    """A finding is the same finding in two scans when its rule and object are."""
    return finding.code, finding.object


def _skip_key(skip: Skipped) -> tuple[str, str, str]:
    return skip.code, skip.object or "", skip.reason


def _by_severity(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (SEVERITY_RANK.get(f.severity, 9), f.host, f.code, f.object))


def trends(store: HistoryStore, scans: list[ScanRecord]) -> dict[int, Trend]:
    """Each scan's trend against the scan of its site stored just before it (also for the first one listed, if
    it has one); `scans` are of one site."""
    if not scans:
        return {}
    earlier = store.previous(scans[0])
    chain = ([earlier] if earlier else []) + scans
    keys = {scan.id: {finding_key(f) for f in store.findings(scan.id)} for scan in chain}
    return {
        after.id: Trend(
            previous=before.id,
            findings_delta=after.counts.findings - before.counts.findings,
            new=len(keys[after.id] - keys[before.id]),
            resolved=len(keys[before.id] - keys[after.id]),
        )
        for before, after in pairwise(chain)
    }


def pick_scans(
    store: HistoryStore, first: int | None, second: int | None, site: str | None = None
) -> tuple[ScanRecord, ScanRecord]:
    """The two scans `diff` compares, always of one site: both given; the one given against the newest
    of its site; or the newest two of `site` (or of the only site stored)."""
    if first is None:
        chosen = choose_site(store, site)
        latest = store.scans(limit=2, site=chosen) if chosen is not None else []
        if len(latest) < 2:
            where = f" of site {chosen!r}" if chosen is not None else ""
            raise StoreError(f"{store.url}: diff needs two scans{where}, {len(latest)} stored")
        return latest[0], latest[1]
    before = store.scan(first)
    if site is not None and before.site != check_site_name(site):
        raise SiteError(f"scan {first} is of site {before.site!r}, not of site {site!r} (--site-name)")
    after = store.scan(second) if second is not None else store.scans(limit=1, site=before.site)[-1]
    if second is None and after.id == before.id:
        raise StoreError(
            f"scan {first} is the newest scan of site {before.site!r}: name an earlier one to diff it with"
        )
    same_site(before, after)
    return before, after


def diff_scans(store: HistoryStore, before: ScanRecord, after: ScanRecord) -> ScanDiff:
    old = {finding_key(f): f for f in store.findings(before.id)}
    new = {finding_key(f): f for f in store.findings(after.id)}
    old_skips = {_skip_key(s): s for s in store.skipped(before.id)}
    new_skips = {_skip_key(s): s for s in store.skipped(after.id)}
    return ScanDiff(
        before=before,
        after=after,
        new=_by_severity([f for key, f in new.items() if key not in old]),
        resolved=_by_severity([f for key, f in old.items() if key not in new]),
        unchanged=len(old.keys() & new.keys()),
        newly_skipped=[s for key, s in sorted(new_skips.items()) if key not in old_skips],
        no_longer_skipped=[s for key, s in sorted(old_skips.items()) if key not in new_skips],
        drift=snapshot_drift(store.snapshot(before.id), store.snapshot(after.id)),
        probes=probe_changes(store.probes(before.id), store.probes(after.id)),
    )


# Worse first: a path that stopped carrying its MTU is what a nightly diff is read for.
_RANK = {"lost": 0, "refused-locally": 1, "not-proven": 2, "delivered": 3}


def _detail(probe: Probe) -> str:
    if probe.outcome == "not-proven":
        return f"{probe.error_kind}: {probe.error}"
    if probe.outcome == "refused-locally":
        return probe.error or "Message too long"
    return f"{probe.received}/{probe.sent} replies"


def probe_changes(before: list[Probe], after: list[Probe]) -> list[ProbeChange]:
    """The probes of both scans (by label: source, target and MTU) whose outcome differs."""
    old = {probe.label: probe for probe in before}
    changes = [
        ProbeChange(
            probe=probe.label,
            before=old[probe.label].outcome,
            after=probe.outcome,
            before_detail=_detail(old[probe.label]),
            after_detail=_detail(probe),
        )
        for probe in after
        if probe.label in old and old[probe.label].outcome != probe.outcome
    ]
    return sorted(changes, key=lambda change: (_RANK[change.after], change.probe))

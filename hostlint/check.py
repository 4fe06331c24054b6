"""A check, without the command line: load a site, join, run rules, apply the baseline."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from hostlint.baseline import Baseline, apply_baseline
from hostlint.gcpause import gc_paused
from hostlint.join import build_facts
from hostlint.results import CheckResult
from hostlint.rules import Rule, run_rules
from hostlint.site import SiteParams
from hostlint.snapshot import Snapshot, load_site


def check_snapshot(
    snapshot: Snapshot,
    rules: list[Rule],
    site: SiteParams | None = None,
    baseline: Baseline | None = None,
    today: date | None = None,
) -> CheckResult:
    with gc_paused():
        facts = build_facts(snapshot, site)
        result = run_rules(rules, facts)
    result.facts = facts
    result.probes = list(snapshot.probes)
    result.collection_errors.extend(snapshot.collection_errors)
    if baseline is not None:
        apply_baseline(result, baseline, today or date.today())
    result.sort()
    return result


def check_paths(
    paths: list[Path], rules: list[Rule], site: SiteParams | None = None, baseline: Baseline | None = None
) -> tuple[Snapshot, CheckResult]:
    with gc_paused():
        snapshot = load_site(paths)
    return snapshot, check_snapshot(snapshot, rules, site, baseline)

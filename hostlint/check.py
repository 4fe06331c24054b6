"""A check, without the command line: load a site, join, run rules, apply the baseline."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from hostlint.baseline import Baseline, apply_baseline
from hostlint.gcpause import gc_paused
from hostlint.join import build_facts, facts_by_host
from hostlint.results import CheckResult
from hostlint.rules import Rule, run_rules
from hostlint.rules.engine import RuleRunner
from hostlint.site import SiteParams
from hostlint.snapshot import Snapshot, load_site


def check_snapshot(
    snapshot: Snapshot,
    rules: list[Rule],
    site: SiteParams | None = None,
    baseline: Baseline | None = None,
    today: date | None = None,
    keep_facts: bool = True,
) -> CheckResult:
    """`keep_facts=False`: the rules run on each host's facts as they are joined, which are then
    dropped (findings keep a dump of theirs): the same result in a fraction of the memory at estate
    scale, without `result.facts` (a report or fix plan that wants them joins the site again)."""
    with gc_paused():
        if keep_facts:
            facts = build_facts(snapshot, site)
            result = run_rules(rules, facts)
            result.facts = facts
        else:
            result = CheckResult()
            runner = RuleRunner(rules)
            for part in facts_by_host(snapshot, site):
                runner.run(part, result)
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

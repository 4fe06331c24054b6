"""A check, without the command line: load a site, join, run rules."""

from __future__ import annotations

from pathlib import Path

from hostlint.join import build_facts
from hostlint.results import CheckResult
from hostlint.rules import Rule, run_rules
from hostlint.snapshot import Snapshot, load_site


def check_snapshot(snapshot: Snapshot, rules: list[Rule]) -> CheckResult:
    result = run_rules(rules, build_facts(snapshot))
    result.collection_errors.extend(snapshot.collection_errors)
    result.sort()
    return result


def check_paths(paths: list[Path], rules: list[Rule]) -> tuple[Snapshot, CheckResult]:
    snapshot = load_site(paths)
    return snapshot, check_snapshot(snapshot, rules)

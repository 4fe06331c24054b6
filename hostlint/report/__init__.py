"""Reports of a check: human (rich), json, sarif, junit, html."""

from __future__ import annotations

from hostlint.report import html, human, json_report, junit, sarif
from hostlint.results import CheckResult
from hostlint.rules.model import Rule
from hostlint.snapshot import Snapshot

FORMATS = ("human", "json", "sarif", "junit", "html")


def render(fmt: str, result: CheckResult, rules: list[Rule], snapshot: Snapshot, color: bool = True) -> str:
    """The report of `result` in `fmt`; `rules` are the rules that ran (SARIF and JUnit list every one)."""
    if fmt == "human":
        return human.render(result, rules, color=color)
    if fmt == "json":
        return json_report.render(result)
    if fmt == "sarif":
        return sarif.render(result, rules, snapshot)
    if fmt == "junit":
        return junit.render(result, rules)
    if fmt == "html":
        return html.render(result, rules, snapshot)
    raise ValueError(f"unknown format {fmt}")

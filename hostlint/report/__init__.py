"""Reports of a check: human (rich), json, sarif, junit, html, GitHub annotations, GitLab code quality."""

from __future__ import annotations

from pathlib import Path

from hostlint.report import ci, html, human, json_report, junit, sarif
from hostlint.report.locations import Locator
from hostlint.results import CheckResult
from hostlint.rules.model import Rule
from hostlint.snapshot import Snapshot

FORMATS = ("human", "json", "sarif", "junit", "html", "github", "gitlab")


def render(
    fmt: str,
    result: CheckResult,
    rules: list[Rule],
    snapshot: Snapshot,
    color: bool = True,
    layout: str = "grouped",
    sources: list[Path] | None = None,
    show_skipped: bool = False,
) -> str:
    """The report of `result` in `fmt`; `rules` are the rules that ran (SARIF and JUnit list every one).

    `sources` are the snapshot files or folders checked: formats that point at a file and line
    (sarif, github, gitlab) locate each object in them.
    """
    if fmt == "human":
        return human.render(result, rules, color=color, layout=layout, show_skipped=show_skipped)
    if fmt in ("sarif", "github", "gitlab"):
        locator = Locator(sources or [])
        if fmt == "github":
            return ci.github(result, locator)
        if fmt == "gitlab":
            return ci.gitlab(result, locator)
        return sarif.render(result, rules, snapshot, locator)
    if fmt == "json":
        return json_report.render(result)
    if fmt == "junit":
        return junit.render(result, rules)
    if fmt == "html":
        return html.render(result, rules, snapshot)
    raise ValueError(f"unknown format {fmt}")

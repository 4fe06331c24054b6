"""Findings as CI systems show them next to a file: GitHub workflow annotations and GitLab code quality.

Both point at the snapshot file and line that hold the object (hostlint.report.locations); an
object not found in any file checked is still reported, without a file.
"""

from __future__ import annotations

import hashlib
import json

from hostlint.report.locations import Locator
from hostlint.results import CheckResult, Finding

GITHUB_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}
# GitLab's code quality severities: info, minor, major, critical, blocker.
GITLAB_SEVERITIES = {"error": "critical", "warning": "major", "info": "info"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github(result: CheckResult, locator: Locator) -> str:
    """One `::error file=...,line=...,title=...::message` workflow command per finding."""
    lines = []
    for finding in result.findings:
        properties = []
        location = locator.locate(finding.object)
        if location:
            properties += [f"file={_escape_property(location.uri)}", f"line={location.line}"]
        properties.append(f"title={_escape_property(f'{finding.code} {finding.name}')}")
        message = f"{finding.object}: {finding.message}"
        lines.append(f"::{GITHUB_LEVELS[finding.severity]} {','.join(properties)}::{_escape_data(message)}")
    return "".join(line + "\n" for line in lines)


def fingerprint(finding: Finding) -> str:
    """Stable across runs for one rule on one object, so GitLab tracks it between pipelines."""
    return hashlib.sha256(f"{finding.code}\0{finding.object}".encode()).hexdigest()


def _gitlab_issue(finding: Finding, locator: Locator) -> dict[str, object]:
    location = locator.locate(finding.object)
    return {
        "description": f"{finding.object}: {finding.message}",
        "check_name": finding.code,
        "fingerprint": fingerprint(finding),
        "severity": GITLAB_SEVERITIES[finding.severity],
        "location": {
            "path": location.uri if location else finding.object,
            "lines": {"begin": location.line if location else 1},
        },
    }


def gitlab(result: CheckResult, locator: Locator) -> str:
    """The code quality report (a JSON list) GitLab shows in merge requests."""
    return json.dumps([_gitlab_issue(f, locator) for f in result.findings], indent=2) + "\n"

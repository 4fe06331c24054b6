"""`--format sarif`: SARIF 2.1.0 for code-scanning dashboards and CI annotations.

Each result names its object with a logical location and, when the check was given snapshot
files, a physical one: the file that holds the object's host, the line that names the object,
and the JSON pointer of the host in the file (code scanning needs a file location). Skipped
checks (one notification per rule and cause, with the count and the first objects: the log grows
with findings, not with what could not be checked; hostlint.report.skips), unresolved uplinks and
collection errors are tool execution notifications: the run succeeded, but these parts were not
checked. With `hostlint probe` evidence, a finding about a probed path (MT020/MT021) carries its
probe in `properties.probe`, the run's `properties.probes` counts every probe, and probes that
proved nothing are one notification per cause.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import quote

from hostlint import __version__
from hostlint.report.evidence import ProbeEvidence, ProbeSection, section, unproven_groups
from hostlint.report.locations import Location, Locator
from hostlint.report.skips import SkipGroup, group_skips
from hostlint.results import CheckResult, Finding
from hostlint.rules.docs import rule_markdown
from hostlint.rules.model import Rule
from hostlint.snapshot import Snapshot

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
SKIPPED_LISTED = 10


def render(
    result: CheckResult, rules: list[Rule], snapshot: Snapshot | None = None, locator: Locator | None = None
) -> str:
    return json.dumps(sarif_log(result, rules, snapshot, locator), indent=2) + "\n"


def sarif_log(
    result: CheckResult, rules: list[Rule], snapshot: Snapshot | None = None, locator: Locator | None = None
) -> dict[str, Any]:
    driver_rules = _unique(rules)
    index = {rule.code: n for n, rule in enumerate(driver_rules)}
    probes = section(result)
    cited = {item.id: item for item in probes.listed} if probes else {}
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "hostlint",
                "version": __version__,
                "rules": [_descriptor(rule) for rule in driver_rules],
            }
        },
        "invocations": [
            {
                "executionSuccessful": True,
                "toolExecutionNotifications": _notifications(result, index) + _unproven(probes),
            }
        ],
        "results": [_result(finding, index, locator, cited) for finding in result.findings],
    }
    properties: dict[str, Any] = {}
    if snapshot is not None and (snapshot.source or snapshot.collected_at):
        properties["snapshot"] = snapshot.model_dump(mode="json", include={"source", "collected_at"})
    if probes is not None:
        properties["probes"] = probes.counts.model_dump(mode="json")
    if properties:
        run["properties"] = properties
    return {"$schema": SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def _unique(rules: list[Rule]) -> list[Rule]:
    """One descriptor per code: ruleIndex must point at exactly one rule."""
    return list({rule.code: rule for rule in rules}.values())


def _descriptor(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.why.strip()},
        "help": {"text": _help_text(rule), "markdown": rule_markdown(rule)},
        "helpUri": rule.references[0].url,
        "defaultConfiguration": {"level": LEVELS[rule.severity]},
        "properties": {"tags": list(rule.platforms), "iterates": rule.iterate},
    }


def _help_text(rule: Rule) -> str:
    parts = [rule.summary, rule.why.strip()]
    if rule.fix:
        parts.append(f"Fix ({rule.fix.applicability}): {rule.fix.summary.strip()}")
    parts.append("References:\n" + "\n".join(f"- {ref.title}: {ref.url}" for ref in rule.references))
    return "\n\n".join(parts)


def _logical(obj: str) -> dict[str, Any]:
    return {"logicalLocations": [{"fullyQualifiedName": obj, "name": obj.rsplit("/", 1)[-1], "kind": "object"}]}


def artifact_uri(path: str) -> str:
    """A URI reference (SARIF 2.1.0 §3.10.2, RFC 3986): a relative path's space, `#`, `%` or non-ASCII
    letter percent-encoded (UTF-8); an absolute file is already a `file:` URI (Path.as_uri encodes it)."""
    return path if path.startswith("file:") else quote(path, safe="/")


def _physical(location: Location) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": artifact_uri(location.uri)},
            "region": {"startLine": location.line},
        },
        "properties": {"jsonPointer": location.pointer},
    }


def _rule_reference(code: str, index: dict[str, int]) -> dict[str, Any]:
    reference: dict[str, Any] = {"id": code}
    if code in index:
        reference["index"] = index[code]
    return reference


def _result(
    finding: Finding, index: dict[str, int], locator: Locator | None, cited: dict[str, ProbeEvidence]
) -> dict[str, Any]:
    dumped = finding.model_dump(mode="json")
    location = _logical(finding.object)
    found = locator.locate(finding.object) if locator else None
    if found:
        location |= _physical(found)
    result: dict[str, Any] = {
        "ruleId": finding.code,
        "level": LEVELS[finding.severity],
        "message": {"text": finding.message},
        "locations": [location],
        # Stable across runs, so a dashboard tracks one problem on one object over time.
        "partialFingerprints": {"hostlint/v1": _fingerprint(finding.code, finding.object)},
        "properties": {
            "host": finding.host,
            "expected": dumped["expected"],
            "actual": dumped["actual"],
            "applicability": finding.applicability,
        },
    }
    if finding.code in index:
        result["ruleIndex"] = index[finding.code]
    if finding.object in cited:
        # The probe that proves (or contradicts) the finding: its evidence, as the JSON report lists it.
        result["properties"]["probe"] = cited[finding.object].model_dump(mode="json")
    return result


def _fingerprint(code: str, obj: str) -> str:
    return hashlib.sha256(f"{code}\0{obj}".encode()).hexdigest()[:32]


def _notifications(result: CheckResult, index: dict[str, int]) -> list[dict[str, Any]]:
    names = {code: "" for code in index}
    notes = [_skipped(group, index) for group in group_skips(result, names)]
    notes += [
        {
            "level": "warning",
            "message": {"text": f"unresolved uplink {u.object}: {u.reason}"},
            "locations": [_logical(u.object)],
        }
        for u in result.unresolved
    ]
    notes += [
        {"level": "error", "message": {"text": f"collection error on {e.kind} {e.target}: {e.reason}"}}
        for e in result.collection_errors
    ]
    return notes


def _unproven(probes: ProbeSection | None) -> list[dict[str, Any]]:
    """Probes that proved nothing (not sent, refused executor, no answer): one notification per cause."""
    if probes is None:
        return []
    return [
        {
            "level": "warning",
            "message": {"text": f"{len(items)} probe{'' if len(items) == 1 else 's'} not proven: {cause}"},
            "properties": {"count": len(items), "probes": [item.id for item in items[:SKIPPED_LISTED]]},
        }
        for cause, items in unproven_groups(probes.listed)
    ]


def _skipped(group: SkipGroup, index: dict[str, int]) -> dict[str, Any]:
    count = len(group.objects)
    where = group.objects[0] if count == 1 else f"{count} objects"
    note: dict[str, Any] = {
        "level": "note",
        "message": {"text": f"{group.code} skipped on {where}: {group.reason}"},
        "associatedRule": _rule_reference(group.code, index),
        "properties": {"count": count, "objects": group.objects[:SKIPPED_LISTED]},
    }
    located = [obj for obj in group.objects[:SKIPPED_LISTED] if obj != "every object"]
    if located:
        note["locations"] = [_logical(obj) for obj in located]
    return note

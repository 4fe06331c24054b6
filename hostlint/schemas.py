"""JSON Schemas of what hostlint reads and writes as JSON, from the models that define it.

`hostlint schema NAME` prints one; docs/schemas/NAME.schema.json holds each as published, and a
test checks both that the files match the models and that real outputs validate against them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from hostlint.history.inventory import ScanInventory
from hostlint.join.facts import Unresolved
from hostlint.report.evidence import ProbeSection
from hostlint.results import RESULT_SCHEMA_VERSION, Finding, Ignored, Skipped
from hostlint.snapshot import Snapshot
from hostlint.snapshot.common import CollectionError
from hostlint.strict import Strict

DIALECT = "https://json-schema.org/draft/2020-12/schema"


class ReportSummary(Strict):
    findings: int
    skipped: int
    passed: int
    unresolved: int
    ignored: int


class Report(Strict):
    """`hostlint check --format json`."""

    model_config = ConfigDict(title="hostlint check report")

    # The constant keeps the version in one place; mypy accepts only a literal inside Literal[].
    schema_version: Literal[RESULT_SCHEMA_VERSION]  # type: ignore[valid-type]
    findings: list[Finding]
    skipped: list[Skipped]
    unresolved: list[Unresolved]
    collection_errors: list[CollectionError]
    ignored: list[Ignored]
    notes: list[str]
    summary: ReportSummary
    # Only when the snapshot holds `hostlint probe` results: delivered probes counted, the rest listed.
    probes: ProbeSection | None = None


class RuleListing(Strict):
    """One entry of `hostlint rules --format json`."""

    code: str
    name: str
    severity: Literal["error", "warning", "info"]
    profile: Literal["minimal", "recommended", "strict"]
    platforms: list[str]
    summary: str


class CodeQualityLines(Strict):
    begin: int = Field(ge=1)


class CodeQualityLocation(Strict):
    path: str
    lines: CodeQualityLines


class CodeQualityIssue(Strict):
    """One entry of `hostlint check --format gitlab` (GitLab's code quality report)."""

    description: str
    check_name: str
    fingerprint: str
    severity: Literal["info", "minor", "major", "critical", "blocker"]
    location: CodeQualityLocation


# name -> (title, model, mode): a snapshot is read (validation), the others are written.
SCHEMAS: dict[str, tuple[str, Any, Literal["validation", "serialization"]]] = {
    "snapshot": ("A hostlint snapshot (collect output, check input)", Snapshot, "validation"),
    "report": ("hostlint check --format json", Report, "serialization"),
    "rules": ("hostlint rules --format json", list[RuleListing], "serialization"),
    "gitlab": ("hostlint check --format gitlab (GitLab code quality)", list[CodeQualityIssue], "serialization"),
    "scan-inventory": ("hostlint scan --inventory FILE (YAML)", ScanInventory, "validation"),
}


def _closed(node: Any) -> None:
    """Every object with named properties admits no others: a consumer validating an output learns of a
    field it does not know (a renamed one, a typo in a tool) instead of passing it by."""
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            node.setdefault("additionalProperties", False)
        for value in node.values():
            _closed(value)
    elif isinstance(node, list):
        for value in node:
            _closed(value)


def schema(name: str) -> dict[str, Any]:
    title, model, mode = SCHEMAS[name]
    generated = TypeAdapter(model).json_schema(mode=mode)
    if mode == "serialization":
        _closed(generated)
    return {"$schema": DIALECT, "title": title} | {k: v for k, v in generated.items() if k != "title"}

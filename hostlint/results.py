"""What a check produces: findings, skipped rule x object pairs, passes, and what was not joined."""

from __future__ import annotations

from typing import Any, NamedTuple

from pydantic import BaseModel, Field

from hostlint.fieldsets import SharedFieldsSet
from hostlint.join.facts import Facts, Unresolved
from hostlint.snapshot.common import CollectionError
from hostlint.snapshot.probe import Probe

RESULT_SCHEMA_VERSION = 1
SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}


class FixRequest(BaseModel):
    """A rule's fix step with its parameters evaluated for one finding."""

    action: str
    stage: str
    params: dict[str, Any] = Field(default_factory=dict)


class FixCandidate(BaseModel):
    """One of a rule's alternative fixes, evaluated for one finding (its `fix` empty when no step applies)."""

    name: str
    why: str
    fix: list[FixRequest] = Field(default_factory=list)


class Finding(BaseModel):
    code: str
    name: str
    # A str for the code that counts by it; published as an enum (`hostlint schema report`).
    severity: str = Field(json_schema_extra={"enum": list(SEVERITY_RANK)})
    object: str
    host: str
    message: str
    expected: Any
    actual: Any
    applicability: str | None = None
    fix: list[FixRequest] = Field(default_factory=list)
    fact: dict[str, Any] = Field(default_factory=dict, exclude=True)
    # A rule with alternative fixes: every candidate, in the rule's order; `fix` is the first that
    # applies. The planner chooses among them (hostlint.fixes.choice); like `fact`, never serialised.
    alternatives: list[FixCandidate] = Field(default_factory=list, exclude=True)


# A rule x object not checked, and why (a large site has 100,000: hostlint.fieldsets). No docstring:
# it would become the description in the published report schema.
class Skipped(SharedFieldsSet):
    code: str
    object: str | None
    reason: str


class Ignored(BaseModel):
    """A finding the site's baseline accepts, with the baseline's reason."""

    code: str
    object: str
    reason: str


class Passed(NamedTuple):
    """A rule x object that was checked and found right; a tuple, since a large site has hundreds of thousands."""

    code: str
    object: str


class CheckResult(BaseModel):
    findings: list[Finding] = Field(default_factory=list)
    skipped: list[Skipped] = Field(default_factory=list)
    passed: list[Passed] = Field(default_factory=list)
    unresolved: list[Unresolved] = Field(default_factory=list)
    collection_errors: list[CollectionError] = Field(default_factory=list)
    ignored: list[Ignored] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    # The joined facts the rules ran on, kept so reports and fix plans do not join the site again.
    facts: Facts | None = Field(default=None, exclude=True, repr=False)
    # The snapshot's `hostlint probe` evidence, for the reports' evidence section (hostlint.report.evidence).
    probes: list[Probe] = Field(default_factory=list, exclude=True, repr=False)

    def sort(self) -> None:
        self.findings.sort(key=lambda f: (f.host, SEVERITY_RANK[f.severity], f.code, f.object))
        self.skipped.sort(key=lambda s: (s.code, s.object or ""))
        self.passed.sort(key=lambda p: (p.code, p.object))

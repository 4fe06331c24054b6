"""A baseline (ignore) file, so a brownfield site can adopt hostlint one problem at a time.

Each entry names a rule code and an object (a shell-style pattern) and must say
why. Entries may expire; an expired entry stops hiding its findings, and an
entry that matches nothing is reported so the file does not rot.
"""

from __future__ import annotations

import difflib
import fnmatch
from datetime import date
from pathlib import Path

import yaml
from pydantic import Field, field_validator

from hostlint.results import CheckResult, Ignored
from hostlint.rules import Rule, RuleError
from hostlint.snapshot import SnapshotError
from hostlint.strict import Strict
from hostlint.yamlfile import load_model


class BaselineEntry(Strict):
    code: str
    object: str
    reason: str
    until: date | None = None

    @field_validator("reason")
    @classmethod
    def _has_reason(cls, reason: str) -> str:
        if not reason.strip():
            raise ValueError("every baseline entry needs a reason")
        return reason

    def matches(self, code: str, obj: str) -> bool:
        return code == self.code.upper() and fnmatch.fnmatchcase(obj, self.object)


class Baseline(Strict):
    ignore: list[BaselineEntry] = Field(default_factory=list)


_LOOK_ALIKE = str.maketrans({"O": "0", "I": "1", "L": "1"})


def load_baseline(path: Path) -> Baseline:
    return load_model(path, Baseline, "baseline", SnapshotError)


def check_baseline_codes(baseline: Baseline, rules: list[Rule], path: Path) -> None:
    """Refuse an entry whose code is no rule's: it would hide nothing and say so only as a note."""
    codes = {rule.code for rule in rules}
    for entry in baseline.ignore:
        if entry.code.upper() not in codes:
            # Letter O for digit 0 (and I or L for 1) is the usual typo in a code; difflib alone ranks LG0O1
            # nearer LG014 than LG001, so the look-alike digits are tried first.
            code = entry.code.upper()
            digits = code[:2] + code[2:].translate(_LOOK_ALIKE)  # a code is two letters, then digits
            close = [digits] if digits in codes else difflib.get_close_matches(code, sorted(codes), n=3)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            raise RuleError(f"{path}: baseline entry {entry.code} {entry.object}: no rule {entry.code}{hint}")


def apply_baseline(result: CheckResult, baseline: Baseline, today: date) -> None:
    """Move findings the baseline covers into `result.ignored`; note expired and unused entries."""
    live = []
    for entry in baseline.ignore:
        if entry.until is not None and entry.until < today:
            result.notes.append(
                f"baseline entry {entry.code} {entry.object} expired on {entry.until}; its findings are reported again"
            )
        else:
            live.append(entry)
    used: set[int] = set()
    kept = []
    for finding in result.findings:
        entry_index = next((i for i, e in enumerate(live) if e.matches(finding.code, finding.object)), None)
        if entry_index is None:
            kept.append(finding)
            continue
        used.add(entry_index)
        result.ignored.append(Ignored(code=finding.code, object=finding.object, reason=live[entry_index].reason))
    result.findings = kept
    for i, entry in enumerate(live):
        if i not in used:
            result.notes.append(f"baseline entry {entry.code} {entry.object} matched nothing; remove it if fixed")


def write_baseline(result: CheckResult, path: Path, today: date) -> int:
    """Write every current finding as a baseline entry, for a site adopting hostlint."""
    entries = [
        {"code": f.code, "object": f.object, "reason": f"accepted when adopting hostlint on {today}: {f.message}"}
        for f in result.findings
    ]
    header = (
        "# hostlint baseline: findings accepted for now. Each entry needs a reason;\n"
        "# `until: YYYY-MM-DD` makes it expire. `object` may be a shell pattern (esx0*/vSwitch1).\n"
    )
    path.write_text(header + yaml.safe_dump({"ignore": entries}, sort_keys=False, width=120), encoding="utf-8")
    return len(entries)

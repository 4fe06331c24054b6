"""`--fix-script DIR`: the plan, per-device scripts and their rollbacks, written out."""

from __future__ import annotations

from pathlib import Path

from hostlint.fixes.plan import Plan, build_plan
from hostlint.fixes.plan_md import plan_markdown
from hostlint.fixes.scripts import device_scripts
from hostlint.results import CheckResult
from hostlint.snapshot import Snapshot


def write_plan(plan: Plan, snapshot: Snapshot, directory: Path) -> list[Path]:
    """Write PLAN.md and every device's change and rollback script into `directory`; run nothing."""
    files = {"PLAN.md": plan_markdown(plan, snapshot), **device_scripts(plan.steps, len(plan.steps))}
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def write_scripts(result: CheckResult, snapshot: Snapshot, directory: Path, unsafe: bool = True) -> list[Path]:
    """The fix plan for `result`'s findings, written into `directory` (unsafe fixes only if `unsafe`)."""
    return write_plan(build_plan(result, snapshot, unsafe=unsafe), snapshot, directory)

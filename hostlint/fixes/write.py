"""`--fix-script DIR`: the plan, per-device scripts and their rollbacks, written out."""

from __future__ import annotations

from pathlib import Path

from hostlint.fixes.manifest import MANIFEST, FixFolderError, claim, create_new, record
from hostlint.fixes.plan import Plan, build_plan
from hostlint.fixes.plan_md import plan_markdown
from hostlint.fixes.plan_steps import steps_data
from hostlint.fixes.scripts import device_scripts
from hostlint.results import CheckResult
from hostlint.snapshot import Snapshot

__all__ = ["MANIFEST", "FixFolderError", "write_plan", "write_scripts"]


def write_plan(plan: Plan, snapshot: Snapshot, directory: Path, force: bool = False) -> list[Path]:
    """Write PLAN.md and every device's change and rollback script into `directory`; run nothing.

    The folder is hostlint's: an earlier run's files (listed in its manifest) are replaced wholesale,
    and a non-empty folder hostlint did not write is refused (FixFolderError) unless `force`."""
    files = {"PLAN.md": plan_markdown(plan, snapshot), **device_scripts(plan.steps, len(plan.steps))}
    claim(directory, set(files), force)
    written = []
    try:
        for name, text in files.items():
            path = directory / name
            with create_new(path) as stream:  # a symlink left here (with --force) is replaced, never followed
                stream.write(text.encode("utf-8"))
            written.append(path)
        record(directory, files, steps_data(plan.steps))
    except OSError as exc:
        raise FixFolderError(f"{directory}: cannot write: {exc.strerror or exc}") from exc
    return written


def write_scripts(
    result: CheckResult, snapshot: Snapshot, directory: Path, unsafe: bool = True, force: bool = False
) -> list[Path]:
    """The fix plan for `result`'s findings, written into `directory` (unsafe fixes only if `unsafe`)."""
    return write_plan(build_plan(result, snapshot, unsafe=unsafe), snapshot, directory, force)

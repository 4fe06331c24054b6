"""Withholding a fix whose names cannot be written safely: the finding stays, its script does not.

A change is screened before it joins a plan: its device and every name it carries must fit their
grammar on each platform it renders for (hostlint.fixes.identifiers), and every field of every
template must render with each value quoted for its language (hostlint.fixes.render). A change that
fails either is withheld, with one line saying why.
"""

from __future__ import annotations

from dataclasses import dataclass

from hostlint.fixes.actions import Action
from hostlint.fixes.identifiers import check_device, check_values, control_character, printable
from hostlint.fixes.quoting import UnsafeValue
from hostlint.fixes.render import render_all
from hostlint.fixes.steps import Change, Source, Step


@dataclass
class Withheld:
    """A fix request hostlint did not write because a name in it cannot be written safely."""

    source: Source
    action: str
    reason: str

    @property
    def message(self) -> str:
        """`fix withheld for LG001 esx01/vSwitch1 (host-teaming): vSwitch name contains a newline`, printable."""
        where = f"{self.source.code} {printable(self.source.object)} ({self.action})"
        reason = self.reason if control_character(self.reason) is None else printable(self.reason)
        return f"fix withheld for {where}: {reason}"


def unsafe_reason(change: Change, action: Action, stage: str = "host") -> str | None:
    """Why `change` cannot be written safely on any of its platforms, None when it can."""
    values = {**change.values, "before": change.before, "after": change.after}
    for platform in change.platforms:
        reason = check_device(change.device, platform) or check_values(values, platform)
        if reason is not None:
            return reason
    try:
        render_all(Step(action=action, stage=stage, change=change, sources=[], seq=-1))
    except UnsafeValue as exc:
        return f"a value cannot be written safely: {exc}"
    return None

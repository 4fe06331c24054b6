"""A change one fix action makes on one device, and the planned step it becomes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hostlint.fixes.actions import Action, Platform


@dataclass
class Change:
    """One action on one device, with everything its templates read.

    `after` is the value it sets (compared across steps for conflicts); `before` the value a
    rollback restores, or None when the rollback reads its own values. `target` names what on the
    device is changed (a vSwitch, a vmk, a set of ports, `global`).
    """

    action: str
    device: str
    platforms: tuple[Platform, ...]
    target: str
    values: dict[str, Any]
    after: Any
    before: Any = None
    notes: list[str] = field(default_factory=list)

    def changes_nothing(self) -> bool:
        """Whether the change sets exactly what is there already (a key `after` adds with an empty
        value, such as no uplinks removed, is no change either)."""
        if self.before is None:
            return False
        if isinstance(self.after, dict) and isinstance(self.before, dict):
            before = self.before
            return all(
                before.get(key) == value or (not value and key not in before) for key, value in self.after.items()
            )
        return bool(self.after == self.before)


@dataclass
class Source:
    """The finding a step fixes."""

    code: str
    object: str
    message: str
    applicability: str | None
    order: int


@dataclass
class Step:
    action: Action
    stage: str
    change: Change
    sources: list[Source]
    seq: int
    number: int = 0

    @property
    def device(self) -> str:
        return self.change.device

    @property
    def codes(self) -> list[str]:
        return sorted({s.code for s in self.sources})

    @property
    def order(self) -> int:
        return min(s.order for s in self.sources)

    def identity(self) -> tuple[str, ...]:
        """Steps with the same identity are one step, whichever findings asked for it."""
        change = self.change
        values = json.dumps(change.values, sort_keys=True, default=str)
        return (change.action, change.device, change.target, self.stage, values, repr(change.after))


class CannotFix(Exception):
    """A fix request that cannot be turned into safe commands; the message says what to do by hand."""

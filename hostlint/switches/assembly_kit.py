"""What a platform folder's `records.py` and `assemble.py` share: typing a ttp group's records against
its model (one `RecordError` naming command, group and field), and the context an assembly reads values
through (a value that makes no sense is a warning naming the device and the command, never a failure).

A leaf like `base.py`: it imports only `hostlint.strict` and pydantic, so a folder's record models stay
checkable on their own (`contract.py` imports them by path).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import ValidationError

from hostlint.strict import Strict

__all__ = ["ReadContext", "RecordError", "Records", "typed_records"]

T = TypeVar("T")
# ttp group -> its records, every command's together (a folder's records.py names each group's command).
Records = Mapping[str, Sequence[Mapping[str, Any]]]


class RecordError(ValueError):
    """A record that does not fit its group's model: names the command, the group and the field."""


def typed_records(
    folder: str,
    models: Mapping[str, type[Strict]],
    commands: Mapping[str, str],
    group: str,
    records: Sequence[Mapping[str, Any]],
) -> list[Strict]:
    """The records of one group as its model; a group no model declares, or a record with a field its
    model lacks, is a RecordError naming it (`folder` names the records.py that lacks the model)."""
    model = models.get(group)
    if model is None:
        raise RecordError(f"group {group!r} has no model in {folder}/records.py")
    out = []
    for record in records:
        try:
            out.append(model.model_validate(dict(record)))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            raise RecordError(f"{commands[group]}: {group} record: {problems}") from exc
    return out


@dataclass
class ReadContext:
    """One switch's assembly: its name and the warnings so far."""

    device: str
    warnings: list[str] = field(default_factory=list)

    def read(self, command: str, what: str, convert: Callable[[], T]) -> T | None:
        """Run one conversion; a value that makes no sense is a warning, not a failure."""
        try:
            return convert()
        except (ValueError, TypeError, KeyError) as exc:
            self.warnings.append(f"{self.device}: {command}: {what}: {exc}")
            return None

    def typed(
        self, records: Records, group: str, typed: Callable[[str, Sequence[Mapping[str, Any]]], list[Any]]
    ) -> list[Any]:
        """A group's records through its folder's `typed`; a group that does not fit is one warning and no
        records (the rest of the switch is still built)."""
        try:
            return typed(group, records.get(group, ()))
        except RecordError as exc:
            self.warnings.append(f"{self.device}: {exc}")
            return []

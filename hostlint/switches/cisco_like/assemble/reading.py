"""One Cisco-like switch's records as its folder types them (`Reading`), and the small readers every part
of the assembly shares: records merged by interface, channel names, switchport modes.

Part of the Cisco-like assembly (hostlint/switches/cisco_like/assemble/__init__.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from hostlint import names, switches
from hostlint.snapshot.switch import (
    PortMode,
)
from hostlint.switches.assembly_kit import ReadContext, Records

T = TypeVar("T")


Record = dict[str, Any]


# A folder's `typed(group, records)` (its records.py).
Typed = Callable[[str, Sequence[Mapping[str, Any]]], list[Any]]


_SWITCHPORT_MODES: tuple[PortMode, ...] = ("access", "trunk")


@dataclass
class Reading:
    """One switch's records as its folder types them, and what its assembly has read so far."""

    platform: str
    outputs: Records
    typed: Typed
    # ttp group -> the command whose output fills it (the folder's records.COMMANDS).
    commands: Mapping[str, str]
    # The commands whose output was collected; None: those that gave any record.
    collected: frozenset[str] | None
    context: ReadContext
    model: str | None = None
    # Switch-wide L2 figures already read (hostlint.collect.switches.global_mtu).
    global_l2: dict[str, int | None] = field(default_factory=dict)
    _groups: dict[str, list[Any]] = field(default_factory=dict)

    def group(self, name: str) -> list[Any]:
        """A group's typed records; [] for a group the platform's templates do not have."""
        if name not in self.commands:
            return []
        if name not in self._groups:
            self._groups[name] = self.context.typed(self.outputs, name, self.typed)
        return self._groups[name]

    def fields(self, name: str) -> list[Record]:
        """A group's records as their fields (what the template read, nothing else)."""
        return [record.model_dump(exclude_none=True) for record in self.group(name)]

    def command(self, group: str) -> str:
        return self.commands.get(group, group)

    def shown(self, group: str) -> bool:
        """Whether the command that fills `group` was collected (its output may hold no record)."""
        command = self.command(group)
        if self.collected is not None:
            return command in self.collected
        return any(self.outputs.get(g) for g, c in self.commands.items() if c == command)

    def read(self, group: str, what: str, convert: Callable[[], T]) -> T | None:
        """Run one conversion; a value that makes no sense is a warning naming the group's command."""
        return self.context.read(self.command(group), what, convert)

    def records(self, section: str, group: str) -> list[Record]:
        """hostlint.collect.switches.global_mtu's reader (it names a section too)."""
        return self.fields(group)


def by_name(records: list[Record], reading: Reading, group: str) -> dict[str, Record]:
    """Records of one interface merged (a template may give one record per line)."""
    merged: dict[str, Record] = {}
    for record in records:
        raw = record.get("name")
        if not isinstance(raw, str) or not raw.strip():
            reading.context.warnings.append(
                f"{reading.context.device}: {reading.command(group)}: a record without an interface name: {record}"
            )
            continue
        merged.setdefault(names.interface(raw), {}).update(record)
    return merged


def channel_interface(platform: str, group: str) -> str:
    text = str(group).strip()
    # `channel-group 10` names the platform's channel interface 10 (a name names itself).
    if text.isdigit():
        text = switches.switch(platform).channel_interface.format(text)
    return names.interface(text)


def as_int(value: Any) -> int:
    return int(str(value).strip())


def switchport_mode(record: Record) -> PortMode | None:
    """Switchport mode: `no switchport` is routed, else `switchport mode access|trunk`."""
    if record.get("routed"):
        return "routed"
    mode = record.get("switchport_mode")
    return mode if mode in _SWITCHPORT_MODES else None

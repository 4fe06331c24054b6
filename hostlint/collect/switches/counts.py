"""An independent count of the records a command's output holds, against what the template parsed.

A template that meets a format it does not know matches nothing for that
record, silently. So each command's spec may say how to count its records
without the template (`records:` in spec.yaml): a line pattern that starts one
record (an interface header, a neighbour separator, a channel row), where its
key is (the interface, the local port), and per field a pattern that tells
the record shows that field. Records the count finds and the template missed,
and fields a record shows that the template did not read, become errors naming
the command and what was lost; those facts stay unknown.

Only what hostlint reads is counted: with `only: ports-and-channels` a record
whose key is an SVI, a tunnel, a loopback, a subinterface... (anything the
assembly does not build, `kinds.is_read`) is no record, so a collection error
always means that something a rule could read was lost.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hostlint import names
from hostlint.collect.switches.kinds import is_read

_LISTED = 6  # names listed in one message; the count says how many more


@dataclass(frozen=True)
class RecordCount:
    """How to count one command's records: see the module docstring and docs/collection.md."""

    group: str
    what: str
    start: re.Pattern[str]
    key_field: str
    key: re.Pattern[str] | None = None
    scope: re.Pattern[str] | None = None
    fields: dict[str, re.Pattern[str]] = field(default_factory=dict)
    skip: re.Pattern[str] | None = None
    only_read: bool = False

    @classmethod
    def from_spec(cls, raw: dict[str, Any]) -> RecordCount:
        def pattern(text: str | None) -> re.Pattern[str] | None:
            return re.compile(text, re.MULTILINE) if text else None

        only = raw.get("only")
        if only not in (None, "ports-and-channels"):
            raise ValueError(f"records `only: {only}`: the one kind known is `ports-and-channels`")
        return cls(
            group=raw["group"],
            what=raw["what"],
            start=re.compile(raw["start"]),
            key_field=raw.get("key_field", "name"),
            key=pattern(raw.get("key")),
            scope=pattern(raw.get("scope")),
            fields={name: re.compile(text, re.MULTILINE) for name, text in (raw.get("fields") or {}).items()},
            skip=pattern(raw.get("skip")),
            only_read=only is not None,
        )


@dataclass
class _Block:
    key: str
    text: str


def _key(text: str) -> str:
    return names.interface(text.strip().strip('"'))


def blocks(count: RecordCount, output: str) -> list[_Block]:
    """The output's records as the count sees them: each from a start line to the next."""
    found: list[_Block] = []
    scope_key = ""
    lines: list[str] = []
    key = ""

    def close() -> None:
        if lines:
            text = "\n".join(lines)
            match = count.key.search(text) if count.key else None
            own = match.group(1) if match else key
            found.append(_Block(key=_key(own) if own else "", text=text))

    for line in output.expandtabs(8).splitlines():
        scoped = count.scope.match(line) if count.scope else None
        if scoped:
            close()
            lines, key = [], ""
            scope_key = scoped.group(1)
            continue
        started = count.start.match(line)
        if started:
            close()
            lines = [line]
            key = started.group(1) if started.groups() and started.group(1) else scope_key
            continue
        if lines:
            lines.append(line)
    close()
    # A start line with nothing after it (a closing separator) holds no record.
    found = [b for b in found if b.key or any(line.strip() for line in b.text.splitlines()[1:])]
    if count.skip:
        found = [b for b in found if not count.skip.search(b.text)]
    if count.only_read:
        found = [b for b in found if is_read(b.key)]
    return found


def _listed(keys: list[str]) -> str:
    shown = ", ".join(keys[:_LISTED])
    return shown + (f" and {len(keys) - _LISTED} more" if len(keys) > _LISTED else "")


def shortfalls(count: RecordCount, command: str, output: str, records: list[dict[str, Any]]) -> list[str]:
    """Errors for records and fields the count finds in `output` that `records` (the template's) lack."""
    expected = blocks(count, output)
    if not expected:
        return []
    parsed: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        value = record.get(count.key_field)
        if isinstance(value, str) and value.strip():
            parsed.setdefault(_key(value), []).append(record)
    errors = []
    missing = Counter(b.key for b in expected) - Counter({k: len(v) for k, v in parsed.items()})
    if missing:
        lost = [key or f"one without its {count.key_field.replace('_', ' ')}" for key in missing.elements()]
        errors.append(
            f"{command}: {len(lost)} of {len(expected)} {count.what} not parsed ({_listed(lost)}); "
            "their facts stay unknown"
        )
    unread: dict[str, list[str]] = {}
    seen: Counter[str] = Counter()
    for block in expected:
        index = seen[block.key]
        seen[block.key] += 1
        candidates = parsed.get(block.key, [])
        if index >= len(candidates):
            continue
        record = candidates[index]
        for name, pattern in count.fields.items():
            if pattern.search(block.text) and record.get(name) in (None, ""):
                unread.setdefault(name, []).append(block.key)
                # Marked on the record, so the assembly applies no default in place of what was shown.
                record.setdefault("unread", []).append(name)
    for name, keys in unread.items():
        errors.append(
            f"{command}: {name.replace('_', ' ')} shown but not parsed for {len(keys)} of {len(expected)} "
            f"{count.what} ({_listed(keys)}); it stays unknown"
        )
    return errors

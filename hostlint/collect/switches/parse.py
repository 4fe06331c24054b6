"""Command output -> records, through the command's ttp template.

A parser never raises: output it cannot read becomes a warning naming the
device and the command, and the records it did read are kept. Records the
independent count (hostlint.collect.switches.counts) finds and the template
missed are warnings too. Warnings are collection errors; `notes` (a `show
version` line not understood: nothing depends on it) are only logged.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ttp import ttp

from hostlint.collect.switches.counts import shortfalls
from hostlint.collect.switches.platforms import CommandSpec
from hostlint.snapshot.common import control_character

# ttp logs every failed match function at ERROR level; those are our warnings to report, not its.
logging.getLogger("ttp").setLevel(logging.CRITICAL)

Record = dict[str, Any]


@dataclass
class Parsed:
    """Records per ttp group name (`interfaces`, `channels`, ...), and what could not be read."""

    records: dict[str, list[Record]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def get(self, group: str) -> list[Record]:
        return self.records.get(group, [])

    def merge(self, other: Parsed) -> None:
        for group, records in other.records.items():
            self.records.setdefault(group, []).extend(records)
        self.warnings.extend(other.warnings)
        self.notes.extend(other.notes)


@cache
def _template_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# Building a ttp parser (XML, regexes) costs several times the parse itself, and collection threads
# would pay it per command per switch: each thread keeps its own parser per template (ttp objects
# hold their input and results, so they are not shared between threads).
_per_thread = threading.local()


def _parser(template: Path) -> ttp:
    parsers: dict[Path, ttp] = _per_thread.__dict__.setdefault("parsers", {})
    parser = parsers.get(template)
    if parser is None:
        parser = parsers[template] = ttp(template=_template_text(template))
    parser.clear_input()
    parser.clear_result()
    return parser


def _forget(template: Path) -> None:
    """A parser that raised may hold half a result: build a new one next time."""
    _per_thread.__dict__.get("parsers", {}).pop(template, None)


def _as_records(value: Any) -> list[Record]:
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, dict) and item]


def _collect(result: Any, into: dict[str, list[Record]]) -> None:
    """ttp nests results as [[{group: dict | [dict]}]]; flatten to group -> [record]."""
    if isinstance(result, list):
        for item in result:
            _collect(item, into)
        return
    if isinstance(result, dict):
        for group, value in result.items():
            records = _as_records(value)
            if records:
                into.setdefault(group, []).extend(records)


def _carry(records: dict[str, list[Record]], fields: tuple[str, ...]) -> None:
    """ttp gives a header line and the blocks under it as records in output order: join them."""
    if not fields:
        return
    for group, items in records.items():
        carried: Record = {}
        joined = []
        for record in items:
            if set(record) <= {*fields, "count"}:  # a header alone
                carried = {k: v for k, v in record.items() if k in fields}
                continue
            if any(k in record for k in fields):
                carried = {k: v for k, v in record.items() if k in fields}
            joined.append({**carried, **record})
        records[group] = joined


def _unreadable(value: Any) -> bool:
    return isinstance(value, str) and control_character(value) is not None


def _unprintable(records: dict[str, list[Record]], where: str) -> list[str]:
    """Records holding a control character (an escape sequence, a stray NUL) are not read: a name or
    text with one is no fact hostlint can trust or write into a script. Their facts stay unknown."""
    complaints = []
    for group, items in records.items():
        kept = [r for r in items if not any(_unreadable(v) for v in r.values())]
        if len(kept) < len(items):
            dropped = len(items) - len(kept)
            complaints.append(
                f"{where}: {dropped} {group} record{'s' if dropped > 1 else ''} with control characters not read; "
                "their facts stay unknown"
            )
            records[group] = kept
    return complaints


def _blank_or_known_empty(output: str, command: CommandSpec) -> bool:
    return not output.strip() or any(marker in output for marker in command.empty)


def parse_output(command: CommandSpec, output: str, device: str) -> Parsed:
    """Parse one command's output; `device` only names the warnings."""
    parsed = Parsed()
    where = f"{device}: {command.command}"
    try:
        parser = _parser(command.template)
        text = "\n".join(line.strip() for line in output.splitlines()) if command.dedent else output
        parser.add_input(text)
        parser.parse()
        _collect(parser.result(), parsed.records)
        _carry(parsed.records, command.carry)
    except Exception as exc:  # ttp raises many kinds on odd input; a parser must not take the run down.
        _forget(command.template)
        parsed.warnings.append(f"{where}: output not parsed ({type(exc).__name__}: {exc})")
        return parsed
    # Only the model and OS version come from `show version`: nothing is judged on them.
    complaints = parsed.notes if command.section == "version" else parsed.warnings
    complaints.extend(_unprintable(parsed.records, where))
    if not parsed.records and not _blank_or_known_empty(output, command):
        first = next((line.strip() for line in output.splitlines() if line.strip()), "")
        complaints.append(f"{where}: output not understood (first line: {first[:80]!r})")
    for count in command.records:
        complaints.extend(f"{device}: {s}" for s in shortfalls(count, command.command, output, parsed.get(count.group)))
    return parsed

"""Command output -> records, through the command's ttp template.

A parser never raises: output it cannot read becomes a warning naming the
device and the command, and the records it did read are kept.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ttp import ttp

from hostlint.collect.switches.platforms import CommandSpec

# ttp logs every failed match function at ERROR level; those are our warnings to report, not its.
logging.getLogger("ttp").setLevel(logging.CRITICAL)

Record = dict[str, Any]


@dataclass
class Parsed:
    """Records per ttp group name (`interfaces`, `channels`, ...), and what could not be read."""

    records: dict[str, list[Record]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def get(self, group: str) -> list[Record]:
        return self.records.get(group, [])

    def merge(self, other: Parsed) -> None:
        for group, records in other.records.items():
            self.records.setdefault(group, []).extend(records)
        self.warnings.extend(other.warnings)


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


def _blank_or_known_empty(output: str, command: CommandSpec) -> bool:
    return not output.strip() or any(marker in output for marker in command.empty)


def parse_output(command: CommandSpec, output: str, device: str) -> Parsed:
    """Parse one command's output; `device` only names the warnings."""
    parsed = Parsed()
    where = f"{device}: {command.command}"
    try:
        parser = _parser(command.template)
        parser.add_input(output)
        parser.parse()
        _collect(parser.result(), parsed.records)
    except Exception as exc:  # ttp raises many kinds on odd input; a parser must not take the run down.
        _forget(command.template)
        parsed.warnings.append(f"{where}: output not parsed ({type(exc).__name__}: {exc})")
        return parsed
    if not parsed.records and not _blank_or_known_empty(output, command):
        first = next((line.strip() for line in output.splitlines() if line.strip()), "")
        parsed.warnings.append(f"{where}: output not understood (first line: {first[:80]!r})")
    return parsed

"""The schema of `hostlint/switches/<platform>/spec.yaml`, strict like rule and action files: a key the schema
does not define (`optinal: true`) is an error naming the file and the key, never a default taken
silently. Regular expressions are compiled when the file is read, so a broken one names its place."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StrictBool

from hostlint.strict import Strict

# What a command's records describe (the collector merges a section's commands; each folder's assemble.py reads
# the records by their ttp group).
Section = Literal[
    "version", "config", "interfaces", "channels", "load_balance", "cdp", "lldp", "multichassis", "system_mtu"
]


def _compiles(text: str) -> str:
    try:
        re.compile(text, re.MULTILINE)
    except re.error as exc:
        raise ValueError(f"not a regular expression: {exc}") from exc
    return text


Pattern = Annotated[str, Field(min_length=1), AfterValidator(_compiles)]


class RecordSpec(Strict):
    """How to count one group's records in a command's output without its template (counts.py)."""

    group: str = Field(min_length=1)
    what: str = Field(min_length=1)
    start: Pattern
    key_field: str = "name"
    key: Pattern | None = None
    scope: Pattern | None = None
    fields: dict[str, Pattern] = Field(default_factory=dict)
    skip: Pattern | None = None
    # Count only the records a rule reads (ports and port-channels: not SVIs, tunnels, loopbacks...).
    only: Literal["ports-and-channels"] | None = None


class CommandEntry(Strict):
    command: str = Field(min_length=1)
    section: Section
    optional: StrictBool = False
    empty: list[str] = Field(default_factory=list)
    records: list[RecordSpec] = Field(default_factory=list)
    carry: list[str] = Field(default_factory=list)
    dedent: StrictBool = False


class SpecFile(Strict):
    platform: str = Field(min_length=1)
    device_type: str = Field(min_length=1)
    rejected: list[str] = Field(default_factory=list)
    commands: list[CommandEntry] = Field(min_length=1)

"""The HTML report at estate scale: findings grouped by rule, by switch, and filters.

Each finding row, group, switch block and affected host section carries classes naming its
severity (`x-error`), rule (`r-LG001`), host (`h-12`) and switches (`s-3`). The filter controls
are plain checkboxes and selects; a small inline script (templates/filter.js) hides what does
not match by setting `hidden`, one pass over those elements per change. The first version used
one CSS `:has()` rule per host and switch: Chromium re-matched all of them on every click,
3-8 s at 1,000 hosts. Only hosts and switches with findings are filter choices.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from hostlint.report.human import finding_switches, value_text
from hostlint.results import SEVERITY_RANK, Finding


@dataclass
class Row:
    finding: Finding
    switches: list[str]
    css: str


@dataclass
class Group:
    """One rule's findings with one message."""

    severity: str
    code: str
    name: str
    message: str
    applicability: str | None
    steps: int
    rows: list[Row] = field(default_factory=list)
    expected: str | None = None
    css: str = ""


@dataclass
class Filters:
    rules: list[tuple[str, str]]
    hosts: list[tuple[str, str]]
    switches: list[tuple[str, str]]
    host_keys: dict[str, str]
    switch_keys: dict[str, str]

    def classes(self, severities: set[str], codes: set[str], hosts: set[str], switches: set[str]) -> str:
        names = [f"x-{s}" for s in sorted(severities)] + [f"r-{c}" for c in sorted(codes)]
        names += [self.host_keys[h] for h in sorted(hosts) if h in self.host_keys]
        names += [self.switch_keys[s] for s in sorted(switches) if s in self.switch_keys]
        return " ".join(["f", *names])


def filters(findings: list[Finding], hosts: list[str]) -> Filters:
    """Keys for every host (a host section's anchor is its key); choices for those with findings."""
    codes = sorted({(f.code, f.name) for f in findings})
    switch_names = sorted({s for f in findings for s in finding_switches(f)})
    host_keys = {name: f"h-{n}" for n, name in enumerate(sorted(hosts))}
    switch_keys = {name: f"s-{n}" for n, name in enumerate(switch_names)}
    affected = sorted({f.host for f in findings} & set(host_keys))
    return Filters(
        rules=codes,
        hosts=[(host_keys[h], h) for h in affected],
        switches=[(switch_keys[s], s) for s in switch_names],
        host_keys=host_keys,
        switch_keys=switch_keys,
    )


def groups(findings: list[Finding], flt: Filters) -> list[Group]:
    """Findings by rule and message, most severe and most frequent first."""
    by_key: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for finding in findings:
        by_key[(finding.code, finding.message)].append(finding)
    built = []
    for (code, message), members in by_key.items():
        first = members[0]
        group = Group(
            first.severity, code, first.name, message, first.applicability, len(first.fix) if first.fix else 0
        )
        for finding in sorted(members, key=lambda f: f.object):
            switches = finding_switches(finding)
            row_css = flt.classes({finding.severity}, {code}, {finding.host}, set(switches))
            group.rows.append(Row(finding, switches, f"{row_css} fs"))
        expected = {value_text(f.expected) for f in members}
        group.expected = expected.pop() if len(expected) == 1 else None
        hosts = {f.host for f in members}
        group.css = flt.classes({first.severity}, {code}, hosts, {s for row in group.rows for s in row.switches})
        group.css += " fs"
        built.append(group)
    return sorted(built, key=lambda g: (SEVERITY_RANK.get(g.severity, 9), -len(g.rows), g.code, g.message))


@dataclass
class SwitchRow:
    finding: Finding
    ports: list[str]
    css: str


@dataclass
class SwitchBlock:
    """The findings that touch one switch, with the switch's ports they involve."""

    name: str
    key: str
    severity: str
    hosts: list[str]
    rows: list[SwitchRow] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    css: str = ""


def finding_ports(finding: Finding, switch: str) -> list[str]:
    """The ports of `switch` a finding's fact names (an uplink's port, a team's uplinks' ports)."""
    fact = finding.fact
    uplinks = [fact, *fact.get("uplinks", [])]
    return sorted({u["port"] for u in uplinks if u.get("switch") == switch and u.get("port")})


def by_switch(findings: list[Finding], flt: Filters) -> list[SwitchBlock]:
    """One block per switch a finding touches, most severe and most affected first."""
    blocks: dict[str, SwitchBlock] = {}
    for finding in sorted(findings, key=lambda f: (SEVERITY_RANK.get(f.severity, 9), f.code, f.object)):
        switches = finding_switches(finding)
        for switch in switches:
            block = blocks.get(switch)
            if block is None:
                block = blocks[switch] = SwitchBlock(switch, flt.switch_keys[switch], finding.severity, [])
            if SEVERITY_RANK.get(finding.severity, 9) < SEVERITY_RANK.get(block.severity, 9):
                block.severity = finding.severity
            css = flt.classes({finding.severity}, {finding.code}, {finding.host}, set(switches))
            block.rows.append(SwitchRow(finding, finding_ports(finding, switch), f"{css} fs"))
    for block in blocks.values():
        block.hosts = sorted({row.finding.host for row in block.rows})
        codes = {row.finding.code for row in block.rows}
        block.codes = sorted(codes)
        severities = {row.finding.severity for row in block.rows}
        block.css = flt.classes(severities, codes, set(block.hosts), {block.name})
    return sorted(blocks.values(), key=lambda b: (SEVERITY_RANK.get(b.severity, 9), -len(b.rows), b.name))

"""The HTML report at estate scale: findings grouped by rule, and filters that need no script.

Each finding row and host section carries classes naming its severity (`x-error`), rule
(`r-LG001`), host (`h-12`) and switches (`s-3`). The filter controls are plain checkboxes and
selects; generated CSS rules such as
`body:has(#f-host option[value="h-12"]:checked) .f:not(.h-12) {display: none}` hide what does
not match, so the page filters offline, with no script (the page loads and runs nothing).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from markupsafe import Markup

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

    def css(self) -> Markup:
        rules = [
            f"body:has(#f-sev-{severity}:not(:checked)) .f.fs.x-{severity} {{display:none}}"
            for severity in SEVERITY_RANK
        ]
        for select, options in (("rule", self.rules), ("host", self.hosts), ("switch", self.switches)):
            for key, _ in options:
                css_class = f"r-{key}" if select == "rule" else key
                rules.append(
                    f'body:has(#f-{select} option[value="{key}"]:checked) .f:not(.{css_class}) {{display:none}}'
                )
        return Markup("\n".join(rules))


def filters(findings: list[Finding], hosts: list[str]) -> Filters:
    codes = sorted({(f.code, f.name) for f in findings})
    switch_names = sorted({s for f in findings for s in finding_switches(f)})
    host_keys = {name: f"h-{n}" for n, name in enumerate(sorted(hosts))}
    switch_keys = {name: f"s-{n}" for n, name in enumerate(switch_names)}
    return Filters(
        rules=codes,
        hosts=[(host_keys[h], h) for h in sorted(hosts)],
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

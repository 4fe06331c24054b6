"""`--format html`: one self-contained page a network admin can open from a mail or a CI artifact.

Inline CSS, inline SVG and one small inline script (the filters, templates/filter.js): no fonts,
images, scripts or links to load; links only within the page. Sections: summary, filters
(severity, rule, host, switch, see html_groups), findings by rule (one collapsible group per rule
and message, with expected, actual, fix and its applicability; each object links to its host),
findings by switch, the affected hosts first, each with a picture of its uplinks (virtual switch or
bond -> host NIC with its member state -> switch port -> port-channel with its status and
vPC/MLAG span) with the problem parts marked, the hosts without findings in one collapsed list on
a large site, then skipped rule checks counted by rule and cause (every object in a collapsed
list), unresolved uplinks, collection errors, the probes' evidence (hostlint.report.evidence: failures
listed, each linked from the findings that cite it; deliveries counted) and what the baseline
accepted. The template is
templates/report.html.j2.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape
from pydantic import BaseModel

from hostlint import __version__, names
from hostlint.join import build_facts
from hostlint.join.facts import Facts, TeamFact, UplinkFact
from hostlint.report.evidence import anchor, counts_line, one_by_one, section, unproven_groups, verdict
from hostlint.report.html_groups import Filters, by_switch, filters, groups
from hostlint.report.human import finding_switches, summary_line, value_text
from hostlint.report.skips import group_skips
from hostlint.results import SEVERITY_RANK, CheckResult, Finding
from hostlint.rules.model import Rule
from hostlint.snapshot import Snapshot
from hostlint.wording import plural

POLICY_LABELS = {
    "loadbalance_srcid": "port ID",
    "loadbalance_srcmac": "source MAC",
    "loadbalance_ip": "IP hash",
    "failover_explicit": "explicit failover",
    "loadbalance_loadbased": "NIC load",
}
FIX_LABELS = {
    "safe": "safe fix",
    "unsafe": "unsafe fix: review first",
    "display-only": "shown, never applied",
}
MULTICHASSIS = {
    "vpc": "vPC",
    "mlag": "MLAG",
    "m-lag": "M-LAG",
    "vss": "VSS",
    "virtual-chassis": "VC",
    "stack": "stack",
    "irf": "IRF",
    "istack": "iStack",
}
# Diagram geometry (pixels): four columns, one row per host NIC.
ROW = 64
BOX = 52
TOP = 30
# The switch port column is the widest: switch and interface names are what an admin looks for.
COLUMNS = {"team": (8, 180), "nic": (240, 150), "port": (442, 310), "channel": (804, 186)}
WIDTH = 996
CHAR_PX = 6.8
LINE = 14
# Beyond this many hosts only the most affected get an uplink picture (the page stays small).
DIAGRAM_HOSTS = 60
# A group of findings with up to this many objects is shown open.
OPEN_GROUPS_UP_TO = 5


class ScanHeader(BaseModel):
    """The stored scan a report belongs to (`hostlint scan --html`)."""

    id: int
    label: str | None = None
    started_at: datetime
    database: str | None = None


@dataclass
class Mark:
    """The findings that touch one part of the picture."""

    findings: list[Finding] = field(default_factory=list)

    @property
    def severity(self) -> str | None:
        if not self.findings:
            return None
        return min((f.severity for f in self.findings), key=lambda s: SEVERITY_RANK.get(s, 9))

    @property
    def tooltip(self) -> str:
        return "\n".join(f"{f.code} {f.object}: {f.message}" for f in self.findings)


@dataclass
class Box:
    x: float
    y: float
    width: float
    height: float
    lines: list[str]
    mark: Mark = field(default_factory=Mark)
    style: str = ""
    show_codes: bool = True
    # Findings on a part of this box (a vmk, a port group override) name that part after their code.
    owner: str | None = None

    @property
    def css(self) -> str:
        return " ".join(filter(None, ["box", self.style, self.mark.severity]))

    @property
    def codes(self) -> str:
        if not self.show_codes:
            return ""
        labels = []
        for finding in self.mark.findings:
            part = finding.object.split("/")[-1] if self.owner and finding.object != self.owner else ""
            labels.append(f"{finding.code} {part}".strip())
        return " · ".join(sorted(set(labels)))

    @property
    def codes_length(self) -> float | None:
        return _squeeze(self.codes, self.width, bold=True)

    @property
    def text_lines(self) -> list[tuple[str, float | None]]:
        """The lines that fit in the height (keeping the last for the finding codes when there are any),
        each with the width to squeeze it into when it is too long: names are never cut."""
        room = max(1, int((self.height - 8) // LINE) - (1 if self.codes else 0))
        return [(text, _squeeze(text, self.width, bold=n == 0)) for n, text in enumerate(self.lines[:room])]

    @property
    def codes_y(self) -> float:
        return self.y + 17 + len(self.text_lines) * LINE


@dataclass
class Wire:
    x1: float
    y1: float
    x2: float
    y2: float
    style: str = ""
    mark: Mark = field(default_factory=Mark)

    @property
    def css(self) -> str:
        return " ".join(filter(None, ["wire", self.style, self.mark.severity]))


@dataclass
class Diagram:
    height: int
    boxes: list[Box]
    wires: list[Wire]
    headings: list[tuple[float, str]]


@dataclass
class HostSection:
    name: str
    kind: str
    counts: str
    severity: str | None
    findings: list[Finding]
    diagram: Diagram | None
    # Filter classes (see html_groups): its host, the rules and switches of its findings.
    css: str = ""
    # Its anchor (the host's filter key): finding rows link to it.
    key: str = ""


def _squeeze(text: str, width: float, bold: bool = False) -> float | None:
    """The width (SVG textLength) to draw `text` in when it would overflow its box, else None.

    An interface or switch name is what an admin searches for: a long one is drawn narrower (Chromium,
    Firefox and Safari honour textLength with lengthAdjust), never cut with an ellipsis.
    """
    room = width - 14
    return room if len(text) * CHAR_PX * (1.08 if bold else 1.0) > room else None


def _speed(mbps: int | None, duplex: str | None) -> str:
    if mbps is None:
        return "speed unknown"
    speed = f"{mbps // 1000}G" if mbps >= 1000 and mbps % 1000 == 0 else f"{mbps}M"
    return f"{speed} {duplex}" if duplex else speed


def _team_lines(name: str, team: TeamFact | None, portgroups: list[TeamFact]) -> list[str]:
    if team is None or team.kind == "dvs":
        # A distributed switch's teaming is per port group; the uplinks belong to the switch.
        if portgroups:
            return [name, f"VDS · MTU {portgroups[0].mtu}", f"distributed, {plural(len(portgroups), 'port group')}"]
        return [name]
    policy = POLICY_LABELS.get(team.policy, team.policy) if team.policy else "teaming unknown"
    lines = [name, f"{policy} · MTU {team.mtu}"]
    if team.lag:
        lines.append(f"LAG {team.lag} ({team.lag_mode})")
    return lines


def _nic_lines(uplink: UplinkFact) -> list[str]:
    state = _speed(uplink.speed_mbps, uplink.duplex) if uplink.link_up else "link down"
    return [f"{uplink.nic} · {uplink.role}", state]


def _port_lines(uplink: UplinkFact) -> list[str]:
    if uplink.port is None:
        reason = uplink.missing.get("switch", "no CDP/LLDP neighbour or cabling entry")
        return ["switch port unknown", reason.removeprefix(f"{uplink.object}: ")]
    details = [_speed(uplink.port_speed_mbps, uplink.port_duplex)]
    if uplink.port_mtu is not None:
        details.append(f"MTU {uplink.port_mtu}")
    if uplink.port_status and uplink.port_status != "up":
        details.append(uplink.port_status)
    if uplink.port_channel is not None:
        # The member's state in its channel (bundled, hot-standby, suspended, individual, down).
        details.append(uplink.member_state or "member state unknown")
    name = f"{uplink.switch} {uplink.port}"
    if len(name) * CHAR_PX * 1.08 <= COLUMNS["port"][1] - 14:
        return [name, " · ".join(details)]
    # A long switch name gets a line of its own; the interface leads the details line.
    return [str(uplink.switch), " · ".join([str(uplink.port), *details])]


def _span(logical: str | None) -> str | None:
    """`vPC 10: leaf-a + leaf-b` from the join's logical switch `vpc:10:leaf-a+leaf-b`; None for one switch."""
    if not logical or logical.count(":") < 2:
        return None
    kind, domain, pair = logical.split(":", 2)
    return f"{MULTICHASSIS.get(kind, kind)} {domain}: {pair.replace('+', ' + ')}"


def _channel_lines(uplink: UplinkFact, status: str | None) -> list[str]:
    mode = uplink.channel_mode or "mode unknown"
    mtu = f" · MTU {uplink.channel_mtu}" if uplink.channel_mtu is not None else ""
    lines = [
        str(uplink.port_channel),
        f"{mode} · {status or 'status unknown'}",
        f"hash {uplink.switch_hash or 'unknown'}{mtu}",
    ]
    span = _span(uplink.logical_switch)
    if span:
        lines.insert(1, span)
    if uplink.channel_suspended:
        lines.append(f"suspended: {', '.join(uplink.channel_suspended)}")
    return lines


def _team_objects(facts: Facts, host: str) -> dict[str, TeamFact]:
    teams = [*facts.teams, *getattr(facts, "bonds", [])]
    return {team.object: team for team in teams if team.host == host}


def _host_uplinks(facts: Facts, host: str) -> list[tuple[str, list[UplinkFact]]]:
    """The host's uplinks grouped by the team (vSwitch, distributed switch, bond) they belong to, in join order."""
    groups: dict[str, list[UplinkFact]] = {}
    seen: set[str] = set()
    for uplink in facts.uplinks:
        if uplink.host != host or uplink.object in seen:
            continue
        seen.add(uplink.object)
        groups.setdefault(uplink.team or f"{host}/(no team)", []).append(uplink)
    return list(groups.items())


def _team_marks(findings: list[Finding], facts: Facts, host: str, team_names: list[str]) -> dict[str, Mark]:
    """Findings on a team, on its port group overrides, or on a vmk whose virtual switch it is."""
    vmk_team = {vmk.object: f"{host}/{vmk.vswitch or vmk.dvswitch}" for vmk in facts.vmks if vmk.host == host}
    marks = {name: Mark() for name in team_names}
    for finding in findings:
        target = vmk_team.get(finding.object)
        if target is None:
            target = next((n for n in team_names if finding.object == n or finding.object.startswith(n + "/")), None)
        if target in marks:
            marks[target].findings.append(finding)
    return marks


ChannelStatus = dict[tuple[str, str], str | None]


def channel_status(snapshot: Snapshot) -> ChannelStatus:
    """Each port-channel's status (up, down, ...) by switch and interface key: the join does not carry it."""
    return {
        (switch.name, names.interface_key(channel.name)): channel.status
        for switch in snapshot.switches
        for channel in switch.port_channels
    }


def _diagram(facts: Facts, host: str, findings: list[Finding], statuses: ChannelStatus) -> Diagram | None:
    groups = _host_uplinks(facts, host)
    if not groups:
        return None
    teams = _team_objects(facts, host)
    team_marks = _team_marks(findings, facts, host, [name for name, _ in groups])
    team_level = {
        name: Mark([f for f in mark.findings if not f.object.startswith(f"{host}/vmk")])
        for name, mark in team_marks.items()
    }
    by_object: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        by_object[finding.object].append(finding)
    boxes: list[Box] = []
    wires: list[Wire] = []
    row = 0
    channel_rows: list[tuple[str | None, UplinkFact, int, str]] = []
    for team_name, uplinks in groups:
        first = row
        tx, tw = COLUMNS["team"]
        height = (len(uplinks) - 1) * ROW + BOX
        short = team_name.removeprefix(f"{host}/")
        portgroups = [t for t in teams.values() if t.kind == "dvs-portgroup" and t.vswitch == short]
        lines = _team_lines(short, teams.get(team_name), portgroups)
        boxes.append(Box(tx, TOP + first * ROW, tw, height, lines, team_marks[team_name], owner=team_name))
        for uplink in uplinks:
            y = TOP + row * ROW
            middle = y + BOX / 2
            mark = Mark(by_object.get(uplink.object, []))
            nx, nw = COLUMNS["nic"]
            px, pw = COLUMNS["port"]
            role = {"standby": "standby", "unused": "unused"}.get(uplink.role, "")
            wires.append(Wire(tx + tw, middle, nx, middle, role, team_level[team_name]))
            nic_style = "" if uplink.link_up else "down"
            boxes.append(Box(nx, y, nw, BOX, _nic_lines(uplink), mark, nic_style))
            unknown = uplink.port is None
            wires.append(Wire(nx + nw, middle, px, middle, "unknown" if unknown else "cable", mark))
            boxes.append(Box(px, y, pw, BOX, _port_lines(uplink), mark, "unknown" if unknown else ""))
            key = None if uplink.port_channel is None else uplink.channel_id or f"{uplink.switch}/{uplink.port_channel}"
            channel_rows.append((key, uplink, row, team_name))
            row += 1
    _channels(channel_rows, team_level, boxes, wires, statuses)
    headings: list[tuple[float, str]] = [
        (COLUMNS["team"][0], "virtual switch / bond"),
        (COLUMNS["nic"][0], "host NIC"),
        (COLUMNS["port"][0], "switch port"),
        (COLUMNS["channel"][0], "port-channel"),
    ]
    return Diagram(height=TOP + row * ROW, boxes=boxes, wires=wires, headings=headings)


ChannelRow = tuple[str | None, UplinkFact, int, str]


def _channels(
    rows: list[ChannelRow], team_level: dict[str, Mark], boxes: list[Box], wires: list[Wire], statuses: ChannelStatus
) -> None:
    """One box per run of consecutive rows in the same port-channel (a vPC/MLAG channel spans both switches)."""
    cx, cw = COLUMNS["channel"]
    px, pw = COLUMNS["port"]
    index = 0
    while index < len(rows):
        key, uplink, first, _ = rows[index]
        end = index
        while end + 1 < len(rows) and key is not None and rows[end + 1][0] == key:
            end += 1
        if key is not None:
            last = rows[end][2]
            height = (last - first) * ROW + BOX
            marks = [f for _, _, _, t in rows[index : end + 1] for f in team_level[t].findings]
            mark = Mark(list({id(f): f for f in marks}.values()))
            status = statuses.get((str(uplink.switch), names.interface_key(str(uplink.port_channel))))
            lines = _channel_lines(uplink, status)
            boxes.append(Box(cx, TOP + first * ROW, cw, height, lines, mark, "channel", False))
            for _, _, row, _ in rows[index : end + 1]:
                middle = TOP + row * ROW + BOX / 2
                wires.append(Wire(px + pw, middle, cx, middle, "member", mark))
        index = end + 1


def _host_names(result: CheckResult, snapshot: Snapshot) -> list[str]:
    kinds = {h.name for h in snapshot.esxi_hosts} | {h.name for h in snapshot.kvm_hosts}
    return sorted(kinds | {f.host for f in result.findings})


def _hosts(result: CheckResult, snapshot: Snapshot, facts: Facts, flt: Filters) -> tuple[list[HostSection], list[str]]:
    """Sections for the affected hosts, most severe first, then (on a small site) the others; and the
    names of the hosts without findings that a large site lists in one collapsed line instead."""
    findings_by_host: dict[str, list[Finding]] = defaultdict(list)
    for finding in result.findings:
        findings_by_host[finding.host].append(finding)
    kinds = {h.name: "ESXi" for h in snapshot.esxi_hosts} | {h.name: "KVM" for h in snapshot.kvm_hosts}
    names = _host_names(result, snapshot)
    small = len(names) <= DIAGRAM_HOSTS
    affected = sorted(
        findings_by_host, key=lambda h: (SEVERITY_RANK.get(Mark(findings_by_host[h]).severity or "", 9), h)
    )
    clean = [h for h in names if h not in findings_by_host]
    # At estate scale a picture per host is most of the page: draw the most affected hosts only.
    drawn = set(names) if small else set(affected[:DIAGRAM_HOSTS])
    statuses = channel_status(snapshot)
    sections = []
    for host in affected + (clean if small else []):
        findings = sorted(findings_by_host[host], key=lambda f: (SEVERITY_RANK.get(f.severity, 9), f.code, f.object))
        counts = Counter(f.severity for f in findings)
        text = ", ".join(
            plural(counts[s], s) if s != "info" else f"{counts[s]} info" for s in SEVERITY_RANK if counts[s]
        )
        sections.append(
            HostSection(
                name=host,
                kind=kinds.get(host, "host"),
                counts=text or "no findings",
                severity=Mark(findings).severity,
                findings=findings,
                diagram=_diagram(facts, host, findings, statuses) if host in drawn else None,
                css=flt.classes(
                    set(), {f.code for f in findings}, {host}, {s for f in findings for s in finding_switches(f)}
                ),
                key=flt.host_keys.get(host, ""),
            )
        )
    return sections, [] if small else clean


def _skipped_groups(result: CheckResult, names: dict[str, str]) -> list[dict[str, object]]:
    """Skips by rule and cause (hostlint.report.skips), each group's objects listed by host."""
    built: list[dict[str, object]] = []
    for group in group_skips(result, names):
        by_host: dict[str, list[str]] = defaultdict(list)
        for obj in group.objects:
            host, _, rest = obj.partition("/")
            by_host[host].append(rest)
        hosts = [(host, ", ".join(part for part in parts if part)) for host, parts in by_host.items()]
        built.append(
            {
                "code": group.code,
                "name": group.name,
                "reason": group.reason,
                "count": len(group.objects),
                "hosts": hosts,
            }
        )
    return built


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("hostlint.report", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["value"] = value_text
    env.filters["breakable"] = _breakable
    return env


def _breakable(name: str) -> Markup:
    """An object name that may wrap after each `/` (host/vSwitch/port group), not in the middle of a word."""
    return Markup("/<wbr>").join(escape(part) for part in name.split("/"))


def render(
    result: CheckResult,
    rules: list[Rule],
    snapshot: Snapshot,
    scan: ScanHeader | None = None,
    generated_at: datetime | None = None,
) -> str:
    rules_by_code = {rule.code: rule for rule in rules}
    facts = result.facts or build_facts(snapshot)
    counts = Counter(f.severity for f in result.findings)
    host_names = _host_names(result, snapshot)
    flt = filters(result.findings, host_names)
    fixes = {code: rule.fix.summary for code, rule in rules_by_code.items() if rule.fix is not None}
    sections, clean_hosts = _hosts(result, snapshot, facts, flt)
    probes = section(result)
    template = _environment().get_template("report.html.j2")
    return template.render(
        version=__version__,
        scan=scan,
        generated_at=(generated_at or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC"),
        source=snapshot.source,
        collected_at=snapshot.collected_at,
        summary=summary_line(result),
        counts=counts,
        result=result,
        groups=groups(result.findings, flt),
        filters=flt,
        open_up_to=OPEN_GROUPS_UP_TO,
        diagram_hosts=DIAGRAM_HOSTS if len(host_names) > DIAGRAM_HOSTS else None,
        fixes=fixes,
        fix_labels=FIX_LABELS,
        hosts=sections,
        clean_hosts=clean_hosts,
        switches=by_switch(result.findings, flt),
        host_keys=flt.host_keys,
        skipped=_skipped_groups(result, {code: rule.name for code, rule in rules_by_code.items()}),
        width=WIDTH,
        line_height=LINE,
        probes=probes,
        probes_line=counts_line(probes.counts) if probes else "",
        probe_anchors={item.id: anchor(item.id) for item in probes.listed} if probes else {},
        probe_verdict=verdict,
        probe_rows=one_by_one(probes.listed) if probes else [],
        probe_unproven=unproven_groups(probes.listed) if probes else [],
    )

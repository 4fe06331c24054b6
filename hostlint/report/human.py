"""`--format human`: what a network admin reads, grouped by host, dense, coloured by severity.

Layout: findings repeated on many objects once per rule and message, then the
affected hosts first (a line each, their other findings in full), the rest of
the site folded into one line, findings rolled up by switch, skipped checks
grouped by rule and cause with counts (`--show-skipped` lists every object),
unresolved uplinks, collection errors, then one summary line. Nothing that was
not checked is left out: a skip is never allowed to look like a pass.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from io import StringIO
from typing import Any

from rich.console import Console
from rich.text import Text

from hostlint.report.evidence import counts_line, describe, one_by_one, section, unproven_groups
from hostlint.report.skips import UNRESOLVED_REASON, group_skips, skipped_hosts
from hostlint.results import SEVERITY_RANK, CheckResult, Finding
from hostlint.rules.model import Rule
from hostlint.wording import plural

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "blue"}
# Objects are named `<host>/<thing>` by the join; a rule-wide skip has no object.
SITE = "(site)"
INDENT = "  "
DETAIL = " " * 10
LAYOUTS = ("grouped", "all", "statistics", "quiet")
# One rule's identical finding on this many objects is shown once, with the first few objects.
GROUP_AT = 4
GROUP_SHOWN = 5
SKIPS_SHOWN = 10
FOLD_HOSTS_AT = 10
# Affected hosts whose findings are all in the repeated groups get a line each, up to this many.
AFFECTED_SHOWN = 20


def value_text(value: Any) -> str:
    """An expected/actual value as one line: lists joined, unknown said as such."""
    if isinstance(value, list | tuple):
        return ", ".join(value_text(v) for v in value) or "none"
    if value is None:
        return "unknown"
    return str(value)


def host_of(obj: str | None) -> str:
    return obj.split("/", 1)[0] if obj else SITE


def render(
    result: CheckResult,
    rules: list[Rule],
    color: bool = True,
    width: int = 120,
    layout: str = "grouped",
    show_skipped: bool = False,
) -> str:
    """The report in one of LAYOUTS: `grouped` folds findings repeated on many objects into one
    block per rule and message; `all` lists every finding under its host; `statistics` counts per
    rule; `quiet` is one line per finding and nothing else. Skipped checks are counted per rule and
    cause; `show_skipped` (or `all`) lists every skipped object with its own reason."""
    out = StringIO()
    # soft_wrap: long uplink lists stay on one line, so the text can be grepped and diffed.
    # no_color=None when colour is asked for, so rich still honours a NO_COLOR environment variable.
    console = Console(file=out, force_terminal=color, no_color=None if color else True, width=width, soft_wrap=True)
    names = {rule.code: rule.name for rule in rules}
    if layout == "quiet":
        _quiet(console, result)
        return out.getvalue()
    if layout == "statistics":
        _statistics(console, result)
        console.print(Text(summary_line(result), style="bold"))
        return out.getvalue()
    show_all = layout == "all"
    groups = [] if show_all else repeated_groups(result.findings)
    grouped = {id(f) for group in groups for f in group}
    _repeated(console, groups)
    _hosts(console, result, grouped, show_all)
    _switches(console, result.findings, show_all)
    if show_all or show_skipped:
        _skipped(console, result, names)
    else:
        _skipped_counts(console, result, names)
    _unresolved(console, result)
    _collection_errors(console, result)
    _probes(console, result)
    _baseline(console, result)
    _verdict(console, result)
    console.print(Text(summary_line(result), style="bold"))
    return out.getvalue()


def summary_line(result: CheckResult) -> str:
    """`5 findings (3 errors, 2 warnings) on 2 hosts · 4 skipped · 12 passed · 1 unresolved uplink`."""
    findings = plural(len(result.findings), "finding")
    if result.findings:
        by_severity = Counter(f.severity for f in result.findings)
        parts = [_severity_count(sev, by_severity[sev]) for sev in SEVERITY_RANK if by_severity[sev]]
        hosts = plural(len({f.host for f in result.findings}), "host")
        findings = f"{findings} ({', '.join(parts)}) on {hosts}"
    parts = [
        findings,
        f"{len(result.skipped)} skipped",
        f"{len(result.passed)} passed",
        plural(len(result.unresolved), "unresolved uplink"),
    ]
    if result.collection_errors:
        parts.append(plural(len(result.collection_errors), "collection error"))
    if result.ignored:
        parts.append(f"{len(result.ignored)} ignored by baseline")
    return " · ".join(parts)


def _baseline(console: Console, result: CheckResult) -> None:
    if not (result.ignored or result.notes):
        return
    _heading(console, "Baseline")
    by_code = Counter(i.code for i in result.ignored)
    for code, count in sorted(by_code.items()):
        console.print(f"{INDENT}{code} ignored on {plural(count, 'object')}")
    for note in result.notes:
        console.print(Text(f"{INDENT}{note}", style="yellow"))


def _severity_count(severity: str, count: int) -> str:
    return f"{count} info" if severity == "info" else plural(count, severity)


def _heading(console: Console, title: str) -> None:
    console.print()
    console.print(Text(title, style="bold underline"))


def repeated_groups(findings: list[Finding]) -> list[list[Finding]]:
    """Findings of one rule with one message on at least GROUP_AT objects, most frequent first."""
    by_key: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for finding in findings:
        by_key[(finding.code, finding.message)].append(finding)
    groups = [group for group in by_key.values() if len(group) >= GROUP_AT]
    return sorted(groups, key=lambda g: (SEVERITY_RANK[g[0].severity], -len(g), g[0].code, g[0].message))


def _repeated(console: Console, groups: list[list[Finding]]) -> None:
    """One block per repeated finding: the count, the finding once, and the first objects."""
    if not groups:
        return
    total = sum(len(g) for g in groups)
    console.print(Text(f"Repeated findings ({total} findings in {plural(len(groups), 'group')}, by rule)",
                       style="bold underline"))  # fmt: skip
    for group in groups:
        first = group[0]
        style = SEVERITY_STYLE.get(first.severity, "")
        title = Text(INDENT)
        title.append(f"{first.severity:<7} {first.code}", style=style)
        title.append(f" {first.name}  ")
        title.append(f"{plural(len(group), 'object')}", style="bold")
        console.print(title)
        console.print(Text(DETAIL + first.message))
        for label, values in (("expected", [f.expected for f in group]), ("actual", [f.actual for f in group])):
            texts = {value_text(v) for v in values}
            shown = texts.pop() if len(texts) == 1 else f"{len(texts)} different values, e.g. {value_text(values[0])}"
            console.print(_detail(label, shown))
        console.print(_detail("fix", _fix_text(first)))
        objects = [f.object for f in group]
        listed = ", ".join(objects[:GROUP_SHOWN])
        hidden = len(objects) - GROUP_SHOWN
        more = f" and {hidden} more (--show-all lists every one)" if hidden > 0 else ""
        console.print(_detail("on", listed + more))
    console.print()


def _hosts(console: Console, result: CheckResult, grouped: set[int], show_all: bool) -> None:
    """Affected hosts first (most severe, then by name), then the others.

    At estate scale a block per clean host is noise: hosts without findings fold into one line, and an
    affected host whose findings are all in the repeated groups gets one line naming its rules.
    """
    findings: dict[str, list[Finding]] = defaultdict(list)
    for finding in result.findings:
        findings[finding.host].append(finding)
    skipped = Counter(host_of(s.object) for s in result.skipped)
    unresolved = Counter(host_of(u.object) for u in result.unresolved)
    passed = Counter(host_of(p.object) for p in result.passed)
    hosts = sorted(set(findings) | set(skipped) | set(unresolved) | set(passed))
    # Hosts with findings of their own (not in a repeated group) first: they need reading in full.
    affected = sorted(
        findings,
        key=lambda h: (
            all(id(f) in grouped for f in findings[h]),
            min(SEVERITY_RANK[f.severity] for f in findings[h]),
            h,
        ),
    )
    clean = [h for h in hosts if h not in findings]
    fold = not show_all and len(hosts) > FOLD_HOSTS_AT
    if fold and affected:
        _heading(console, f"Affected hosts ({len(affected)} of {len(hosts)})")
    only_grouped = 0
    for host in affected:
        own = [f for f in findings[host] if id(f) not in grouped]
        if fold and not own:
            only_grouped += 1
            if only_grouped > AFFECTED_SHOWN:
                continue
        header = _host_header(host, findings[host], skipped[host], unresolved[host], passed[host])
        if fold and not own:
            header.append(f"  ({', '.join(sorted({f.code for f in findings[host]}))} above)", style="dim")
        console.print(header)
        for finding in sorted(own, key=lambda f: (SEVERITY_RANK[f.severity], f.code, f.object)):
            _finding(console, finding)
    if fold and only_grouped > AFFECTED_SHOWN:
        console.print(Text(f"{INDENT}and {only_grouped - AFFECTED_SHOWN} more affected hosts (--show-all)", "dim"))
    if not fold:
        for host in clean:
            console.print(_host_header(host, [], skipped[host], unresolved[host], passed[host]))
        return
    if clean:
        counts = [
            (sum(bool(skipped[h]) for h in clean), "with skipped checks"),
            (sum(bool(unresolved[h]) for h in clean), "with unresolved uplinks"),
            (sum(not (skipped[h] or unresolved[h]) for h in clean), "fully checked"),
        ]
        parts = [f"{count} {label}" for count, label in counts if count]
        line = f"{plural(len(clean), 'host')} without findings: {', '.join(parts)}"
        console.print()
        console.print(Text(f"{line} (--show-all lists them)", style="dim"))


def _quiet(console: Console, result: CheckResult) -> None:
    for finding in result.findings:
        console.print(Text(f"{finding.object}: {finding.code} [{finding.severity}] {finding.message}"))


def _statistics(console: Console, result: CheckResult) -> None:
    """Per-rule counts, most frequent first, as `ruff --statistics` prints them."""
    counts = Counter((f.code, f.name, f.severity) for f in result.findings)
    skipped = Counter(s.code for s in result.skipped)
    width = max((len(str(n)) for n in [*counts.values(), *skipped.values()]), default=1)
    for (code, name, severity), count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        line = Text(f"{count:>{width}}  ")
        line.append(f"{code:<8}", style=SEVERITY_STYLE.get(severity, ""))
        line.append(f" [{severity}] {name}")
        console.print(line)
    for code, count in sorted(skipped.items(), key=lambda item: (-item[1], item[0])):
        console.print(Text(f"{count:>{width}}  {code:<8} [skipped]", style="magenta"))


def _host_header(host: str, findings: list[Finding], skipped: int, unresolved: int, passed: int) -> Text:
    counts = Counter(f.severity for f in findings)
    parts = [(_severity_count(sev, counts[sev]), SEVERITY_STYLE[sev]) for sev in SEVERITY_RANK if counts[sev]]
    if not findings:
        # Green only when the host was fully checked: no findings on half a host is not good news.
        parts.append(("no findings", "" if skipped or unresolved else "green"))
    if skipped:
        parts.append((f"{skipped} skipped", "magenta"))
    if unresolved:
        parts.append((plural(unresolved, "unresolved uplink"), "magenta"))
    if passed:
        parts.append((f"{passed} passed", ""))
    header = Text.assemble((host, "bold"), "  ")
    for n, (label, style) in enumerate(parts):
        header.append(" · " if n else "")
        header.append(label, style=style)
    return header


def _finding(console: Console, finding: Finding) -> None:
    style = SEVERITY_STYLE.get(finding.severity, "")
    title = Text(INDENT)
    title.append(f"{finding.severity:<7} {finding.code}", style=style)
    title.append(f" {finding.name}  ")
    title.append(finding.object, style="bold")
    switches = finding_switches(finding)
    if switches:
        title.append(f"  → {', '.join(switches)}", style="cyan")
    console.print(title)
    console.print(Text(DETAIL + finding.message))
    console.print(_detail("expected", value_text(finding.expected)))
    console.print(_detail("actual", value_text(finding.actual)))
    console.print(_detail("fix", _fix_text(finding)))


def _detail(label: str, value: str) -> Text:
    return Text.assemble(DETAIL, (f"{label:<9}", "dim"), value)


def _fix_text(finding: Finding) -> str:
    if finding.applicability is None:
        return "none: change it by hand"
    steps = plural(len(finding.fix), "step")
    if finding.applicability == "safe":
        return f"safe ({steps}; --fix-script writes it)"
    if finding.applicability == "unsafe":
        return f"unsafe ({steps}; --fix-script writes it, review before running)"
    return f"{finding.applicability} ({steps}; shown, never applied)"


def finding_switches(finding: Finding) -> list[str]:
    """The switches a finding touches, read from its fact: an uplink's switch, a team's uplinks' switches."""
    fact = finding.fact
    found = [fact.get("switch"), *fact.get("switches", [])]
    found += [uplink.get("switch") for uplink in fact.get("uplinks", [])]
    return sorted({name for name in found if name})


def _switches(console: Console, findings: list[Finding], show_all: bool = True) -> None:
    by_switch: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        for switch in finding_switches(finding):
            by_switch[switch].append(finding)
    if not by_switch:
        return
    _heading(console, "By switch")
    for switch in sorted(by_switch):
        touching = by_switch[switch]
        counts = Counter(f.severity for f in touching)
        line = Text(INDENT)
        line.append(switch, style="bold cyan")
        line.append("  ")
        line.append(", ".join(_severity_count(sev, counts[sev]) for sev in SEVERITY_RANK if counts[sev]))
        codes = ", ".join(sorted({f.code for f in touching}))
        hosts = sorted({f.host for f in touching})
        listed = hosts if show_all or len(hosts) <= SKIPS_SHOWN else hosts[:SKIPS_SHOWN]
        more = "" if len(listed) == len(hosts) else f" and {len(hosts) - len(listed)} more hosts"
        line.append(f" ({codes}) on {', '.join(listed)}{more}")
        console.print(line)


def _skipped_counts(console: Console, result: CheckResult, names: dict[str, str]) -> None:
    """One line per rule and cause with its count: what to fix so the rules can run."""
    if not result.skipped:
        return
    groups = group_skips(result, names)
    hosts = skipped_hosts(result)
    _heading(
        console,
        f"Skipped ({plural(len(result.skipped), 'rule check')} on {plural(hosts, 'host')}, "
        "not run: fix the data and check again; --show-skipped lists every object)",
    )
    width = max(len(str(len(g.objects))) for g in groups)
    for group in groups:
        line = Text(f"{INDENT}{len(group.objects):>{width}}  ")
        line.append(group.code, style="magenta")
        if group.name:
            line.append(f" {group.name}")
        line.append(f": {group.reason}")
        if len(group.objects) <= 2:
            line.append(f" ({', '.join(group.objects)})", style="dim")
        console.print(line)


def _skipped(console: Console, result: CheckResult, names: dict[str, str]) -> None:
    """Every skip: one line per reason and set of objects, naming every rule it stopped."""
    if not result.skipped:
        return
    _heading(console, f"Skipped ({plural(len(result.skipped), 'rule check')}, not run: fix the data and check again)")
    for reason, objects, codes in _skip_groups(_skip_entries(result)):
        what = objects[0] if len(objects) == 1 else plural(len(objects), "object")
        line = Text(INDENT)
        line.append(", ".join(codes), style="magenta")
        if len(codes) == 1 and codes[0] in names:
            line.append(f" {names[codes[0]]}")
        line.append(f" skipped on {what}: {reason}")
        console.print(line)
        if len(objects) > 1:
            console.print(Text(DETAIL + ", ".join(objects), style="dim"))


def _skip_entries(result: CheckResult) -> list[tuple[str, str, str]]:
    """(code, object label, reason) per skip.

    The join gives a team the reason of its first unresolved uplink, so reasons
    differ per uplink and would not collapse. A skip caused by an unresolved uplink
    says so, names the uplink next to the object, and leaves the detail to the
    unresolved section; any other reason is shown as it is.
    """
    uplinks = {u.reason: u.object for u in result.unresolved}
    entries = []
    for item in result.skipped:
        label, reason = item.object or "every object", item.reason
        if reason in uplinks:
            uplink = uplinks[reason]
            if uplink != item.object:
                label += f" ({uplink.removeprefix(host_of(item.object) + '/')})"
            reason = UNRESOLVED_REASON
        entries.append((item.code, label, reason))
    return entries


def _skip_groups(entries: Iterable[tuple[str, str, str]]) -> list[tuple[str, list[str], list[str]]]:
    """(reason, objects, codes): rules skipped on the same objects for the same reason share a line."""
    objects_by: dict[tuple[str, str], list[str]] = defaultdict(list)
    for code, label, reason in entries:
        objects_by[(reason, code)].append(label)
    codes_by: dict[tuple[str, tuple[str, ...]], list[str]] = defaultdict(list)
    for (reason, code), objects in objects_by.items():
        codes_by[(reason, tuple(sorted(objects)))].append(code)
    groups = [(reason, list(objects), sorted(codes)) for (reason, objects), codes in codes_by.items()]
    return sorted(groups, key=lambda g: (g[2], g[1], g[0]))


def _unresolved(console: Console, result: CheckResult) -> None:
    if not result.unresolved:
        return
    _heading(console, f"Unresolved uplinks ({len(result.unresolved)}, switch port unknown: their rules were skipped)")
    by_host: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for uplink in result.unresolved:
        # The reason usually repeats the uplink's name; under its host it is noise.
        reason = uplink.reason.removeprefix(f"{uplink.object}: ")
        by_host[host_of(uplink.object)].append((uplink.object, reason))
    for host in sorted(by_host):
        console.print(Text(INDENT + host, style="bold"))
        for obj, reason in sorted(by_host[host]):
            name = obj.removeprefix(f"{host}/")
            console.print(Text.assemble(INDENT * 2, (name, "magenta"), f"  {reason}"))


def _collection_errors(console: Console, result: CheckResult) -> None:
    if not result.collection_errors:
        return
    _heading(console, f"Collection errors ({len(result.collection_errors)}: these were not fully checked)")
    for error in result.collection_errors:
        console.print(Text.assemble(INDENT, (error.target, "bold red"), f" ({error.kind})  {error.reason}"))


def _probes(console: Console, result: CheckResult) -> None:
    """The probes' evidence: delivered ones counted, the others (and any a finding cites) one line each."""
    probes = section(result)
    if probes is None:
        return
    _heading(console, f"Probe evidence ({counts_line(probes.counts)})")
    for item in one_by_one(probes.listed):
        line = Text(INDENT)
        style = {"delivered": "green", "not-proven": "magenta"}.get(item.outcome, "bold red")
        line.append(f"{item.outcome:<16}", style=style)
        line.append(describe(item))
        if item.findings:
            line.append(f"  ({', '.join(item.findings)})", style="bold")
        console.print(line)
    # A refused executor repeats on every probe of its host: one line per cause, its probes after it.
    for cause, items in unproven_groups(probes.listed):
        head = f"{plural(len(items), 'probe')}: {cause}"
        console.print(Text.assemble(INDENT, (f"{'not-proven':<16}", "magenta"), head))
        shown = ", ".join(item.id for item in items[:SKIPS_SHOWN])
        hidden_unproven = len(items) - SKIPS_SHOWN
        more = f" and {hidden_unproven} more (--format json lists every one)" if hidden_unproven > 0 else ""
        console.print(Text(DETAIL + shown + more, style="dim"))
    hidden = probes.counts.delivered - sum(item.outcome == "delivered" for item in probes.listed)
    if hidden:
        note = f"{INDENT}{plural(hidden, 'delivered probe')} not listed (the snapshot's `probes` hold each)"
        console.print(Text(note, "dim"))


def _verdict(console: Console, result: CheckResult) -> None:
    console.print()
    if result.findings:
        return
    incomplete = result.skipped or result.unresolved or result.collection_errors
    if incomplete:
        console.print(Text("No findings, but not everything was checked: see skipped and unresolved above.", "yellow"))
    else:
        console.print(Text("Clean: no findings, nothing skipped.", style="bold green"))

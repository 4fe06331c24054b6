"""`history` and `diff` output: human (rich) and versioned JSON for monitoring."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from hostlint.history.compare import HISTORY_SCHEMA_VERSION, ScanDiff, Trend
from hostlint.history.drift import Drift
from hostlint.history.store import ScanRecord
from hostlint.report.human import SEVERITY_STYLE, value_text
from hostlint.results import Finding
from hostlint.wording import plural

DETAIL = " " * 10


def _console(out: StringIO, color: bool) -> Console:
    return Console(file=out, force_terminal=color, no_color=None if color else True, width=120, soft_wrap=True)


def _when(scan: ScanRecord) -> str:
    return scan.started_at.strftime("%Y-%m-%d %H:%M")


def scan_json(scan: ScanRecord, trend: Trend | None = None) -> dict[str, Any]:
    document = scan.model_dump(mode="json")
    document["counts"]["findings"] = scan.counts.findings
    document["trend"] = trend.model_dump(mode="json") if trend else None
    return document


def history_json(database: str, site: str | None, scans: list[ScanRecord], trends: dict[int, Trend]) -> str:
    document = {
        "schema_version": HISTORY_SCHEMA_VERSION,
        "database": database,
        "site": site,
        "scans": [scan_json(scan, trends.get(scan.id)) for scan in scans],
    }
    return json.dumps(document, indent=2) + "\n"


def _trend_text(trend: Trend | None) -> Text:
    if trend is None:
        return Text("first scan", style="dim")
    delta = trend.findings_delta
    arrow, style = ("▲", "red") if delta > 0 else ("▼", "green") if delta < 0 else ("=", "")
    text = Text(f"{arrow} {delta:+d}" if delta else "= 0", style=style)
    if trend.new or trend.resolved:
        text.append(f" ({trend.new} new, {trend.resolved} resolved)")
    return text


def _probes_text(probes: int, failed: int) -> Text:
    if not probes:
        return Text("-", style="dim")
    return Text(f"{probes} ({failed} failed)" if failed else str(probes), style="red" if failed else "")


def history_human(
    database: str, site: str | None, scans: list[ScanRecord], trends: dict[int, Trend], color: bool = True
) -> str:
    out = StringIO()
    console = _console(out, color)
    if not scans:
        console.print(f"No scans stored in {database}.")
        return out.getvalue()
    console.print(Text(f"Scans of site {site} in {database}", style="bold"))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1))
    table.add_column("scan", justify="right")
    table.add_column("started (UTC)")
    table.add_column("label")
    for heading in ("errors", "warnings", "info", "skipped", "unresolved"):
        table.add_column(heading, justify="right")
    probed = any(scan.counts.probes for scan in scans)
    if probed:
        table.add_column("probes", justify="right", no_wrap=True)
    table.add_column("exit", justify="right")
    table.add_column("trend vs previous scan")
    for scan in scans:
        counts = scan.counts
        table.add_row(
            str(scan.id),
            _when(scan),
            scan.label or "",
            Text(str(counts.error), style=SEVERITY_STYLE["error"] if counts.error else "dim"),
            Text(str(counts.warning), style=SEVERITY_STYLE["warning"] if counts.warning else "dim"),
            Text(str(counts.info), style=SEVERITY_STYLE["info"] if counts.info else "dim"),
            Text(str(counts.skipped), style="magenta" if counts.skipped else "dim"),
            Text(str(counts.unresolved), style="magenta" if counts.unresolved else "dim"),
            *([_probes_text(counts.probes, counts.probes_failed)] if probed else []),
            str(scan.exit_code),
            _trend_text(trends.get(scan.id)),
        )
    console.print(table)
    return out.getvalue()


def diff_json(diff: ScanDiff) -> str:
    document = {
        "schema_version": HISTORY_SCHEMA_VERSION,
        "before": scan_json(diff.before),
        "after": scan_json(diff.after),
        "summary": {
            "new": len(diff.new),
            "resolved": len(diff.resolved),
            "unchanged": diff.unchanged,
            "newly_skipped": len(diff.newly_skipped),
            "no_longer_skipped": len(diff.no_longer_skipped),
            "drift": len(diff.drift),
            "probes_changed": len(diff.probes),
        },
        "new": [f.model_dump(mode="json") for f in diff.new],
        "resolved": [f.model_dump(mode="json") for f in diff.resolved],
        "newly_skipped": [s.model_dump(mode="json") for s in diff.newly_skipped],
        "no_longer_skipped": [s.model_dump(mode="json") for s in diff.no_longer_skipped],
        "drift": [d.model_dump(mode="json") for d in diff.drift],
        "probes": [change.model_dump(mode="json") for change in diff.probes],
    }
    return json.dumps(document, indent=2) + "\n"


def _scan_title(scan: ScanRecord) -> str:
    label = f", {scan.label}" if scan.label else ""
    return f"scan {scan.id} ({_when(scan)} UTC{label})"


def _finding(console: Console, finding: Finding) -> None:
    title = Text("  ")
    title.append(f"{finding.severity:<7} {finding.code}", style=SEVERITY_STYLE.get(finding.severity, ""))
    title.append(f" {finding.name}  ")
    title.append(finding.object, style="bold")
    console.print(title)
    console.print(Text(DETAIL + finding.message))
    console.print(Text.assemble(DETAIL, ("expected ", "dim"), value_text(finding.expected)))
    console.print(Text.assemble(DETAIL, ("actual   ", "dim"), value_text(finding.actual)))


def drift_value(change: Drift, value: Any) -> str:
    if change.field == "present":
        return "present" if value else "absent"
    return value_text(value)


def diff_human(diff: ScanDiff, color: bool = True) -> str:
    out = StringIO()
    console = _console(out, color)
    console.print(Text(f"Site {diff.after.site}: {_scan_title(diff.before)} → {_scan_title(diff.after)}", style="bold"))
    sections = (("New findings", diff.new, "red"), ("Resolved findings", diff.resolved, "green"))
    for title, findings, style in sections:
        console.print()
        console.print(Text(f"{title} ({len(findings)})", style=f"bold underline {style}"))
        for finding in findings:
            _finding(console, finding)
    console.print()
    console.print(Text(f"Configuration drift ({len(diff.drift)})", style="bold underline"))
    width = max((len(d.object) for d in diff.drift), default=0)
    for change in diff.drift:
        line = Text("  ")
        line.append(change.object.ljust(width), style="bold")
        line.append(f"  {change.field}  ")
        line.append(drift_value(change, change.before), style="red")
        line.append(" → ")
        line.append(drift_value(change, change.after), style="green")
        console.print(line)
    if diff.probes:
        console.print()
        console.print(Text(f"Probed paths that changed ({len(diff.probes)})", style="bold underline"))
        for moved in diff.probes:
            line = Text("  ")
            line.append(moved.probe, style="bold")
            line.append("  ")
            ends = ((moved.before, moved.before_detail), (moved.after, moved.after_detail))
            for n, (state, detail) in enumerate(ends):
                line.append(" → " if n else "")
                line.append(f"{state} ({detail})", style="green" if state == "delivered" else "red")
            console.print(line)
    if diff.newly_skipped or diff.no_longer_skipped:
        console.print()
        console.print(Text("Skipped rule checks", style="bold underline magenta"))
        for skip in diff.newly_skipped:
            console.print(f"  {'now skipped':<17}  {skip.code} on {skip.object or 'every object'}: {skip.reason}")
        for skip in diff.no_longer_skipped:
            console.print(f"  {'no longer skipped':<17}  {skip.code} on {skip.object or 'every object'}")
    console.print()
    parts = [
        f"{len(diff.new)} new",
        f"{len(diff.resolved)} resolved",
        f"{diff.unchanged} unchanged",
        plural(len(diff.drift), "configuration change"),
    ]
    if diff.probes:
        parts.append(plural(len(diff.probes), "probed path changed", "probed paths changed"))
    console.print(Text(" · ".join(parts), style="bold"))
    return out.getvalue()

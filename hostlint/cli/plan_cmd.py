"""`hostlint plan PATH... --set HOST/OBJECT.FIELD=VALUE`: a pre-change audit."""

from __future__ import annotations

import json
import sys
from io import StringIO
from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from hostlint.change.portgroups import PortGroupReach
from hostlint.change.prerequisites import PREREQUISITE
from hostlint.change.setexpr import ChangeError
from hostlint.change.verdict import already_set_text, needed_by, verdict
from hostlint.change.whatif import WhatIf, what_if
from hostlint.cli.exit import Exit
from hostlint.fixes.render import describe
from hostlint.fixes.steps import Step
from hostlint.fixes.write import FixFolderError, write_plan
from hostlint.rules import RuleError, load_rules
from hostlint.snapshot import SnapshotError, load_site
from hostlint.yamlfile import read_yaml

SEVERITY_STYLE = {"error": "red", "warning": "yellow", "info": "blue"}


def _change_file(path: Path) -> list[str]:
    raw = read_yaml(path, "change file", ChangeError) or {}
    changes = raw.get("changes") if isinstance(raw, dict) else None
    if not isinstance(changes, list) or not all(isinstance(c, str) for c in changes):
        raise ChangeError(f"{path}: field changes: expected a list of HOST/OBJECT.FIELD=VALUE strings")
    return changes


def _json(result: WhatIf) -> str:
    document = {
        "schema_version": 1,
        "changes": [r.text for r in result.requests],
        "already_set": [
            {
                "change": a.request.text,
                "device": a.device,
                "target": a.target,
                "field": a.request.field,
                "value": a.value,
            }
            for a in result.already_set
        ],
        "safe_as_given": result.safe_as_given,
        "introduced": [f.model_dump(mode="json") for f in result.introduced],
        "cleared": [f.model_dump(mode="json") for f in result.cleared],
        "order": result.order,
        "remaining": [f.model_dump(mode="json") for f in result.remaining],
        "plan_accepted": bool(result.simulation and result.simulation.accepted),
        "verdict": verdict(result),
        "steps": [
            {
                "number": s.number,
                "stage": s.stage,
                "device": s.device,
                "action": s.action.action,
                "what": describe(s),
                "disruptive": s.action.label,
                "requested": any(src.code == "SET" for src in s.sources),
                "needed_by": needed_by(s),
                "why": [src.message for src in s.sources if src.code == PREREQUISITE],
                "codes": [c for c in s.codes if c not in ("SET", PREREQUISITE)],
            }
            for s in result.plan.steps
        ],
        "manual": [{"object": m.source.object, "action": m.action, "reason": m.reason} for m in result.plan.manual],
        "withheld": [
            {"code": w.source.code, "object": w.source.object, "action": w.action, "reason": w.reason}
            for w in result.plan.withheld
        ],
        "portgroups": [
            {
                "object": r.object,
                "teaming_set_collected": not r.unknown,
                "follows": r.follows,
                "pinned": r.pinned,
                "findings_after_plan": [{"code": f.code, "message": f.message} for f in r.findings],
            }
            for r in result.portgroups
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def _tag(step: Step) -> str:
    if any(s.code == "SET" for s in step.sources):
        return "requested"
    codes = [c for c in step.codes if c != PREREQUISITE]
    needs = needed_by(step)
    return "; ".join(([f"needed by {', '.join(needs)}"] if needs else []) + ([", ".join(codes)] if codes else []))


def _portgroup_line(reach: PortGroupReach) -> Text:
    if reach.unknown:
        return Text(
            f"  {reach.object}: which teaming fields it pins was not collected (teaming_set); taken to follow "
            "its vSwitch as the snapshot states it: check it before the change",
            style="yellow",
        )
    parts = []
    if reach.pinned:
        kept = ", ".join(f"{name} {value}" for name, value in reach.pinned.items())
        parts.append(f"keeps its pinned {kept}")
    if reach.follows:
        parts.append(f"follows the vSwitch in {', '.join(reach.follows)}")
    line = Text(f"  {reach.object}: {'; '.join(parts)}")
    if reach.pinned and reach.findings:
        found = "; ".join(f"{f.code} ({f.message})" for f in reach.findings)
        line.append(f": after the plan it has {found}", style="red")
    elif reach.pinned:
        line.append(": no finding for it after the plan")
    return line


def _portgroups(console: Console, reaches: list[PortGroupReach]) -> None:
    if not reaches:
        return
    console.print(Text("Port groups on the changed vSwitch(es):", style="bold"))
    for reach in reaches:
        console.print(_portgroup_line(reach))


def _human(result: WhatIf, color: bool) -> str:
    out = StringIO()
    console = Console(
        file=out, force_terminal=color, no_color=None if color else True, width=120, soft_wrap=True, markup=False
    )
    requests = result.requests or list({id(a.request): a.request for a in result.already_set}.values())
    console.print(Text("Proposed: " + "; ".join(r.text for r in requests), style="bold"))
    for line in already_set_text(result):
        console.print(f"Already set, no step: {line}")
    if result.nothing_to_do:
        console.print(Text(f"\nVerdict: {verdict(result)}", style="green bold"))
        return out.getvalue()
    if result.introduced:
        console.print(f"As given, the change would introduce {len(result.introduced)} finding(s):")
        for f in result.introduced:
            console.print(
                Text.assemble(
                    "  ", (f"{f.severity:7} {f.code}", SEVERITY_STYLE[f.severity]), f" {f.object}: {f.message}"
                )
            )
    else:
        console.print("As given, the change introduces no finding.")
    if result.cleared:
        console.print(
            f"It would clear {len(result.cleared)}: " + ", ".join(f"{f.code} {f.object}" for f in result.cleared)
        )
    _portgroups(console, result.portgroups)
    simulation = result.simulation
    if result.plan.steps:
        accepted = simulation is not None and simulation.accepted
        how = "simulated step by step, no new outage at any step" if accepted else "NO safe order found"
        console.print(Text(f"\nOrder ({result.order}; {how}):", style="bold"))
        for step in result.plan.steps:
            console.print(
                f"  {step.number}. [{step.stage}] {step.device}: {describe(step)}  ({_tag(step)}; {step.action.label})"
            )
            for source in step.sources:
                if source.code == PREREQUISITE:
                    console.print(Text(f"       why: {source.message.split(': ', 1)[-1]}", style="dim"))
    if simulation and not simulation.accepted and simulation.first_failure:
        failure = simulation.first_failure
        console.print(Text(f"\nStep {failure.step} would leave an outage:", style="red"))
        for f in failure.new_outages:
            console.print(f"  {f.code} {f.object}: {f.message}")
    for manual in result.plan.manual:
        console.print(Text(f"  by hand: {manual.source.object} {manual.action}: {manual.reason}", style="yellow"))
    for withheld in result.plan.withheld:
        console.print(Text(f"  {withheld.message}", style="red"))
    pinned_findings = [r.object for r in result.portgroups if r.pinned and r.findings]
    if pinned_findings:
        console.print(
            Text(
                f"\nPort groups that pin their teaming and have findings after the plan: {', '.join(pinned_findings)}"
                " (change their pinned teaming too, or make them inherit the vSwitch's).",
                style="red",
            )
        )
    style = "green bold" if result.safe_as_given else "red bold"
    console.print(Text(f"\nVerdict: {verdict(result)}", style=style))
    return out.getvalue()


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--set", "sets", multiple=True, help="A proposed change, HOST/OBJECT.FIELD=VALUE (repeatable).")
@click.option(
    "--change-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="YAML: changes: [HOST/OBJECT.FIELD=VALUE, ...]",
)
@click.option("--format", "fmt", type=click.Choice(["human", "json"]), default="human", show_default=True)
@click.option(
    "--fix-script", type=click.Path(file_okay=False, path_type=Path), help="Write the ordered plan's scripts here."
)
@click.option("--force", is_flag=True, help="Write --fix-script into a non-empty folder hostlint did not write.")
def plan(
    paths: tuple[Path, ...],
    sets: tuple[str, ...],
    change_file: Path | None,
    fmt: str,
    fix_script: Path | None,
    force: bool,
) -> int:
    """What would a change break, what must happen first, and in which order? Exit 0 when safe as given."""
    try:
        changes = list(sets) + (_change_file(change_file) if change_file else [])
        if not changes:
            raise ChangeError("give at least one --set HOST/OBJECT.FIELD=VALUE or a --change-file")
        snapshot = load_site(list(paths))
        result = what_if(snapshot, load_rules(), changes)
    except (ChangeError, SnapshotError, RuleError) as exc:
        click.echo(f"hostlint: {exc}", err=True)
        return Exit.USAGE
    click.echo(_json(result) if fmt == "json" else _human(result, color=sys.stdout.isatty()), nl=False)
    if fix_script is not None:
        try:
            written = write_plan(result.plan, snapshot, fix_script, force)
        except FixFolderError as exc:
            click.echo(f"hostlint: {exc}", err=True)
            return Exit.USAGE
        click.echo(f"hostlint: wrote {len(written)} files to {fix_script}", err=True)
    return Exit.CLEAN if result.safe_as_given or result.nothing_to_do else Exit.FINDINGS

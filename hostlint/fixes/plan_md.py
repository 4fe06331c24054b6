"""PLAN.md: the order across devices, why each step is there, how to verify it, and how to undo."""

from __future__ import annotations

import re

from hostlint import platforms as registry
from hostlint.fixes.identifiers import printable
from hostlint.fixes.plan import Plan
from hostlint.fixes.render import describe, render
from hostlint.fixes.scripts import needs_confirm, script_name
from hostlint.fixes.steps import Step
from hostlint.snapshot import Snapshot

INTRO = """\
hostlint wrote these scripts and ran nothing. Run the steps one at a time, in this order, and
check each step's verify result before the next: the order is what keeps traffic flowing
(a switch port-channel before IP hash on the host, port ID on the host before the port-channel
goes; switch MTU before vSwitch MTU before vmk MTU). DISRUPTIVE steps drop traffic for a moment:
run them in a maintenance window. DISRUPTIVE-LITE steps re-hash every port-channel on the switch.
"""


# Characters that start Markdown syntax inside a line: code spans, emphasis, links, raw HTML, table
# cells, entities. `>` and `#` matter only at the start of a line, which a name never is here.
_MARKDOWN = re.compile(r"([\\`*\[\]<|&])")


def md(text: object) -> str:
    """Text with names in it, for a Markdown line: one line, control characters and syntax escaped."""
    return _MARKDOWN.sub(r"\\\1", printable(text))


def md_code(text: object) -> str:
    """A code span holding `text` literally: a fence longer than any backtick run in it, `|` escaped
    (GFM ends a table cell at a `|` even inside a code span)."""
    body = printable(text).replace("|", "\\|")
    fence = "`" * (max((len(run) for run in re.findall(r"`+", body)), default=0) + 1)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def _cell(text: str) -> str:
    return md(text)


def _fenced(lines: list[str], indent: str) -> list[str]:
    """A fenced code block whose fence no line of it can close."""
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    fence = indent + "`" * max(3, longest + 1)
    return [fence, *(f"{indent}{printable(line)}" for line in lines), fence]


def _run(step: Step, rollback: bool = False) -> str:
    commands = []
    for platform in step.change.platforms:
        name = script_name(step.device, platform, rollback)
        commands.append(registry.target(platform).run.format(name=name, number=step.number))
    return " or ".join(commands)


def _why(step: Step) -> list[str]:
    return [f"{s.code} {md_code(s.object)}: {md(s.message)}" for s in step.sources]


def _step_section(step: Step) -> list[str]:
    platform = step.change.platforms[0]
    lines = [
        f"### Step {step.number}: {md(step.device)}, {step.action.action}",
        "",
        f"- **What:** {md(describe(step))}",
        f"- **Why:** {'; '.join(_why(step))}",
        f"- **Disruptive:** {step.action.label}",
        f"- **Run:** {_run(step)}",
    ]
    applicability = sorted({s.applicability for s in step.sources if s.applicability})
    if "unsafe" in applicability:
        lines.append("- **Applicability:** unsafe: review before running, never run unasked")
    lines += [f"- **REVIEW:** {md(note)}" for note in step.change.notes]
    lines += ["- **Verify** (" + platform + "):", ""]
    lines += _fenced(render(step, platform, "verify").splitlines(), "  ")
    lines += ["", "  Expect:", ""]
    lines += _fenced(render(step, platform, "expect").splitlines(), "  ")
    lines += [""]
    for confirmed in step.change.platforms:
        if needs_confirm(step, confirmed):
            lines += _confirm(registry.switch(confirmed))
    return lines


def _confirm(switch: registry.SwitchPlatform) -> list[str]:
    """How a block that ends in a confirmed commit is confirmed."""
    words = switch.vocabulary
    first, *rest = (f"`{line}`" for line in words.confirm)
    return [
        f"- **Confirm** ({switch.name}): the block ends in `{words.leave[0]}`. Once the",
        f"  verify passes, within {words.confirm_minutes} minutes, paste the step's CONFIRM lines ({first},",
        f"  {', '.join(rest)}). Unconfirmed, {switch.label} rolls the change back by itself at the deadline and the"
        " links",
        "  bounce again.",
        "",
    ]


def _overview(plan: Plan) -> list[str]:
    lines = ["| Step | Stage | Device | What | Why | Disruptive |", "|---|---|---|---|---|---|"]
    for step in plan.steps:
        lines.append(
            f"| {step.number} | {step.stage} | {_cell(step.device)} | {_cell(describe(step))} "
            f"| {', '.join(step.codes)} | {step.action.label} |"
        )
    return [*lines, ""]


def _conflicts(plan: Plan) -> list[str]:
    if not plan.conflicts:
        return []
    lines = ["## Conflicts", "", "Resolve these before running anything: run in order, the later step wins.", ""]
    for conflict in plan.conflicts:
        values = "; ".join(f"step {s.number} sets {s.change.after!r} ({', '.join(s.codes)})" for s in conflict.steps)
        lines.append(
            f"- {md(conflict.device)} {md_code(conflict.target)} "
            f"({conflict.sets}, stage {conflict.stage}): {md(values)}"
        )
    return [*lines, ""]


def _choices(plan: Plan) -> list[str]:
    if not plan.choices:
        return []
    lines = ["## Fixes chosen", "", "These findings have more than one fix; the plan above takes one for each.", ""]
    for choice in plan.choices:
        taken = f"**{md(choice.chosen)}**" if choice.chosen else "no alternative"
        lines.append(f"- {choice.source.code} {md_code(choice.source.object)}: {taken}, {md(choice.why)}")
        lines += [f"  - {md(other.name)}: not chosen, {md(other.reason)}" for other in choice.rejected]
    return [*lines, ""]


def _held_back(plan: Plan) -> list[str]:
    if not plan.held_back:
        return []
    lines = [
        "## Held back: unsafe fixes",
        "",
        "These fixes may drop traffic and need a window; hostlint writes them only with `--unsafe-fixes`.",
        "",
    ]
    lines += [f"- {f.code} {md_code(f.object)}: {md(f.message)}" for f in plan.held_back]
    return [*lines, ""]


def _manual(plan: Plan) -> list[str]:
    if not plan.manual:
        return []
    lines = ["## Needs manual work", "", "hostlint did not script these; the plan above does not cover them.", ""]
    for item in plan.manual:
        lines.append(f"- {item.source.code} {md_code(item.source.object)} ({item.action}): {md(item.reason)}")
    return [*lines, ""]


def _left(plan: Plan) -> list[str]:
    if not plan.left:
        return []
    lines = [
        "## Left by this plan",
        "",
        "Simulated to the end, this plan does not clear these findings; check again once it has run.",
        "",
    ]
    for item in plan.left:
        lines.append(f"- {item.source.code} {md_code(item.source.object)} ({item.action}): {md(item.reason)}")
    return [*lines, ""]


def _withheld(plan: Plan) -> list[str]:
    if not plan.withheld:
        return []
    lines = [
        "## Withheld fixes",
        "",
        "A name in these fixes does not fit its grammar on the platform, so hostlint wrote no command for",
        "them (the findings stand). Correct the name on the device, or make the change by hand.",
        "",
    ]
    for item in plan.withheld:
        lines.append(f"- {item.source.code} {md_code(item.source.object)} ({item.action}): {md(item.reason)}")
    return [*lines, ""]


def _advice_commands(step: Step) -> list[str]:
    """A display-only step's commands, as text to adapt: in no script, so no step number."""
    platform = step.change.platforms[0]
    lines = [f"  - On {md(step.device)} ({platform}, {step.action.label}), when ready: {md(describe(step))}"]
    lines += [f"    - REVIEW: {md(note)}" for note in step.change.notes]
    lines += ["", *_fenced(render(step, platform, "change").splitlines(), "    "), ""]
    return lines


def _advice(plan: Plan) -> list[str]:
    if not plan.advice and not plan.unchanged:
        return []
    lines = ["## Advice (not scripted)", ""]
    for index, finding in enumerate(plan.advice):
        lines.append(f"- {finding.code} {md_code(finding.object)} ({finding.severity}): {md(finding.message)}")
        if finding.fix:
            suggested = ", ".join(
                request.action + (f" {request.params}" if request.params else "") for request in finding.fix
            )
            lines.append(f"  - Suggested, display-only: {md(suggested)}")
        for step in plan.advice_steps.get(index, []):
            lines += _advice_commands(step)
    for item in plan.unchanged:
        lines.append(f"- {item.source.code} {md_code(item.source.object)} ({item.action}): {md(item.reason)}")
    return [*lines, ""]


def _rollback(plan: Plan) -> list[str]:
    if not plan.steps:
        return []
    lines = [
        "## Rollback",
        "",
        "Undo in this order, the reverse of the plan; each undo restores the value from before its step.",
        "",
    ]
    for n, step in enumerate(reversed(plan.steps), 1):
        line = f"{n}. Undo step {step.number} on {md(step.device)} ({step.action.action}): {_run(step, True)}"
        for confirmed in step.change.platforms:
            if needs_confirm(step, confirmed, rollback=True):
                words = registry.switch(confirmed).vocabulary
                commit = ", ".join(f"`{line}`" for line in words.commit)
                line += f"; once its verify passes, its CONFIRM lines ({commit}) within {words.confirm_minutes} minutes"
        lines.append(line)
    return [*lines, ""]


def plan_markdown(plan: Plan, snapshot: Snapshot) -> str:
    lines = ["# hostlint fix plan", ""]
    origin = [f"source {md_code(snapshot.source)}"] if snapshot.source else []
    if snapshot.collected_at:
        origin.append(f"collected {snapshot.collected_at.isoformat()}")
    if origin:
        lines += [f"Snapshot: {', '.join(origin)}.", ""]
    lines += [INTRO]
    if plan.steps:
        lines += ["## Steps", "", *_overview(plan)]
        for step in plan.steps:
            lines += _step_section(step)
    else:
        lines += ["No step to run.", ""]
    lines += (
        _conflicts(plan)
        + _choices(plan)
        + _held_back(plan)
        + _withheld(plan)
        + _manual(plan)
        + _left(plan)
        + _advice(plan)
        + _rollback(plan)
    )
    return "\n".join(lines).rstrip("\n") + "\n"

"""The one-line verdict of `hostlint plan`, naming what it refers to: the findings, the steps, the objects."""

from __future__ import annotations

from hostlint.change.prerequisites import PREREQUISITE
from hostlint.change.whatif import WhatIf
from hostlint.fixes.steps import Step
from hostlint.results import Finding

SHOWN = 3


def _some(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    return shown + (f" and {len(items) - SHOWN} more" if len(items) > SHOWN else "")


def _findings(findings: list[Finding]) -> str:
    return _some([f"{f.code} on {f.object}" for f in findings])


def step_object(step: Step) -> str:
    return f"{step.device} {step.change.target}"


def _numbers(steps: list[Step]) -> str:
    numbers = [s.number for s in steps]
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 1:
        return f"steps {numbers[0]}-{numbers[-1]}"
    return ("step " if len(numbers) == 1 else "steps ") + ", ".join(str(n) for n in numbers)


def needed_by(step: Step) -> list[str]:
    """The requested changes a prerequisite step is for (from its `NEEDS` sources)."""
    return sorted(
        {s.message.split(": ", 1)[0].removeprefix("needed by ") for s in step.sources if s.code == PREREQUISITE}
    )


def already_set_text(result: WhatIf) -> list[str]:
    return [f"{a.device} {a.target}: {a.request.field} is already {a.value}" for a in result.already_set]


def verdict(result: WhatIf) -> str:
    if result.nothing_to_do:
        return f"nothing to change: {_some(already_set_text(result))}."
    changes = "; ".join(r.text for r in result.requests)
    if result.safe_as_given:
        return f"safe as given: {changes} introduces no finding."
    introduced = f"NOT safe as given: {changes} introduces {_findings(result.introduced)}"
    simulation = result.simulation
    prerequisites = result.prerequisite_steps
    by_hand = [m for m in result.plan.manual if m.source.code == PREREQUISITE]
    first = f" once done by hand first: {_some([m.reason for m in by_hand])};" if by_hand else ""
    if simulation is not None and simulation.accepted:
        left = f"; the plan still leaves {_findings(result.remaining)}" if result.remaining else ""
        if first and not prerequisites:
            return f"{introduced}; safe{first.rstrip(';')}, then the steps in the order above{left}."
        if prerequisites:
            objects = _some([step_object(s) for s in prerequisites])
            requested = [s.number for s in result.plan.steps if s not in prerequisites]
            kind = "prerequisite" if not requested or prerequisites[0].number < requested[0] else "follow-up"
            steps = f"the {kind} {_numbers(prerequisites)} ({objects})"
            return f"{introduced}; safe{first} with {steps} in the order above{left}."
        return f"{introduced}; no step hostlint can plan fixes that, and no step leaves an outage{left}."
    failure = simulation.first_failure if simulation else None
    where = ""
    if failure is not None:
        where = f"; step {failure.step} would leave {_findings(failure.new_outages)}"
    hand = f"; first by hand: {_some([m.reason for m in by_hand])}" if by_hand else ""
    return f"{introduced}{where}{hand}; hostlint found no order that avoids an outage."

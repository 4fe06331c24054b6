"""The fix an engineer would choose, among a rule's alternatives, for each finding.

Each candidate is planned together with the rest of the plan (every finding without alternatives
and those decided before it, in finding order), ranked by how disruptive its steps are (no, lite,
yes) and then by how many there are, and tried in that order: the first that can be scripted,
keeps every intermediate state free of new outage findings, and, once applied to a copy of the
whole site, leaves no trace of the finding and no finding the site did not have, is taken. When
none passes, the rule's first applicable candidate is kept (the plan a single fix would give) and
PLAN.md says that no alternative cleared the finding.
"""

from __future__ import annotations

from dataclasses import dataclass

from hostlint.check import check_snapshot
from hostlint.fixes.actions import Action
from hostlint.fixes.apply import ApplyError
from hostlint.fixes.plan import Choice, Plan, Rejected, assemble
from hostlint.fixes.simulate import simulate
from hostlint.fixes.steps import Source
from hostlint.results import CheckResult, Finding
from hostlint.rules.model import Rule
from hostlint.site import SiteParams
from hostlint.snapshot import Snapshot

DISRUPTION = {"no": 0, "lite": 1, "yes": 2}
LABELS = {0: "not disruptive", 1: "DISRUPTIVE-LITE", 2: "DISRUPTIVE"}


@dataclass
class _Trial:
    index: int
    name: str
    plan: Plan
    disruption: int
    steps: int


def _choosable(finding: Finding, unsafe: bool) -> bool:
    if finding.applicability == "display-only" or (finding.applicability == "unsafe" and not unsafe):
        return False
    return sum(1 for candidate in finding.alternatives if candidate.fix) > 1


def _trial(plan: Plan, order: int, index: int, name: str) -> _Trial:
    own = [step for step in plan.steps if any(s.order == order for s in step.sources)]
    disruption = max((DISRUPTION[step.action.disruptive] for step in own), default=0)
    return _Trial(index, name, plan, disruption, len(own))


def _key(finding: Finding) -> tuple[str, str]:
    return (finding.code, finding.object)


def _verdict(
    trial: _Trial, order: int, finding: Finding, snapshot: Snapshot, rules: list[Rule], site: SiteParams | None
) -> str | None:
    """Why the trial's candidate cannot be taken, or None when it clears the finding cleanly."""
    blocked = [(m.action, m.reason) for m in trial.plan.manual if m.source.order == order]
    blocked += [(w.action, w.reason) for w in trial.plan.withheld if w.source.order == order]
    if blocked:
        return f"hostlint could not script it ({blocked[0][0]}: {blocked[0][1]})"
    if not trial.steps:
        return "it changes nothing here"
    try:
        simulation = simulate(snapshot, [step.change for step in trial.plan.steps], rules)
    except ApplyError as exc:
        return f"its steps could not be simulated ({exc})"
    failure = simulation.first_failure
    if failure is not None:
        outages = _named(failure.new_outages)
        if failure.step == len(trial.plan.steps) and not failure.during:
            return f"it would give {outages}"
        return f"on the way, {'during' if failure.during else 'after'} step {failure.step}, it would give {outages}"
    assert simulation.final is not None
    before = {_key(f) for f in check_snapshot(snapshot, rules, site).findings}
    after = check_snapshot(simulation.final, rules, site).findings
    if _key(finding) in {_key(f) for f in after}:
        return f"it would not clear {finding.code}"
    new = [f for f in after if _key(f) not in before]
    if new:
        return f"it would give {_named(new)}"
    return None


def _named(findings: list[Finding]) -> str:
    """`LG001 (object: message); LG004 (...)`, at most three, and how many more."""
    named = "; ".join(f"{f.code} ({f.object}: {f.message})" for f in findings[:3])
    return named + (f"; and {len(findings) - 3} more" if len(findings) > 3 else "")


def _choose(
    result: CheckResult,
    snapshot: Snapshot,
    actions: dict[str, Action],
    unsafe: bool,
    picked: dict[int, int | None],
    order: int,
    rules: list[Rule],
    site: SiteParams | None,
) -> tuple[int, Choice]:
    finding = result.findings[order]
    trials = [
        _trial(assemble(result, snapshot, actions, unsafe, {**picked, order: index}), order, index, candidate.name)
        for index, candidate in enumerate(finding.alternatives)
        if candidate.fix
    ]
    trials.sort(key=lambda t: (t.disruption, t.steps, t.index))
    rejected: list[Rejected] = []
    chosen: _Trial | None = None
    for trial in trials:
        if chosen is not None:
            rejected.append(Rejected(trial.name, _worse(trial, chosen)))
            continue
        reason = _verdict(trial, order, finding, snapshot, rules, site)
        if reason is None:
            chosen = trial
        else:
            rejected.append(Rejected(trial.name, reason))
    source = Source(finding.code, finding.object, finding.message, finding.applicability, order)
    if chosen is None:
        first = min(trials, key=lambda t: t.index)
        why = f"no alternative cleared it in simulation; the plan keeps the rule's first, {first.name}"
        return first.index, Choice(source, None, why, rejected)
    why = f"{LABELS[chosen.disruption]}, {chosen.steps} step{'s' if chosen.steps != 1 else ''}"
    why += ": simulated on the whole site, it clears the finding and gives no other"
    return chosen.index, Choice(source, chosen.name, why, rejected)


def _worse(trial: _Trial, chosen: _Trial) -> str:
    if trial.disruption > chosen.disruption:
        return f"more disruptive ({LABELS[trial.disruption]}) than {chosen.name}"
    if trial.steps > chosen.steps:
        return f"more steps ({trial.steps}) than {chosen.name} ({chosen.steps})"
    return f"listed after {chosen.name} by the rule"


def choose_all(
    result: CheckResult,
    snapshot: Snapshot,
    actions: dict[str, Action],
    unsafe: bool,
    rules: list[Rule] | None,
    site: SiteParams | None,
) -> tuple[dict[int, int | None], list[Choice]]:
    """For every finding with alternatives (by order): the alternative taken, and the choices made."""
    deciding = [order for order, finding in enumerate(result.findings) if _choosable(finding, unsafe)]
    if not deciding:
        return {}, []
    if rules is None:
        from hostlint.rules import load_rules

        rules = load_rules()
    picked: dict[int, int | None] = dict.fromkeys(deciding)
    choices = []
    for order in deciding:
        picked[order], choice = _choose(result, snapshot, actions, unsafe, picked, order, rules, site)
        choices.append(choice)
    return picked, choices

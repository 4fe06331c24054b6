"""`hostlint plan`: what a proposed change would break, what it needs first, and in which order.

The proposed changes are applied to a copy of the snapshot and the rules run on
the result. Findings the change introduces are planned away with their rules'
own fixes (the switch port-channel, its hash, the switch MTU), except steps on
the very objects the user is changing. The user's steps and those prerequisites
are then ordered by simulated apply: prerequisites first (enabling IP hash,
raising MTU), or the user's change first (going back to port ID, lowering MTU),
whichever never passes through a state with a new outage finding.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hostlint.change.portgroups import PortGroupReach, portgroup_reach
from hostlint.change.prerequisites import PREREQUISITE, Prerequisite, assume_done, prerequisites
from hostlint.change.setexpr import SetRequest, requested_changes
from hostlint.check import check_snapshot
from hostlint.fixes.actions import Action, load_actions
from hostlint.fixes.apply import apply_change
from hostlint.fixes.plan import STAGE_RANK, Manual, Plan, build_plan, chain_rollbacks
from hostlint.fixes.simulate import Simulation, simulate
from hostlint.fixes.site import Site
from hostlint.fixes.steps import Change, Source, Step
from hostlint.fixes.withhold import Withheld, unsafe_reason
from hostlint.join import build_facts
from hostlint.results import CheckResult, Finding
from hostlint.rules.model import Rule
from hostlint.snapshot import Snapshot

# Within the user's own changes, raising goes vSwitch before vmk; lowering the reverse.
_USER_RANK = {"host-teaming": 0, "host-active-uplinks": 0, "host-vswitch-mtu": 0, "vmk-mtu": 1}


@dataclass
class AlreadySet:
    """A requested change whose value is already in place: no step, nothing to check."""

    request: SetRequest
    device: str
    target: str
    value: object


@dataclass
class WhatIf:
    requests: list[SetRequest]
    already_set: list[AlreadySet] = field(default_factory=list)
    introduced: list[Finding] = field(default_factory=list)
    cleared: list[Finding] = field(default_factory=list)
    # Introduced findings still there after every planned step (e.g. MT003: other vmks of the segment
    # stay at the old MTU): what the plan does not settle.
    remaining: list[Finding] = field(default_factory=list)
    plan: Plan = field(default_factory=Plan)
    simulation: Simulation | None = None
    order: str = ""
    # the port groups of each vSwitch whose teaming the change sets: which follow, which keep theirs
    portgroups: list[PortGroupReach] = field(default_factory=list)

    @property
    def safe_as_given(self) -> bool:
        return not self.introduced

    @property
    def nothing_to_do(self) -> bool:
        return not self.requests and bool(self.already_set)

    @property
    def prerequisite_steps(self) -> list[Step]:
        """Steps that are not the requested change: what the change needs first (or right after)."""
        return [s for s in self.plan.steps if not any(src.code == "SET" for src in s.sources)]


def _keys(findings: list[Finding]) -> set[tuple[str, str]]:
    return {(f.code, f.object) for f in findings}


def _user_step(request: SetRequest, change: Change, order: int, stage: str, actions: dict[str, Action]) -> Step:
    source = Source("SET", change.device, f"requested change: {request.text}", "unsafe", order)
    return Step(action=actions[change.action], stage=stage, change=change, sources=[source], seq=order)


def _prerequisite_step(item: Prerequisite, change: Change, order: int, actions: dict[str, Action]) -> Step:
    source = Source(PREREQUISITE, item.object, f"needed by {item.request.text}: {item.why}", "unsafe", order)
    return Step(action=actions[change.action], stage=item.stage, change=change, sources=[source], seq=order)


def _candidates(user: list[Step], prerequisites: list[Step]) -> list[tuple[str, list[Step]]]:
    raise_order = sorted(user, key=lambda s: (_USER_RANK.get(s.change.action, 0), s.seq))
    lower_order = sorted(user, key=lambda s: (-_USER_RANK.get(s.change.action, 0), s.seq))
    for step in user:
        step.stage = "vmk" if step.change.action == "vmk-mtu" else "host"
    if not prerequisites:
        return [("the requested change", raise_order), ("the requested change, vmk first", lower_order)]
    # Shut channel members stay shut around both ends' changes, the user's too (KB 1022751).
    downs = [s for s in prerequisites if s.stage == "members-down"]
    ups = [s for s in prerequisites if s.stage == "members-up"]
    middle = [s for s in prerequisites if s.stage not in ("members-down", "members-up")]
    return [
        ("prerequisites first, then the requested change", downs + middle + raise_order + ups),
        ("the requested change first, then the prerequisites", downs + lower_order + middle + ups),
    ]


def _without_undo(findings: list[Finding], requested: list[tuple[SetRequest, Change]]) -> list[Finding]:
    """The findings without the alternative fixes made only of the user's own kind of change (setting
    the teaming back would undo the very change asked about); what-if drops such steps from the rest."""
    kinds = {change.action for _, change in requested}
    kept = []
    for finding in findings:
        if finding.alternatives:
            others = [c for c in finding.alternatives if not c.fix or {r.action for r in c.fix} - kinds]
            fix = next((c.fix for c in others if c.fix), [])
            finding = finding.model_copy(update={"alternatives": others, "fix": fix})
        kept.append(finding)
    return kept


def what_if(snapshot: Snapshot, rules: list[Rule], sets: list[str]) -> WhatIf:
    facts = build_facts(snapshot)
    site = Site(snapshot, facts)
    # A change to the value already there is no step at all: it is reported as such.
    resolved = requested_changes(sets, facts, site)
    requested = [(r, c) for r, c in resolved if c.before != c.after]
    result = WhatIf(
        requests=list({id(r): r for r, _ in requested}.values()),
        already_set=[AlreadySet(r, c.device, c.target, c.after) for r, c in resolved if c.before == c.after],
    )
    if not requested:
        return result
    before = check_snapshot(snapshot, rules)
    after_state = snapshot.model_copy(deep=True)
    for _, change in requested:
        apply_change(after_state, change)
    after = check_snapshot(after_state, rules)
    result.introduced = [f for f in after.findings if (f.code, f.object) not in _keys(before.findings)]
    result.cleared = [f for f in before.findings if (f.code, f.object) not in _keys(after.findings)]

    # Fixes for what the change introduces, planned on the changed state, less any step that makes
    # the user's own kind of change on the same object (it would undo or redo that change).
    needed = build_plan(CheckResult(findings=_without_undo(result.introduced, requested)), after_state, rules=rules)
    touched = {(c.device, c.action, c.target) for _, c in requested}
    actions = load_actions()
    # What the domain requires first (switch path, then vSwitch, for an MTU raise), named after the
    # request that needs it; then the fixes of what the change introduces, less those already there.
    required = [
        p for p in prerequisites(requested, facts, site, snapshot) if p.change is None or _key(p.change) not in touched
    ]
    steps = [_prerequisite_step(p, p.change, n, actions) for n, p in enumerate(required) if p.change is not None]
    derived = {_key(s.change): s for s in steps}
    for step in needed.steps:
        if _key(step.change) in derived:
            # The same step a rule's fix asks for: one step, naming both reasons.
            derived[_key(step.change)].sources += step.sources
        elif _key(step.change) not in touched:
            steps.append(step)
    prerequisite_steps = sorted(steps, key=lambda s: (STAGE_RANK[s.stage], s.order, s.device, s.seq))
    manual = [
        Manual(Source(PREREQUISITE, p.object, p.why, None, 0), "prerequisite", p.by_hand)
        for p in required
        if p.change is None and p.by_hand
    ]
    user = [_user_step(r, c, n, "host", actions) for n, (r, c) in enumerate(requested)]
    # A requested change whose names cannot be written safely is withheld like any fix.
    withheld = list(needed.withheld)
    for step in list(user):
        reason = unsafe_reason(step.change, step.action, step.stage)
        if reason is not None:
            withheld.append(Withheld(step.sources[0], step.change.action, reason))
            user.remove(step)

    ordered: list[Step] = []
    # Steps no script can make (a distributed switch's MTU, in vCenter) are done by hand first.
    start = assume_done(snapshot, required)
    for label, candidate in _candidates(user, prerequisite_steps):
        simulation = simulate(start, [s.change for s in candidate], rules)
        if simulation.accepted or result.simulation is None:
            result.simulation, result.order = simulation, label
            ordered = candidate
        if simulation.accepted:
            break
    for number, step in enumerate(ordered, 1):
        step.number = number
    chain_rollbacks(ordered)
    result.plan = Plan(steps=ordered, manual=manual + needed.manual, advice=needed.advice, withheld=withheld)
    final = result.simulation.final if result.simulation is not None else None
    final_findings = check_snapshot(final, rules).findings if final is not None else after.findings
    if final is not None:
        final_keys = _keys(final_findings)
        result.remaining = [f for f in result.introduced if (f.code, f.object) in final_keys]
    result.portgroups = portgroup_reach(snapshot, after_state, final_findings)
    return result


def _key(change: Change) -> tuple[str, str, str]:
    return change.device, change.action, change.target

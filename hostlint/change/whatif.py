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

from hostlint.change.setexpr import SetRequest, requested_changes
from hostlint.check import check_snapshot
from hostlint.fixes.actions import Action, load_actions
from hostlint.fixes.apply import apply_change
from hostlint.fixes.plan import STAGE_RANK, Plan, build_plan, chain_rollbacks
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
class WhatIf:
    requests: list[SetRequest]
    introduced: list[Finding] = field(default_factory=list)
    cleared: list[Finding] = field(default_factory=list)
    plan: Plan = field(default_factory=Plan)
    simulation: Simulation | None = None
    order: str = ""

    @property
    def safe_as_given(self) -> bool:
        return not self.introduced


def _keys(findings: list[Finding]) -> set[tuple[str, str]]:
    return {(f.code, f.object) for f in findings}


def _user_step(request: SetRequest, change: Change, order: int, stage: str, actions: dict[str, Action]) -> Step:
    source = Source("SET", change.device, f"requested change: {request.text}", "unsafe", order)
    return Step(action=actions[change.action], stage=stage, change=change, sources=[source], seq=order)


def _candidates(user: list[Step], prerequisites: list[Step]) -> list[tuple[str, list[Step]]]:
    raise_order = sorted(user, key=lambda s: (_USER_RANK.get(s.change.action, 0), s.seq))
    lower_order = sorted(user, key=lambda s: (-_USER_RANK.get(s.change.action, 0), s.seq))
    for step in user:
        step.stage = "vmk" if step.change.action == "vmk-mtu" else "host"
    if not prerequisites:
        return [("the requested change", raise_order), ("the requested change, vmk first", lower_order)]
    return [
        ("prerequisites first, then the requested change", prerequisites + raise_order),
        ("the requested change first, then the prerequisites", lower_order + prerequisites),
    ]


def what_if(snapshot: Snapshot, rules: list[Rule], sets: list[str]) -> WhatIf:
    facts = build_facts(snapshot)
    site = Site(snapshot, facts)
    # A change to the value already there is no step at all.
    requested = [(r, c) for r, c in requested_changes(sets, facts, site) if c.before != c.after]
    result = WhatIf(requests=[r for r, _ in requested])
    before = check_snapshot(snapshot, rules)
    after_state = snapshot.model_copy(deep=True)
    for _, change in requested:
        apply_change(after_state, change)
    after = check_snapshot(after_state, rules)
    result.introduced = [f for f in after.findings if (f.code, f.object) not in _keys(before.findings)]
    result.cleared = [f for f in before.findings if (f.code, f.object) not in _keys(after.findings)]

    # Fixes for what the change introduces, planned on the changed state, less any step that makes
    # the user's own kind of change on the same object (it would undo or redo that change).
    needed = build_plan(CheckResult(findings=result.introduced), after_state)
    touched = {(c.device, c.action, c.target) for _, c in requested}
    prerequisites = [s for s in needed.steps if (s.device, s.change.action, s.change.target) not in touched]
    prerequisites.sort(key=lambda s: (STAGE_RANK[s.stage], s.order, s.device, s.seq))
    actions = load_actions()
    user = [_user_step(r, c, n, "host", actions) for n, (r, c) in enumerate(requested)]
    # A requested change whose names cannot be written safely is withheld like any fix.
    withheld = list(needed.withheld)
    for step in list(user):
        reason = unsafe_reason(step.change, step.action, step.stage)
        if reason is not None:
            withheld.append(Withheld(step.sources[0], step.change.action, reason))
            user.remove(step)

    for label, steps in _candidates(user, prerequisites):
        simulation = simulate(snapshot, [s.change for s in steps], rules)
        if simulation.accepted or result.simulation is None:
            result.simulation, result.order = simulation, label
            ordered = steps
        if simulation.accepted:
            break
    for number, step in enumerate(ordered, 1):
        step.number = number
    chain_rollbacks(ordered)
    result.plan = Plan(steps=ordered, manual=needed.manual, advice=needed.advice, withheld=withheld)
    return result

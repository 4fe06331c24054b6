"""The global plan: every finding's fix requests expanded into steps, merged, ordered by safety.

Order: stage (members-down < host-undo < switch < host < vmk < switch-cleanup < members-up),
actions marked first_in_stage first, then the order of the finding that first asked for the step,
then device. Enabling IP hash thus runs host-to-port-ID first, the switch channel next, host IP
hash last; raising MTU runs switch, then vSwitch, then vmk. A channel change under a live team
is wrapped in shutting all but one of its links first and bringing them back last.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hostlint import names, vlans
from hostlint.fixes.actions import Action, expander_of, load_actions
from hostlint.fixes.apply import ApplyError, apply_change
from hostlint.fixes.apply import _host as _host_in
from hostlint.fixes.apply import _kvm_host as _kvm_host_in
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.facts import parse_fact
from hostlint.fixes.families import add_family
from hostlint.fixes.members import one_link_forwarding, spanning_tree_notes
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change, Source, Step
from hostlint.fixes.withhold import Withheld, unsafe_reason
from hostlint.join.facts import Fact, Facts
from hostlint.results import CheckResult, Finding, FixRequest
from hostlint.rules.model import Rule
from hostlint.site import SiteParams
from hostlint.snapshot import Snapshot

# `members-down` and `members-up` hold no rule's step: the planner adds them around a channel change
# under a live team, so one link keeps forwarding (hostlint.fixes.members).
STAGES: tuple[str, ...] = ("members-down", "host-undo", "switch", "host", "vmk", "switch-cleanup", "members-up")
# Looked up with the stage a fix request names (a string read from a rule or a stored result).
STAGE_RANK: dict[str, int] = {stage: rank for rank, stage in enumerate(STAGES)}


@dataclass
class Manual:
    """A fix request hostlint could not script, and what to do instead."""

    source: Source
    action: str
    reason: str


@dataclass
class Conflict:
    """Steps of one stage that set the same thing on the same target to different values."""

    device: str
    target: str
    sets: str
    stage: str
    steps: list[Step]


@dataclass
class Rejected:
    """An alternative fix the plan did not take, and why."""

    name: str
    reason: str


@dataclass
class Choice:
    """Which of a finding's alternative fixes the plan took (None: none cleared it), and why not the others."""

    source: Source
    chosen: str | None
    why: str
    rejected: list[Rejected] = field(default_factory=list)


@dataclass
class Plan:
    steps: list[Step] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    manual: list[Manual] = field(default_factory=list)
    advice: list[Finding] = field(default_factory=list)
    # A display-only finding's steps, rendered as advice and never written to a script (by advice index).
    advice_steps: dict[int, list[Step]] = field(default_factory=dict)
    unchanged: list[Manual] = field(default_factory=list)
    held_back: list[Finding] = field(default_factory=list)
    # Fixes not written because a name in them cannot be written safely (the findings stay).
    withheld: list[Withheld] = field(default_factory=list)
    # Findings with alternative fixes: the one taken and why the others were not.
    choices: list[Choice] = field(default_factory=list)
    # Findings a step claims that the simulated plan leaves, and why (PLAN.md says so).
    left: list[Manual] = field(default_factory=list)


def _source(finding: Finding, order: int) -> Source:
    return Source(finding.code, finding.object, finding.message, finding.applicability, order)


class _Builder:
    def __init__(self, snapshot: Snapshot, actions: dict[str, Action], unsafe: bool, facts: Facts | None) -> None:
        self.unsafe = unsafe
        self.site = Site(snapshot, facts)
        self.actions = actions
        self.plan = Plan()
        self.by_identity: dict[tuple[str, ...], Step] = {}
        self.seq = 0

    def add_finding(self, finding: Finding, order: int, requests: list[FixRequest] | None = None) -> None:
        """Plan `finding`'s fix: `requests` (one of its alternatives) or its `fix`."""
        if finding.applicability == "display-only" or not finding.fix:
            self.plan.advice.append(finding)
            if finding.fix:
                self._advise(finding, order)
            return
        if finding.applicability == "unsafe" and not self.unsafe:
            # ruff's contract: a fix that may drop traffic is written only when asked for.
            self.plan.held_back.append(finding)
            return
        source = _source(finding, order)
        fact = parse_fact(finding.fact)
        wanted = finding.fix if requests is None else requests
        expanded = [(request, self._expand(request, fact, source)) for request in wanted]
        disruptive = any(
            self.actions[change.action].disruptive == "yes" for _, changes in expanded for change in changes or []
        )
        if finding.applicability == "safe" and disruptive:
            # A fix that drops traffic is never safe, whatever the rule file says (issue #26, invariant 1).
            if not self.unsafe:
                self.plan.held_back.append(finding)
                return
            source.applicability = "unsafe"
        failed = [request for request, changes in expanded if changes is None]
        withheld = {w.action for w in self.plan.withheld if w.source == source}
        # The stages are the safety: a later step (IP hash on the host) without the step that makes it
        # safe (the switch channel) recreates the outage, so it is left out, never written alone.
        blocked = min((STAGE_RANK[r.stage] for r in failed), default=len(STAGES))
        added: list[Change] = []
        for request, changes in expanded:
            if changes is None:
                continue
            if STAGE_RANK[request.stage] > blocked:
                held = [r.action for r in failed if r.action in withheld]
                if held:
                    reason = f"safe only after {held[0]}, whose fix was withheld"
                    self._withhold(Withheld(source, request.action, reason))
                else:
                    reason = f"left out: safe only after {failed[0].action}, which hostlint could not script"
                    self.plan.manual.append(Manual(source, request.action, reason))
                continue
            if not changes:
                self.plan.unchanged.append(Manual(source, request.action, "already as wanted on every device"))
            for change in changes:
                self._add(change, request.stage, source)
            added.extend(changes)
        down, up = one_link_forwarding(fact, added, self.site)
        for change, stage in [*((c, "members-down") for c in down), *((c, "members-up") for c in up)]:
            # Written for the switch's family like the change they surround (a VRP 8 shutdown needs `commit`).
            unscripted = add_family(change, self.actions[change.action], self.site.switch(change.device))
            if unscripted is not None:
                self.plan.manual.append(Manual(source, change.action, f"{change.device}: {unscripted}"))
                continue
            self._add(change, stage, source)

    def _advise(self, finding: Finding, order: int) -> None:
        """The commands a display-only fix would run, for a person to adapt; nothing joins the plan."""
        source = _source(finding, order)
        fact = parse_fact(finding.fact)
        steps = []
        for request in finding.fix:
            expander = expander_of(request.action)
            try:
                changes = expander(request.params, fact, self.site) if expander else []
            except CannotFix:
                changes = []
            for change in changes:
                action = self.actions.get(change.action)
                if action is None or not all(p in action.platforms for p in change.platforms):
                    continue
                if add_family(change, action, self.site.switch(change.device)) is not None:
                    continue
                reason = unsafe_reason(change, action, request.stage)
                if reason is not None:
                    self._withhold(Withheld(source, request.action, reason))
                    continue
                steps.append(Step(action=action, stage=request.stage, change=change, sources=[source], seq=-1))
        if steps:
            self.plan.advice_steps[len(self.plan.advice) - 1] = steps

    def _expand(self, request: FixRequest, fact: Fact, source: Source) -> list[Change] | None:
        """The request's changes, or None (and a manual item saying why) when it cannot be scripted."""
        expander = expander_of(request.action)
        if expander is None:
            self.plan.manual.append(Manual(source, request.action, "hostlint has no fix action of this name"))
            return None
        try:
            changes = expander(request.params, fact, self.site)
        except CannotFix as exc:
            self.plan.manual.append(Manual(source, request.action, str(exc)))
            return None
        for change in changes:
            action = self.actions.get(change.action)
            missing = [p for p in change.platforms if action is None or p not in action.platforms]
            if missing:
                reason = f"no {', '.join(missing)} commands for {change.action} on {change.device}"
                self.plan.manual.append(Manual(source, request.action, reason))
                return None
        for change in changes:
            # Text that differs by family (Junos ELS/non-ELS/MX, VRP 5/8): written for the switch's family or
            # not at all.
            family_reason = add_family(change, self.actions[change.action], self.site.switch(change.device))
            if family_reason is not None:
                self.plan.manual.append(Manual(source, request.action, f"{change.device}: {family_reason}"))
                return None
        for change in changes:
            # Every change of the request or none: a channel on one vPC peer without the other is no fix.
            unsafe = unsafe_reason(change, self.actions[change.action], request.stage)
            if unsafe is not None:
                self._withhold(Withheld(source, request.action, unsafe))
                return None
        return changes

    def _withhold(self, withheld: Withheld) -> None:
        if withheld not in self.plan.withheld:
            self.plan.withheld.append(withheld)

    def _add(self, change: Change, stage: str, source: Source) -> None:
        step = Step(action=self.actions[change.action], stage=stage, change=change, sources=[source], seq=self.seq)
        self.seq += 1
        known = self.by_identity.setdefault(step.identity(), step)
        if known is step:
            self.plan.steps.append(step)
        elif source not in known.sources:
            known.sources.append(source)


def chain_rollbacks(steps: list[Step]) -> None:
    """A step's rollback restores what was there just before it: the snapshot's value, or the value
    an earlier step of the same action set on the same target (IP hash -> port ID -> IP hash).
    """
    last: dict[tuple[str, str, str], Any] = {}
    for step in steps:
        change = step.change
        key = (change.action, change.device, change.target)
        if key in last and change.before is not None:
            change.before = last[key]
        last[key] = change.after


def accumulate_additive(steps: list[Step]) -> None:
    """Steps that add to what is there (VLANs allowed on a trunk) build on each other: a later one's
    before is the earlier one's after, and its after keeps what the earlier one added (invariant 9)."""
    last: dict[tuple[str, str, str], Step] = {}
    for step in steps:
        if not step.action.additive:
            continue
        key = (step.change.action, step.device, step.change.target)
        earlier = last.get(key)
        if earlier is not None:
            change = step.change
            change.before = earlier.change.after
            ranges = [
                r for word in [*earlier.change.after, *change.after] if word != "none" for r in vlans.parse_list(word)
            ]
            change.after = [vlans.text([r]) for r in vlans.merge(ranges)] or ["none"]
        last[key] = step


def _interface_key(step: Step) -> tuple[str, str] | None:
    interface = step.change.values.get("interface")
    return (names.device_key(step.device), names.interface_key(str(interface))) if interface else None


def additions_before_removal(plan: Plan) -> None:
    """VLANs added to a port-channel are added before a step takes members out of it, and the members
    leaving carry them (the channel's lines the removal writes onto them): otherwise the members leave
    with the channel's old VLANs and the finding stays (invariants 2 and 9)."""
    ordered: list[Step] = []
    moved: set[int] = set()
    for index, step in enumerate(plan.steps):
        if id(step) in moved:
            continue
        key = _interface_key(step)
        if step.change.action == "switch-remove-port-channel" and key is not None:
            later = [s for s in plan.steps[index + 1 :] if s.action.additive and _interface_key(s) == key]
            ordered += later
            moved.update(id(s) for s in later)
            added = [
                w
                for s in [*ordered, step]
                if s.action.additive and _interface_key(s) == key
                for w in s.change.values["vlans"]
            ]
            _carry_vlans(step, added)
        ordered.append(step)
    plan.steps = ordered


def _carry_vlans(removal: Step, added: list[str]) -> None:
    config = removal.change.values.get("config") or {}
    if not added or config.get("mode") != "trunk":
        return
    ranges = [(low, high) for low, high in config["allowed_vlans"]]
    ranges += [r for word in added for r in vlans.parse_list(word)]
    merged = vlans.merge(ranges)
    values = removal.change.values
    values["config"] = {
        **config,
        "allowed_vlans": [[low, high] for low, high in merged],
        "allowed": [vlans.text([r]) for r in merged] or ["none"],
    }
    # Every leaving member takes the widened list, also those whose own lines matched the old one.
    carried = {c["port"] for c in values["carry"]}
    values["carry"] = [
        *values["carry"],
        *({"port": m, "before": config} for m in values["members"] if m not in carried),
    ]


def _removed_channel(step: Step) -> str | None:
    if step.change.action != "switch-remove-port-channel" or not step.change.values.get("remove_interface"):
        return None
    return str(step.change.values["interface"])


def without_removed_targets(plan: Plan) -> None:
    """A step on a port-channel an earlier step of the plan removes would act on nothing: it is left
    out, and PLAN.md says which finding it leaves and why (invariant 2)."""
    removed: dict[tuple[str, str], Step] = {}
    kept = []
    for step in plan.steps:
        interface = step.change.values.get("interface")
        remover = (
            removed.get((names.device_key(step.device), names.interface_key(str(interface)))) if interface else None
        )
        if remover is not None and remover is not step:
            codes = ", ".join(remover.codes)
            reason = (
                f"{interface} on {step.device} is removed by the {codes} fix in this plan; {step.action.action} on its"
                " former members is for a check after the plan has run"
            )
            plan.left += [Manual(source, step.action.action, reason) for source in step.sources]
            continue
        channel = _removed_channel(step)
        if channel is not None:
            removed[(names.device_key(step.device), names.interface_key(channel))] = step
        kept.append(step)
    plan.steps = kept


def _device_state(snapshot: Snapshot, name: str) -> str | None:
    """The device's part of `snapshot` as JSON (what one step may change), None when it is not there."""
    for lookup in (_switch_in, _host_in, _kvm_host_in):
        try:
            return lookup(snapshot, name).model_dump_json()
        except ApplyError:
            continue
    return None


def without_no_ops(plan: Plan, snapshot: Snapshot) -> None:
    """A step that, simulated after the steps before it, changes nothing on its device is left out: an
    earlier step (another finding's) already made that change. Its findings join that step (invariant 2)."""
    state = snapshot.model_copy(deep=True)
    kept: list[Step] = []
    for step in plan.steps:
        before = _device_state(state, step.device)
        try:
            apply_change(state, step.change)
        except ApplyError:
            kept.append(step)
            continue
        if before is None or _device_state(state, step.device) != before:
            kept.append(step)
            continue
        earlier = next(
            (k for k in reversed(kept) if k.device == step.device and k.action.sets == step.action.sets), None
        )
        for source in step.sources:
            if earlier is not None and source not in earlier.sources:
                earlier.sources.append(source)
            elif earlier is None:
                plan.unchanged.append(
                    Manual(source, step.action.action, "already as wanted once the steps before it run")
                )
    plan.steps = kept


def _conflicts(steps: list[Step]) -> list[Conflict]:
    groups: dict[tuple[str, str, str, str], list[Step]] = {}
    for step in steps:
        if step.action.additive:
            continue  # adding to a list never contradicts another addition
        key = (step.device, step.change.target, step.action.sets, step.stage)
        groups.setdefault(key, []).append(step)
    return [
        Conflict(device, target, sets, stage, group)
        for (device, target, sets, stage), group in groups.items()
        if len({repr(s.change.after) for s in group}) > 1
    ]


def assemble(
    result: CheckResult,
    snapshot: Snapshot,
    actions: dict[str, Action],
    unsafe: bool,
    picked: dict[int, int | None] | None = None,
) -> Plan:
    """The plan for `result`'s findings, each finding (by order) in `picked` with the alternative it
    names (None: left out, not decided yet), every other with its `fix`."""
    picked = picked or {}
    builder = _Builder(snapshot, actions, unsafe, result.facts)
    for order, finding in enumerate(result.findings):
        if order not in picked:
            builder.add_finding(finding, order)
        elif (index := picked[order]) is not None:
            builder.add_finding(finding, order, finding.alternatives[index].fix)
    plan = builder.plan
    plan.steps.sort(key=lambda s: (STAGE_RANK[s.stage], not s.action.first_in_stage, s.order, s.device, s.seq))
    additions_before_removal(plan)
    without_removed_targets(plan)
    without_no_ops(plan, snapshot)
    spanning_tree_notes(plan.steps, snapshot)
    for number, step in enumerate(plan.steps, 1):
        step.number = number
    accumulate_additive(plan.steps)
    chain_rollbacks(plan.steps)
    plan.conflicts = _conflicts(plan.steps)
    return plan


def build_plan(
    result: CheckResult,
    snapshot: Snapshot,
    actions: dict[str, Action] | None = None,
    unsafe: bool = True,
    rules: list[Rule] | None = None,
    site: SiteParams | None = None,
) -> Plan:
    """The plan for `result`'s findings; with `unsafe=False` fixes marked unsafe are held back.

    A finding with alternative fixes gets the least disruptive one that, simulated on the whole
    site with the rest of the plan, clears it without another finding (hostlint.fixes.choice;
    `rules` and `site` are what that check runs, hostlint's own rules by default).
    """
    from hostlint.fixes.choice import choose_all

    actions = actions if actions is not None else load_actions()
    picked, choices = choose_all(result, snapshot, actions, unsafe, rules, site)
    plan = assemble(result, snapshot, actions, unsafe, picked)
    plan.choices = choices
    name_what_stays(plan, snapshot, rules, site)
    return plan


def name_what_stays(plan: Plan, snapshot: Snapshot, rules: list[Rule] | None, site: SiteParams | None) -> None:
    """Simulated to the end, the plan clears what its steps claim; what it does not is named in
    PLAN.md ("Left by this plan") with the finding as it then reads (invariant 2)."""
    from hostlint.check import check_snapshot

    claimed = {(s.code, s.object): s for step in plan.steps for s in step.sources}
    if not claimed:
        return
    if rules is None:
        from hostlint.rules import load_rules

        rules = load_rules()
    watched = [rule for rule in rules if rule.code in {code for code, _ in claimed}]
    final = snapshot.model_copy(deep=True)
    try:
        for step in plan.steps:
            apply_change(final, step.change)
    except ApplyError:
        return  # a step the simulation cannot model: the invariant checker names it
    named = {(m.source.code, m.source.object) for m in [*plan.left, *plan.manual, *plan.unchanged]}
    for finding in check_snapshot(final, watched, site).findings:
        source = claimed.get((finding.code, finding.object))
        if source is not None and (finding.code, finding.object) not in named:
            reason = (
                f"still found once the plan has run, simulated: {finding.message}; fix it by hand, then check again"
            )
            plan.left.append(Manual(source, "the whole plan", reason))

"""What every plan hostlint writes must satisfy, checked on a site and its plan (issue #26).

The planner enforces what it can while it plans; this module proves it afterwards, the same way
for every lab, every synthetic site of the tests and generated sites (tests/test_plan_invariants.py,
bench/plan_invariants.py). Each violation names its invariant by number:

1. honest applicability: a step that is DISRUPTIVE never carries a finding whose fix is `safe`;
2. every step changes something (simulated on the state just before it), and simulated to the end
   the plan clears every finding it claims, or the plan names it (manual, withheld, unchanged, left);
3. teams stay whole: no uplink leaves its vSwitch while its switch port stays in a port-channel,
   and a team is left with one uplink only where the step says it loses failover;
4. a rollback restores the device exactly, where that is checkable without the device: a rollback
   that re-creates a removed port-channel types every line the channel's collected configuration had,
   and every member's own collected lines (else it names what it cannot restore); a channel mode change
   types back each member's own channel-group line and a Junos ae's LACP lines; a vPC/MLAG id change
   removes the old id first and its rollback restores it; a Junos rollback sets no link statement
   (speed, link-mode, no-auto-negotiation) the port's collected configuration did not have;
5. the spanning-tree warning is on exactly the steps that make a new spanning-tree port on a trunk, naming
   each such port without edge settings in its collected lines, and saying it cannot tell for each whose
   lines do not show them either way (not collected; a platform that keeps them elsewhere); never an
   edge port;
6. no MTU beyond the platform's limit (hostlint.platforms); a KVM guest's MTU is never lowered where
   its switch path carries it and every driver on its host path accepts it (the host path is raised
   instead, as ESXi's vSwitch is), and a raised host path never goes beyond the switch's figure or a
   driver's maximum;
7. scripts mean one object: PowerCLI never looks a name up with `-Name` (a wildcard pattern even
   in single quotes), uses no variable it does not define, vmk verify steps carry the netstack;
8. one script file per device, platform and direction: no two devices share a file name;
9. a conflict is two steps setting one thing to different values, never two additive steps.

The rest of invariant 4 needs the devices: the rehearsals prove it (tests/test_fix_rehearse*.py and
tests/test_switch_config_session.py run each plan and its rollback on emulators and compare the
running configuration line for line).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hostlint import names, switches
from hostlint import platforms as registry
from hostlint.check import check_snapshot
from hostlint.fixes.apply import ApplyError, apply_change
from hostlint.fixes.members import PAIRS, edge_port, new_stp_ports
from hostlint.fixes.plan import Plan
from hostlint.fixes.render import render
from hostlint.fixes.scripts import device_scripts, script_name
from hostlint.fixes.steps import Step
from hostlint.join import build_facts
from hostlint.rules.model import Rule
from hostlint.snapshot import Snapshot
from hostlint.snapshot.switch import PortChannel, Switch, SwitchPort

# PowerShell variables every script has without defining them: automatic ones and the step parameter.
_PS_AUTOMATIC = frozenset({"_", "true", "false", "null", "env", "step", "erroractionpreference", "psitem"})
_PS_VARIABLE = re.compile(r"\$(?:\{([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*)(?::[A-Za-z_][A-Za-z0-9_]*)?)")
_PS_ASSIGNED = re.compile(r"(?:^|[;{(])\s*\$([A-Za-z_][A-Za-z0-9_]*)\s*=[^=]", re.MULTILINE)
_PS_NAME_LOOKUP = re.compile(r"\bGet-[A-Za-z]+\b[^|\n]*\s-Name\s")


@dataclass(frozen=True)
class Violation:
    invariant: int
    step: int | None
    message: str

    def __str__(self) -> str:
        where = f"step {self.step}: " if self.step is not None else ""
        return f"invariant {self.invariant}: {where}{self.message}"


def _dump(snapshot: Snapshot) -> str:
    return json.dumps(snapshot.model_dump(mode="json"), sort_keys=True)


def honest_applicability(plan: Plan) -> list[Violation]:
    return [
        Violation(1, step.number, f"{step.action.action} is DISRUPTIVE but fixes {s.code} {s.object} as safe")
        for step in plan.steps
        if step.action.disruptive == "yes"
        for s in step.sources
        if s.applicability == "safe"
    ]


def _cabling(snapshot: Snapshot) -> dict[tuple[str, str], tuple[str, str]]:
    """Each host NIC's switch and port, by (host key, NIC), as the join finds them in `snapshot`."""
    return {
        (names.device_key(u.host), u.nic): (u.switch, u.port)
        for u in build_facts(snapshot).uplinks
        if u.switch is not None and u.port is not None
    }


def _channel_of(snapshot: Snapshot, switch: str, port: str) -> str | None:
    """The port-channel `port` of `switch` is a member of in `snapshot`."""
    key = names.device_key(switch)
    for found in snapshot.switches:
        if key in {names.device_key(a) for a in [found.name, *found.aliases]}:
            wanted = names.interface_key(port)
            return next((p.port_channel for p in found.ports if names.interface_key(p.name) == wanted), None)
    return None


def _team_uplinks(snapshot: Snapshot) -> dict[tuple[str, str], list[str]]:
    return {(h.name, v.name): list(v.uplinks) for h in snapshot.esxi_hosts for v in h.vswitches}


def teams_whole(states: list[tuple[Step, Snapshot, Snapshot]], final: Snapshot) -> list[Violation]:
    """Invariant 3 over the simulated states (each step with the state before and after it)."""
    found = []
    for step, before, after in states:
        was, now = _team_uplinks(before), _team_uplinks(after)
        if was == now:
            continue
        cabling = _cabling(before)
        for key, uplinks in was.items():
            gone = [nic for nic in uplinks if nic not in now.get(key, uplinks)]
            for nic in gone:
                cabled = cabling.get((names.device_key(key[0]), nic))
                channel = _channel_of(final, *cabled) if cabled else None
                if channel is not None:
                    message = f"removes {nic} from {key[1]} while its switch port stays in {channel}"
                    found.append(Violation(3, step.number, message))
            left = now.get(key, uplinks)
            said = any("failover" in note for note in step.change.notes)
            if gone and len(uplinks) >= 2 and len(left) < 2 and not said:
                found.append(Violation(3, step.number, f"leaves {key[1]} with one uplink without saying so"))
    return found


def _host_limit(step: Step) -> int | None:
    if step.action.device == "switch":
        switch = registry.find_switch(step.change.platforms[0]) if step.change.platforms else None
        return switch.jumbo if switch else None
    for kind in registry.HOST_KINDS:
        if set(step.change.platforms) & set(registry.targets_changing(*kind.changed_as)):
            return kind.max_mtu
    return None


def platform_limits(plan: Plan) -> list[Violation]:
    found = []
    for step in plan.steps:
        if step.action.sets != "mtu" or not isinstance(step.change.after, int):
            continue
        limit = _host_limit(step)
        if limit is not None and step.change.after > limit:
            found.append(
                Violation(6, step.number, f"{step.change.target}: MTU {step.change.after} is above the limit {limit}")
            )
    return found


def kvm_guest_paths(plan: Plan, snapshot: Snapshot) -> list[Violation]:
    """Invariant 6 on KVM: the guest is lowered only where its path cannot be raised, and a raised
    path stays within the switch's figure and each interface's driver maximum."""
    guests = {nic.object: nic for nic in build_facts(snapshot).guest_nics}
    limits = {(names.device_key(h.name), i.name): i.max_mtu for h in snapshot.kvm_hosts for i in h.interfaces}
    found = []
    for step in plan.steps:
        change = step.change
        if change.action == "guest-nic-mtu" and isinstance(change.before, int) and change.after < change.before:
            nic = guests.get(f"{change.device}/{change.target}")
            carried = None if nic is None or "switch_path_mtu" in nic.missing else nic.switch_path_mtu
            accepted = nic is not None and (nic.path_max_mtu is None or nic.path_max_mtu >= change.before)
            if carried is not None and carried >= change.before and accepted:
                message = (
                    f"lowers {change.target} to {change.after} where its switch path carries {carried}: "
                    "raise the host path instead"
                )
                found.append(Violation(6, step.number, message))
        if change.action != "host-path-mtu":
            continue
        for source in step.sources:
            nic = guests.get(source.object)
            if nic is None or nic.switch_path_mtu is None or change.after > nic.switch_path_mtu:
                message = f"raises {change.target} to {change.after} beyond what its switch path carries"
                found.append(Violation(6, step.number, f"{message} ({nic.switch_path_mtu if nic else None})"))
        for hop in change.values["hops"]:
            limit = limits.get((names.device_key(change.device), hop["name"]))
            if limit is not None and change.after > limit:
                message = f"raises {hop['name']} to {change.after}, beyond its driver's maximum {limit}"
                found.append(Violation(6, step.number, message))
    return found


def _powershell_problems(text: str) -> list[str]:
    problems = []
    assigned = {name.lower() for name in _PS_ASSIGNED.findall(text)}
    for line in text.splitlines():
        code = line.split("#", 1)[0] if line.lstrip().startswith("#") else line
        if _PS_NAME_LOOKUP.search(code):
            problems.append(f"looks up a name as a wildcard pattern: {code.strip()}")
        for braced, plain in _PS_VARIABLE.findall(code):
            name = (braced or plain).lower()
            if name and name not in assigned and name not in _PS_AUTOMATIC:
                problems.append(f"uses ${name}, never defined: {code.strip()}")
    return problems


def _vmk_netstacks(snapshot: Snapshot) -> dict[tuple[str, str], str]:
    return {(names.device_key(h.name), v.name): v.netstack for h in snapshot.esxi_hosts for v in h.vmks}


def one_object(plan: Plan, snapshot: Snapshot) -> list[Violation]:
    """Invariant 7: PowerCLI lookups exact and self-contained; vmk verify steps carry the netstack."""
    found = []
    for name, text in device_scripts(plan.steps, len(plan.steps)).items():
        if name.endswith(".ps1"):
            found += [Violation(7, None, f"{name}: {problem}") for problem in dict.fromkeys(_powershell_problems(text))]
    stacks = _vmk_netstacks(snapshot)
    for step in plan.steps:
        vmk = step.change.values.get("vmk")
        stack = stacks.get((names.device_key(step.device), str(vmk))) if vmk else None
        if stack is None or stack == "defaultTcpipStack":
            continue
        for platform in step.change.platforms:
            verify = render(step, platform, "verify")
            if ("vmkping" in verify or "diag.ping" in verify) and stack not in verify:
                message = f"{platform} verify of {vmk} pings without its netstack {stack}"
                found.append(Violation(7, step.number, message))
    return found


def files_owned(plan: Plan) -> list[Violation]:
    """Invariant 8: every (device, platform, direction) its own file."""
    wanted = {(s.device, p) for s in plan.steps for p in s.change.platforms}
    files = device_scripts(plan.steps, len(plan.steps))
    found = []
    if len(files) != 2 * len(wanted):
        found.append(Violation(8, None, f"{2 * len(wanted)} scripts wanted, {len(files)} distinct file names"))
    seen: dict[str, tuple[str, str]] = {}
    for device, platform in sorted(wanted):
        for rollback in (False, True):
            name = script_name(device, platform, rollback)
            if name in seen and seen[name] != (device, platform):
                found.append(Violation(8, None, f"{name}: written for {seen[name][0]} and {device}"))
            seen.setdefault(name, (device, platform))
    return found


def _stp_ports(note: str) -> set[str]:
    """The ports a spanning-tree note names (its text before the first colon)."""
    return {name.strip() for name in note.split(":", 1)[0].split(",")}


def traffic_described(states: list[tuple[Step, Snapshot, Snapshot]], plan: Plan) -> list[Violation]:
    """Invariant 5: a spanning-tree warning on every step that, simulated, makes a new spanning-tree port
    on a trunk (hostlint.fixes.members.new_stp_ports) whose collected lines show no edge settings, one
    saying it cannot tell where the lines do not show them either way, none for an edge port, and none
    on any other step."""
    simulated = {id(step): (before, after) for step, before, after in states}
    found = []
    for step in plan.steps:
        said = [n for n in step.change.notes if "spanning tree" in n]
        definite = set().union(*(_stp_ports(n) for n in said if "cannot tell" not in n))
        unsure = set().union(*(_stp_ports(n) for n in said if "cannot tell" in n))
        expected: dict[str, bool | str] = {}
        if id(step) in simulated and step.action.device == "switch":
            before, after = (_switch_named(state, step.device) for state in simulated[id(step)])
            if before is not None and after is not None:
                moved = [p["port"] if isinstance(p, dict) else p for p in _moved(step)]
                peer = before.multichassis.peer if before.multichassis and before.multichassis.kind in PAIRS else None
                pair = _switch_named(simulated[id(step)][0], peer) if peer else None
                for name in new_stp_ports(before, after, moved, pair):
                    lines = _interface_lines(before, name)
                    expected[name] = edge_port(before.platform, lines)
        for name, edge in expected.items():
            if edge is True and name in definite | unsure:
                found.append(Violation(5, step.number, f"warns about {name}, an edge port by its configuration"))
            elif edge is False and name not in definite:
                found.append(Violation(5, step.number, f"{name}: new STP port without edge settings, no warning"))
            elif isinstance(edge, str) and name not in unsure:
                found.append(Violation(5, step.number, f"{name}: edge settings unknown ({edge}), not said"))
        for name in (definite | unsure) - set(expected):
            found.append(Violation(5, step.number, f"warns about {name}, which is no new spanning-tree port"))
    return found


def _switch_named(snapshot: Snapshot, name: str) -> Switch | None:
    key = names.device_key(name)
    return next((s for s in snapshot.switches if key in {names.device_key(a) for a in [s.name, *s.aliases]}), None)


def _moved(step: Step) -> list[Any]:
    members = step.change.values.get("members", [])
    ports = step.change.values.get("ports", [])
    return [*members, *ports]


def _interface_lines(switch: Switch, name: str) -> list[str] | None:
    """The interface's collected lines; [] for one the plan creates (hostlint writes no spanning-tree line)."""
    key = names.interface_key(name)
    items: list[SwitchPort | PortChannel] = [*switch.port_channels, *switch.ports]
    found = next((i for i in items if names.interface_key(i.name) == key), None)
    return found.config_lines if found is not None else []


def _lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}


def _removed_channel(step: Step, before: Snapshot) -> list[Violation]:
    switch = next((s for s in before.switches if s.name == step.device), None)
    if switch is None:
        return []
    platform = step.change.platforms[0]
    rollback = _lines(render(step, platform, "rollback"))
    values = step.change.values
    found = []
    wanted: list[tuple[str, list[str] | None]] = []
    if values.get("remove_interface"):
        key = names.interface_key(values["interface"])
        channel = next((c for c in switch.port_channels if names.interface_key(c.name) == key), None)
        if channel is not None:
            wanted.append((channel.name, channel.config_lines))
    members = {names.interface_key(m) for m in values.get("members", [])}
    wanted += [(p.name, p.config_lines) for p in switch.ports if names.interface_key(p.name) in members]
    for name, lines in wanted:
        if lines is None:
            if not any(name in note and "not collected" in note for note in step.change.notes):
                found.append(Violation(4, step.number, f"{name}: lines not collected and the step does not say so"))
            continue
        missing = [line for line in lines if line not in rollback]
        if missing:
            found.append(Violation(4, step.number, f"the rollback does not restore {name}'s {missing}"))
    return found


def _id_change(step: Step) -> list[Violation]:
    old = step.change.values.get("old_multichassis_id")
    if old is None:
        return []
    platform = step.change.platforms[0]
    word = switches.config(platform).multichassis_id if switches.find_switch(platform) else None
    if word is None:
        return []  # the platform has no id line hostlint writes (its folder's `config.py`)
    change, rollback = _lines(render(step, platform, "change")), _lines(render(step, platform, "rollback"))
    found = []
    if f"no {word} {old}" not in change:
        found.append(Violation(4, step.number, f"changes the {word} id without removing {word} {old} first"))
    if f"{word} {old}" not in rollback:
        found.append(Violation(4, step.number, f"the rollback does not restore {word} {old}"))
    return found


def _invented_link(step: Step, before: Snapshot) -> list[Violation]:
    """Where the speed/duplex change deletes forcing statements (a platform's `config.py`
    `CONFIG.forced_link`), its rollback sets back only those the port had, and never one hostlint does not
    model without the port's lines."""
    switch = next((s for s in before.switches if s.name == step.device), None)
    if switch is None:
        return []
    found = []
    for platform in step.change.platforms:
        forced = switches.config(platform).forced_link if switches.find_switch(platform) else None
        if forced is None:
            continue
        collected = {names.interface_key(p.name): p.config_lines for p in switch.ports}
        for line in _lines(render(step, platform, "rollback")):
            matched = re.match(forced.line, line)
            own = collected.get(names.interface_key(matched.group(1))) if matched else None
            if matched and own is not None and line not in own:
                found.append(Violation(4, step.number, f"the rollback sets {line!r}, which was not configured"))
            elif matched and own is None and any(statement in line for statement in forced.unmodelled):
                found.append(Violation(4, step.number, f"the rollback sets {line!r} without the port's lines"))
    return found


def _mode_change(step: Step) -> list[Violation]:
    """A channel mode change's rollback types each member's own collected channel-group line (its LACP
    role) and, on Junos, the ae's collected LACP lines the change deleted."""
    values = step.change.values
    wanted = [r["line"] for r in values.get("restore", []) if r.get("line")] + (values.get("lacp_lines") or [])
    rollback = _lines(render(step, step.change.platforms[0], "rollback"))
    return [
        Violation(4, step.number, f"the rollback does not restore {line!r}") for line in wanted if line not in rollback
    ]


def rollback_restores(states: list[tuple[Step, Snapshot, Snapshot]]) -> list[Violation]:
    """Invariant 4, where the snapshot holds what the device had (each step read on the state before it)."""
    found = []
    for step, before, _ in states:
        if step.action.action == "switch-remove-port-channel":
            found += _removed_channel(step, before)
        if step.action.action == "switch-channel-mode-static":
            found += _mode_change(step)
        found += _id_change(step)
        found += _invented_link(step, before)
    return found


def real_conflicts(plan: Plan) -> list[Violation]:
    return [
        Violation(9, None, f"conflict between additive {conflict.sets} steps on {conflict.device} {conflict.target}")
        for conflict in plan.conflicts
        if all(step.action.additive for step in conflict.steps)
    ]


def _named(plan: Plan) -> set[tuple[str, str]]:
    """The (code, object) of every finding the plan says it leaves (and why)."""
    sources = [item.source for item in [*plan.manual, *plan.unchanged, *plan.left]]
    sources += [item.source for item in plan.withheld]
    return {(source.code, source.object) for source in sources}


def simulate_plan(
    snapshot: Snapshot, plan: Plan
) -> tuple[list[Violation], list[tuple[Step, Snapshot, Snapshot]], Snapshot]:
    """Invariant 2's first half (every step changes something) and the states the rest reads."""
    found = []
    state = snapshot.model_copy(deep=True)
    states = []
    for step in plan.steps:
        before = state.model_copy(deep=True)
        try:
            apply_change(state, step.change)
        except ApplyError as exc:
            found.append(Violation(2, step.number, f"cannot be simulated: {exc}"))
            continue
        if _dump(before) == _dump(state):
            found.append(Violation(2, step.number, f"{step.action.action} on {step.device} changes nothing"))
        elif step.change.changes_nothing():
            # The simulated state may still differ (a port group pins the values it inherited): the
            # step sets exactly what is there, which is no fix.
            message = f"{step.action.action} on {step.device} sets exactly the current values of {step.change.target}"
            found.append(Violation(2, step.number, message))
        states.append((step, before, state.model_copy(deep=True)))
    return found, states, state


def claims_cleared(plan: Plan, final: Snapshot, rules: list[Rule]) -> list[Violation]:
    """Invariant 2's second half: what the plan claims to fix is gone once it has run, or named."""
    remaining = {(f.code, f.object) for f in check_snapshot(final, rules).findings}
    named = _named(plan)
    found = []
    for step in plan.steps:
        for source in step.sources:
            key = (source.code, source.object)
            if key in remaining and key not in named:
                found.append(Violation(2, step.number, f"{source.code} {source.object} is still found after the plan"))
                named.add(key)
    return found


def check_plan(snapshot: Snapshot, plan: Plan, rules: Iterable[Rule]) -> list[Violation]:
    """Every invariant of the module docstring, for `plan` written for `snapshot`."""
    found = honest_applicability(plan)
    simulated, states, final = simulate_plan(snapshot, plan)
    found += simulated
    found += claims_cleared(plan, final, list(rules))
    found += teams_whole(states, final)
    found += rollback_restores(states)
    found += platform_limits(plan)
    found += kvm_guest_paths(plan, snapshot)
    found += one_object(plan, snapshot)
    found += files_owned(plan)
    found += real_conflicts(plan)
    found += traffic_described(states, plan)
    return found

"""Simulated apply: a plan's steps applied one by one to a copy of the snapshot, rules re-run on each state.

A plan is accepted only if no intermediate state has an outage finding (a rule with
`outage: true`: MAC flapping, frames dropped) that the starting state did not have.
Enabling IP hash before the port-channel exists is such a state; so is raising a
vmk's MTU before its vSwitch's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hostlint.check import check_snapshot
from hostlint.fixes.apply import apply_change, apply_under_way
from hostlint.fixes.steps import Change
from hostlint.results import Finding
from hostlint.rules.model import Rule
from hostlint.snapshot import Snapshot


@dataclass
class StateCheck:
    """The state after one step: the outage findings it has that the start did not."""

    step: int
    change: Change
    new_outages: list[Finding]
    during: bool = False


@dataclass
class Simulation:
    states: list[StateCheck] = field(default_factory=list)
    final: Snapshot | None = None

    @property
    def accepted(self) -> bool:
        return not any(state.new_outages for state in self.states)

    @property
    def first_failure(self) -> StateCheck | None:
        return next((state for state in self.states if state.new_outages), None)


def outage_rules(rules: list[Rule]) -> list[Rule]:
    return [rule for rule in rules if rule.outage]


def _outages(snapshot: Snapshot, rules: list[Rule]) -> dict[tuple[str, str], Finding]:
    result = check_snapshot(snapshot, rules)
    return {(f.code, f.object): f for f in result.findings}


def simulate(snapshot: Snapshot, changes: list[Change], rules: list[Rule]) -> Simulation:
    """Apply `changes` in order to a copy of `snapshot`, checking the outage rules after each."""
    watched = outage_rules(rules)
    state = snapshot.model_copy(deep=True)
    start = _outages(state, watched)
    simulation = Simulation()
    for number, change in enumerate(changes, 1):
        running = state.model_copy(deep=True)
        if apply_under_way(running, change):
            now = _outages(running, watched)
            new = [finding for key, finding in now.items() if key not in start]
            simulation.states.append(StateCheck(step=number, change=change, new_outages=new, during=True))
        apply_change(state, change)
        now = _outages(state, watched)
        new = [finding for key, finding in now.items() if key not in start]
        simulation.states.append(StateCheck(step=number, change=change, new_outages=new))
    simulation.final = state
    return simulation

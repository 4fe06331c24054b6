"""A fix plan's steps as data, kept in the fix folder's manifest (`.hostlint-fix.json`), and read back.

PLAN.md is for people; `hostlint probe --plan DIR --step N` reads the same steps from the manifest to
run a step's verify itself. The MTU verify a probe can run is a vmk-mtu step's: raising a VMkernel
port above 1500 is verified with `vmkping -S NETSTACK -d -s MTU-28 -I VMK PEER` (esxcli `network diag
ping` through vCenter), the peer another host's vmk in its subnet when the snapshot had one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from hostlint.fixes.manifest import MANIFEST
from hostlint.fixes.steps import Step
from hostlint.inputfile import InputError, load_json

# The actions whose verify sends a don't-fragment ping (their action.yaml), and the MTU it proves.
PROBED_ACTIONS = ("vmk-mtu",)
STANDARD_MTU = 1500


class PlanStepError(Exception):
    """The step cannot be run as a probe: the message names the folder or the step and why."""


class PlanStep(BaseModel):
    """One step as the manifest holds it: what `Step` says, in JSON."""

    number: int
    device: str
    action: str
    stage: str
    target: str
    values: dict[str, Any]
    after: Any
    before: Any = None
    codes: list[str]

    def describe(self) -> str:
        return f"step {self.number} ({self.action} on {self.device} {self.target}: {self.before} -> {self.after})"


@dataclass(frozen=True)
class MtuProbe:
    """What a vmk-mtu step's verify sends: from `host`'s `vmk` on `netstack` to `peer`, at `mtu` less 28."""

    step: int
    host: str
    vmk: str
    netstack: str
    subnet: str
    peer: str
    mtu: int


def steps_data(steps: list[Step]) -> list[dict[str, Any]]:
    """The plan's steps for the manifest; values that are not JSON (a set, a model) as their text."""
    return [
        json.loads(
            json.dumps(
                {
                    "number": step.number,
                    "device": step.device,
                    "action": step.action.action,
                    "stage": step.stage,
                    "target": step.change.target,
                    "values": step.change.values,
                    "after": step.change.after,
                    "before": step.change.before,
                    "codes": step.codes,
                },
                default=str,
            )
        )
        for step in steps
    ]


def load_step(directory: Path, number: int) -> PlanStep:
    """Step `number` of the plan written into `directory` (by `check --fix-script` or `plan`)."""
    path = directory / MANIFEST
    if not path.is_file():
        raise PlanStepError(f"{directory}: not a hostlint fix folder (no {MANIFEST}; --fix-script DIR writes one)")
    try:
        data = load_json(path)
    except InputError as exc:
        raise PlanStepError(str(exc)) from exc
    if not isinstance(data, dict) or data.get("generator") != "hostlint":
        raise PlanStepError(f"{path}: not a hostlint fix manifest")
    if "steps" not in data:
        raise PlanStepError(
            f"{path}: holds no steps (written by hostlint {data.get('version', 'before 0.2')}): write the plan again"
        )
    try:
        steps = [PlanStep.model_validate(item) for item in data["steps"]]
    except (ValidationError, TypeError) as exc:
        raise PlanStepError(f"{path}: steps unreadable: {str(exc).splitlines()[0]}") from exc
    found = next((step for step in steps if step.number == number), None)
    if found is None:
        have = f"steps 1-{len(steps)}" if steps else "no steps"
        raise PlanStepError(f"{directory}: its plan has {have}, no step {number}")
    return found


def mtu_probe(step: PlanStep) -> MtuProbe:
    """The probe step `step`'s verify sends; PlanStepError naming the step when it is not such a step."""
    if step.action not in PROBED_ACTIONS:
        raise PlanStepError(
            f"{step.describe()} is not an MTU verify step with a probe (those are {', '.join(PROBED_ACTIONS)} "
            "steps raising a VMkernel port above 1500): run its verify from PLAN.md"
        )
    if not isinstance(step.after, int) or step.after <= STANDARD_MTU:
        raise PlanStepError(f"{step.describe()} sets no jumbo MTU: its verify sends no probe")
    peer = step.values.get("peer")
    if not peer:
        raise PlanStepError(
            f"{step.describe()}: the snapshot had no other host's vmk in {step.values.get('subnet')} to probe; "
            "run its vmkping from PLAN.md with a peer's address"
        )
    return MtuProbe(
        step=step.number,
        host=step.device,
        vmk=str(step.values.get("vmk") or step.target),
        netstack=str(step.values.get("netstack") or "defaultTcpipStack"),
        subnet=str(step.values.get("subnet") or ""),
        peer=str(peer),
        mtu=step.after,
    )

"""A rule's own test cases: one YAML file per rule code, each case a fact and what the rule must say.

    cases:
      - name: ip hash over two unchannelled ports
        expect: fail            # fail, pass, skip, or n/a (the rule's `when` is false)
        message: not all in one port-channel   # optional: substrings of the finding
        actual: vmnic3 -> nx1                   # optional
        fix: [host-teaming, ...]                # optional: the fix's action names, in order
        alternatives: [[host-teaming], []]      # optional: each alternative fix's actions that apply
        fact: {policy: loadbalance_ip, active: [vmnic2, vmnic3], uplinks: [...]}

Defaults fill `object`, `host` and the other required fields of the fact, so a case writes only
what its rule reads. `hostlint rule test DIR` and the test suite run the same cases this way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, Field, ValidationError

from hostlint.join.facts import (
    BondFact,
    BoundVmk,
    Fact,
    Facts,
    GuestNicFact,
    IscsiFact,
    PcieFact,
    PortgroupFact,
    ProbeFact,
    TeamFact,
    UplinkFact,
    VmFact,
    VmkFact,
    VmNicFact,
)
from hostlint.rules.engine import run_rules
from hostlint.rules.model import Rule
from hostlint.strict import Strict
from hostlint.yamlfile import load_model

ModelT = TypeVar("ModelT", bound=BaseModel)

OTHER_KINDS: dict[str, tuple[type[Fact], dict[str, Any]]] = {
    "iscsi": (IscsiFact, {"object": "esx01/vmhba64", "adapter": "vmhba64", "kind": "software"}),
    "pcie": (PcieFact, {"object": "esx01/pci-0000:3b:00", "address": "0000:3b:00"}),
    "vm_nics": (VmNicFact, {"object": "esx01/vm:app01/Network adapter 1", "vm": "app01", "label": "Network adapter 1"}),
    "vms": (VmFact, {"object": "esx01/vm:app01", "vm": "app01", "vcpus": 2, "cpu_hot_add": False}),
    "guest_nics": (GuestNicFact, {"object": "kvm01/web01/52:54:00:00:00:01", "domain": "web01", "model": "virtio",
                                  "source_type": "bridge", "source": "br0"}),
    "probes": (ProbeFact, {"object": "esx01/vmk1 -> esx02/vmk1 at 9000", "source_vmk": "vmk1", "target_host": "esx02",
                           "target_vmk": "vmk1", "target_ip": "10.20.0.2", "netstack": "defaultTcpipStack",
                           "size": 8972, "mtu": 9000, "purpose": "jumbo"}),
}  # fmt: skip
TEAM_KINDS: dict[str, tuple[type[TeamFact], dict[str, Any]]] = {
    "teams": (TeamFact, {"object": "esx01/vSwitch1", "host": "esx01", "host_kind": "esxi", "kind": "vss",
                         "vswitch": "vSwitch1", "policy": "loadbalance_srcid"}),
    "bonds": (BondFact, {"object": "kvm01/bond0", "host": "kvm01", "host_kind": "kvm", "kind": "bond",
                         "vswitch": "bond0", "policy": "802.3ad"}),
}  # fmt: skip


class CaseError(Exception):
    """A cases file that cannot be used; the message names the file and the case."""


class Case(Strict):
    name: str
    expect: str = Field(pattern=r"^(fail|pass|skip|n/a)$")
    fact: dict[str, Any] = Field(default_factory=dict)
    message: str | None = None
    actual: str | None = None
    fix: list[str] | None = None
    # A rule with alternative fixes: each candidate's action names (empty: no step applies), in order.
    alternatives: list[list[str]] | None = None
    # A skip case may pin the reason it is skipped for (e.g. the unknown field it names).
    reason: str | None = None


class CaseFile(Strict):
    cases: list[Case] = Field(min_length=1)


@dataclass
class CaseOutcome:
    case: Case
    outcome: str
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def load_cases(path: Path) -> list[Case]:
    return load_model(path, CaseFile, "rule cases", CaseError).cases


class UnknownFactKey(ValueError):
    """A case's fact names a field its fact model does not have (a misspelt key would test nothing)."""


def _validate(model: type[ModelT], data: dict[str, Any]) -> ModelT:
    unknown = set(data) - set(model.model_fields)
    if unknown:
        raise UnknownFactKey(f"fact: {model.__name__} has no field {', '.join(sorted(unknown))}")
    return model.model_validate(data)


def _uplink(data: dict[str, Any], n: int) -> UplinkFact:
    nic = data.get("nic", f"vmnic{n}")
    defaults = {"object": f"esx01/{nic}", "host": "esx01", "host_kind": "esxi", "nic": nic}
    return _validate(UplinkFact, defaults | data)


def build_fact(kind: str, data: dict[str, Any]) -> Fact:
    """The fact of `kind` a case describes, with defaults for what it leaves out."""
    if kind in TEAM_KINDS:
        uplinks = [_uplink(u, n) for n, u in enumerate(data.get("uplinks", []))]
        model, defaults = TEAM_KINDS[kind]
        team = _validate(model, defaults | data | {"uplinks": uplinks})
        for uplink in uplinks:
            for need, reason in uplink.missing.items():
                team.missing.setdefault(need, reason)
        return team
    if kind == "portgroups":
        uplinks = [_uplink(u, n) for n, u in enumerate(data.get("uplinks", []))]
        defaults = {"object": "esx01/vSwitch1/VM-100", "host": "esx01", "portgroup": "VM-100",
                    "vswitch": "vSwitch1", "switch_kind": "standard", "vlan_type": "vlan", "vlan": 100}  # fmt: skip
        portgroup = _validate(PortgroupFact, defaults | data | {"uplinks": uplinks})
        for uplink in uplinks:
            for need, reason in uplink.missing.items():
                portgroup.missing.setdefault(need, reason)
        return portgroup
    if kind == "uplinks":
        return _uplink(data, 0)
    if kind in OTHER_KINDS:
        other_model, other_defaults = OTHER_KINDS[kind]
        if kind == "iscsi":
            data = data | {"bound": [_validate(BoundVmk, bound) for bound in data.get("bound", [])]}
        return _validate(other_model, {"host": "esx01"} | other_defaults | data)
    defaults = {"object": "esx01/vmk1", "host": "esx01", "name": "vmk1", "portgroup": "vMotion", "mtu": 1500}
    return _validate(VmkFact, defaults | data)


def run_case(rule: Rule, case: Case) -> CaseOutcome:
    """What `rule` says about the case's fact, and every way that differs from what the case expects."""
    try:
        fact = build_fact(rule.iterate, case.fact)
    except ValidationError as exc:
        problems = [f"fact: {e['loc'] and '.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
        return CaseOutcome(case, "invalid", problems)
    except UnknownFactKey as exc:
        return CaseOutcome(case, "invalid", [str(exc)])
    result = run_rules([rule], Facts.model_validate({rule.iterate: [fact]}))
    problems = [s.reason for s in result.skipped if s.reason.startswith("rule error")]
    outcome = "fail" if result.findings else "skip" if result.skipped else "pass" if result.passed else "n/a"
    if outcome != case.expect:
        problems.append(f"expected {case.expect}, got {outcome}")
    elif result.findings:
        finding = result.findings[0]
        if case.message is not None and case.message not in finding.message:
            problems.append(f"message {finding.message!r} does not contain {case.message!r}")
        if case.actual is not None and case.actual not in str(finding.actual):
            problems.append(f"actual {finding.actual!r} does not contain {case.actual!r}")
        if case.fix is not None and [step.action for step in finding.fix] != case.fix:
            problems.append(f"fix {[step.action for step in finding.fix]} is not {case.fix}")
        candidates = [[step.action for step in c.fix] for c in finding.alternatives]
        if case.alternatives is not None and candidates != case.alternatives:
            problems.append(f"alternatives {candidates} are not {case.alternatives}")
    elif result.skipped and case.reason is not None and case.reason not in result.skipped[0].reason:
        problems.append(f"skip reason {result.skipped[0].reason!r} does not contain {case.reason!r}")
    return CaseOutcome(case, outcome, problems)

"""Every rule's pass / fail / skip cases (tests/rule_cases/CODE.yaml), run by one generic runner."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hostlint.join.facts import (
    BondFact,
    Facts,
    GuestNicFact,
    IscsiFact,
    PcieFact,
    TeamFact,
    UplinkFact,
    VmFact,
    VmkFact,
    VmNicFact,
)
from hostlint.rules import load_rules, run_rules

CASES = Path(__file__).parent / "rule_cases"
OTHER_KINDS = {
    "iscsi": (IscsiFact, {"object": "esx01/vmhba64", "adapter": "vmhba64", "kind": "software"}),
    "pcie": (PcieFact, {"object": "esx01/pci-0000:3b:00", "address": "0000:3b:00"}),
    "vm_nics": (VmNicFact, {"object": "esx01/vm:app01/Network adapter 1", "vm": "app01", "label": "Network adapter 1"}),
    "vms": (VmFact, {"object": "esx01/vm:app01", "vm": "app01", "vcpus": 2, "cpu_hot_add": False}),
    "guest_nics": (GuestNicFact, {"object": "kvm01/web01/52:54:00:00:00:01", "domain": "web01", "model": "virtio",
                                  "source_type": "bridge", "source": "br0"}),
}
TEAM_KINDS = {
    "teams": (TeamFact, {"object": "esx01/vSwitch1", "host": "esx01", "host_kind": "esxi", "kind": "vss",
                         "vswitch": "vSwitch1", "policy": "loadbalance_srcid"}),
    "bonds": (BondFact, {"object": "kvm01/bond0", "host": "kvm01", "host_kind": "kvm", "kind": "bond",
                         "vswitch": "bond0", "policy": "802.3ad"}),
}
RULES = {rule.code: rule for rule in load_rules()}


def _uplink(data: dict, n: int) -> UplinkFact:
    nic = data.get("nic", f"vmnic{n}")
    defaults = {"object": f"esx01/{nic}", "host": "esx01", "host_kind": "esxi", "nic": nic}
    return UplinkFact.model_validate(defaults | data)


def _fact(kind: str, data: dict):
    if kind in TEAM_KINDS:
        uplinks = [_uplink(u, n) for n, u in enumerate(data.get("uplinks", []))]
        model, defaults = TEAM_KINDS[kind]
        team = model.model_validate(defaults | data | {"uplinks": uplinks})
        for uplink in uplinks:
            for need, reason in uplink.missing.items():
                team.missing.setdefault(need, reason)
        return team
    if kind == "uplinks":
        return _uplink(data, 0)
    if kind in OTHER_KINDS:
        model, defaults = OTHER_KINDS[kind]
        return model.model_validate({"host": "esx01"} | defaults | data)
    defaults = {"object": "esx01/vmk1", "host": "esx01", "name": "vmk1", "portgroup": "vMotion"}
    return VmkFact.model_validate(defaults | data)


def _cases():
    for path in sorted(CASES.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text())["cases"]:
            yield pytest.param(path.stem, case, id=f"{path.stem}-{case['name']}")


@pytest.mark.parametrize(("code", "case"), list(_cases()))
def test_rule_case(code: str, case: dict) -> None:
    rule = RULES[code]
    fact = _fact(rule.iterate, case["fact"])
    facts = Facts(**{rule.iterate: [fact]})
    result = run_rules([rule], facts)
    errors = [s.reason for s in result.skipped if s.reason.startswith("rule error")]
    assert not errors, errors
    outcome = "fail" if result.findings else "skip" if result.skipped else "pass" if result.passed else "n/a"
    assert outcome == case["expect"], (result.findings, result.skipped)
    if "message" in case:
        assert case["message"] in result.findings[0].message
    if "actual" in case:
        assert case["actual"] in str(result.findings[0].actual)
    if "fix" in case:
        assert [step.action for step in result.findings[0].fix] == case["fix"]
    if "reason" in case:
        assert case["reason"] in result.skipped[0].reason


def test_every_rule_has_docs_and_cases() -> None:
    for code, rule in RULES.items():
        assert rule.why.strip() and rule.examples.bad.strip() and rule.examples.good.strip(), code
        assert rule.references, code
        path = CASES / f"{code}.yaml"
        assert path.exists(), f"{code} has no cases file {path}"
        expects = {case["expect"] for case in yaml.safe_load(path.read_text())["cases"]}
        assert {"pass", "fail"} <= expects, f"{code} needs at least one passing and one failing case"
        if rule.needs or rule.needs_for_pass:
            needed = rule.needs + rule.needs_for_pass
            assert "skip" in expects, f"{code} needs a case where its {needed} facts are missing"


def test_no_case_file_without_rule() -> None:
    assert {p.stem for p in CASES.glob("*.yaml")} <= set(RULES)

"""Every rule's pass / fail / skip cases (tests/rule_cases/CODE.yaml), run by one generic runner."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hostlint.join.facts import (
    BondFact,
    BoundVmk,
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
from hostlint.rules import Rule, load_rules, run_rules

CASES = Path(__file__).parent / "rule_cases"
OTHER_KINDS = {
    "iscsi": (IscsiFact, {"object": "esx01/vmhba64", "adapter": "vmhba64", "kind": "software"}),
    "pcie": (PcieFact, {"object": "esx01/pci-0000:3b:00", "address": "0000:3b:00"}),
    "vm_nics": (VmNicFact, {"object": "esx01/vm:app01/Network adapter 1", "vm": "app01", "label": "Network adapter 1"}),
    "vms": (VmFact, {"object": "esx01/vm:app01", "vm": "app01", "vcpus": 2, "cpu_hot_add": False}),
    "guest_nics": (
        GuestNicFact,
        {
            "object": "kvm01/web01/52:54:00:00:00:01",
            "domain": "web01",
            "model": "virtio",
            "source_type": "bridge",
            "source": "br0",
        },
    ),
}
TEAM_KINDS = {
    "teams": (
        TeamFact,
        {
            "object": "esx01/vSwitch1",
            "host": "esx01",
            "host_kind": "esxi",
            "kind": "vss",
            "vswitch": "vSwitch1",
            "policy": "loadbalance_srcid",
        },
    ),
    "bonds": (
        BondFact,
        {
            "object": "kvm01/bond0",
            "host": "kvm01",
            "host_kind": "kvm",
            "kind": "bond",
            "vswitch": "bond0",
            "policy": "802.3ad",
        },
    ),
}
RULES = {rule.code: rule for rule in load_rules()}


def _strict(model, data: dict):
    """Validate a case's fact, refusing keys the fact model does not have (a typo would pass silently)."""
    unknown = set(data) - set(model.model_fields)
    if unknown:
        raise ValueError(f"{model.__name__} has no field {sorted(unknown)}")
    return model.model_validate(data)


def _uplink(data: dict, n: int) -> UplinkFact:
    nic = data.get("nic", f"vmnic{n}")
    defaults = {"object": f"esx01/{nic}", "host": "esx01", "host_kind": "esxi", "nic": nic}
    return _strict(UplinkFact, defaults | data)


def _fact(kind: str, data: dict):
    if kind in TEAM_KINDS:
        uplinks = [_uplink(u, n) for n, u in enumerate(data.get("uplinks", []))]
        model, defaults = TEAM_KINDS[kind]
        team = _strict(model, defaults | data | {"uplinks": uplinks})
        for uplink in uplinks:
            for need, reason in uplink.missing.items():
                team.missing.setdefault(need, reason)
        return team
    if kind == "uplinks":
        return _uplink(data, 0)
    if kind == "iscsi":
        bound = [_strict(BoundVmk, b) for b in data.get("bound", [])]
        model, defaults = OTHER_KINDS[kind]
        return _strict(model, {"host": "esx01"} | defaults | data | {"bound": bound})
    if kind in OTHER_KINDS:
        model, defaults = OTHER_KINDS[kind]
        return _strict(model, {"host": "esx01"} | defaults | data)
    defaults = {"object": "esx01/vmk1", "host": "esx01", "name": "vmk1", "portgroup": "vMotion"}
    return _strict(VmkFact, defaults | data)


def case_failure(rule: Rule, case: dict) -> str | None:
    """Why `rule` does not do what `case` expects of it, or None when it does."""
    fact = _fact(rule.iterate, case["fact"])
    result = run_rules([rule], Facts(**{rule.iterate: [fact]}))
    errors = [s.reason for s in result.skipped if s.reason.startswith("rule error")]
    if errors:
        return f"rule error: {errors}"
    outcome = "fail" if result.findings else "skip" if result.skipped else "pass" if result.passed else "n/a"
    if outcome != case["expect"]:
        return f"expected {case['expect']}, got {outcome}: {result.findings or result.skipped}"
    if "message" in case and case["message"] not in result.findings[0].message:
        return f"message {result.findings[0].message!r} lacks {case['message']!r}"
    if "actual" in case and case["actual"] not in str(result.findings[0].actual):
        return f"actual {result.findings[0].actual!r} lacks {case['actual']!r}"
    if "fix" in case and [step.action for step in result.findings[0].fix] != case["fix"]:
        return f"fix {[step.action for step in result.findings[0].fix]} is not {case['fix']}"
    return None


def _cases():
    for path in sorted(CASES.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text())["cases"]:
            yield pytest.param(path.stem, case, id=f"{path.stem}-{case['name']}")


@pytest.mark.parametrize(("code", "case"), list(_cases()))
def test_rule_case(code: str, case: dict) -> None:
    failure = case_failure(RULES[code], case)
    assert failure is None, failure


def test_unknown_fact_keys_are_refused() -> None:
    with pytest.raises(ValueError, match="no field"):
        _fact("pcie", {"ports_gbs": 10.0})
    with pytest.raises(ValueError, match="no field"):
        _fact("teams", {"uplinks": [{"nic": "vmnic2", "chanel_mode": "on"}]})


def test_every_rule_has_docs_and_cases() -> None:
    for code, rule in RULES.items():
        assert rule.why.strip() and rule.examples.bad.strip() and rule.examples.good.strip(), code
        assert rule.references, code
        path = CASES / f"{code}.yaml"
        assert path.exists(), f"{code} has no cases file {path}"
        expects = {case["expect"] for case in yaml.safe_load(path.read_text())["cases"]}
        assert {"pass", "fail"} <= expects, f"{code} needs at least one passing and one failing case"
        if rule.when.strip() != "true":
            assert "n/a" in expects, f"{code} needs a case where its `when` is false (expect: n/a)"
        if rule.needs or rule.needs_for_pass:
            needed = rule.needs + rule.needs_for_pass
            assert "skip" in expects, f"{code} needs a case where its {needed} facts are missing"


def test_no_case_file_without_rule() -> None:
    assert {p.stem for p in CASES.glob("*.yaml")} <= set(RULES)

"""Every rule's pass / fail / skip cases (tests/rule_cases/CODE.yaml), run by the generic runner
that `hostlint rule test` uses (hostlint.rules.cases)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hostlint.rules import load_rules
from hostlint.rules.cases import Case, load_cases, run_case

CASES = Path(__file__).parent / "rule_cases"
RULES = {rule.code: rule for rule in load_rules()}


def _cases():
    for path in sorted(CASES.glob("*.yaml")):
        for case in load_cases(path):
            yield pytest.param(path.stem, case, id=f"{path.stem}-{case.name}")


@pytest.mark.parametrize(("code", "case"), list(_cases()))
def test_rule_case(code: str, case) -> None:
    outcome = run_case(RULES[code], case)
    assert outcome.ok, outcome.problems
    assert outcome.outcome == case.expect


def test_unknown_fact_keys_are_refused() -> None:
    for kind, fact in (
        ("pcie", {"ports_gbs": 10.0}),
        ("teams", {"uplinks": [{"nic": "vmnic2", "chanel_mode": "static"}]}),
        ("iscsi", {"bound": [{"name": "vmk1", "actve": ["vmnic2"]}]}),
    ):
        rule = next(r for r in RULES.values() if r.iterate == kind)
        outcome = run_case(rule, Case(name="typo", expect="pass", fact=fact))
        assert outcome.outcome == "invalid" and "has no field" in outcome.problems[0], outcome


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

"""bench/mutate_rules.py: its mutants are the ones it names, and the rule tests notice a broken rule."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("mutate_rules", ROOT / "bench" / "mutate_rules.py")
mutate_rules = importlib.util.module_from_spec(spec)
sys.modules["mutate_rules"] = mutate_rules
spec.loader.exec_module(mutate_rules)

from hostlint.rules import load_rules  # noqa: E402
from hostlint.rules.cases import load_cases  # noqa: E402

RULES = {rule.code: rule for rule in load_rules()}


def test_operators_on_one_rule() -> None:
    mutants = {(m.field, m.description): m.source for m in mutate_rules.mutants_of(RULES["VN102"])}
    assert mutants[("when", "drop && clause `nic.queues > 1`")] == "nic.queues != null"
    assert mutants[("when", "boundary `>` -> `>=` at 33")] == "nic.queues != null && nic.queues >= 1"
    assert mutants[("when", "constant 1 -> 2 at 35")] == "nic.queues != null && nic.queues > 2"
    assert mutants[("violation", "flip `!=` -> `==` at 10")] == 'nic.model == "virtio"'
    assert mutants[("violation", "negate")] == '!(nic.model != "virtio")'


def test_text_inside_strings_is_never_mutated() -> None:
    source = 'u.port == "a && b > 1" && u.mtu > 1500'
    clauses = [source[start:end].strip() for start, end, _ in mutate_rules._clauses(source)]
    assert clauses == ['u.port == "a && b > 1"', "u.mtu > 1500"]
    assert [d for d, _ in mutate_rules._constants(source)] == ["constant 1500 -> 1501 at 34"]
    assert len(list(mutate_rules._comparisons(source))) == 3  # == flipped; > flipped and shifted


def test_a_broken_rule_is_killed_and_the_real_one_passes(tmp_path: Path) -> None:
    rule = RULES["LK001"]
    cases = load_cases(ROOT / "tests" / "rule_cases" / "LK001.yaml")
    assert mutate_rules.killed_by(rule, cases, []) is None
    broken = mutate_rules.Mutant("LK001", "when", "drop role", "uplink.link_up")
    mutated = mutate_rules.mutated_rule(ROOT / "rules", tmp_path, broken)
    assert mutated.when == "uplink.link_up"
    assert "an unused uplink is not checked" in mutate_rules.killed_by(mutated, cases, [])

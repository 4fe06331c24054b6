"""No rule passes on an unknown (issue 25, Deliver 6), proven over the whole catalogue.

For every rule, hypothesis draws a fact of a lab on which the rule fires or passes and a field the rule
reads (of the fact, or of one of its uplinks), and marks that field unknown as the join does (its
`missing`). The rule must then fire or be skipped naming the reason; it may pass only when no known
value of that field would have made it fire (the engine's `false && x` that an unknown cannot change),
which is checked against every value that field takes anywhere in the labs and a few boundaries.

The fact side of "unknown": tests/test_unknown_facts.py and the joins' own tests (a join that cannot
tell records the field in `missing`). Fixed seed (`derandomize`), bounded examples: runs in CI.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from hostlint.join import build_facts
from hostlint.join.facts import Fact, Facts
from hostlint.results import CheckResult
from hostlint.rules import Rule, load_rules
from hostlint.rules.engine import run_rules
from hostlint.snapshot import load_site

LABS = Path(__file__).resolve().parent.parent / "fixtures" / "labs"
RULES = load_rules()
NULLED = "nulled by the property test"
# Values every field of a type is also tried with, beside the ones the labs hold: MTU, speed and VLAN edges.
EXTRA: dict[type, list[Any]] = {
    int: [0, 1, 2, 10, 100, 1500, 1501, 4094, 9000, 9001, 9216, 10000, 25000, 100000],
    bool: [True, False],
}
PROPERTY = settings(
    max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None
)


@functools.cache
def lab_facts() -> tuple[Facts, ...]:
    return tuple(build_facts(load_site([lab])) for lab in sorted(LABS.iterdir()) if (lab / "expected.yaml").is_file())


def _outcome(rule: Rule, fact: Fact) -> str:
    result: CheckResult = run_rules([rule], Facts(**{rule.iterate: [fact]}), memoise=False)
    if result.findings:
        return "fail"
    if result.skipped:
        return "skip"
    return "pass" if result.passed else "n/a"


def _nested(fact: Fact) -> dict[str, list[BaseModel]]:
    """The fact's lists of models that carry their own `missing` (a team's or port group's uplinks)."""
    found = {}
    for name in type(fact).model_fields:
        value = getattr(fact, name)
        if (
            isinstance(value, list)
            and value
            and isinstance(value[0], Fact | BaseModel)
            and hasattr(value[0], "missing")
        ):
            found[name] = value
    return found


def _read_names(rule: Rule) -> set[str]:
    """Every `.name` the rule's `when` and `violation` read (fields of the fact or of what it holds)."""
    return set(re.findall(r"\.([a-z_][a-z0-9_]*)", f"{rule.when}\n{rule.violation}"))


@functools.cache
def targets(code: str) -> tuple[tuple[int, int, str | None, int, str], ...]:
    """(lab, fact index, nested list or None, item index, field) for every fact of the labs on which the
    rule fires or passes and every field it reads."""
    rule = next(r for r in RULES if r.code == code)
    names = _read_names(rule)
    found = []
    for lab, facts in enumerate(lab_facts()):
        for index, fact in enumerate(facts.of_kind(rule.iterate)):
            if _outcome(rule, fact) not in ("fail", "pass"):
                continue
            own = sorted(names & (set(type(fact).model_fields) - {"object", "host", "missing"}))
            found += [(lab, index, None, 0, field) for field in own]
            for list_name, items in _nested(fact).items():
                if list_name not in names:
                    continue
                fields = sorted(names & (set(type(items[0]).model_fields) - {"object", "host", "missing"}))
                found += [(lab, index, list_name, i, field) for i in range(len(items)) for field in fields]
    return tuple(found)


@functools.cache
def known_values(model: str, field: str) -> tuple[Any, ...]:
    """Every value `field` of `model` takes in the labs, with the edges of its type (deduplicated)."""
    seen: dict[str, Any] = {}

    def visit(item: BaseModel) -> None:
        if type(item).__name__ == model and field in type(item).model_fields:
            value = getattr(item, field)
            seen.setdefault(repr(value), value)
            for extra in EXTRA.get(type(value), []):
                seen.setdefault(repr(extra), extra)
        for name in type(item).model_fields:
            child = getattr(item, name)
            if isinstance(child, list):
                for element in child:
                    if isinstance(element, BaseModel):
                        visit(element)

    for facts in lab_facts():
        for kind in type(facts).model_fields:
            for item in getattr(facts, kind):
                visit(item)
    return tuple(seen.values())


def _with(fact: Fact, list_name: str | None, item: int, field: str, value: Any, unknown: bool) -> Fact:
    copy = fact.model_copy(deep=True)
    target = copy if list_name is None else getattr(copy, list_name)[item]
    target.missing.pop(field, None)
    if unknown:
        target.missing[field] = NULLED
    else:
        setattr(target, field, value)
    return copy


def silent_pass(rule: Rule, case: tuple[int, int, str | None, int, str]) -> str | None:
    """Why the rule passes on `case` with its field unknown though a known value makes it fire, or None."""
    lab, index, list_name, item, field = case
    fact = lab_facts()[lab].of_kind(rule.iterate)[index]
    nulled = _outcome(rule, _with(fact, list_name, item, field, None, unknown=True))
    if nulled in ("fail", "skip"):
        return None
    holder = fact if list_name is None else getattr(fact, list_name)[item]
    for value in known_values(type(holder).__name__, field):
        if _outcome(rule, _with(fact, list_name, item, field, value, unknown=False)) == "fail":
            where = f"{list_name}[{item}]." if list_name else ""
            return (
                f"{rule.code} {nulled} on {fact.object} with {where}{field} unknown, but fires with {field}={value!r}"
            )
    return None


CODES = sorted(rule.code for rule in RULES)


def test_the_property_reaches_most_of_the_catalogue() -> None:
    """Rules no lab fires or passes on (or that read no field) are listed, so the gap is visible."""
    unreached = [code for code in CODES if not targets(code)]
    assert len(unreached) <= len(CODES) // 3, unreached


@pytest.mark.parametrize("code", CODES)
@PROPERTY
@given(data=st.data())
def test_an_unknown_field_never_makes_a_rule_pass(code: str, data: st.DataObject) -> None:
    cases = targets(code)
    if not cases:
        return
    rule = next(r for r in RULES if r.code == code)
    case = data.draw(st.sampled_from(cases))
    assert silent_pass(rule, case) is None
    lab, index, list_name, item, field = case
    fact = _with(lab_facts()[lab].of_kind(rule.iterate)[index], list_name, item, field, None, unknown=True)
    result = run_rules([rule], Facts(**{rule.iterate: [fact]}))
    # A skip names why: the reason the join recorded.
    assert all(s.reason for s in result.skipped)


def test_the_property_catches_a_rule_that_passes_on_an_unknown() -> None:
    """The check can fail: MT002 written with `has()` so an unknown port MTU counts as fine."""
    mt002 = next(r for r in RULES if r.code == "MT002")
    lenient = mt002.model_copy(
        update={"violation": "team.uplinks.exists(u, has(u.port_mtu) && u.port_mtu < team.mtu)", "needs": []}
    )
    caught = [why for case in targets("MT002") if case[4] == "port_mtu" and (why := silent_pass(lenient, case))]
    assert caught and "port_mtu unknown, but fires with port_mtu=" in caught[0]


# The join side: a snapshot field that was not read (None) never turns a finding into a pass. The join
# must record it in `missing` (then the rule is skipped) or the verdict must not depend on it.
# Fields whose None the snapshot documents as "does not apply", not "not read": nulling them is another
# site (a port outside any channel, a switch in no MLAG pair), not an unknown.
NOT_APPLICABLE = frozenset({"port_channel", "multichassis", "multichassis_id", "peer"})


def _nullable_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every field under `node` (a model or a pydantic dataclass leaf) that is set and whose model allows
    None: a fact a collector may not have read."""
    found = []
    for name, info in getattr(type(node), "__pydantic_fields__", {}).items():
        value = getattr(node, name)
        if value is not None and not info.is_required() and info.default is None and name not in NOT_APPLICABLE:
            found.append((*path, name))
        if hasattr(type(value), "__pydantic_fields__"):
            found += _nullable_paths(value, (*path, name))
        elif isinstance(value, list):
            for i, element in enumerate(value):
                if hasattr(type(element), "__pydantic_fields__"):
                    found += _nullable_paths(element, (*path, name, i))
    return found


@functools.cache
def lab_sites() -> tuple[tuple[Any, frozenset[tuple[str, str]], tuple[tuple[Any, ...], ...]], ...]:
    from hostlint.check import check_snapshot

    sites = []
    for lab in sorted(LABS.iterdir()):
        if (lab / "expected.yaml").is_file():
            snapshot = load_site([lab])
            result = check_snapshot(snapshot, RULES)
            findings = frozenset((f.code, f.object) for f in result.findings)
            sites.append((snapshot, findings, tuple(_nullable_paths(snapshot))))
    return tuple(sites)


def _nulled(snapshot: Any, path: tuple[Any, ...]) -> Any:
    copy = snapshot.model_copy(deep=True)
    node = copy
    for step in path[:-1]:
        node = node[step] if isinstance(step, int) else getattr(node, step)
    setattr(node, path[-1], None)
    return copy


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_a_field_not_read_never_turns_a_finding_into_a_pass(data: st.DataObject) -> None:
    from hostlint.check import check_snapshot

    snapshot, findings, paths = data.draw(st.sampled_from([site for site in lab_sites() if site[2]]))
    path = data.draw(st.sampled_from(paths))
    result = check_snapshot(_nulled(snapshot, path), RULES)
    passed = {(p.code, p.object) for p in result.passed}
    turned = sorted(findings & passed)
    assert not turned, f"{'.'.join(map(str, path))} = None turned findings into passes: {turned}"

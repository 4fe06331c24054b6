"""The memoised rule engine says exactly what evaluating every fact says.

`run_rules` evaluates a rule's `when` and `violation` once per key (the parts of a fact the
expression can read, hostlint.rules.reads). Two guards:

- differential: on every lab, on every rule case's fact (all of a kind in one site, so facts
  share keys) and on a generated bench site, the memoised and the per-fact paths give the same
  findings, skips and passes, in the same order;
- soundness of the analysis: each shipped expression, evaluated on a fact stripped down to what
  the analysis says it reads, gives the same value or error as on the whole fact.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import cel
import pytest

from hostlint.join import build_facts
from hostlint.join.facts import Fact, Facts
from hostlint.results import CheckResult
from hostlint.rules import engine, load_rules, run_rules
from hostlint.rules.cases import build_fact, load_cases
from hostlint.rules.engine import FUNCTIONS, cel_view
from hostlint.rules.reads import ITEMS, NULLNESS, SIZE, Read, fields_read, project
from hostlint.snapshot import load_site

ROOT = Path(__file__).resolve().parent.parent
LABS = sorted(p for p in (ROOT / "fixtures" / "labs").iterdir() if (p / "hosts.json").is_file())
RULES = load_rules()
CASES = ROOT / "tests" / "rule_cases"


def _make_site_module() -> Any:
    spec = importlib.util.spec_from_file_location("make_site", ROOT / "bench" / "make_site.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_site"] = module
    spec.loader.exec_module(module)
    return module


def _both(facts: Facts) -> tuple[CheckResult, CheckResult]:
    return run_rules(RULES, facts), run_rules(RULES, facts, memoise=False)


def _same(memoised: CheckResult, direct: CheckResult) -> None:
    assert memoised.model_dump() == direct.model_dump()


def _case_facts() -> Facts:
    """Every rule case's fact, grouped by kind into one site."""
    by_kind: dict[str, list[Fact]] = {}
    for rule in RULES:
        path = CASES / f"{rule.code}.yaml"
        if not path.is_file():
            continue
        for case in load_cases(path):
            try:
                fact = build_fact(rule.iterate, case.fact)
            except ValueError:
                continue  # cases that test an invalid fact
            # Distinct objects, so findings and skips can be told apart.
            by_kind.setdefault(rule.iterate, []).append(fact.model_copy(update={"object": f"{rule.code}/{case.name}"}))
    # Twice over: the second copy of each fact meets only keys already seen.
    return Facts(**{kind: facts + facts for kind, facts in by_kind.items()})


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.name)
def test_memoised_equals_direct_on_labs(lab: Path) -> None:
    _same(*_both(build_facts(load_site([lab]))))


def test_memoised_equals_direct_on_rule_cases() -> None:
    facts = _case_facts()
    memoised, direct = _both(facts)
    assert memoised.findings and memoised.skipped and memoised.passed
    _same(memoised, direct)


def test_a_memo_that_gives_up_midway_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # Most case facts differ in what their rules read: with a small window the memos give up
    # part-way through and the rest of the facts are evaluated one by one.
    monkeypatch.setattr(engine, "MEMO_WINDOW", 4)
    _same(*_both(_case_facts()))


def test_memoised_equals_direct_on_a_generated_site() -> None:
    site = _make_site_module().make_site(150, seed=3)
    facts = build_facts(site.snapshot)
    memoised, direct = _both(facts)
    assert {f.host for f in memoised.findings} == set(site.planted)
    _same(memoised, direct)


def _strip(value: Any, read: Read | str | None) -> Any:
    """`value` with only what `read` names, a value read for its nullness or size changed to another
    with the same: what an expression that reads no more must give the same outcome on."""
    if read == NULLNESS:
        return value if value is None else ("another value", 12345)[isinstance(value, str)]
    if read == SIZE and isinstance(value, list):
        return [f"other{n}" for n in range(len(value))]
    if read == SIZE and isinstance(value, str):
        return "x" * len(value)
    if read is None or isinstance(read, str):
        return value
    if isinstance(value, dict) and ITEMS not in read:
        return {key: _strip(value[key], sub) for key, sub in read.items() if key in value}
    if isinstance(value, list) and list(read) == [ITEMS]:
        return [_strip(item, read[ITEMS]) for item in value]
    return value


def _outcome(program: Any, variable: str, view: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "value", program.execute(cel.Context(variables={variable: view}, functions=FUNCTIONS))
    except Exception as exc:  # the error itself is the outcome compared
        return type(exc).__name__, str(exc)


def _all_facts() -> Facts:
    merged = _case_facts()
    for lab in LABS:
        facts = build_facts(load_site([lab]))
        for kind in type(facts).model_fields:
            if kind != "unresolved":
                merged.of_kind(kind).extend(facts.of_kind(kind))
    return merged


def test_expressions_see_nothing_outside_what_they_read() -> None:
    facts = _all_facts()
    checked = 0
    for rule in RULES:
        for source in (rule.when, rule.violation):
            program = cel.compile(source)
            read = fields_read(source, rule.variable, program)
            assert read is not None, f"{rule.code}: {source!r} is not analysed"
            for fact in facts.of_kind(rule.iterate):
                view = cel_view(fact.model_dump(), {})
                stripped = _strip(view, read)
                assert _outcome(program, rule.variable, stripped) == _outcome(program, rule.variable, view), (
                    f"{rule.code} on {fact.object}: {source!r} reads more than {read}"
                )
                assert project(stripped, read) == project(view, read)
                checked += 1
    assert checked > 1000


UPLINKS = [
    {"role": "active", "port": "Eth1/1", "speed": 10, "tags": ["a"]},
    {"role": "standby", "port": "Eth1/2", "speed": 25, "tags": []},
]


@pytest.mark.parametrize(
    ("source", "read"),
    [
        ("team.policy == 'x' && size(team.active) > 1", {"policy": None, "active": SIZE}),
        ("team.lag == null || null != team.mtu", {"lag": NULLNESS, "mtu": NULLNESS}),
        (
            "team.uplinks.exists(u, u.id != null && size(u.tags) == 1)",
            {"uplinks": {ITEMS: {"id": NULLNESS, "tags": SIZE}}},
        ),
        ("team.active.size() > 1", {"active": SIZE}),
        # Used otherwise too, or inside a larger operand: read whole.
        ("team.lag == null || team.lag == 'x'", {"lag": None}),
        ("team.mtu + 1 == null", {"mtu": None}),
        ("!team.up == null", {"up": None}),
        ("size(team.tags) > 0 && team.tags[0] == 'a'", {"tags": None}),
        ("team.uplinks.exists(u, u.role == 'active')", {"uplinks": {ITEMS: {"role": None}}}),
        (
            "team.uplinks.filter(u, u.role == 'active').map(v, v.speed)",
            {"uplinks": {ITEMS: {"role": None, "speed": None}}},
        ),
        ("team.uplinks.filter(u, u.role == 'active').size() > 1", {"uplinks": {ITEMS: {"role": None}}}),
        ("team.port.startsWith('E')", {"port": None}),
        ("team.uplinks.exists(u, u.tags.exists(t, t == 'a'))", {"uplinks": {ITEMS: {"tags": {ITEMS: None}}}}),
        ("has(team.mtu)", {"mtu": None}),
    ],
)
def test_what_an_expression_reads(source: str, read: Read) -> None:
    assert fields_read(source, "team", cel.compile(source)) == read


@pytest.mark.parametrize(
    "source",
    [
        # A filtered list whose whole elements reach the result: every field of them is read.
        "size(team.uplinks.filter(u, u.role == 'active')) > 0",
        "team.uplinks.filter(u, u.role == 'active')[0].port == 'Eth1/1'",
        "team.uplinks.filter(u, u.role == 'active') == []",
        "team.uplinks[0].port == 'Eth1/1'",
        "team.uplinks.map(u, u).exists(x, x.port == 'Eth1/2')",
    ],
)
def test_whole_elements_that_escape_are_read_whole(source: str) -> None:
    read = fields_read(source, "team", cel.compile(source))
    assert read is not None
    uplinks = read["uplinks"]
    assert uplinks is None or uplinks == {ITEMS: None}
    team = {"policy": "x", "uplinks": UPLINKS}
    program = cel.compile(source)
    assert _outcome(program, "team", _strip(team, read)) == _outcome(program, "team", team)


@pytest.mark.parametrize(
    "source",
    [
        "team == {}",  # the variable as a whole
        "team['policy'] == 'x'",
        'team.policy == "a\\"b"',  # a string with an escape: not tokenised, not guessed
        "type(team.mtu) == int",  # a name that is neither the variable nor bound by a macro
    ],
)
def test_what_the_analysis_does_not_follow_has_no_key(source: str) -> None:
    assert fields_read(source, "team", cel.compile(source)) is None


def test_keys_tell_apart_what_cel_tells_apart() -> None:
    read: Read = {"mtu": None, "flags": None}
    keys = {project({"mtu": value, "flags": []}, read) for value in (1, 1.0, True, "1", None)}
    assert len(keys) == 5
    assert project({"flags": []}, read) != project({"mtu": None, "flags": []}, read)
    assert project({"mtu": 1, "flags": [1]}, read) != project({"mtu": 1, "flags": [True]}, read)
    nested: Read = {"x": {"y": None}}
    assert project({"x": {"y": "absent"}}, nested) != project({}, nested)
    assert project({"x": {}}, nested) != project({}, nested)
    assert project({"x": [{"y": 1}]}, {"x": {ITEMS: {"y": None}}}) != project(
        {"x": [{"y": 1.0}]}, {"x": {ITEMS: {"y": None}}}
    )

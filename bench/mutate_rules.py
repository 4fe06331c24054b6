"""Mutation testing of the rule catalogue: do the tests notice when a rule's CEL is broken?

For each rule, each of its `when` and `violation` expressions is mutated, one change at a
time, in a temporary copy of rules/ (loaded with `load_rules(directory)`, as a user's
rules folder would be):

- drop one operand of a `&&` / `||` chain (at any parenthesis depth);
- flip a comparison (`<` -> `>=`, `==` -> `!=`, ...) and shift its boundary (`<` -> `<=`, ...);
- change a numeric constant (n -> n + 1);
- negate the whole expression;
- swap `exists` and `all`.

Each mutant is run against that rule's tests, in-process: its cases in
tests/rule_cases/CODE.yaml (the same runner as tests/test_rule_cases.py) and every lab
under fixtures/labs/ where the rule looks at something (its findings there must stay
exactly the ones expected.yaml lists). A mutant is killed when any of them fails.

    python bench/mutate_rules.py                 # the whole catalogue
    python bench/mutate_rules.py --rules LK001,PC --verbose

It prints killed/survived per rule, the survivors, the mutants listed as equivalent (with
why) and the score: killed / (all - equivalent). It exits 0: it measures, it does not gate.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hostlint.join import build_facts  # noqa: E402
from hostlint.join.facts import Facts  # noqa: E402
from hostlint.rules import Rule, load_rules, run_rules  # noqa: E402
from hostlint.rules.cases import Case, load_cases, run_case  # noqa: E402
from hostlint.snapshot import load_site  # noqa: E402

CASES = ROOT / "tests" / "rule_cases"
LABS = ROOT / "fixtures" / "labs"
FIELDS = ("when", "violation")

# Mutants that cannot change any outcome, with why: (code, field, description) -> reason.
EQUIVALENT: dict[tuple[str, str, str], str] = {
    ("LG007", "violation", "drop || clause `u.channel_mode == null`"): (
        "a null channel mode is also not in [lacp-active, lacp-passive], which the next clause tests"
    ),
    ("LK001", "violation", "drop && clause `uplink.configured_speed_mbps != null`"): (
        "with the host speed null and the port's set, the first clause (null-ness differs) already holds"
    ),
    ("LK001", "violation", "drop && clause `uplink.port_configured_speed_mbps != null`"): (
        "with the port speed null and the host's set, the first clause (null-ness differs) already holds"
    ),
}


@dataclass(frozen=True)
class Mutant:
    code: str
    field: str
    description: str
    source: str


# --- mutation operators on CEL source text ------------------------------------------------------

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')


def _code_spans(source: str) -> list[tuple[int, int]]:
    """Spans of `source` outside string literals (mutations never touch a string's text)."""
    spans, start = [], 0
    for match in _STRING.finditer(source):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(source)))
    return spans


def _outside_strings(source: str, pattern: re.Pattern) -> Iterator[re.Match]:
    for start, end in _code_spans(source):
        yield from pattern.finditer(source, start, end)


def _clauses(source: str) -> Iterator[tuple[int, int, str]]:
    """Each operand of a `&&`/`||` chain as (start, end, operator): one chain per parenthesis level."""
    strings = [(m.start(), m.end()) for m in _STRING.finditer(source)]

    def in_string(i: int) -> bool:
        return any(a <= i < b for a, b in strings)

    # For each opening position (-1 = top level), the operator positions at that depth.
    stack: list[int] = [-1]
    groups: dict[int, list[tuple[int, str]]] = {-1: []}
    ends: dict[int, int] = {-1: len(source)}
    i = 0
    while i < len(source):
        if in_string(i):
            i += 1
            continue
        char = source[i]
        if char in "([":
            stack.append(i)
            groups[i] = []
        elif char in ")]":
            ends[stack.pop()] = i
        elif source.startswith("&&", i) or source.startswith("||", i):
            groups[stack[-1]].append((i, source[i : i + 2]))
            i += 2
            continue
        i += 1
    for opening, operators in groups.items():
        if not operators:
            continue
        bounds = [opening + 1, *(pos for pos, _ in operators), ends[opening]]
        for n in range(len(operators) + 1):
            start = bounds[n] if n == 0 else bounds[n] + 2
            end = bounds[n + 1]
            operator = operators[n - 1][1] if n else operators[0][1]
            yield start, end, operator


def _drop_clause(source: str) -> Iterator[tuple[str, str]]:
    for start, end, operator in _clauses(source):
        clause = source[start:end].strip()
        # Remove the operand and the operator joining it to its neighbour.
        before, after = source[:start].rstrip(), source[end:].lstrip()
        if before.endswith(("&&", "||")) and not before.endswith(("(&&", "(||")) and start > 0:
            mutated = before[:-2].rstrip() + " " + after
        elif after.startswith(("&&", "||")):
            mutated = before + " " + after[2:].lstrip()
        else:
            continue
        yield f"drop {operator} clause `{_short(clause)}`", mutated.strip()


_COMPARISON = re.compile(r"(==|!=|<=|>=|(?<![<>=!])<(?!=)|(?<![<>=!-])>(?!=))")
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
_BOUNDARY = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}


def _comparisons(source: str) -> Iterator[tuple[str, str]]:
    for match in _outside_strings(source, _COMPARISON):
        operator = match.group(1)
        for replacement, kind in ((_NEGATED[operator], "flip"), (_BOUNDARY.get(operator), "boundary")):
            if replacement:
                mutated = source[: match.start()] + replacement + source[match.end() :]
                yield f"{kind} `{operator}` -> `{replacement}` at {match.start()}", mutated


_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])")


def _constants(source: str) -> Iterator[tuple[str, str]]:
    for match in _outside_strings(source, _NUMBER):
        text = match.group(1)
        changed = str(float(text) + 1) if "." in text else str(int(text) + 1)
        yield (
            f"constant {text} -> {changed} at {match.start()}",
            source[: match.start()] + changed + source[match.end() :],
        )


_QUANTIFIER = re.compile(r"\.(exists|all)\(")


def _quantifiers(source: str) -> Iterator[tuple[str, str]]:
    for match in _outside_strings(source, _QUANTIFIER):
        swapped = "all" if match.group(1) == "exists" else "exists"
        mutated = source[: match.start()] + f".{swapped}(" + source[match.end() :]
        yield f"swap {match.group(1)} -> {swapped} at {match.start()}", mutated


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def mutants_of(rule: Rule) -> list[Mutant]:
    found = []
    for field in FIELDS:
        source = " ".join(getattr(rule, field).split())
        if source == "true":
            continue
        candidates = [
            *_drop_clause(source),
            *_comparisons(source),
            *_constants(source),
            ("negate", f"!({source})"),
            *_quantifiers(source),
        ]
        seen = {source}
        for description, mutated in candidates:
            if mutated not in seen:
                seen.add(mutated)
                found.append(Mutant(rule.code, field, description, mutated))
    return found


# --- running a rule's tests against a mutant ----------------------------------------------------


@dataclass
class Lab:
    name: str
    facts: Facts
    expected: set[tuple[str, str]]


def load_labs() -> list[Lab]:
    labs = []
    for folder in sorted(p for p in LABS.iterdir() if (p / "expected.yaml").is_file()):
        expected = yaml.safe_load((folder / "expected.yaml").read_text(encoding="utf-8"))["findings"] or []
        facts = build_facts(load_site([folder]))
        labs.append(Lab(folder.name, facts, {(f["code"], f["object"]) for f in expected}))
    return labs


def labs_using(rule: Rule, labs: list[Lab]) -> list[Lab]:
    """Labs where the rule looks at something: a finding, a pass or a skip."""
    used = []
    for lab in labs:
        result = run_rules([rule], lab.facts)
        if result.findings or result.passed or result.skipped:
            used.append(lab)
    return used


def killed_by(rule: Rule, cases: list[Case], labs: list[Lab]) -> str | None:
    """The first test that fails for `rule`, or None when every one passes (the mutant survives)."""
    for case in cases:
        try:
            outcome = run_case(rule, case)
            failure = "; ".join(outcome.problems)
        except Exception as exc:  # a mutant that breaks evaluation is caught, so killed
            failure = f"error: {exc}"
        if failure:
            return f"case {case.name!r}: {failure}"
    for lab in labs:
        found = {(f.code, f.object) for f in run_rules([rule], lab.facts).findings}
        if found != {pair for pair in lab.expected if pair[0] == rule.code}:
            return f"lab {lab.name}"
    return None


def mutated_rule(rules_dir: Path, work: Path, mutant: Mutant) -> Rule:
    """Write the rule file with the mutated expression into `work` (a copy of rules/) and load it from there."""
    path = rules_dir / f"{mutant.code}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data[mutant.field] = mutant.source
    for old in work.glob("*.yaml"):
        old.unlink()
    (work / path.name).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    (rule,) = load_rules(work)
    return rule


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", help="comma-separated code prefixes (default: every rule)")
    parser.add_argument("--rules-dir", type=Path, default=ROOT / "rules", help="the catalogue to mutate")
    parser.add_argument("--verbose", action="store_true", help="print every mutant and what killed it")
    args = parser.parse_args()

    started = time.monotonic()
    rules = load_rules(args.rules_dir)
    if args.rules:
        prefixes = [p.strip().upper() for p in args.rules.split(",")]
        rules = [r for r in rules if any(r.code.startswith(p) for p in prefixes)]
    labs = load_labs()
    totals = {"killed": 0, "survived": 0, "equivalent": 0}
    survivors: list[Mutant] = []
    equivalents: list[tuple[Mutant, str]] = []
    print(f"{'rule':6} {'mutants':>7} {'killed':>6} {'survived':>8} {'equiv':>5}  labs")
    with tempfile.TemporaryDirectory(prefix="hostlint-mutants-") as tmp:
        work = Path(tmp)
        for rule in rules:
            cases = load_cases(CASES / f"{rule.code}.yaml")
            used = labs_using(rule, labs)
            counts = {"killed": 0, "survived": 0, "equivalent": 0}
            for mutant in mutants_of(rule):
                reason = EQUIVALENT.get((mutant.code, mutant.field, mutant.description))
                if reason:
                    counts["equivalent"] += 1
                    equivalents.append((mutant, reason))
                    continue
                try:
                    failure = killed_by(mutated_rule(args.rules_dir, work, mutant), cases, used)
                except Exception as exc:  # a mutant that does not even load or compile is killed
                    failure = f"does not load: {exc}"
                counts["killed" if failure else "survived"] += 1
                if not failure:
                    survivors.append(mutant)
                if args.verbose:
                    print(f"  {mutant.field}: {mutant.description}: {failure or 'SURVIVED'}")
            for key in totals:
                totals[key] += counts[key]
            total = sum(counts.values())
            print(
                f"{rule.code:6} {total:7} {counts['killed']:6} {counts['survived']:8} {counts['equivalent']:5}  "
                f"{len(used)}"
            )
    scored = totals["killed"] + totals["survived"]
    score = 100.0 * totals["killed"] / scored if scored else 100.0
    print(
        f"\n{len(rules)} rules, {scored + totals['equivalent']} mutants: {totals['killed']} killed, "
        f"{totals['survived']} survived, {totals['equivalent']} equivalent; "
        f"score {score:.1f}% of non-equivalent mutants killed ({time.monotonic() - started:.0f} s)"
    )
    if survivors:
        print("\nSurvivors:")
        for mutant in survivors:
            print(f"  {mutant.code} {mutant.field}: {mutant.description}\n      {_short(mutant.source, 150)}")
    if equivalents:
        print("\nEquivalent (not scored):")
        for mutant, reason in equivalents:
            print(f"  {mutant.code} {mutant.field}: {mutant.description}: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

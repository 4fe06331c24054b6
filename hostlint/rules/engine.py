"""Running rules over facts with CEL (the `common-expression-language` package).

Each rule is compiled once. Each fact becomes one `cel.Context`, shared by all
rules that iterate that kind of fact, so the fact is converted to CEL values once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cel

from hostlint.join.facts import Fact, Facts
from hostlint.results import CheckResult, Finding, FixRequest, Passed, Skipped
from hostlint.rules.model import Rule


class RuleEvaluationError(Exception):
    """A rule's expression failed on a fact (a defect in the rule, not in the site)."""


def _join(items: list[Any], separator: str) -> str:
    return separator.join(str(item) for item in items)


def _distinct(items: list[Any]) -> list[Any]:
    return list(dict.fromkeys(items))


FUNCTIONS = {"join": _join, "distinct": _distinct}


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value) or "none"
    if value is None:
        return "unknown"
    return str(value)


@dataclass
class CompiledRule:
    rule: Rule
    when: Any
    violation: Any
    expected: Any
    actual: Any
    values: dict[str, Any]
    params: list[dict[str, Any]]
    step_when: list[Any]

    @classmethod
    def build(cls, rule: Rule) -> CompiledRule:
        def compile_(field: str, source: str) -> Any:
            try:
                return cel.compile(source)
            except (ValueError, RuntimeError) as exc:
                raise RuleEvaluationError(f"{rule.code}: {field}: {exc}") from exc

        steps = rule.fix.steps if rule.fix else []
        return cls(
            rule=rule,
            when=compile_("when", rule.when),
            violation=compile_("violation", rule.violation),
            expected=compile_("expected", rule.expected),
            actual=compile_("actual", rule.actual),
            values={k: compile_(f"values.{k}", v) for k, v in rule.values.items()},
            params=[{k: compile_(f"fix.{step.action}.{k}", v) for k, v in step.params.items()} for step in steps],
            step_when=[compile_(f"fix.{step.action}.when", step.when) for step in steps],
        )

    def _run(self, program: Any, context: Any, field: str, fact: Fact) -> Any:
        try:
            return program.execute(context)
        except (KeyError, TypeError, ValueError, RuntimeError) as exc:
            raise RuleEvaluationError(f"{self.rule.code} on {fact.object}: {field}: {exc}") from exc

    def evaluate(
        self, fact: Fact, data: dict[str, Any], context: Any, result: CheckResult, record_passes: bool
    ) -> None:
        rule = self.rule
        if "host" in fact.missing:
            result.skipped.append(Skipped(code=rule.code, object=fact.object, reason=fact.missing["host"]))
            return
        if not self._run(self.when, context, "when", fact):
            return
        for need in rule.needs:
            if need in fact.missing:
                result.skipped.append(Skipped(code=rule.code, object=fact.object, reason=fact.missing[need]))
                return
        if not self._run(self.violation, context, "violation", fact):
            for need in rule.needs_for_pass:
                if need in fact.missing:
                    reason = f"only partly checked: {fact.missing[need]}"
                    result.skipped.append(Skipped(code=rule.code, object=fact.object, reason=reason))
                    return
            if record_passes:
                result.passed.append(Passed(code=rule.code, object=fact.object))
            return
        expected = self._run(self.expected, context, "expected", fact)
        actual = self._run(self.actual, context, "actual", fact)
        fields = {k: _text(self._run(p, context, k, fact)) for k, p in self.values.items()}
        fields.update(object=fact.object, host=fact.host, expected=_text(expected), actual=_text(actual))
        fix = []
        if rule.fix:
            for step, params, when in zip(rule.fix.steps, self.params, self.step_when, strict=True):
                if not self._run(when, context, f"fix.{step.action}.when", fact):
                    continue
                evaluated = {k: self._run(p, context, f"fix.{k}", fact) for k, p in params.items()}
                fix.append(FixRequest(action=step.action, stage=step.stage, params=evaluated))
        result.findings.append(
            Finding(
                code=rule.code,
                name=rule.name,
                severity=rule.severity,
                object=fact.object,
                host=fact.host,
                message=rule.message.format(**fields),
                expected=expected,
                actual=actual,
                applicability=rule.fix.applicability if rule.fix else None,
                fix=fix,
                fact=data,
            )
        )


def run_rules(
    rules: list[Rule], facts: Facts, result: CheckResult | None = None, record_passes: bool = True
) -> CheckResult:
    """Evaluate every rule on every fact it iterates; a rule defect is reported as skipped."""
    result = result or CheckResult()
    compiled = [CompiledRule.build(rule) for rule in rules]
    by_kind: dict[str, list[CompiledRule]] = {}
    for item in compiled:
        by_kind.setdefault(item.rule.iterate, []).append(item)
    for kind, kind_rules in by_kind.items():
        variable = kind_rules[0].rule.variable
        for fact in facts.of_kind(kind):
            data = fact.model_dump()
            context = cel.Context(variables={variable: data}, functions=FUNCTIONS)
            for item in kind_rules:
                try:
                    item.evaluate(fact, data, context, result, record_passes)
                except RuleEvaluationError as exc:
                    result.skipped.append(Skipped(code=item.rule.code, object=fact.object, reason=f"rule error: {exc}"))
    result.unresolved.extend(facts.unresolved)
    return result

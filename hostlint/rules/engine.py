"""Running rules over facts with CEL (the `common-expression-language` package).

Each rule is compiled once. Each fact becomes one `cel.Context`, shared by all
rules that iterate that kind of fact, so the fact is converted to CEL values once.

Unknown facts: a field named in a fact's (or a nested uplink's) `missing` is left
out of what CEL sees, so it is absent, not null. An expression that reads it
fails with a missing key, which is reported as the rule skipped for the object
with the reason the join recorded ("cat-a Te1/1/3: MTU not shown by `show
interfaces`"). CEL's `&&` and `||` absorb the error when the other side decides
(`false && u.port_mtu < 9000` is false), so a rule is skipped only when the
unknown value could change its answer; a null can never silently make a rule
pass or fire. Rules may test `has(u.port_mtu)` to handle an unknown value themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cel

from hostlint.join.facts import KINDS, Fact, Facts
from hostlint.results import CheckResult, Finding, FixRequest, Passed, Skipped
from hostlint.rules.model import Rule


class RuleEvaluationError(Exception):
    """A rule's expression failed on a fact (a defect in the rule, not in the site)."""


class UnknownFact(Exception):
    """A rule's expression read a fact field that is unknown; the message is the reason."""


def cel_view(data: dict[str, Any], unknown: dict[str, list[str]]) -> dict[str, Any]:
    """`data` (a dumped fact) without its unknown fields, at any depth; `unknown` collects the
    reasons by field name. Returns `data` itself when nothing is unknown."""
    missing = data.get("missing")
    missing = missing if isinstance(missing, dict) else {}
    fields = [k for k in missing if k not in KINDS and k in data]
    view = None
    for field in fields:
        unknown.setdefault(field, []).append(missing[field])
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = [cel_view(item, unknown) for item in value]
            if any(a is not b for a, b in zip(items, value, strict=True)):
                view = view if view is not None else dict(data)
                view[key] = items
    if fields:
        view = view if view is not None else dict(data)
        for field in fields:
            del view[field]
    return data if view is None else view


def _join(items: list[Any], separator: str) -> str:
    return separator.join(str(item) for item in items)


def _distinct(items: list[Any]) -> list[Any]:
    return list(dict.fromkeys(items))


FUNCTIONS: dict[str, Callable[..., Any]] = {"join": _join, "distinct": _distinct}


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

    def _run(
        self, program: Any, context: Any, field: str, fact: Fact, unknown: dict[str, list[str]] | None = None
    ) -> Any:
        try:
            return program.execute(context)
        except KeyError as exc:
            key = exc.args[0] if exc.args else None
            if unknown and key in unknown:
                raise UnknownFact("; ".join(dict.fromkeys(unknown[key]))) from exc
            raise RuleEvaluationError(f"{self.rule.code} on {fact.object}: {field}: {exc}") from exc
        except (TypeError, ValueError, RuntimeError) as exc:
            raise RuleEvaluationError(f"{self.rule.code} on {fact.object}: {field}: {exc}") from exc

    def evaluate(
        self,
        fact: Fact,
        data: dict[str, Any],
        context: Any,
        result: CheckResult,
        record_passes: bool,
        unknown: dict[str, list[str]] | None = None,
    ) -> None:
        """Report the rule on `fact`: a finding, a pass, or skipped (with the reason when a fact it
        reads is unknown)."""
        try:
            self._evaluate(fact, data, context, result, record_passes, unknown)
        except UnknownFact as exc:
            result.skipped.append(Skipped(code=self.rule.code, object=fact.object, reason=str(exc)))

    def _evaluate(
        self,
        fact: Fact,
        data: dict[str, Any],
        context: Any,
        result: CheckResult,
        record_passes: bool,
        unknown: dict[str, list[str]] | None,
    ) -> None:
        rule = self.rule
        run: Callable[[Any, Any, str, Fact], Any] = self._run
        if unknown:

            def run(program: Any, context: Any, field: str, fact: Fact) -> Any:
                return self._run(program, context, field, fact, unknown)

        if "host" in fact.missing:
            result.skipped.append(Skipped(code=rule.code, object=fact.object, reason=fact.missing["host"]))
            return
        if not run(self.when, context, "when", fact):
            return
        for need in rule.needs:
            if need in fact.missing:
                result.skipped.append(Skipped(code=rule.code, object=fact.object, reason=fact.missing[need]))
                return
        if not run(self.violation, context, "violation", fact):
            for need in rule.needs_for_pass:
                if need in fact.missing:
                    reason = f"only partly checked: {fact.missing[need]}"
                    result.skipped.append(Skipped(code=rule.code, object=fact.object, reason=reason))
                    return
            if record_passes:
                result.passed.append(Passed(code=rule.code, object=fact.object))
            return
        expected = run(self.expected, context, "expected", fact)
        actual = run(self.actual, context, "actual", fact)
        fields = {k: _text(run(p, context, k, fact)) for k, p in self.values.items()}
        fields.update(object=fact.object, host=fact.host, expected=_text(expected), actual=_text(actual))
        fix = []
        if rule.fix:
            for step, params, when in zip(rule.fix.steps, self.params, self.step_when, strict=True):
                if not run(when, context, f"fix.{step.action}.when", fact):
                    continue
                evaluated = {k: run(p, context, f"fix.{k}", fact) for k, p in params.items()}
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
            unknown: dict[str, list[str]] = {}
            view = cel_view(data, unknown)
            context = cel.Context(variables={variable: view}, functions=FUNCTIONS)
            for item in kind_rules:
                try:
                    item.evaluate(fact, data, context, result, record_passes, unknown)
                except RuleEvaluationError as exc:
                    result.skipped.append(Skipped(code=item.rule.code, object=fact.object, reason=f"rule error: {exc}"))
    result.unresolved.extend(facts.unresolved)
    return result

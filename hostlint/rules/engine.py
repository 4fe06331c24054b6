"""Running rules over facts with CEL (the `common-expression-language` package).

Each expression is compiled once per process. A rule's `when` and `violation` are
evaluated once per distinct key: the parts of the fact the expression can read
(hostlint.rules.reads), so a site of hosts built alike costs a few evaluations per
rule, not one per fact. A fact is converted to a `cel.Context` only when one of its
keys is new or a rule fires on it, and that context is shared by all rules that
iterate that kind of fact. A key is never smaller than what the expression can see,
so results, errors and unknown fields are the same as evaluating every fact.

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

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from time import perf_counter
from types import UnionType
from typing import Any, Union, get_args, get_origin

import cel
from pydantic import BaseModel

from hostlint.join.facts import KINDS, Fact, Facts
from hostlint.results import CheckResult, Finding, FixCandidate, FixRequest, Passed, Skipped
from hostlint.rules.budget import BUDGET_ENV, RuleRuntimeError, evaluation_budget
from hostlint.rules.model import Rule
from hostlint.rules.reads import Projector, key_function


class RuleEvaluationError(Exception):
    """A rule's expression failed on a fact (a defect in the rule, not in the site)."""


class UnknownFact(Exception):
    """A rule's expression read a fact field that is unknown; the message is the reason."""


def cel_view(data: dict[str, Any], unknown: dict[str, list[str]]) -> dict[str, Any]:
    """`data` (a dumped fact) without its unknown fields, at any depth; `unknown` collects the
    reasons by field name. Returns `data` itself when nothing is unknown."""
    missing_raw = data.get("missing")
    missing: dict[str, str] = missing_raw if isinstance(missing_raw, dict) else {}
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


# Exceptions a rule's expression raises on a fact (reported as skipped): the same key raises the same.
_EXPRESSION_ERRORS = (KeyError, TypeError, ValueError, RuntimeError)
# Seconds one expression may take on one fact (hostlint.rules.budget).
EVALUATION_BUDGET_S = evaluation_budget()


@cache
def _compile(source: str) -> Any:
    return cel.compile(source)


@cache
def _key_function(source: str, variable: str) -> Projector | None:
    return key_function(source, variable, _compile(source))


def _may_hold_models(annotation: Any) -> bool | None:
    """Whether a field so annotated holds a list of models (True), never a dict in a list (False),
    or something else cel_view would look into (None)."""
    origin = get_origin(annotation)
    if origin is list:
        (item,) = get_args(annotation) or (Any,)
        if isinstance(item, type) and issubclass(item, BaseModel):
            return True if _model_lists(item) == () else None
        return False if item in (str, int, float, bool) else None
    if origin in (Union, UnionType):
        found = [_may_hold_models(arg) for arg in get_args(annotation)]
        return False if all(f is False for f in found) else None
    return False


@cache
def _model_lists(model: type[BaseModel]) -> tuple[str, ...] | None:
    """The fields of `model` that hold lists of flat models; None when cel_view must look deeper."""
    names = []
    for name, info in model.model_fields.items():
        holds = _may_hold_models(info.annotation)
        if holds is None:
            return None
        if holds:
            names.append(name)
    return tuple(names)


def _all_known(fact: BaseModel, lists: tuple[str, ...]) -> bool:
    """No field of the fact, or of a model in its `lists`, is marked unknown in its `missing`."""
    if getattr(fact, "missing", None) and fact.missing.keys() - KINDS:  # type: ignore[attr-defined]
        return False
    for name in lists:
        for item in getattr(fact, name):
            missing = getattr(item, "missing", None)
            if missing and missing.keys() - KINDS:
                return False
    return True


class FactScope:
    """One fact as the rules see it: its dump, its CEL view, its keys, and its context when needed."""

    __slots__ = ("_context", "_keys", "data", "fact", "unknown", "variable", "view")

    def __init__(self, fact: Fact, variable: str) -> None:
        self.fact = fact
        self.data = fact.model_dump()
        self.unknown: dict[str, list[str]] = {}
        lists = _model_lists(type(fact))
        # Nothing unknown (the common case): the view is the dump itself, as cel_view would return it.
        known = lists is not None and _all_known(fact, lists)
        self.view = self.data if known else cel_view(self.data, self.unknown)
        self.variable = variable
        self._context: Any = None
        self._keys: dict[Projector, Hashable] = {}

    @property
    def context(self) -> Any:
        if self._context is None:
            self._context = cel.Context(variables={self.variable: self.view}, functions=FUNCTIONS)
        return self._context

    def key(self, projector: Projector) -> Hashable:
        """The fact's key for `projector`, computed once for all expressions that share it."""
        keys = self._keys
        if projector not in keys:
            keys[projector] = projector(self.view)
        return keys[projector]


# A memo gives up (and evaluates every fact) once more than half of this many lookups were new keys.
MEMO_WINDOW = 1024


class Memo:
    """The outcomes of one expression by key: (True, value) or (False, the exception it raised)."""

    __slots__ = ("key", "lookups", "outcomes")

    def __init__(self, key: Projector | None) -> None:
        self.key = key
        self.outcomes: dict[Hashable, tuple[bool, Any]] = {}
        self.lookups = 0

    def outcome(self, program: Any, scope: FactScope) -> tuple[bool, Any]:
        projector = self.key
        if projector is None:
            return _execute(program, scope)
        try:
            key = scope.key(projector)
            found = self.outcomes.get(key)
        except TypeError:  # a value that cannot be hashed
            return _execute(program, scope)
        self.lookups += 1
        if found is None:
            found = self.outcomes[key] = _execute(program, scope)
            if self.lookups >= MEMO_WINDOW and 2 * len(self.outcomes) > self.lookups:
                self.key, self.outcomes = None, {}
        return found


def _execute(program: Any, scope: FactScope) -> tuple[bool, Any]:
    started = perf_counter()
    try:
        value = program.execute(scope.context)
    except _EXPRESSION_ERRORS as exc:
        # The traceback holds this frame, whose `exc` holds the traceback: a cycle that keeps the fact's
        # scope (its dump and CEL context) alive until a collection, and a check pauses the collector.
        # Only the exception's type and message are used.
        return False, exc.with_traceback(None)
    except Exception as exc:  # a defect no fact explains (division by zero): the rule is named by _run
        return False, _Defect(str(exc) or type(exc).__name__)
    elapsed = perf_counter() - started
    if elapsed > EVALUATION_BUDGET_S:
        return False, _Defect(f"took {elapsed:.1f} s on one object (budget {EVALUATION_BUDGET_S:g} s, {BUDGET_ENV})")
    return True, value


class _Defect(Exception):
    """What `_execute` returns for an expression that failed for no reason a fact explains."""


def _host_kind(fact: Fact, rule: Rule) -> str | None:
    """The kind of host the fact is on: as the fact says, or the only kind whose join yields it."""
    kind = getattr(fact, "host_kind", None)
    if isinstance(kind, str):
        return kind
    return rule.host_kinds[0] if len(rule.host_kinds) == 1 else None


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
    when_memo: Memo
    violation_memo: Memo

    @classmethod
    def build(cls, rule: Rule, memoise: bool = True) -> CompiledRule:
        def compile_(field: str, source: str) -> Any:
            try:
                return _compile(source)
            except (ValueError, RuntimeError) as exc:
                raise RuleEvaluationError(f"{rule.code}: {field}: {exc}") from exc

        steps = [step for candidate in rule.fix.candidates for step in candidate.steps] if rule.fix else []
        return cls(
            rule=rule,
            when=compile_("when", rule.when),
            violation=compile_("violation", rule.violation),
            expected=compile_("expected", rule.expected),
            actual=compile_("actual", rule.actual),
            values={k: compile_(f"values.{k}", v) for k, v in rule.values.items()},
            params=[{k: compile_(f"fix.{step.action}.{k}", v) for k, v in step.params.items()} for step in steps],
            step_when=[compile_(f"fix.{step.action}.when", step.when) for step in steps],
            when_memo=Memo(_key_function(rule.when, rule.variable) if memoise else None),
            violation_memo=Memo(_key_function(rule.violation, rule.variable) if memoise else None),
        )

    def _failure(self, exc: Exception, field: str, scope: FactScope) -> Exception:
        if isinstance(exc, _Defect):
            return RuleRuntimeError(f"rule {self.rule.code} on {scope.fact.object}: {field}: {exc}")
        if isinstance(exc, KeyError):
            key = exc.args[0] if exc.args else None
            if key in scope.unknown:
                return UnknownFact("; ".join(dict.fromkeys(scope.unknown[key])))
        return RuleEvaluationError(f"{self.rule.code} on {scope.fact.object}: {field}: {exc}")

    def _run(self, program: Any, scope: FactScope, field: str, memo: Memo | None = None) -> Any:
        ok, value = memo.outcome(program, scope) if memo else _execute(program, scope)
        if not ok:
            raise self._failure(value, field, scope) from value
        return value

    def evaluate(self, scope: FactScope, result: CheckResult, record_passes: bool) -> None:
        """Report the rule on the scope's fact: a finding, a pass, or skipped (with the reason when a
        fact it reads is unknown)."""
        try:
            self._evaluate(scope, result, record_passes)
        except UnknownFact as exc:
            result.skipped.append(Skipped(code=self.rule.code, object=scope.fact.object, reason=str(exc)))

    def _evaluate(self, scope: FactScope, result: CheckResult, record_passes: bool) -> None:
        rule = self.rule
        fact = scope.fact
        run = self._run
        if "host" in fact.missing:
            result.skipped.append(Skipped(code=rule.code, object=fact.object, reason=fact.missing["host"]))
            return
        if not run(self.when, scope, "when", self.when_memo):
            return
        for need in rule.needs:
            if need in fact.missing:
                result.skipped.append(Skipped(code=rule.code, object=fact.object, reason=fact.missing[need]))
                return
        if not run(self.violation, scope, "violation", self.violation_memo):
            for need in rule.needs_for_pass:
                if need in fact.missing:
                    reason = f"only partly checked: {fact.missing[need]}"
                    result.skipped.append(Skipped(code=rule.code, object=fact.object, reason=reason))
                    return
            if record_passes:
                result.passed.append(Passed(code=rule.code, object=fact.object))
            return
        expected = run(self.expected, scope, "expected")
        actual = run(self.actual, scope, "actual")
        fields = {k: _text(run(p, scope, k)) for k, p in self.values.items()}
        fields.update(object=fact.object, host=fact.host, expected=_text(expected), actual=_text(actual))
        fix: list[FixRequest] = []
        alternatives: list[FixCandidate] = []
        if rule.fix:
            kind = _host_kind(fact, rule)
            compiled = iter(zip(self.params, self.step_when, strict=True))
            for candidate in rule.fix.candidates:
                requests = []
                for step, (params, when) in zip(candidate.steps, compiled, strict=False):
                    if (kind is not None and kind not in rule.step_hosts(step)) or not run(
                        when, scope, f"fix.{step.action}.when"
                    ):
                        continue
                    evaluated = {k: run(p, scope, f"fix.{k}") for k, p in params.items()}
                    requests.append(FixRequest(action=step.action, stage=step.stage, params=evaluated))
                alternatives.append(FixCandidate(name=candidate.name, why=candidate.why, fix=requests))
            fix = next((c.fix for c in alternatives if c.fix), [])
            if not rule.fix.alternatives:
                alternatives = []
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
                fact=scope.data,
                alternatives=alternatives,
            )
        )


class RuleRunner:
    """Rules compiled once, run on facts given in parts (a host at a time) into one result.

    Each expression's memo lives as long as the runner, and sees the facts of its kind in the same
    order whether they come whole or host by host: the parts give the same results as the whole.
    """

    def __init__(self, rules: list[Rule], record_passes: bool = True, memoise: bool = True) -> None:
        self.record_passes = record_passes
        self.by_kind: dict[str, list[CompiledRule]] = {}
        for rule in rules:
            self.by_kind.setdefault(rule.iterate, []).append(CompiledRule.build(rule, memoise))

    def run(self, facts: Facts, result: CheckResult) -> None:
        """Evaluate every rule on every fact of `facts` it iterates; a rule defect is reported as skipped."""
        for kind, kind_rules in self.by_kind.items():
            variable = kind_rules[0].rule.variable
            for fact in facts.of_kind(kind):
                scope = FactScope(fact, variable)
                for item in kind_rules:
                    try:
                        item.evaluate(scope, result, self.record_passes)
                    except RuleEvaluationError as exc:
                        reason = f"rule error: {exc}"
                        result.skipped.append(Skipped(code=item.rule.code, object=fact.object, reason=reason))
        result.unresolved.extend(facts.unresolved)


def run_rules(
    rules: list[Rule],
    facts: Facts,
    result: CheckResult | None = None,
    record_passes: bool = True,
    memoise: bool = True,
) -> CheckResult:
    """Evaluate every rule on every fact it iterates; a rule defect is reported as skipped.

    `memoise=False` evaluates every expression on every fact (no keys): the reference the
    memoised path is tested against.
    """
    result = result or CheckResult()
    RuleRunner(rules, record_passes, memoise).run(facts, result)
    return result

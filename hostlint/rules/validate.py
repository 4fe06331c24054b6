"""A rule file checked before it runs: every expression compiles and reads only fields its fact has.

Problems are one line each, `FILE:LINE:COL: field: what is wrong`, the position pointing into
the YAML file where the expression is written (also inside a folded `>-` block).
"""

from __future__ import annotations

import contextlib
import re
import string
from pathlib import Path

import cel
import yaml

from hostlint.join.facts import Facts
from hostlint.rules.budget import MAX_COMPREHENSION_NESTING, comprehension_nesting
from hostlint.rules.celcheck import CelSyntaxError, check_expression, element_type
from hostlint.rules.model import Rule

MESSAGE_FIELDS = {"object", "host", "expected", "actual"}
_CEL_POSITION = re.compile(r"<input>:(\d+):(\d+):\s*(.*)")


def fact_model(iterate: str) -> type:
    model: type = element_type(Facts.model_fields[iterate].annotation)
    return model


def expressions(rule: Rule) -> list[tuple[str, tuple[str | int, ...], str]]:
    """(label, YAML key path, CEL source) for every expression of `rule`."""
    found: list[tuple[str, tuple[str | int, ...], str]] = [
        (name, (name,), getattr(rule, name)) for name in ("when", "violation", "expected", "actual")
    ]
    found += [(f"values.{k}", ("values", k), v) for k, v in rule.values.items()]
    for n, step in enumerate(rule.fix.steps if rule.fix else []):
        found.append((f"fix.steps.{n}.when", ("fix", "steps", n, "when"), step.when))
        found += [(f"fix.steps.{n}.params.{k}", ("fix", "steps", n, "params", k), v) for k, v in step.params.items()]
    for a, alternative in enumerate(rule.fix.alternatives if rule.fix else []):
        for n, step in enumerate(alternative.steps):
            where = ("fix", "alternatives", a, "steps", n)
            found.append((f"fix.alternatives.{a}.steps.{n}.when", (*where, "when"), step.when))
            found += [
                (f"fix.alternatives.{a}.steps.{n}.params.{k}", (*where, "params", k), v) for k, v in step.params.items()
            ]
    return found


def _node(root: yaml.Node | None, keys: tuple[str | int, ...]) -> yaml.Node | None:
    node = root
    for key in keys:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if getattr(k, "value", None) == key), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            return None
    return node


def _position(text: str, node: yaml.Node | None, source: str, offset: int) -> tuple[int, int]:
    """Line and column (1-based) in the file of character `offset` of the expression in `node`.

    YAML folding changes only whitespace, so the expression's other characters appear in the
    file in the same order: walk both, skipping whitespace.
    """
    if node is None:
        return 1, 1
    start = node.start_mark.index
    raw = text[start : node.end_mark.index]
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
        skip = raw.find("\n") + 1
    elif isinstance(node, yaml.ScalarNode) and node.style in ("'", '"'):
        skip = 1
    else:
        skip = 0
    j = skip
    for char in source[:offset]:
        if char.isspace():
            continue
        while j < len(raw) and raw[j].isspace():
            j += 1
        if j >= len(raw) or raw[j] != char:
            j = skip
            break
        j += 1
    while j < len(raw) and raw[j].isspace():
        j += 1
    absolute = start + min(j, len(raw))
    line = text.count("\n", 0, absolute) + 1
    column = absolute - (text.rfind("\n", 0, absolute) + 1) + 1
    return line, column


def _compile_problem(source: str, exc: Exception) -> tuple[int, str]:
    """Offset into `source` and a one-line reason from a `cel.compile` error."""
    message = str(exc)
    match = _CEL_POSITION.search(message)
    if not match:
        return 0, message.splitlines()[0]
    line, column, reason = int(match.group(1)), int(match.group(2)), match.group(3)
    lines = source.split("\n")
    # CEL counts columns from 1.
    offset = sum(len(lines[k]) + 1 for k in range(min(line - 1, len(lines)))) + column - 1
    reason = re.sub(r"^Syntax error:\s*", "", reason.strip())
    reason = re.sub(r" expecting \{.*\}$", "", reason)
    return max(0, min(offset, len(source))), f"CEL syntax error: {reason}"


def rule_problems(rule: Rule, path: Path, text: str) -> list[str]:
    """Every problem in `rule` (read from `path`, whose contents are `text`), one line each."""
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        root = None
    variables = {rule.variable: fact_model(rule.iterate)}
    problems = []
    for label, keys, source in expressions(rule):
        found: list[tuple[int, str]] = []
        try:
            cel.compile(source)
        except (ValueError, RuntimeError) as exc:
            found.append(_compile_problem(source, exc))
        else:
            # cel.compile accepted it: a shape the path check cannot follow is left unchecked.
            with contextlib.suppress(CelSyntaxError):
                found += [(p.offset, p.message) for p in check_expression(source, variables)]
            depth, offset = comprehension_nesting(source)
            if depth > MAX_COMPREHENSION_NESTING:
                found.append(
                    (
                        offset,
                        f"{depth} nested comprehensions (exists, all, map, filter); at most "
                        f"{MAX_COMPREHENSION_NESTING}: the cost is the product of the lists' lengths",
                    )
                )
        for offset, reason in found:
            line, column = _position(text, _node(root, keys), source, offset)
            problems.append(f"{path}:{line}:{column}: {label}: {reason}")
    known = MESSAGE_FIELDS | set(rule.values)
    try:
        placeholders = [name for _, name, _, _ in string.Formatter().parse(rule.message)]
    except ValueError as exc:
        line, column = _position(text, _node(root, ("message",)), rule.message, 0)
        return [*problems, f"{path}:{line}:{column}: message: {exc}"]
    for name in placeholders:
        base = re.split(r"[.\[]", name or "")[0]
        if name is not None and base not in known:
            line, column = _position(text, _node(root, ("message",)), rule.message, 0)
            problems.append(
                f"{path}:{line}:{column}: message: {{{base}}} is neither a value (values:) nor one of "
                f"{', '.join(sorted(MESSAGE_FIELDS))}"
            )
    return problems

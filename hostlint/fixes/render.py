"""Rendering one step's action templates (rules/fixes/*.yaml) for one platform."""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2

from hostlint.fixes.spelling import FILTERS
from hostlint.fixes.steps import Step

_ENV = jinja2.Environment(
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    autoescape=False,
)
_ENV.filters.update(FILTERS)


class TemplateError(Exception):
    """A fix action template that does not render (a defect in rules/fixes, not in the site)."""


@cache
def _compile(source: str) -> jinja2.Template:
    return _ENV.from_string(source)


def _context(step: Step, platform: str) -> dict[str, Any]:
    change = step.change
    return {
        **change.values,
        "before": change.before,
        "after": change.after,
        "device": change.device,
        "platform": platform,
    }


def _render(step: Step, source: str, platform: str, where: str) -> str:
    try:
        text = _compile(source).render(_context(step, platform))
    except jinja2.TemplateError as exc:
        raise TemplateError(f"rules/fixes/{step.action.action}.yaml: {where}: {exc}") from exc
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def render(step: Step, platform: str, field: str) -> str:
    """`change`, `verify`, `expect`, `rollback` or `rollback_expect` of the step for `platform`."""
    source = getattr(step.action.platforms[platform], field)
    if source is None:
        return ""
    return _render(step, source, platform, f"{platform}.{field}")


def describe(step: Step) -> str:
    return _render(step, step.action.describe, step.change.platforms[0], "describe")

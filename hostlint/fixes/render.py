"""Rendering one step's action templates for one platform (hostlint/fixes/actions/<action>/action.yaml;
a switch platform's text is its folder's, hostlint/switches/<platform>/fixes.yaml).

Each script language has its own environment whose `finalize` refuses a raw value (see
hostlint.fixes.quoting): commands (`change`, `verify`, `rollback`) render in the platform's language,
text for people (`describe`, `expect`, `rollback_expect`) in one that escapes control characters.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2

from hostlint import platforms as registry
from hostlint.fixes import quoting
from hostlint.fixes.actions.model import folder_name
from hostlint.fixes.quoting import UnsafeValue
from hostlint.fixes.spelling import FILTERS
from hostlint.fixes.steps import Step

# Fields read by people, not run: any value, shown with its control characters escaped.
TEXT_FIELDS = ("describe", "expect", "rollback_expect")
COMMAND_FIELDS = ("change", "verify", "rollback")
_QUOTING_FILTERS = {
    "sh": quoting.sh,
    "ps": quoting.ps,
    "py": quoting.py,
    "cli": quoting.cli,
    "cli_words": quoting.cli_words,
    "config_line": quoting.config_line,
    "token": quoting.Token,
    "join": quoting.join,
}


@cache
def _environment(language: str) -> jinja2.Environment:
    env = jinja2.Environment(
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        finalize=quoting.display if language == "text" else quoting.finalizer(language),
    )
    env.filters.update(FILTERS)
    env.filters.update(_QUOTING_FILTERS)
    return env


def environment(language: str) -> jinja2.Environment:
    """The template environment of a script language (`text` for what people read)."""
    return _environment(language)


class TemplateError(Exception):
    """A fix action template that does not render (a defect in an action.yaml, not in the site)."""


@cache
def _compile(source: str, language: str) -> jinja2.Template:
    return _environment(language).from_string(source)


def _context(step: Step, platform: str, mirror: bool = False) -> dict[str, Any]:
    change = step.change
    before, after = (change.after, change.before) if mirror else (change.before, change.after)
    return {
        # A change on a platform with families carries its switch's family (hostlint.fixes.families).
        "family": None,
        **change.values,
        "before": before,
        "after": after,
        "device": change.device,
        "platform": platform,
    }


# A mirrored rollback field: the forward field it is rendered from, with before and after swapped.
_MIRRORS = {"rollback": "change", "rollback_expect": "expect"}


def _action_file(step: Step) -> str:
    return f"hostlint/fixes/actions/{folder_name(step.action.action)}/action.yaml"


def _text_file(step: Step, platform: str) -> str:
    """The file holding the step's text for `platform`: a switch platform's folder, else the action's."""
    if platform in registry.SWITCH_NAMES:
        return f"hostlint/switches/{platform}/fixes.yaml"
    return _action_file(step)


def _render(
    step: Step, source: str, platform: str, where: str, language: str, mirror: bool = False, file: str = ""
) -> str:
    named = file or _text_file(step, platform)
    try:
        text = _compile(source, language).render(_context(step, platform, mirror))
    except UnsafeValue as exc:
        raise UnsafeValue(f"{named}: {where}: {exc}") from exc
    except jinja2.TemplateError as exc:
        raise TemplateError(f"{named}: {where}: {exc}") from exc
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def render(step: Step, platform: str, field: str) -> str:
    """`change`, `verify`, `expect`, `rollback` or `rollback_expect` of the step for `platform`."""
    text = step.action.platforms[platform]
    language = "text" if field in TEXT_FIELDS else registry.target(platform).language
    source = getattr(text, field)
    if source is None and text.mirrored and field in _MIRRORS:
        forward = _MIRRORS[field]
        where = f"{platform}.{field} (mirrored {forward})"
        return _render(step, getattr(text, forward), platform, where, language, mirror=True)
    if source is None:
        return ""
    return _render(step, source, platform, f"{platform}.{field}", language)


def describe(step: Step) -> str:
    return _render(step, step.action.describe, step.change.platforms[0], "describe", "text", file=_action_file(step))


def render_all(step: Step) -> None:
    """Render every field of the step for each of its platforms; UnsafeValue if any value is refused."""
    describe(step)
    for platform in step.change.platforms:
        for field in (*COMMAND_FIELDS, "expect", "rollback_expect"):
            render(step, platform, field)

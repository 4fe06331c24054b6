"""Platform families inside one fix target: a change gets its switch's family, or is not scripted.

A switch platform whose folder has a `families` piece (hostlint/switches/<platform>/families.py:
Junos EX ELS, EX non-ELS and MX) writes some statements differently per family; its text that reads
`family` is written for the switch's family, text that does not read it is the same everywhere. The
family comes from the model the collector read from `show version`; an unknown model makes the
family-dependent change a manual step, never a guess.
"""

from __future__ import annotations

from functools import cache

import jinja2.meta

from hostlint import switches
from hostlint.fixes.actions import Action
from hostlint.fixes.render import environment
from hostlint.fixes.steps import Change
from hostlint.snapshot.switch import Switch

VARIABLE = "family"


@cache
def _reads(sources: tuple[str, ...]) -> bool:
    env = environment("text")
    return any(VARIABLE in jinja2.meta.find_undeclared_variables(env.parse(s)) for s in sources)


def _reads_family(action: Action, platform: str) -> bool:
    text = action.platforms.get(platform)
    if text is None:
        return False
    return _reads((text.change, text.verify, text.expect, text.rollback or "", text.rollback_expect or ""))


def add_family(change: Change, action: Action, switch: Switch | None) -> str | None:
    """Give a change its switch's family (`values["family"]`) where its platform has families; the
    reason it cannot be scripted when its text depends on a family that is unknown or not supported,
    else None."""
    platform = next((p for p in change.platforms if switches.families(p) is not None), None)
    families = switches.families(platform) if platform is not None else None
    if platform is None or families is None:
        return None
    model = switch.model if switch is not None else None
    found = families.family(model)
    change.values[VARIABLE] = found
    unsupported = families.unsupported.get(found or "", {})
    if found is not None and action.action in unsupported:
        return unsupported[action.action]
    if found is None and _reads_family(action, platform):
        return families.unknown_reason(model)
    return None

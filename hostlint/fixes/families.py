"""Platform families inside one fix target: a Junos change gets its switch's family, or is not scripted.

A Junos template that reads `junos_family` writes statements that differ between EX ELS, EX
non-ELS and MX (hostlint.junos_families); one that does not read it is the same everywhere. The
family comes from the model the collector read from `show version`; an unknown model makes the
family-dependent change a manual step, never a guess.
"""

from __future__ import annotations

from functools import cache

import jinja2.meta

from hostlint.fixes.actions import Action
from hostlint.fixes.render import environment
from hostlint.fixes.steps import Change
from hostlint.junos_families import Family, family, unknown_reason
from hostlint.snapshot.switch import Switch

JUNOS = "juniper_junos"
VARIABLE = "junos_family"

# What hostlint does not write for a family, and why (the manual step says it).
_MX_VLANS = (
    "MX: VLANs on a trunk live in `family bridge` / bridge domains or `flexible-ethernet-services`, "
    "which this site's templates do not know; change them by hand"
)
_MX_MEMBERS = (
    "MX: an ae's members join it under `gigether-options 802.3ad` and its unit 0 is `family bridge`, "
    "which this site's templates do not write; change the bundle by hand"
)
UNSUPPORTED: dict[Family, dict[str, str]] = {
    "mx": {
        "switch-trunk-allow-vlan": _MX_VLANS,
        "switch-trunk-native-vlan": _MX_VLANS,
        "switch-static-port-channel": _MX_MEMBERS,
        "switch-remove-port-channel": _MX_MEMBERS,
    },
}


@cache
def _reads(sources: tuple[str, ...]) -> bool:
    env = environment("text")
    return any(VARIABLE in jinja2.meta.find_undeclared_variables(env.parse(s)) for s in sources)


def _reads_family(action: Action) -> bool:
    text = action.platforms.get(JUNOS)
    if text is None:
        return False
    return _reads((text.change, text.verify, text.expect, text.rollback or "", text.rollback_expect or ""))


def add_family(change: Change, action: Action, switch: Switch | None) -> str | None:
    """Give a Junos change its switch's family (`values["junos_family"]`); the reason it cannot be
    scripted when its text depends on a family that is unknown or not supported, else None."""
    if JUNOS not in change.platforms:
        return None
    model = switch.model if switch is not None else None
    found = family(model)
    change.values[VARIABLE] = found
    if found is not None and action.action in UNSUPPORTED.get(found, {}):
        return UNSUPPORTED[found][action.action]
    if found is None and _reads_family(action):
        return unknown_reason(model)
    return None

"""Skipped rule checks grouped by rule and reason, so a report grows with what went wrong, not with the site.

A skip's reason names the object whose fact was unknown ("leaf-r001a Ethernet1/1: trunk allowed VLANs
not shown by `show running-config`", see hostlint.join.sources): on 1,000 hosts one missing command
gives 1,000 different reasons. The group key drops that object ("trunk allowed VLANs not shown by
`show running-config`"), so each rule has one line per cause with a count. Every object stays in the
group (JSON, `--show-skipped` and the collapsed HTML section list each one).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from hostlint.results import CheckResult

EVERY_OBJECT = "every object"
UNRESOLVED_REASON = "switch port of an uplink unknown (see unresolved uplinks)"
# `<device> <part>: <what> not shown by ...` / `... unknown (...)` (join.sources: switch_unknown, esxi_unknown,
# kvm_unknown) or `<host>/<thing>: <what>` (an uplink the join could not place). The device is one token; the part
# may hold spaces ("port group VM Net"). Anything else ("rule error: ...") is kept whole.
_NAMED = re.compile(r"^[^\s:]+ [^:]+: (?=.*(?: not shown by | unknown \())|^[^\s:/]+/[^\s:]+: ")
PARTLY = "only partly checked: "


@dataclass
class SkipGroup:
    """One rule skipped for one cause, on `objects` (sorted), each with its own reason."""

    code: str
    name: str
    reason: str
    objects: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)


def reason_kind(reason: str, host: str | None = None) -> str:
    """The reason without the objects it names: what to fix, the same on every host it applies to."""
    prefix = ""
    if reason.startswith(PARTLY):
        prefix, reason = PARTLY, reason.removeprefix(PARTLY)
    parts = []
    for part in reason.split("; "):
        part = _NAMED.sub("", part, count=1)
        if host:
            part = part.replace(host, "the host")
        parts.append(part)
    # The same cause on both uplinks of a team reads once.
    return prefix + "; ".join(dict.fromkeys(parts))


def group_skips(result: CheckResult, names: dict[str, str]) -> list[SkipGroup]:
    """Skips by rule and cause, the largest first; a skip caused by an unresolved uplink says so."""
    unresolved = {u.reason for u in result.unresolved}
    groups: dict[tuple[str, str], SkipGroup] = {}
    for skip in result.skipped:
        obj = skip.object or EVERY_OBJECT
        host = skip.object.split("/", 1)[0] if skip.object else None
        kind = UNRESOLVED_REASON if skip.reason in unresolved else reason_kind(skip.reason, host)
        group = groups.get((skip.code, kind))
        if group is None:
            group = groups[(skip.code, kind)] = SkipGroup(skip.code, names.get(skip.code, ""), kind)
        group.objects.append(obj)
        group.details.append(skip.reason)
    for group in groups.values():
        order = sorted(range(len(group.objects)), key=group.objects.__getitem__)
        group.objects = [group.objects[i] for i in order]
        group.details = [group.details[i] for i in order]
    return sorted(groups.values(), key=lambda g: (-len(g.objects), g.code, g.reason))


def skipped_hosts(result: CheckResult) -> int:
    """How many hosts have at least one skipped check."""
    return len({s.object.split("/", 1)[0] for s in result.skipped if s.object})


def by_cause(groups: list[SkipGroup]) -> dict[str, list[SkipGroup]]:
    """The groups of each cause, for a report that leads with what to fix."""
    causes: dict[str, list[SkipGroup]] = defaultdict(list)
    for group in groups:
        causes[group.reason].append(group)
    return dict(causes)

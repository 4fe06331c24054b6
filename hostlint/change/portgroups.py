"""How a vSwitch teaming change reaches the vSwitch's port groups.

A port group follows the vSwitch in the teaming fields it inherits and keeps its own value in
those it pins (HostPortGroup.spec.policy.nicTeaming, collected as `teaming_set`). Where that was
not collected the port group is named: whether the change reaches it is not known.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hostlint.fixes.apply import TEAMING_SET_FIELD
from hostlint.results import Finding
from hostlint.snapshot import Snapshot
from hostlint.snapshot.esxi import PortGroup, Teaming


@dataclass
class PortGroupReach:
    """One port group on a changed vSwitch: the changed fields it follows and those it keeps."""

    object: str
    follows: list[str] = field(default_factory=list)
    # changed field -> the value the port group keeps
    pinned: dict[str, str] = field(default_factory=dict)
    # teaming_set not collected: whether it follows is unknown
    unknown: bool = False
    # findings on the port group's own team once the whole plan is applied
    findings: list[Finding] = field(default_factory=list)


def _shown(teaming: Teaming, set_field: str) -> str:
    if set_field == "order":
        standby = f"; standby {', '.join(teaming.standby)}" if teaming.standby else ""
        return f"active {', '.join(teaming.active) or '(none)'}{standby}"
    return str(getattr(teaming, set_field)).lower()


def _changed_fields(old: Teaming, new: Teaming) -> list[str]:
    changed = [set_field for name, set_field in TEAMING_SET_FIELD.items() if getattr(old, name) != getattr(new, name)]
    return list(dict.fromkeys(changed))


def _reach(pg: PortGroup, team_object: str, old: Teaming, changed: list[str]) -> PortGroupReach:
    reach = PortGroupReach(object=team_object)
    if pg.teaming_set is None:
        reach.unknown = True
        return reach
    effective = pg.teaming or old
    for set_field in changed:
        if getattr(pg.teaming_set, set_field) == "pinned":
            reach.pinned[set_field] = _shown(effective, set_field)
        else:
            reach.follows.append(set_field)
    return reach


def portgroup_reach(before: Snapshot, after: Snapshot, final_findings: list[Finding]) -> list[PortGroupReach]:
    """Every port group of every vSwitch whose teaming differs between `before` and `after`."""
    after_hosts = {host.name: host for host in after.esxi_hosts}
    reaches = []
    for host in before.esxi_hosts:
        changed_host = after_hosts.get(host.name)
        if changed_host is None:
            continue
        new_teaming = {vswitch.name: vswitch.teaming for vswitch in changed_host.vswitches}
        for vswitch in host.vswitches:
            new = new_teaming.get(vswitch.name)
            changed = _changed_fields(vswitch.teaming, new) if new is not None else []
            if not changed:
                continue
            for pg in host.portgroups:
                if pg.vswitch != vswitch.name:
                    continue
                reach = _reach(pg, f"{host.name}/{vswitch.name}/{pg.name}", vswitch.teaming, changed)
                reach.findings = [f for f in final_findings if f.object == reach.object]
                reaches.append(reach)
    return reaches

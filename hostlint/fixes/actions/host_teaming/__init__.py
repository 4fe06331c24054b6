"""host-teaming: its expander and simulated applier; its templates and rollback are in action.yaml."""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import HOST_PLATFORMS, Applier, Expander
from hostlint.fixes.apply import _set_teaming
from hostlint.fixes.facts import require
from hostlint.fixes.host_steps import _inherits, _team_target, _team_values
from hostlint.fixes.site import Site
from hostlint.fixes.spelling import esxcli_policy
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import Fact, TeamFact
from hostlint.snapshot import Snapshot


def host_teaming(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    team: TeamFact = require(fact, TeamFact)
    policy = params["policy"]
    if team.kind == "dvs-portgroup":
        # A distributed port group's policy lives in vCenter and applies to every host on the switch.
        host = site.host(team.host)
        vcenter = host.vcenter if host and host.vcenter else "vcenter"
        return [
            Change(
                action="host-teaming",
                device=vcenter,
                platforms=("powercli",),
                target=_team_target(team),
                values=_team_values(team),
                after=policy,
                before=team.policy,
                notes=[f"distributed port group: this changes every host on {team.vswitch}"],
            )
        ]
    try:
        esxcli_policy(policy)
    except KeyError:
        raise CannotFix(f"a standard vSwitch cannot use {policy}") from None
    values = _team_values(team)
    if team.kind == "vss-portgroup":
        values["inherits"] = _inherits(team, site)
    return [
        Change(
            action="host-teaming",
            device=team.host,
            platforms=HOST_PLATFORMS,
            target=_team_target(team),
            values=values,
            after=policy,
            before=team.policy,
        )
    ]


def _host_teaming(snapshot: Snapshot, change: Change) -> None:
    _set_teaming(snapshot, change, {"policy": change.after})


EXPAND: Expander = host_teaming
APPLY: Applier = _host_teaming

"""What several host-side fix actions (hostlint/fixes/actions/) share: how a team is named in a change."""

from __future__ import annotations

import dataclasses
from typing import Any

from hostlint import platforms as registry
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix
from hostlint.join.facts import TeamFact

ESXI_MAX_MTU = registry.host_kind("esxi").max_mtu


def _esxi_mtu(mtu: int, what: str) -> int:
    """`mtu` when ESXi takes it (hostlint.platforms); a plan never writes beyond the limit (invariant 6)."""
    if ESXI_MAX_MTU is not None and mtu > ESXI_MAX_MTU:
        raise CannotFix(f"{what}: MTU {mtu} is above the ESXi maximum of {ESXI_MAX_MTU}")
    return mtu


def _team_values(team: TeamFact) -> dict[str, Any]:
    return {"kind": team.kind, "vswitch": team.vswitch, "portgroup": team.portgroup}


def _inherits(team: TeamFact, site: Site) -> list[str] | None:
    """The teaming fields (`TeamingSet` names) a standard port group takes from its vSwitch, so a
    rollback can make it inherit them again instead of pinning the old values; None: not collected."""
    host = site.host(team.host)
    portgroups = host.portgroups if host else []
    pg = next((p for p in portgroups if p.name == team.portgroup and p.vswitch == team.vswitch), None)
    if pg is None or pg.teaming_set is None:
        return None
    return [name for name, how in dataclasses.asdict(pg.teaming_set).items() if how == "inherited"]


def _team_target(team: TeamFact) -> str:
    return team.vswitch + (f"/{team.portgroup}" if team.portgroup else "")

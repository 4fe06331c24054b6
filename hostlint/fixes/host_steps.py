"""What several host-side fix actions (hostlint/fixes/actions/) share: how a team is named in a change."""

from __future__ import annotations

from typing import Any

from hostlint.join.facts import TeamFact


def _team_values(team: TeamFact) -> dict[str, Any]:
    return {"kind": team.kind, "vswitch": team.vswitch, "portgroup": team.portgroup}


def _team_target(team: TeamFact) -> str:
    return team.vswitch + (f"/{team.portgroup}" if team.portgroup else "")

"""Host-side fix actions: from a fact and the rule's params to changes on ESXi hosts (or vCenter)."""

from __future__ import annotations

import dataclasses
from typing import Any

from hostlint.fixes.actions import HOST_PLATFORMS
from hostlint.fixes.facts import require
from hostlint.fixes.site import Site
from hostlint.fixes.spelling import esxcli_policy
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import Fact, TeamFact, UplinkFact, VmkFact


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


def host_active_uplinks(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    team: TeamFact = require(fact, TeamFact)
    if team.kind == "dvs-portgroup":
        raise CannotFix("a distributed port group's failover order is set in vCenter")
    active = list(params["active"])
    detection = params.get("failure_detection", "link")
    host = site.host(team.host)
    vswitch = next((v for v in host.vswitches if v.name == team.vswitch), None) if host else None
    on_vswitch = vswitch.uplinks if vswitch else team.active + team.standby + team.unused
    remove = [nic for nic in params.get("remove", []) if nic in on_vswitch and nic not in active]
    notes = []
    if team.kind == "vss-portgroup" and remove:
        notes.append(f"{', '.join(remove)} stay on {team.vswitch}: a port group override cannot remove uplinks")
        remove = []
    if remove and len(active) < 2:
        notes.append(f"{team.vswitch} is left with one uplink: removing {', '.join(remove)} loses failover")
    standby = [nic for nic in team.standby if nic not in active and nic not in remove]
    if standby:
        notes.append(f"{', '.join(standby)} stay standby: neither made active nor removed")
    values = {
        **_team_values(team),
        "active": active,
        "standby": standby,
        "remove": remove,
        "failure_detection": detection,
    }
    if team.kind == "vss-portgroup":
        values["inherits"] = _inherits(team, site)
    before = {"active": team.active, "standby": team.standby, "failure_detection": team.failure_detection}
    after = {"active": active, "standby": standby, "failure_detection": detection, "removed": remove}
    return [
        Change(
            action="host-active-uplinks",
            device=team.host,
            platforms=HOST_PLATFORMS,
            target=_team_target(team),
            values=values,
            after=after,
            before=before,
            notes=notes,
        )
    ]


def host_vswitch_mtu(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    mtu = int(params["mtu"])
    if isinstance(fact, VmkFact):
        if fact.dvswitch:
            raise CannotFix(
                f"{fact.dvswitch} is a distributed switch: its MTU is set in vCenter and applies to every host "
                f"on it, so raise it to {mtu} there once every host's switch ports carry {mtu}"
            )
        vswitch, current = fact.vswitch, fact.vswitch_mtu
    else:
        team: TeamFact = require(fact, TeamFact, VmkFact)
        if team.kind in ("dvs-portgroup", "dvs"):
            raise CannotFix("a distributed switch's MTU is set in vCenter")
        vswitch, current = team.vswitch, team.mtu
    if vswitch is None:
        raise CannotFix(f"{fact.object} is not on a standard vSwitch")
    return [
        Change(
            action="host-vswitch-mtu",
            device=fact.host,
            platforms=HOST_PLATFORMS,
            target=vswitch,
            values={"vswitch": vswitch},
            after=mtu,
            before=current,
        )
    ]


def vmk_mtu(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    vmk: VmkFact = require(fact, VmkFact)
    mtu = int(params["mtu"])
    notes = []
    if vmk.vswitch_mtu is not None and vmk.vswitch_mtu < mtu:
        notes.append(f"{vmk.vswitch} has MTU {vmk.vswitch_mtu} in the snapshot: raise it before this step")
    values = {"vmk": vmk.name, "peer": site.vmk_peer(vmk), "subnet": f"{vmk.ip}/{vmk.prefix}"}
    return [
        Change(
            action="vmk-mtu",
            device=vmk.host,
            platforms=HOST_PLATFORMS,
            target=vmk.name,
            values=values,
            after=mtu,
            before=vmk.mtu,
            notes=notes,
        )
    ]


def host_nic_autoneg(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    uplinks = [fact] if isinstance(fact, UplinkFact) else require(fact, TeamFact).uplinks
    changes = []
    for uplink in uplinks:
        if uplink.configured_speed_mbps is None:
            continue
        before = {"speed": uplink.configured_speed_mbps, "duplex": uplink.configured_duplex or "full"}
        changes.append(
            Change(
                action="host-nic-autoneg",
                device=uplink.host,
                platforms=HOST_PLATFORMS,
                target=uplink.nic,
                values={"nic": uplink.nic},
                after="auto",
                before=before,
                notes=[f"{uplink.nic} bounces: make sure the host keeps management on another uplink"],
            )
        )
    return changes


def vmk_migrate(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    """Move a vmk to a distributed port group (`DSwitch/PortGroup`), one change per vmk."""
    vmk: VmkFact = require(fact, VmkFact)
    dvswitch, _, portgroup = str(params["to"]).partition("/")
    if not portgroup:
        raise CannotFix(f"move {vmk.name} to DSWITCH/PORTGROUP, not {params['to']!r}")
    move = {
        "vmk": vmk.name,
        "dvswitch": dvswitch,
        "portgroup": portgroup,
        "from_portgroup": vmk.portgroup,
        "from_switch": vmk.dvswitch or vmk.vswitch,
    }
    return [
        Change(
            action="vmk-migrate",
            device=vmk.host,
            platforms=("powercli",),
            target=vmk.name,
            values={"moves": [move]},
            after=f"{dvswitch}/{portgroup}",
            before=f"{move['from_switch']}/{vmk.portgroup}",
            notes=[f"{vmk.name}'s traffic stops while it moves: the other paths must carry the I/O meanwhile"],
        )
    ]

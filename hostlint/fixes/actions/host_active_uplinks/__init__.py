"""host-active-uplinks: its expander and simulated applier; its templates and rollback are in action.yaml."""

from __future__ import annotations

from typing import Any

from hostlint.fixes.actions import HOST_PLATFORMS, Applier, Expander
from hostlint.fixes.actions.host_teaming import host_teaming
from hostlint.fixes.apply import _host, _set_teaming, _vswitch
from hostlint.fixes.facts import require
from hostlint.fixes.host_steps import _inherits, _team_target, _team_values
from hostlint.fixes.site import Site
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import Fact, TeamFact
from hostlint.snapshot import Snapshot


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
    spare = [site.uplink(team.host, nic) for nic in team.unused]
    channel = {u.nic: u.port_channel for u in [*team.uplinks, *(u for u in spare if u is not None)]}
    # One active uplink and no channel (LG001 asks for none: it wants two active uplinks): removing the
    # spare ones would leave no failover, port ID keeps them as standby. A port group that overrides its
    # vSwitch with IP hash too: it cannot remove an uplink, so only port ID clears the finding.
    alone = len(active) < 2 and not any(channel.values())
    if team.policy == "loadbalance_ip" and team.kind in ("vss", "vss-portgroup") and alone:
        return _port_id_instead(team, active, remove, detection, site)
    # The switch keeps hashing flows to a port bundled in the channel: its NIC is made active, never
    # taken off the vSwitch (that black-holes those flows and loses failover; issue #26, invariant 3).
    # A channel the team faces: its active uplinks' (none yet: the one LG001's fix extends, hostlint.fixes.site).
    facing = {channel[nic] for nic in active if channel.get(nic)} or set(channel.values())
    bundled = [nic for nic in remove if channel.get(nic) in facing - {None}]
    active += bundled
    remove = [nic for nic in remove if nic not in bundled]
    notes = [f"{nic} made active: its switch port stays in {channel[nic]}" for nic in bundled]
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
    change = Change(
        action="host-active-uplinks",
        device=team.host,
        platforms=HOST_PLATFORMS,
        target=_team_target(team),
        values=values,
        after=after,
        before=before,
        notes=notes,
    )
    if change.changes_nothing():
        # Setting exactly the current values would only pin them on the port group: a step that
        # changes nothing is refused and the finding named, never presented as its fix (invariant 2).
        said = f" ({'; '.join(notes)})" if notes else ""
        raise CannotFix(f"{_team_target(team)}: the only step possible sets exactly its current values{said}")
    return [change]


def _port_id_instead(team: TeamFact, active: list[str], spare: list[str], detection: str, site: Site) -> list[Change]:
    """No port of the team is in a port-channel: IP hash buys nothing there, so the team moves to port ID
    and keeps its spare uplinks as standby instead of losing them (and failover)."""
    teaming = host_teaming({"policy": "loadbalance_srcid"}, team, site)
    standby = [nic for nic in team.standby + team.unused if nic not in active]
    values = {**_team_values(team), "active": active, "standby": standby, "remove": [], "failure_detection": detection}
    before = {"active": team.active, "standby": team.standby, "failure_detection": team.failure_detection}
    after = {"active": active, "standby": standby, "failure_detection": detection, "removed": []}
    note = f"no port of {team.vswitch} is in a port-channel: port ID with {', '.join(standby) or 'no'} standby"
    order = Change(
        action="host-active-uplinks",
        device=team.host,
        platforms=HOST_PLATFORMS,
        target=_team_target(team),
        values=values,
        after=after,
        before=before,
        notes=[note],
    )
    if order.changes_nothing():
        # The failover order is already as wanted: the policy step alone, saying why.
        teaming[0].notes.append(note)
        return teaming
    return [*teaming, order]


def _host_active_uplinks(snapshot: Snapshot, change: Change) -> None:
    after = change.after
    _set_teaming(
        snapshot,
        change,
        {
            "active": list(after["active"]),
            "standby": list(after["standby"]),
            "unused": [],
            "failure_detection": after["failure_detection"],
        },
    )
    if after["removed"] and change.values["kind"] == "vss":
        vswitch = _vswitch(_host(snapshot, change.device), change.values["vswitch"])
        vswitch.uplinks = [nic for nic in vswitch.uplinks if nic not in after["removed"]]


EXPAND: Expander = host_active_uplinks
APPLY: Applier = _host_active_uplinks

"""switch-static-port-channel: its expander and simulated applier.

Its text per platform is in hostlint/switches/<platform>/fixes.yaml (its description in action.yaml).
"""

from __future__ import annotations

from typing import Any

from hostlint import names, vocab
from hostlint import platforms as registry
from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _join_channel
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.facts import known, require, uplinks_of
from hostlint.fixes.site import Site, channel, channel_by_number, port
from hostlint.fixes.spelling import channel_interface, channel_number
from hostlint.fixes.steps import CannotFix, Change
from hostlint.fixes.switch_steps import _by_switch, _hash_change, _switch
from hostlint.join.facts import Fact, TeamFact
from hostlint.snapshot import Snapshot
from hostlint.snapshot.switch import PortChannel, Switch


def _ip_hash(switch: Switch) -> list[Change]:
    """A switch-hash step when the switch's hash does not include both IP addresses (IP hash needs them)."""
    current = switch.load_balance.hash if switch.load_balance else None
    if {"src-ip", "dst-ip"} <= set(vocab.hash_fields(current)):
        return []
    return [_hash_change(switch, "src-dst-ip")]


def _members(switch: Switch, ports: list[str], number: int) -> list[dict[str, Any]]:
    """The team's ports that must (re)join channel `number` in mode on, with where each was before and
    its own collected configuration lines (`lines`, verbatim; None where they were not collected): a
    platform whose members take the channel's VLAN lines when they join (Comware) types them back in
    the rollback."""
    members = []
    for name in ports:
        found = port(switch, name)
        current = channel(switch, found.port_channel) if found else None
        if current is not None and channel_number(current.name) == number and current.mode == "static":
            continue
        members.append(
            {
                "port": found.name if found else name,
                "from_channel": channel_number(current.name) if current else None,
                "from_mode": current.mode if current else None,
                "lines": list(found.config_lines) if found is not None and found.config_lines is not None else None,
            }
        )
    return members


def _moves(switch: Switch, members: list[dict[str, Any]], existing: PortChannel | None) -> list[str]:
    """Members moving out of another channel: only with both channels' VLANs known (a member takes the
    channel's switchport lines), and a channel left without members is named (invariant 9)."""
    old_numbers = sorted({m["from_channel"] for m in members if m["from_channel"] is not None})
    if not old_numbers:
        return []
    moved = {names.interface_key(m["port"]) for m in members}
    notes = []
    for number in old_numbers:
        old = channel_by_number(switch, number)
        if old is None:
            continue
        for side in (old, existing):
            if side is not None and side.switchport == "trunk" and side.allowed_vlans is None:
                raise CannotFix(
                    f"{switch.name} {side.name}: its VLANs were not collected, so moving a member between"
                    f" {old.name} and another channel could drop VLANs: move it by hand"
                )
        if {names.interface_key(m) for m in old.members} <= moved:
            notes.append(f"{old.name} is left without members: remove it (and its vPC/MLAG id) once this plan is run")
    return notes


def _channel_change(switch: Switch, ports: list[str], number: int, multichassis: str | None) -> Change | None:
    existing = channel_by_number(switch, number)
    members = _members(switch, ports, number)
    add_multichassis = multichassis is not None and (existing is None or existing.multichassis_id != number)
    if not members and not add_multichassis:
        return None
    platform = switch.platform
    in_channel = [m for m in members if m["from_channel"] is not None]
    # Junos keeps unit config on the ae interface: a new ae copies it from where the first member has it.
    config_source = (
        (channel_interface(in_channel[0]["from_channel"], platform) if in_channel else members[0]["port"])
        if members
        else None
    )
    notes = _moves(switch, members, existing)
    by_hand = registry.switch(platform).multichassis_by_hand
    if multichassis is not None and by_hand:
        notes.append(f"{registry.switch(platform).label} {by_hand} is not written by hostlint: configure it by hand")
    return Change(
        action="switch-static-port-channel",
        device=switch.name,
        platforms=(platform,),
        target=",".join(ports),
        values={
            "number": number,
            "interface": channel_interface(number, platform),
            "ports": ports,
            "members": members,
            "create": existing is None,
            "existing_mode": existing.mode if existing else None,
            "multichassis": multichassis if add_multichassis else None,
            # The vPC/MLAG id the channel carries now, removed before the new one and restored by the rollback.
            "old_multichassis_id": (
                existing.multichassis_id
                if add_multichassis and existing is not None and existing.multichassis_id not in (None, number)
                else None
            ),
            "config_source": config_source,
        },
        after=f"channel {number} mode on",
        notes=notes,
    )


def static_port_channel(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    team: TeamFact = require(fact, TeamFact)
    grouped = _by_switch(uplinks_of(team, site, roles=("active",)))
    switches = [_switch(site, name) for name in grouped]
    if len({site.logical(s) for s in switches}) > 1:
        raise CannotFix(
            f"the active uplinks land on {' and '.join(grouped)}, which are not one logical switch "
            "(stack, vPC, MLAG): one port-channel cannot span them"
        )
    multichassis = site.multichassis(switches)
    if len(switches) > 1 and multichassis is None:
        raise CannotFix(f"{' and '.join(grouped)} form one logical switch: configure its channel by hand")
    ports = {name: sorted({known(u.port, u) for u in uplinks}) for name, uplinks in grouped.items()}
    found = [site.uplink(team.host, nic) for nic in team.standby + team.unused]
    spare = _by_switch([u for u in found if u is not None and u.switch and u.port])
    team_ports = {name: sorted({known(u.port, u) for u in uplinks}) for name, uplinks in spare.items()}
    number = site.channels.choose(ports, switches, team_ports)
    changes: list[Change] = []
    for switch in switches:
        changes.extend(_ip_hash(switch))
        change = _channel_change(switch, ports[switch.name], number, multichassis)
        if change is not None:
            changes.append(change)
    return changes


def _switch_static_port_channel(snapshot: Snapshot, change: Change) -> None:
    values = change.values
    multichassis_id = values["number"] if values.get("multichassis") else None
    _join_channel(_switch_in(snapshot, change.device), values["interface"], values["ports"], "static", multichassis_id)


EXPAND: Expander = static_port_channel
APPLY: Applier = _switch_static_port_channel

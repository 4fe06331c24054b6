"""One link forwarding while a live team's port-channel changes (Broadcom KB 1022751, DOMAIN.md).

When a plan forms, converts or removes a channel under a live ESXi team, the switch ports of the
team's links that the change touches are shut first, all but one, both ends are changed, then the
shut ports come back: the team keeps one link forwarding throughout, and no link carries traffic
while its two ends disagree.
"""

from __future__ import annotations

from hostlint import names
from hostlint.fixes.site import Site, channel, port
from hostlint.fixes.steps import Change
from hostlint.join.facts import Fact, TeamFact

# The actions that form, convert or remove a port-channel, and where each names the ports it moves.
CHANNEL_ACTIONS = ("switch-static-port-channel", "switch-channel-mode-static", "switch-channel-mode-lacp")
REMOVE = "switch-remove-port-channel"
STP_NOTE = (
    "{ports} back in a trunk: spanning tree holds a port about 30 s (listening, learning) before it forwards,"
    " unless it is an edge port (portfast trunk, spanning-tree port type edge trunk); check it forwards"
    " before the next step"
)


def _touched(change: Change) -> list[str]:
    members = change.values.get("members", [])
    if change.action == "switch-static-port-channel":
        return [member["port"] for member in members]
    return list(members)


def _is_trunk(site: Site, switch_name: str, name: str) -> bool:
    switch = site.switch(switch_name)
    found = port(switch, name) if switch else None
    if found is None or switch is None:
        return False
    owner = channel(switch, found.port_channel)
    return found.mode == "trunk" or (owner is not None and owner.switchport == "trunk")


def one_link_forwarding(fact: Fact, changes: list[Change], site: Site) -> tuple[list[Change], list[Change]]:
    """The shutdown changes to run before `changes` and the no-shutdown changes after them, per switch;
    none when the fact is no live ESXi team or at most one of its links is touched."""
    if not isinstance(fact, TeamFact) or site.host(fact.host) is None or fact.lag is not None:
        return [], []
    live = {
        (names.device_key(u.switch), names.interface_key(u.port)): (u.switch, u.port, u.role)
        for u in fact.uplinks
        if u.link_up and u.switch and u.port and u.role in ("active", "standby")
    }
    touched = {
        (names.device_key(change.device), names.interface_key(name))
        for change in changes
        if change.action in (*CHANNEL_ACTIONS, REMOVE)
        for name in _touched(change)
    } & set(live)
    if not touched:
        return [], []
    untouched_active = [key for key in set(live) - touched if live[key][2] == "active"]
    shut = set(touched)
    if not untouched_active:
        keep = min(touched, key=lambda key: (live[key][2] != "active", key))
        shut.discard(keep)
    by_switch: dict[str, list[str]] = {}
    for key in sorted(shut):
        switch_name, name, _ = live[key]
        by_switch.setdefault(switch_name, []).append(name)
    down, up = [], []
    for switch_name, ports in sorted(by_switch.items()):
        switch = site.switch(switch_name)
        if switch is None:
            continue
        platforms = (switch.platform,)
        values = {"ports": ports}
        down.append(Change("switch-port-admin", switch.name, platforms, ",".join(ports), values, "down", "up"))
        trunks = [name for name in ports if _is_trunk(site, switch.name, name)]
        notes = [STP_NOTE.format(ports=", ".join(trunks))] if trunks else []
        up.append(Change("switch-port-admin", switch.name, platforms, ",".join(ports), values, "up", "down", notes))
    return down, up

"""One link forwarding while a live team's port-channel changes (Broadcom KB 1022751, DOMAIN.md).

When a plan forms, converts or removes a channel under a live ESXi team, the switch ports of the
team's links that the change touches are shut first, all but one, both ends are changed, then the
shut ports come back: the team keeps one link forwarding throughout, and no link carries traffic
while its two ends disagree.
"""

from __future__ import annotations

from hostlint import names, switches
from hostlint.fixes.apply import ApplyError, apply_change
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.site import Site, channel
from hostlint.fixes.steps import Change, Step
from hostlint.join.facts import Fact, TeamFact, UplinkFact
from hostlint.snapshot import Snapshot
from hostlint.snapshot.switch import TWO_PEERS, Switch

# The actions that form, convert or remove a port-channel, and where each names the ports it moves.
CHANNEL_ACTIONS = ("switch-static-port-channel", "switch-channel-mode-static", "switch-channel-mode-lacp")
REMOVE = "switch-remove-port-channel"
STP_NOTE = (
    "{ports}: a new spanning-tree port on a trunk without edge settings in its configuration; spanning tree"
    " holds it about 30 s (listening, learning) before it forwards; check it forwards before the next step"
)
STP_UNKNOWN_NOTE = (
    "{ports}: a new spanning-tree port on a trunk; hostlint cannot tell whether it is an edge port ({why}):"
    " unless it is, spanning tree holds it about 30 s (listening, learning) before it forwards; check it"
    " forwards before the next step"
)


def edge_port(platform: str, lines: list[str] | None) -> bool | str:
    """Whether the interface with these collected lines is an edge port (forwards at once on a trunk):
    True, False, or why that cannot be told (lines not collected, a platform whose edge-port setting hostlint
    does not read or whose interface lines do not hold its spanning-tree settings: its folder's `config.py`
    `CONFIG.edge_port`)."""
    if lines is None:
        return "its configuration was not read"
    edge = switches.config(platform).edge_port
    if edge.marks(lines):
        return True
    if edge.line is None:
        return f"hostlint reads no {platform} edge-port setting"
    if not edge.in_interface:
        return f"{platform} keeps spanning-tree settings outside an interface's lines"
    return False


def _own_lines(switch: Switch, name: str) -> list[str] | None:
    """The interface's collected lines on `switch`; [] for one the plan creates (hostlint writes no
    spanning-tree line)."""
    key = names.interface_key(name)
    found = next((c for c in switch.port_channels if names.interface_key(c.name) == key), None) or next(
        (p for p in switch.ports if names.interface_key(p.name) == key), None
    )
    return found.config_lines if found is not None else []


def stp_warnings(before: Switch, created: list[str]) -> list[str]:
    """The notes for the new spanning-tree ports `created` (read on the switch as it was before the step):
    none for an edge port, one saying so where it is not, one saying why it cannot be told otherwise."""
    definite: list[str] = []
    unknown: dict[str, list[str]] = {}
    for name in created:
        edge = edge_port(before.platform, _own_lines(before, name))
        if edge is False:
            definite.append(name)
        elif edge is not True:
            unknown.setdefault(edge, []).append(name)
    notes = [STP_NOTE.format(ports=", ".join(definite))] if definite else []
    notes += [STP_UNKNOWN_NOTE.format(ports=", ".join(ports), why=why) for why, ports in unknown.items()]
    return notes


def _touched(change: Change) -> list[str]:
    members = change.values.get("members", [])
    if change.action == "switch-static-port-channel":
        return [member["port"] for member in members]
    return list(members)


def _forwards(uplink: UplinkFact) -> bool:
    return (
        bool(uplink.link_up)
        and uplink.port_status in (None, "up")
        and uplink.member_state
        not in (
            "suspended",
            "down",
            "hot-standby",
        )
    )


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
    forwarding = {
        (names.device_key(u.switch), names.interface_key(u.port)): f"{u.port} on {u.switch}"
        for u in fact.uplinks
        if u.switch and u.port and u.role == "active" and _forwards(u)
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
    kept = untouched_active
    if not untouched_active:
        keep = min(touched, key=lambda key: (live[key][2] != "active", key not in forwarding, key))
        shut.discard(keep)
        kept = [keep]
    # Said only where the snapshot shows the kept link forwarding (up, not a suspended or standby member).
    keeps = next((forwarding[key] for key in sorted(kept) if key in forwarding), None)
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
        values = {"ports": ports, "keeps": keeps}
        down.append(Change("switch-port-admin", switch.name, platforms, ",".join(ports), values, "down", "up"))
        # Spanning-tree notes follow the simulated state (spanning_tree_notes), once the plan is ordered.
        up.append(Change("switch-port-admin", switch.name, platforms, ",".join(ports), values, "up", "down"))
    return down, up


def _forwarding_ports(switch: Switch) -> dict[str, set[str]]:
    """The switch's spanning-tree ports on trunks that forward (a channel with an up bundled member, or an
    up trunk port outside any channel), each with the physical ports it forwards on."""
    found: dict[str, set[str]] = {}
    for member in switch.ports:
        if member.status not in (None, "up"):
            continue
        owner = channel(switch, member.port_channel)
        if owner is not None and member.member_state in (None, "bundled"):
            if owner.switchport == "trunk" or member.mode == "trunk":
                found.setdefault(owner.name, set()).add(names.interface_key(member.name))
        elif (owner is None or member.member_state == "individual") and member.mode == "trunk":
            found.setdefault(member.name, set()).add(names.interface_key(member.name))
    return found


def new_stp_ports(before: Switch, after: Switch, touched: list[str], peer: Switch | None = None) -> list[str]:
    """The spanning-tree ports `after` forwards on that `before` did not: a new channel or trunk port,
    or a channel every forwarding member of which the step re-formed (it goes down and comes back).
    A vPC/MLAG channel forwarding on the `peer` is one logical port already: its half joins it."""
    was, now = _forwarding_ports(before), _forwarding_ports(after)
    moved = {names.interface_key(name) for name in touched}
    on_peer = _forwarding_ids(peer) if peer is not None else set()
    return sorted(
        name
        for name, members in now.items()
        if (name not in was or (was[name] <= moved and members & moved)) and _id(after, name) not in on_peer
    )


def _id(switch: Switch, name: str) -> int | None:
    found = channel(switch, name)
    return found.multichassis_id if found is not None else None


def _forwarding_ids(switch: Switch) -> set[int | None]:
    return {_id(switch, name) for name in _forwarding_ports(switch)} - {None}


PAIRS = TWO_PEERS


def _peer(snapshot: Snapshot, switch: Switch) -> Switch | None:
    pair = switch.multichassis
    if pair is None or pair.peer is None or pair.kind not in PAIRS:
        return None
    return _switch_copy(snapshot, pair.peer)


def spanning_tree_notes(steps: list[Step], snapshot: Snapshot) -> None:
    """Each step that makes a new spanning-tree port on a trunk without edge settings (about 30 s
    blocking) says so, one whose edge settings are unknown says it cannot tell, and no other step warns
    (invariant 5)."""
    state = snapshot.model_copy(deep=True)
    for step in steps:
        step.change.notes = [note for note in step.change.notes if "spanning tree holds" not in note]
        before = _switch_copy(state, step.device)
        try:
            apply_change(state, step.change)
        except ApplyError:
            continue
        after = _switch_copy(state, step.device)
        if before is None or after is None:
            continue
        touched = [*_touched(step.change), *step.change.values.get("ports", [])]
        moved = [p["port"] if isinstance(p, dict) else p for p in touched]
        created = new_stp_ports(before, after, moved, _peer(state, before))
        step.change.notes += stp_warnings(before, created)


def _switch_copy(snapshot: Snapshot, name: str) -> Switch | None:
    try:
        return _switch_in(snapshot, name).model_copy(deep=True)
    except ApplyError:
        return None

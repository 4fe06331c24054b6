"""What several switch-side fix actions (hostlint/fixes/actions/) share: finding switches, channels, trunks."""

from __future__ import annotations

import re
from typing import Any

from hostlint import platforms as registry
from hostlint import switches, vlans
from hostlint.fixes.facts import known
from hostlint.fixes.site import Site, channel, port
from hostlint.fixes.spelling import channel_interface, channel_number, hash_command
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import UplinkFact
from hostlint.snapshot.switch import PortChannel, Switch


def _switch(site: Site, name: str) -> Switch:
    switch = site.switch(name)
    if switch is None:
        raise CannotFix(f"switch {name} is not in the snapshot")
    return switch


def _by_switch(uplinks: list[UplinkFact]) -> dict[str, list[UplinkFact]]:
    grouped: dict[str, list[UplinkFact]] = {}
    for uplink in uplinks:
        grouped.setdefault(known(uplink.switch, uplink), []).append(uplink)
    return dict(sorted(grouped.items()))


def _number(switch: Switch, existing: PortChannel) -> int:
    """The number of an existing port-channel, which every platform's channel names end with."""
    number = channel_number(existing.name)
    if number is None:
        raise CannotFix(f"{switch.name} {existing.name}: no channel number in its name")
    return number


def _hash_change(switch: Switch, hash_name: str) -> Change:
    command = hash_command(hash_name, switch.platform)
    writes_hash = registry.switch(switch.platform).writes_hash
    if command is None and writes_hash:
        raise CannotFix(f"{switch.name} ({switch.platform}) has no port-channel hash equivalent to {hash_name}")
    current = switch.load_balance
    before = None
    notes = []
    if current is None:
        notes.append(f"{switch.name}'s current hash was not collected: the rollback cannot restore it")
    else:
        # The normalised hash's own command first: a raw line such as `src-mac (default)` carries an
        # annotation the switch prints but never takes back (invariant 9).
        raw = re.sub(r"\s*\([^)]*\)\s*$", "", current.raw) if current.raw else None
        before = (hash_command(current.hash, switch.platform) if current.hash else None) or raw or current.hash
    if not writes_hash:
        notes.append(f"on {switch.platform} the hash command depends on the hardware: set it by hand")
    return Change(
        action="switch-hash",
        device=switch.name,
        platforms=(switch.platform,),
        target="global",
        values={"hash": hash_name, "command": command},
        after=hash_name,
        before=before,
        notes=notes,
    )


def _channels_of(uplinks: list[UplinkFact], site: Site) -> list[tuple[Switch, PortChannel, list[str]]]:
    """(switch, port-channel, the uplinks' ports in it) for every channel the uplinks' ports are in."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for uplink in uplinks:
        if uplink.port_channel:
            grouped.setdefault((known(uplink.switch, uplink), uplink.port_channel), []).append(
                known(uplink.port, uplink)
            )
    found = []
    for (switch_name, channel_name), ports in sorted(grouped.items()):
        switch = _switch(site, switch_name)
        existing = channel(switch, channel_name)
        if existing is None:
            raise CannotFix(
                f"{switch_name} {', '.join(sorted(set(ports)))}: member of {channel_name}, which it did not list"
            )
        found.append((switch, existing, sorted(set(ports))))
    return found


def _channel_mode_changes(
    uplinks: list[UplinkFact], site: Site, action: str, keep: tuple[str, ...], word: str
) -> list[Change]:
    """Every channel the uplinks are in, not already in a `keep` mode, converted to `mode <word>`."""
    changes = []
    for switch, existing, ports in _channels_of(uplinks, site):
        if existing.mode in keep:
            continue
        number = _number(switch, existing)
        members = sorted(existing.members)
        notes = []
        others = sorted(set(members) - set(ports))
        if others:
            notes.append(f"{', '.join(others)} in the same channel are converted too")
        restore = [_member_restore(switch, name) for name in members]
        if existing.mode == "pagp" and any(r["line"] is None for r in restore):
            notes.append("PAgP desirable or auto was not collected: the rollback assumes desirable")
        changes.append(
            Change(
                action=action,
                device=switch.name,
                platforms=(switch.platform,),
                target=",".join(members),
                values={
                    "number": number,
                    "interface": channel_interface(number, switch.platform),
                    "members": members,
                    "restore": restore,
                    "lacp_lines": _lacp_lines(switch, existing),
                },
                after=f"channel {number} mode {word}",
                before=existing.mode,
                notes=notes,
            )
        )
    return changes


def _member_restore(switch: Switch, name: str) -> dict[str, Any]:
    """A member's own collected `channel-group` line (its own LACP role; None when its lines were not
    collected, or are statements, where the LACP role is the channel's) and its state as collected: what a
    rollback types back and expects."""
    found = port(switch, name)
    stanza = switches.config(switch.platform).rollback == "stanza"
    lines = found.config_lines if found is not None and stanza else None
    line = next((x for x in lines or [] if x.startswith("channel-group ")), None)
    return {"port": name, "line": line, "state": found.member_state if found is not None else None}


def _lacp_lines(switch: Switch, existing: PortChannel) -> list[str] | None:
    """The channel's collected LACP lines (mode, periodic...) where the platform keeps its LACP role on the
    channel (`config.py` `CONFIG.channel_lacp`: a Junos ae's `aggregated-ether-options lacp`), which a change
    deleting `lacp` removes together; [] where it keeps none there, None when its lines were not collected."""
    if existing.config_lines is None:
        return None
    start = switches.config(switch.platform).channel_lacp
    if start is None:
        return []
    prefix = start.format(existing.name)
    return [x for x in existing.config_lines if x == prefix or x.startswith(prefix + " ")]


def _trunks(uplinks: list[UplinkFact]) -> dict[tuple[str, str], UplinkFact]:
    """Each trunk (switch, interface carrying the VLANs) behind the uplinks, once: the members of
    one port-channel share their channel's allowed list."""
    found: dict[tuple[str, str], UplinkFact] = {}
    for uplink in uplinks:
        if uplink.vlan_mode == "trunk" and uplink.switch and uplink.vlan_interface:
            found.setdefault((uplink.switch, uplink.vlan_interface), uplink)
    return dict(sorted(found.items()))


def _words(ranges: vlans.Ranges) -> list[str]:
    """A VLAN set as switch words, one per range (`["10", "20-30"]`; `["none"]`)."""
    return [vlans.text([r]) for r in ranges] or ["none"]

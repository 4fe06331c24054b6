"""switch-remove-port-channel: its expander and simulated applier.

Its text per platform is in hostlint/switches/<platform>/fixes.yaml (its description in action.yaml).
"""

from __future__ import annotations

from typing import Any

from hostlint import names, switches
from hostlint import platforms as registry
from hostlint.fixes.actions import Applier, Expander
from hostlint.fixes.apply import _channel, _on_switch, _port, _renegotiate
from hostlint.fixes.apply import _switch as _switch_in
from hostlint.fixes.facts import uplinks_of
from hostlint.fixes.site import Site, port
from hostlint.fixes.spelling import channel_interface
from hostlint.fixes.steps import CannotFix, Change
from hostlint.fixes.switch_steps import _channels_of, _number, _words
from hostlint.join.facts import Fact
from hostlint.snapshot import Snapshot
from hostlint.snapshot.switch import PortChannel, Switch


def _members_match(switch: Switch) -> bool:
    """Whether the platform's members keep their channel's switchport lines (hostlint.platforms): there the
    channel's are carried only where the collected member differs or was not read; elsewhere always."""
    return registry.switch(switch.platform).members_match_channel


def _vlan_config(mode: str | None, access: int | None, native: int | None, allowed: Any) -> dict[str, Any] | None:
    """An interface's switchport mode and VLANs as the fix templates read them; None when not read."""
    if mode == "access" and access is not None:
        return {"mode": "access", "access_vlan": access}
    if mode == "trunk" and native is not None and allowed is not None:
        ranges = [[low, high] for low, high in allowed]
        return {"mode": "trunk", "native_vlan": native, "allowed": _words(allowed), "allowed_vlans": ranges}
    return None


def _channel_config(switch: Switch, existing: PortChannel) -> dict[str, Any]:
    """The channel interface's switchport configuration, which its members must carry once it goes."""
    if existing.switchport == "routed":
        raise CannotFix(f"{switch.name} {existing.name} is a routed port-channel: remove it by hand")
    config = _vlan_config(existing.switchport, existing.access_vlan, existing.native_vlan, existing.allowed_vlans)
    if config is None:
        raise CannotFix(
            f"{switch.name} {existing.name}: its switchport and VLAN configuration was not collected, so what its"
            " members would carry without it is unknown: remove the channel by hand"
        )
    return config


def _carry(switch: Switch, ports: list[str], config: dict[str, Any]) -> list[dict[str, Any]]:
    """The members that must be given the channel's switchport configuration, with their own before."""
    carried = []
    for name in ports:
        found = port(switch, name)
        own = (
            _vlan_config(found.mode, found.access_vlan, found.native_vlan, found.allowed_vlans)
            if found is not None
            else None
        )
        if _members_match(switch) and own == config:
            continue
        carried.append({"port": name, "before": own})
    return carried


# The lines the change writes on a member, by the words that set each (`no WORDS` resets it): the
# channel's switchport configuration where it is carried, and on EOS its MTU (the folder's fixes.yaml).
def _written(switch: Switch, config: dict[str, Any], carried: bool, mtu: int | None) -> list[str]:
    written = []
    if carried:
        written.append("switchport mode")
        written += ["switchport access vlan"] if config["mode"] == "access" else []
        if config["mode"] == "trunk":
            written += ["switchport trunk native vlan", "switchport trunk allowed vlan"]
    if mtu is not None and mtu > 1500 and not _members_match(switch):
        written.append("mtu")
    return written


def _restore(
    switch: Switch, ports: list[str], config: dict[str, Any], carry: list[dict[str, Any]], mtu: int | None
) -> list[dict[str, Any]]:
    """Per member, what its rollback types: `no` for each line the change wrote that the member did not
    have, then the member's own collected lines verbatim (its channel-group line with its mode among them);
    `lines` None where they were not collected (the modelled rollback then stands)."""
    carried = {names.interface_key(c["port"]) for c in carry}
    restore: list[dict[str, Any]] = []
    for name in ports:
        found = port(switch, name)
        own = found.config_lines if found is not None else None
        # The member's state as collected: what the rollback's verify expects back.
        state = found.member_state if found is not None else None
        if own is None:
            restore.append({"port": name, "undo": [], "lines": None, "state": state})
            continue
        if switches.config(switch.platform).rollback == "statements":
            # The rollback deletes the member and types its statements back: nothing the change wrote stays.
            restore.append({"port": name, "undo": [], "lines": list(own), "state": state})
            continue
        written = _written(switch, config, names.interface_key(name) in carried, mtu)
        undo = [words for words in written if not any(line == words or line.startswith(words + " ") for line in own)]
        restore.append({"port": name, "undo": undo, "lines": list(own), "state": state})
    return restore


def remove_port_channel(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    changes = []
    for switch, existing, ports in _channels_of(uplinks_of(fact, site), site):
        number = _number(switch, existing)
        remove_interface = {names.interface_key(m) for m in existing.members} <= {names.interface_key(p) for p in ports}
        config = _channel_config(switch, existing)
        carry = _carry(switch, ports, config)
        notes = []
        unknown = [c["port"] for c in carry if c["before"] is None]
        entry = registry.switch(switch.platform)
        if unknown and not entry.members_match_channel and entry.vlan_syntax == "switchport":
            notes.append(
                f"{', '.join(unknown)}: own switchport configuration not collected; the rollback leaves them with"
                f" {existing.name}'s"
            )
        restore = _restore(switch, ports, config, carry, existing.mtu)
        if remove_interface and existing.config_lines is None:
            notes.append(
                f"{existing.name}'s own configuration lines were not collected: the rollback re-creates it with its"
                " switchport, VLANs, MTU and vPC/MLAG id only, not lines hostlint does not model (LACP fallback and"
                " timers, spanning-tree settings, description)"
            )
        unread = [r["port"] for r in restore if r["lines"] is None]
        if unread:
            notes.append(
                f"{', '.join(unread)}: own configuration lines not collected: the rollback restores their channel-group"
                " and switchport lines only"
            )
        changes.append(
            Change(
                action="switch-remove-port-channel",
                device=switch.name,
                platforms=(switch.platform,),
                target=",".join(ports),
                values={
                    "number": number,
                    "interface": channel_interface(number, switch.platform),
                    "members": ports,
                    "mode": existing.mode,
                    "remove_interface": remove_interface,
                    "multichassis_id": existing.multichassis_id,
                    "mtu": existing.mtu,
                    "config": config,
                    "carry": carry,
                    "channel_lines": existing.config_lines if remove_interface else None,
                    "restore": restore,
                },
                after="no channel",
                notes=notes,
            )
        )
    return changes


def _switch_remove_port_channel(snapshot: Snapshot, change: Change) -> None:
    switch = _switch_in(snapshot, change.device)
    channel = _channel(switch, change.values["interface"])
    leaving = {names.interface_key(p) for p in change.values["members"]}
    config = change.values["config"]
    carried = {names.interface_key(c["port"]) for c in change.values["carry"]}
    mtu = change.values["mtu"]
    for name in change.values["members"]:
        port = _port(switch, name)
        port.port_channel = None
        port.member_state = None
        if names.interface_key(name) in carried:
            # The member takes the channel's switchport configuration (the templates write it).
            port.mode = config["mode"]
            port.access_vlan = config.get("access_vlan")
            port.native_vlan = config.get("native_vlan")
            allowed = config.get("allowed_vlans")
            port.allowed_vlans = [(low, high) for low, high in allowed] if allowed is not None else None
        if mtu is not None and mtu > 1500 and not _members_match(switch):
            port.mtu = mtu
    if channel is not None:
        channel.members = [m for m in channel.members if names.interface_key(m) not in leaving]
        if not channel.members and change.values.get("remove_interface"):
            switch.port_channels.remove(channel)
    _renegotiate(snapshot, _on_switch(change.device))


EXPAND: Expander = remove_port_channel
APPLY: Applier = _switch_remove_port_channel

"""Switch-side fix actions: from a fact and the rule's params to changes on physical switches."""

from __future__ import annotations

from typing import Any

from hostlint import names, vlans, vocab
from hostlint import platforms as registry
from hostlint.fixes.facts import known, require, uplinks_of
from hostlint.fixes.site import Site, channel, channel_by_number, port
from hostlint.fixes.spelling import channel_interface, channel_number, hash_command, jumbo, jumbo_ip_mtu
from hostlint.fixes.steps import CannotFix, Change
from hostlint.join.facts import Fact, TeamFact, UplinkFact
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


def _mtu(switch: Switch, name: str, mtu: int | None) -> int:
    if mtu is None:
        raise CannotFix(f"the MTU of {name} on {switch.name} was not read: its rollback would not know it")
    return mtu


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
        before = current.raw or hash_command(current.hash, switch.platform) or current.hash
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


def switch_hash(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    wanted = params["hash"]
    changes = []
    for name in _by_switch(uplinks_of(fact, site, roles=("active",))):
        switch = _switch(site, name)
        if switch.load_balance is None or switch.load_balance.hash != wanted:
            changes.append(_hash_change(switch, wanted))
    return changes


def _ip_hash(switch: Switch) -> list[Change]:
    """A switch-hash step when the switch's hash does not include both IP addresses (IP hash needs them)."""
    current = switch.load_balance.hash if switch.load_balance else None
    if {"src-ip", "dst-ip"} <= set(vocab.hash_fields(current)):
        return []
    return [_hash_change(switch, "src-dst-ip")]


def _members(switch: Switch, ports: list[str], number: int) -> list[dict[str, Any]]:
    """The team's ports that must (re)join channel `number` in mode on, with where each was before."""
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
            }
        )
    return members


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
    notes = []
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
    number = site.channels.choose(ports, switches)
    changes: list[Change] = []
    for switch in switches:
        changes.extend(_ip_hash(switch))
        change = _channel_change(switch, ports[switch.name], number, multichassis)
        if change is not None:
            changes.append(change)
    return changes


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
        if existing.mode == "pagp":
            notes.append("PAgP desirable or auto was not collected: the rollback assumes desirable")
        changes.append(
            Change(
                action=action,
                device=switch.name,
                platforms=(switch.platform,),
                target=",".join(members),
                values={"number": number, "interface": channel_interface(number, switch.platform), "members": members},
                after=f"channel {number} mode {word}",
                before=existing.mode,
                notes=notes,
            )
        )
    return changes


def channel_mode_static(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    uplinks = uplinks_of(fact, site, roles=("active",))
    return _channel_mode_changes(uplinks, site, "switch-channel-mode-static", ("static",), "on")


def remove_port_channel(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    changes = []
    for switch, existing, ports in _channels_of(uplinks_of(fact, site), site):
        number = _number(switch, existing)
        remove_interface = {names.interface_key(m) for m in existing.members} <= {names.interface_key(p) for p in ports}
        notes = ["the port-channel interface's own settings are not in the snapshot"] if remove_interface else []
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
                },
                after="no channel",
                notes=notes,
            )
        )
    return changes


def _mtu_interfaces(switch: Switch, ports: list[str], mtu: int) -> list[dict[str, Any]]:
    """Interfaces to raise, with their MTU before: the port-channel where the platform sets it there
    (members follow), the physical port otherwise; IOS wants both.
    """
    interfaces: dict[str, int] = {}
    for name in ports:
        found = port(switch, name)
        if found is None:
            continue
        existing = channel(switch, found.port_channel)
        if existing is not None and (channel_mtu := _mtu(switch, existing.name, existing.mtu)) < mtu:
            number = _number(switch, existing)
            interfaces[channel_interface(number, switch.platform)] = channel_mtu
        if (existing is None or registry.switch(switch.platform).mtu_on_members) and (
            own_mtu := _mtu(switch, found.name, found.mtu)
        ) < mtu:
            interfaces[found.name] = own_mtu
    return [{"name": name, "before": before} for name, before in interfaces.items()]


def port_mtu(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    mtu = int(params["mtu"])
    changes = []
    for name, uplinks in _by_switch(uplinks_of(fact, site)).items():
        switch = _switch(site, name)
        if mtu > jumbo_ip_mtu(switch.platform):
            raise CannotFix(f"{name} ({switch.platform}) passes IP packets of at most {jumbo_ip_mtu(switch.platform)}")
        interfaces = _mtu_interfaces(switch, sorted({known(u.port, u) for u in uplinks}), mtu)
        if interfaces:
            changes.append(
                Change(
                    action="switch-port-mtu",
                    device=name,
                    platforms=(switch.platform,),
                    target=",".join(i["name"] for i in interfaces),
                    values={"interfaces": interfaces},
                    after=jumbo(switch.platform),
                )
            )
    return changes


def port_autoneg(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    changes = []
    for uplink in uplinks_of(fact, site):
        if uplink.port_configured_speed_mbps is None and uplink.port_configured_duplex is None:
            continue
        changes.append(
            Change(
                action="switch-port-autoneg",
                device=known(uplink.switch, uplink),
                platforms=(known(uplink.platform, uplink),),
                target=known(uplink.port, uplink),
                values={"port": uplink.port},
                after="auto",
                before={"speed": uplink.port_configured_speed_mbps, "duplex": uplink.port_configured_duplex},
                notes=[f"{uplink.port} bounces: {uplink.object} loses its link for a moment"],
            )
        )
    return changes


def channel_mode_lacp(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    """A static or PAgP channel facing an LACP bond (802.3ad, OVS balance-tcp) turned into `mode active`."""
    uplinks = uplinks_of(fact, site, roles=("active",))
    loose = [f"{u.nic} -> {u.switch} {u.port}" for u in uplinks if u.link_up and not u.port_channel]
    if loose:
        raise CannotFix(f"not in any port-channel: {', '.join(loose)}; build the LACP channel by hand")
    return _channel_mode_changes(uplinks, site, "switch-channel-mode-lacp", ("lacp-active", "lacp-passive"), "active")


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


def _vlan_definition(switch: Switch) -> str:
    """How the platform defines a VLAN: Junos refuses to commit a `vlan members` id no VLAN has."""
    if registry.switch(switch.platform).vlan_syntax == "junos":
        return "`set vlans NAME vlan-id N`; Junos refuses the commit otherwise"
    return "`vlan N`"


def trunk_allow_vlan(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    """`switchport trunk allowed vlan add` of the wanted VLANs a trunk lacks; never a replacement."""
    wanted = vlans.merge([(int(low), int(high)) for low, high in params["vlans"]])
    uplinks = uplinks_of(fact, site)
    changes = []
    for (switch_name, interface), uplink in _trunks(uplinks).items():
        if uplink.allowed_vlans is None:
            raise CannotFix(f"{switch_name} {interface}: allowed VLANs not collected; add the VLANs by hand")
        allowed = [(low, high) for low, high in uplink.allowed_vlans]
        lacking = vlans.subtract(wanted, allowed)
        if not lacking:
            continue
        switch = _switch(site, switch_name)
        words = [vlans.text([r]) for r in lacking]
        changes.append(
            Change(
                action="switch-trunk-allow-vlan",
                device=switch.name,
                platforms=(switch.platform,),
                target=interface,
                values={"interface": interface, "vlans": words},
                after=_words(vlans.merge(allowed + lacking)),
                before=_words(allowed),
                notes=[
                    f"VLAN {','.join(words)} must exist on {switch.name} ({_vlan_definition(switch)}) to be forwarded"
                ],
            )
        )
    others = [
        f"{u.nic} -> {u.switch} {u.vlan_interface} ({u.vlan_mode} port)"
        for u in uplinks
        if u.vlan_mode in ("access", "routed")
    ]
    if others and not changes:
        raise CannotFix(f"not trunks: {', '.join(others)}; making a port a trunk changes its traffic, do it by hand")
    if others:
        changes[0].notes.append(f"not changed (not trunks, do them by hand): {', '.join(others)}")
    return changes


def trunk_native_vlan(params: dict[str, Any], fact: Fact, site: Site) -> list[Change]:
    """The native VLAN of every trunk behind the team that has another one."""
    wanted = params["vlan"]
    if not isinstance(wanted, int) or not vlans.FIRST <= wanted <= vlans.LAST:
        raise CannotFix(f"native VLAN {wanted!r} is not one to set: choose the native VLAN by hand")
    changes = []
    for (switch_name, interface), uplink in _trunks(uplinks_of(fact, site)).items():
        if uplink.native_vlan is None:
            raise CannotFix(f"{switch_name} {interface}: native VLAN not collected; set it by hand")
        if uplink.native_vlan == wanted:
            continue
        switch = _switch(site, switch_name)
        notes = [f"untagged frames on {interface} move from VLAN {uplink.native_vlan} to VLAN {wanted}"]
        note = registry.switch(switch.platform).native_vlan_note
        if note:
            notes.append(note)
        changes.append(
            Change(
                action="switch-trunk-native-vlan",
                device=switch.name,
                platforms=(switch.platform,),
                target=interface,
                values={"interface": interface},
                after=wanted,
                before=uplink.native_vlan,
                notes=notes,
            )
        )
    return changes

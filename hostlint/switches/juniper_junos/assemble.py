"""Junos records -> the snapshot's `Switch` (batfish's conversion step: the vendor's view, typed in
records.py, into the vendor-independent model; the `assembly` piece).

What comes from where:

- ports: `show interfaces extensive` (state, speed, link mode, media MTU, description) and the
  configuration's `set interfaces` lines (one record per line, merged per interface: description,
  `802.3ad aeN`, speed and link mode, `interface-mode`, `vlan members`, `native-vlan-id`, `vlan-tagging`, a
  `family inet` address, `disable`); a port is one `show interfaces`, LLDP or LACP shows;
- the MTU: the interface `mtu` is the media MTU, Ethernet header included (mtu.py), and an interface with
  `vlan-tagging` counts the 802.1Q tag too (hostlint.collect.switches.normalise.l3_mtu);
- VLANs: `vlan members` names VLANs by name (`set vlans NAME vlan-id N`) or number; a trunk without them
  has unknown members, and without `native-vlan-id` drops untagged frames (native VLAN 0);
- aggregates: an ae with `aggregated-ether-options lacp active|passive` runs LACP (mode from there or from
  `show lacp interfaces`' Activity), one without is static; LACP members' states from `show lacp
  interfaces` (members.py), a static ae's from its members' links (it has no LACP to show);
- the hash: `forwarding-options [enhanced-]hash-key family inet` options (hashes.py);
- virtual chassis: `show virtual-chassis` with two or more members (no peer link shown: unknown);
- neighbours: `show lldp neighbors`.

A value that makes no sense is a warning naming the device and the command; the rest is still built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from hostlint import names, switches, vlans
from hostlint.collect.switches import normalise
from hostlint.collect.switches.kinds import is_channel, is_port
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import (
    ChannelMode,
    ChannelStatus,
    LoadBalance,
    MemberState,
    MultiChassis,
    PortChannel,
    PortMode,
    PortStatus,
    Switch,
    SwitchPort,
)
from hostlint.switches.assembly_kit import ReadContext as _Context
from hostlint.switches.assembly_kit import Records
from hostlint.switches.juniper_junos import hashes, members
from hostlint.switches.juniper_junos import records as r

PLATFORM = "juniper_junos"

_SWITCHPORT_MODES: tuple[PortMode, ...] = ("access", "trunk")
# `display set` repeats `vlan members` once per VLAN: those lines add up, the others replace.
_ACCUMULATED = ("vlan_members",)


def _typed(outputs: Records, group: str, context: _Context) -> list[Any]:
    return context.typed(outputs, group, r.typed)


def _int(value: Any) -> int:
    return int(str(value).strip())


def _l3_mtu(shown: Mapping[str, Any], tagged: bool) -> int:
    """The largest IP packet: the media MTU less the Ethernet header (and the tag with `vlan-tagging`)."""
    return normalise.l3_mtu(PLATFORM, _int(shown["mtu"]), tagged=tagged)


def _by_name(records: list[Any], command: str, context: _Context) -> dict[str, dict[str, Any]]:
    """Records of one interface merged (`display set` gives one record per line), as their fields."""
    merged: dict[str, dict[str, Any]] = {}
    for record in records:
        fields = record.model_dump(exclude_none=True)
        raw = fields.get("name")
        if not isinstance(raw, str) or not raw.strip():
            context.warnings.append(f"{context.device}: {command}: a record without an interface name: {fields}")
            continue
        into = merged.setdefault(names.interface(raw), {})
        for key in _ACCUMULATED:
            if key in fields and key in into:
                fields = {**fields, key: f"{into[key]};{fields[key]}"}
        into.update(fields)
    return merged


def _mode(record: Mapping[str, Any]) -> PortMode | None:
    """`vlan-tagging` (trunk) or a `family inet` address (routed); else `interface-mode`."""
    if record.get("address"):
        return "routed"
    if record.get("vlan_tagging"):
        return "trunk"
    mode = record.get("switchport_mode")
    return mode if mode in _SWITCHPORT_MODES else None


def _vlan_members(text: str, vlan_ids: dict[str, int]) -> vlans.Ranges:
    """`VM-PROD`, `[ VMOTION VM-PROD ]`, `100-110`, `all`, joined by `;`: names through `set vlans`."""
    ranges: vlans.Ranges = []
    for word in text.replace(";", " ").replace("[", " ").replace("]", " ").split():
        if word.lower() == "all":
            return list(vlans.ALL)
        if word in vlan_ids:
            ranges.append((vlan_ids[word], vlan_ids[word]))
        elif word[0].isdigit():
            ranges.extend(vlans.parse_list(word))
        else:
            raise ValueError(f"VLAN {word!r} is not defined under `vlans` (no vlan-id)")
    return vlans.merge(ranges)


def _vlan_facts(name: str, record: Mapping[str, Any], context: _Context, vlan_ids: dict[str, int]) -> dict[str, Any]:
    """access_vlan, native_vlan, allowed_vlans from one interface's own configuration. Junos has no default
    for a trunk's members: without `vlan members` they stay unknown; without `native-vlan-id` a trunk drops
    untagged frames (native VLAN 0). An access port is in its one `vlan members` VLAN."""
    mode = _mode(record)
    facts: dict[str, Any] = {"access_vlan": None, "native_vlan": None, "allowed_vlans": None}
    if mode == "routed":
        return facts

    def read(what: str, convert: Callable[[], Any]) -> Any:
        return context.read(r.CONFIG, f"{name} {what}", convert)

    if record.get("native_vlan"):
        facts["native_vlan"] = read("native VLAN", lambda: _int(record["native_vlan"]))
    vlan_members = record.get("vlan_members")
    ranges = read("VLAN members", lambda: _vlan_members(str(vlan_members), vlan_ids)) if vlan_members else None
    if mode == "trunk":
        facts["allowed_vlans"] = ranges
        if facts["native_vlan"] is None:
            facts["native_vlan"] = 0
    elif mode == "access" and ranges is not None and len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        facts["access_vlan"] = ranges[0][0]
    return facts


def _status(shown: Mapping[str, Any], configured: Mapping[str, Any]) -> PortStatus | None:
    """`Physical link is Up|Down` with `Enabled` / `Administratively down`; None when not shown."""
    if not shown.get("state"):
        return None
    admin = str(shown.get("admin") or "").strip()
    admin = "administratively down" if admin.lower() == "down" else admin
    status = normalise.port_status(str(shown["state"]), admin or None, None)
    if status == "disabled" and admin.lower() == "up":
        status = "down"
    if configured.get("shutdown") and status == "down":
        status = "disabled"
    return status


def _neighbours(outputs: Records, context: _Context) -> dict[str, list[Neighbour]]:
    found: dict[str, list[Neighbour]] = {}
    for record in _typed(outputs, "neighbours", context):
        if not record.model_dump(exclude_none=True):
            continue
        if not record.local_port:
            who = record.system_name or record.chassis_id or "?"
            context.warnings.append(
                f"{context.device}: {r.LLDP}: neighbour {who} (port {record.port_id or '?'}) shows no local port "
                "and has no single row in `show lldp neighbors`; it is not placed"
            )
            continue
        device_id = record.system_name or record.chassis_id
        if not device_id:
            continue
        neighbour = context.read(
            r.LLDP,
            "neighbour",
            partial(
                Neighbour,
                protocol="lldp",
                device_id=str(device_id),
                # A neighbour that sends an empty port ID is still there: its port stays "".
                port_id=str(record.port_id or ""),
                port_description=None,
                system_name=record.system_name,
                mgmt_address=None,
                platform=None,
            ),
        )
        if neighbour is not None:
            found.setdefault(names.interface(record.local_port), []).append(neighbour)
    return found


def _membership(outputs: Records, context: _Context) -> dict[str, tuple[str, MemberState | None]]:
    """Member port -> (its ae, its state) from `show lacp interfaces`."""
    found: dict[str, tuple[str, MemberState | None]] = {}
    for record in _typed(outputs, "lacp_members", context):
        if record.channel and record.member:
            state = members.MEMBER_FLAGS.state(record.mux, record.receive)
            found[names.interface(record.member)] = (names.interface(record.channel), state)
    return found


def _vlan_ids(outputs: Records, context: _Context) -> dict[str, int]:
    """VLAN names -> ids (`set vlans NAME vlan-id N`)."""
    found = {}
    for record in _typed(outputs, "vlans", context):
        if record.name and record.vlan_id:
            vlan_id = context.read(r.CONFIG, f"VLAN {record.name} id", partial(_int, record.vlan_id))
            if vlan_id is not None:
                found[record.name] = vlan_id
    return found


def _channel_name(group: str) -> str:
    text = str(group).strip()
    # `802.3ad ae0` names the ae itself; a bare number is the ae of that number.
    if text.isdigit():
        text = switches.switch(PLATFORM).channel_interface.format(text)
    return names.interface(text)


def _port(
    name: str,
    shown: Mapping[str, Any],
    configured: dict[str, dict[str, Any]],
    context: _Context,
    neighbours: dict[str, list[Neighbour]],
    membership: dict[str, tuple[str, MemberState | None]],
    vlan_ids: dict[str, int],
) -> SwitchPort:
    """One port; a bundle member's mode (and so its MTU's tagging) falls back to its ae's.

    Every fact is what a command showed, or None: a port known only from LLDP or LACP has no status, MTU
    or speed.
    """
    member_of = membership.get(name)
    channel = configured.get(name, {}).get("channel_group")
    channel_name = _channel_name(channel) if channel else (member_of[0] if member_of else None)
    channel_config = configured.get(channel_name, {}) if channel_name else {}
    port_config = configured.get(name, {})
    mode = _mode(port_config) or _mode(channel_config) or _mode(shown)
    tagged = bool(port_config.get("vlan_tagging") or channel_config.get("vlan_tagging"))
    status = _status(shown, port_config)
    mtu = context.read(r.INTERFACES, f"{name} MTU", partial(_l3_mtu, shown, tagged)) if shown.get("mtu") else None
    speed_text = port_config.get("speed")
    up = status == "up"
    speed = (
        context.read(r.INTERFACES, f"{name} speed", lambda: normalise.speed_mbps(shown.get("speed"))) if up else None
    )
    duplex = normalise.duplex(shown.get("duplex")) if up else None
    if duplex is None and speed is not None and speed >= 10000:
        duplex = "full"  # 10GbE and faster have no half duplex; Junos prints no link mode for them
    return SwitchPort(
        name=name,
        description=shown.get("description") or port_config.get("description"),
        status=status,
        mode=mode,
        **_vlan_facts(name, port_config, context, vlan_ids),
        configured_speed_mbps=context.read(r.CONFIG, f"{name} speed", lambda: normalise.speed_mbps(speed_text)),
        configured_duplex=normalise.duplex(port_config.get("duplex") or speed_text),
        speed_mbps=speed,
        duplex=duplex,
        mtu=mtu,
        # The media MTU limits bridged frames too (mtu.py): no separate L2 figure.
        l2_mtu=None,
        port_channel=channel_name,
        member_state=member_of[1] if member_of and member_of[0] == channel_name else None,
        neighbours=neighbours.get(name, []),
    )


def _channel_mode(
    channel: str,
    channel_members: list[str],
    configured: dict[str, dict[str, Any]],
    lacp: dict[str, str],
    context: _Context,
) -> ChannelMode | None:
    """`aggregated-ether-options lacp active|passive`, else `show lacp interfaces`' Activity; an ae the
    configuration shows without LACP options is static."""
    candidates = [(r.CONFIG, configured.get(m, {}).get("channel_mode")) for m in channel_members]
    candidates += [(r.CONFIG, configured.get(channel, {}).get("channel_mode")), (r.LACP, lacp.get(channel))]
    for command, raw in candidates:
        if raw:
            mode = context.read(command, f"{channel} mode", partial(normalise.channel_mode, raw))
            if mode:
                return mode
    if any(
        configured.get(m, {}).get("channel_group") and not configured[m].get("channel_mode") for m in channel_members
    ):
        return "static"
    if channel in configured:
        return "static"
    return None


def _channel_status(own: Mapping[str, Any]) -> ChannelStatus | None:
    """Up or down as `show interfaces` shows the ae; else unknown."""
    if own.get("state"):
        return "up" if _status(own, {}) == "up" else "down"
    return None


def _channels(
    outputs: Records,
    ports: list[SwitchPort],
    shown: dict[str, dict[str, Any]],
    configured: dict[str, dict[str, Any]],
    context: _Context,
    vlan_ids: dict[str, int],
) -> list[PortChannel]:
    lacp = {
        names.interface(record.channel): record.activity
        for record in _typed(outputs, "lacp", context)
        if record.channel and record.activity
    }
    found = [n for n in [*shown, *configured, *lacp] if is_channel(n)]
    found += [p.port_channel for p in ports if p.port_channel]
    members_of: dict[str, list[str]] = {}
    for port in ports:
        if port.port_channel:
            members_of.setdefault(port.port_channel, []).append(port.name)
    channels = []
    for name in dict.fromkeys(found):
        channel_members = list(members_of.get(name, []))
        own = shown.get(name, {})
        config = configured.get(name, {})
        tagged = bool(config.get("vlan_tagging"))
        mtu = context.read(r.INTERFACES, f"{name} MTU", partial(_l3_mtu, own, tagged)) if own.get("mtu") else None
        channels.append(
            PortChannel(
                name=name,
                mode=_channel_mode(name, channel_members, configured, lacp, context),
                switchport=_mode(config),
                **_vlan_facts(name, config, context, vlan_ids),
                members=channel_members,
                mtu=mtu,
                l2_mtu=None,
                status=_channel_status(own),
                load_balance=None,
                multichassis_id=None,
            )
        )
    return channels


def _static_members(ports: list[SwitchPort], channels: list[PortChannel]) -> None:
    """A static ae has no member summary (no LACP, so not in `show lacp interfaces`): a member whose link
    is up carries traffic in the bundle, one whose link is down does not. When the link state is unknown,
    so is the member's."""
    static = {c.name for c in channels if c.mode == "static"}
    for port in ports:
        if port.port_channel in static and port.member_state is None and port.status is not None:
            port.member_state = "bundled" if port.status == "up" else "down"


def _load_balance(outputs: Records, context: _Context) -> LoadBalance | None:
    options = sorted({record.option for record in _typed(outputs, "load_balance", context) if record.option})
    name = context.read(r.CONFIG, "hash", lambda: hashes.HASHES.read(" ".join(options)))
    return LoadBalance(hash=name, raw=" ".join(options) or "default") if name else None


def _multichassis(outputs: Records, context: _Context) -> MultiChassis | None:
    """A virtual chassis of two or more members; it shows no peer link: unknown, not up."""
    chassis = next(iter(_typed(outputs, "virtual_chassis", context)), None)
    if chassis and chassis.domain_id and len(_typed(outputs, "members", context)) > 1:
        return MultiChassis(kind="virtual-chassis", domain_id=str(chassis.domain_id), peer=None, peer_link_up=None)
    return None


def build(
    device: str,
    outputs: Records,
    mgmt_address: str | None = None,
    collected: frozenset[str] | None = None,
) -> tuple[Switch, list[str]]:
    """The switch `device` as its commands' records (ttp group -> records) show it, and warnings for what
    could not be read. `collected` (the commands whose output was read) changes nothing here: every Junos
    fact is read from a record."""
    context = _Context(device)
    version: dict[str, str] = {}
    for line in _typed(outputs, "version", context):  # one record per line: the first value wins
        version.update({k: v for k, v in line.model_dump(exclude_none=True).items() if k not in version})
    model = version.get("model")
    shown = _by_name(_typed(outputs, "interfaces", context), r.INTERFACES, context)
    configured = _by_name(_typed(outputs, "configured", context), r.CONFIG, context)
    neighbours = _neighbours(outputs, context)
    membership = _membership(outputs, context)
    vlan_ids = _vlan_ids(outputs, context)
    # A port is known from `show interfaces`, or only from LLDP or LACP (then its own facts are unknown).
    known = [*shown, *neighbours, *membership]
    ports = [
        _port(name, shown.get(name, {}), configured, context, neighbours, membership, vlan_ids)
        for name in dict.fromkeys(known)
        if is_port(name)
    ]
    channels = _channels(outputs, ports, shown, configured, context, vlan_ids)
    _static_members(ports, channels)
    hostname = next((s.hostname for s in _typed(outputs, "system", context) if s.hostname), None)
    aliases = [hostname] if hostname and names.device_key(hostname) != names.device_key(device) else []
    switch = Switch(
        name=device,
        aliases=aliases,
        mgmt_address=mgmt_address,
        platform=PLATFORM,
        model=model,
        os_version=version.get("os_version") or version.get("base_version"),
        load_balance=_load_balance(outputs, context),
        ports=ports,
        port_channels=channels,
        multichassis=_multichassis(outputs, context),
    )
    return switch, context.warnings

"""Show commands of IOS, NX-OS and EOS answered from a `hostlint.snapshot.Switch` state.

Every format follows the platform's captured sample beside the collector's template
(collectors/<platform>/<command>.txt), so the real collector reads the state back. What a state
holds that the platform cannot show (a trunk whose VLANs are unknown, a hash without an EOS
spelling, ...) is rendered as the switch would show its configuration, and the round-trip test
(tests/test_switch_render.py) lists each such field by name.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hostlint import names, switches, vlans
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import PortChannel, Switch, SwitchPort
from switch_emulator.stateful.render_global_mtu import ios_system_mtu, nxos_network_qos

Render = Callable[[Switch], str]

# Long name prefix -> the short form summaries and neighbour tables print (IOS `Gi1/0/3`, NX-OS
# `Eth1/11`, EOS `Et11`); longest first so `TenGigabitEthernet` is not read as `GigabitEthernet`.
_SHORT = {
    "cisco_ios": (
        ("TwentyFiveGigE", "Twe"),
        ("TwoGigabitEthernet", "Tw"),
        ("FiveGigabitEthernet", "Fi"),
        ("TenGigabitEthernet", "Te"),
        ("FortyGigabitEthernet", "Fo"),
        ("HundredGigE", "Hu"),
        ("GigabitEthernet", "Gi"),
        ("FastEthernet", "Fa"),
        ("Port-channel", "Po"),
    ),
    "cisco_nxos": (("Ethernet", "Eth"), ("Port-channel", "Po")),
    "arista_eos": (("Ethernet", "Et"), ("Port-channel", "Po")),
}
# How each platform spells its channel interfaces in its configuration and `show interface(s)`.
_CHANNEL = {"cisco_ios": "Port-channel{}", "cisco_nxos": "port-channel{}", "arista_eos": "Port-Channel{}"}
# Channel-group keyword per mode (IOS: PAgP `desirable`; NX-OS and EOS have no PAgP).
_GROUP_MODE = {"static": "on", "lacp-active": "active", "lacp-passive": "passive", "pagp": "desirable"}
# Member state -> the summary flag the legend of each sample gives it (None: IOS `w`, waiting).
_MEMBER_FLAG = {
    "cisco_ios": {"bundled": "P", "hot-standby": "H", "suspended": "s", "individual": "I", "down": "D", None: "w"},
    "cisco_nxos": {"bundled": "P", "hot-standby": "H", "suspended": "s", "individual": "I", "down": "D", None: "p"},
    "arista_eos": {"bundled": "PG+", "hot-standby": "H", "suspended": "s", "individual": "^", "down": "D", None: "G-"},
}
_DEFAULT_HASH = {"cisco_ios": "src-mac", "cisco_nxos": "src-dst ip", "arista_eos": None}


def short(platform: str, name: str) -> str:
    for long, abbreviation in _SHORT[platform]:
        if name.startswith(long):
            return abbreviation + name[len(long) :]
    return name


def channel_number(name: str) -> str:
    match = re.search(r"(\d+)$", name)
    if not match:
        raise ValueError(f"{name}: not a numbered port-channel")
    return match.group(1)


def channel_label(platform: str, name: str) -> str:
    return _CHANNEL[platform].format(channel_number(name))


def port_label(platform: str, name: str) -> str:
    return channel_label(platform, name) if names.interface(name).startswith("Port-channel") else name


def _members(state: Switch, channel: PortChannel) -> list[SwitchPort]:
    """The channel's member ports: listed by the channel or naming it (either side may say it)."""
    key = names.interface_key(channel.name)
    listed = {names.interface_key(m) for m in channel.members}
    return [p for p in state.ports if names.interface_key(p.name) in listed or _channel_key(p) == key]


def _channel_key(port: SwitchPort) -> str | None:
    return names.interface_key(port.port_channel) if port.port_channel else None


def _channel_of(state: Switch, port: SwitchPort) -> PortChannel | None:
    key = names.interface_key(port.name)
    for channel in state.port_channels:
        if names.interface_key(channel.name) == _channel_key(port) or key in {
            names.interface_key(m) for m in channel.members
        }:
            return channel
    return None


def _channels(state: Switch) -> list[tuple[str, PortChannel | None]]:
    """Every channel the state knows: its own, and those only a member names (canonical names)."""
    found: dict[str, PortChannel | None] = {names.interface(c.name): c for c in state.port_channels}
    for port in state.ports:
        if port.port_channel and names.interface(port.port_channel) not in found:
            found[names.interface(port.port_channel)] = None
    return list(found.items())


# --- configuration ------------------------------------------------------------------------------


def _vlan_lines(mode: str | None, access: int | None, native: int | None, allowed: list | None) -> list[str]:
    """Switchport lines; a value that is the platform's default for the mode is not printed (as the
    switches do), so it reads back as that default."""
    lines: list[str] = []
    if mode == "routed":
        return ["no switchport"]
    if access is not None and not (mode == "access" and access == 1):
        lines.append(f"switchport access vlan {access}")
    if native is not None and not (mode == "trunk" and native == 1):
        lines.append(f"switchport trunk native vlan {native}")
    if allowed is not None and not (mode == "trunk" and [tuple(r) for r in allowed] == [tuple(r) for r in vlans.ALL]):
        lines.append(f"switchport trunk allowed vlan {vlans.text([tuple(r) for r in allowed])}")
    if mode in ("access", "trunk"):
        lines.append(f"switchport mode {mode}")
    return lines


def _port_vlan_lines(platform: str, state: Switch, port: SwitchPort) -> list[str]:
    """A member whose VLANs are unknown and whose mode is its channel's says nothing itself: its
    mode is read from the channel (NX-OS also shows `Port mode is` in `show interface`)."""
    channel = _channel_of(state, port)
    unknown_vlans = port.access_vlan is None and port.native_vlan is None and port.allowed_vlans is None
    if unknown_vlans and port.mode != "routed":
        if port.mode is None or (channel is not None and channel.switchport == port.mode):
            return []
        if platform == "cisco_nxos":
            return []
    return _vlan_lines(port.mode, port.access_vlan, port.native_vlan, port.allowed_vlans)


def _speed_lines(platform: str, port: SwitchPort) -> list[str]:
    speed, duplex = port.configured_speed_mbps, port.configured_duplex
    if platform == "arista_eos":
        # EOS User Manual, "Ethernet configuration": `speed forced 10000full` / `speed 10g`.
        if speed is not None and duplex is not None:
            return [f"speed forced {speed}{duplex}"]
        if speed is not None:
            return [f"speed {speed // 1000}g" if speed >= 1000 and speed % 1000 == 0 else f"speed {speed}"]
        return []
    lines = [f"speed {speed}"] if speed is not None else []
    return lines + ([f"duplex {duplex}"] if duplex is not None else [])


def peer_link(state: Switch) -> PortChannel | None:
    """The vPC/MLAG peer-link: a channel of the pair without a vPC/MLAG id, the one whose members
    see the peer preferred. The state does not mark it; a pair without such a channel has none."""
    if state.multichassis is None or state.multichassis.kind not in ("vpc", "mlag"):
        return None
    candidates = [c for c in state.port_channels if c.multichassis_id is None]
    peer = names.device_key(state.multichassis.peer) if state.multichassis.peer else None
    for channel in candidates:
        for member in _members(state, channel):
            if any(peer and names.device_key(n.system_name or n.device_id) == peer for n in member.neighbours):
                return channel
    return candidates[0] if candidates else None


def _interface_block(platform: str, state: Switch, item: SwitchPort | PortChannel, indent: str) -> list[str]:
    link_channel = peer_link(state)
    lines: list[str] = []
    if isinstance(item, PortChannel):
        lines += _vlan_lines(item.switchport, item.access_vlan, item.native_vlan, item.allowed_vlans)
        if item.mtu is not None and item.mtu != 1500:
            lines.append(f"mtu {item.mtu}")
        # The collector reads a member's frame with the channel's switchport mode, else the member's own.
        member_modes = [p.mode for p in state.ports if p.mode and _channel_of(state, p) is item]
        lines += _l2_mtu_lines(platform, item, item.switchport or next(iter(member_modes), None))
        if link_channel is not None and link_channel.name == item.name:
            lines.append("vpc peer-link" if platform == "cisco_nxos" else "switchport trunk group mlagpeer")
        elif item.multichassis_id is not None:
            lines.append(f"{'vpc' if platform == 'cisco_nxos' else 'mlag'} {item.multichassis_id}")
        return lines + _kept(item, lines)
    if item.description:
        lines.append(f"description {item.description}")
    vlan_lines = _port_vlan_lines(platform, state, item)
    if platform == "arista_eos" and item.mtu is not None and item.mtu != 1500:
        lines.append(f"mtu {item.mtu}")
    channel_of = _channel_of(state, item)
    if channel_of is None or channel_of.l2_mtu != item.l2_mtu:
        individual = channel_of is None or item.member_state == "individual"
        lines += _l2_mtu_lines(platform, item, item.mode if individual else channel_of.switchport or item.mode)
    lines += vlan_lines
    if platform != "arista_eos" and item.mtu is not None and item.mtu != 1500:
        lines.append(f"mtu {item.mtu}")
    lines += _speed_lines(platform, item)
    channel = _channel_of(state, item)
    if channel is not None and channel.mode is not None:
        lines.append(f"channel-group {channel_number(channel.name)} mode {_GROUP_MODE[channel.mode]}")
    if item.status == "disabled":
        lines.append("shutdown")
    lines += _kept(item, lines)
    return [f"{indent}{line}" for line in lines]


def _kept(item: SwitchPort | PortChannel, shown: list[str]) -> list[str]:
    """The lines the session keeps without a field (CiscoLikeSession.opaque), as typed, after the modelled
    ones; a state's line that is one of those (a lab's whole stanza) is not shown twice."""
    return [line for line in item.config_lines or [] if line not in shown]


def _l2_mtu_lines(platform: str, item: SwitchPort | PortChannel, mode: str | None) -> list[str]:
    """EOS `l2 mtu FRAME` where the L2 MTU (held as its IP packet) is below the platform maximum."""
    if platform != "arista_eos" or item.l2_mtu is None:
        return []
    frame = item.l2_mtu + 14 + (4 if mode == "trunk" else 0)
    return [] if frame >= 9214 else [f"l2 mtu {frame}"]


def _channel_config(platform: str, state: Switch, channel: PortChannel, indent: str) -> list[str]:
    return [f"{indent}{line}" for line in _interface_block(platform, state, channel, "")]


def _interfaces_config(platform: str, state: Switch, indent: str, separator: str | None) -> list[str]:
    out: list[str] = []
    for name, channel in _channels(state):
        if channel is None:
            continue
        out.append(f"interface {channel_label(platform, name)}")
        out += _channel_config(platform, state, channel, indent)
        out.append(separator if separator is not None else "")
    for port in state.ports:
        out.append(f"interface {port.name}")
        out += _interface_block(platform, state, port, indent)
        out.append(separator if separator is not None else "")
    return out


# --- load balance -------------------------------------------------------------------------------

_IOS_KEYWORDS = {
    "src-ip-port": "src-mixed-ip-port",
    "dst-ip-port": "dst-mixed-ip-port",
    "src-dst-ip-port": "src-dst-mixed-ip-port",
    "src-dst-ip-vlan": "vlan-src-dst-ip",
    "src-dst-ip-port-vlan": "vlan-src-dst-mixed-ip-port",
}
_NXOS_FIELDS = {"ip": "ip", "ip-port": "ip-l4port", "ip-port-vlan": "ip-l4port-vlan", "ip-vlan": "ip-vlan"}
_NXOS_FIELDS |= {"port": "l4port", "mac": "mac"}
_EOS_FIELDS = {
    "src-dst-ip-port": "source-ip destination-ip source-port destination-port",
    "src-dst-ip": "source-ip destination-ip",
    "src-ip": "source-ip",
    "dst-ip": "destination-ip",
    "src-dst-port": "source-port destination-port",
    "src-ip-port": "source-ip source-port",
    "dst-ip-port": "destination-ip destination-port",
    "src-dst-mac": "mac-header",
}
# Hashes EOS spells with a `fields mac` line beside the `fields ip` one; the collector reads the IP
# fields only (EOS User Manual, "port-channel load-balance fields").
_EOS_MAC_AND_IP = {"src-dst-mac-ip": ("src-mac dst-mac", "source-ip destination-ip")}


def _spelled(platform: str, state: Switch) -> str | None:
    """The hash as the platform spells it: the state's raw text when it is one, else from the name."""
    balance = state.load_balance
    if balance is None:
        return _DEFAULT_HASH[platform]
    table = switches.hashes(platform)
    if table is not None and balance.raw and balance.raw != "default":
        try:
            if table.read(balance.raw) == balance.hash:
                return balance.raw
        except ValueError:
            pass
    if platform == "cisco_ios":
        return _IOS_KEYWORDS.get(balance.hash, balance.hash)
    if platform == "cisco_nxos":
        direction, _, fields = balance.hash.partition("-")
        if direction == "src" and fields.startswith("dst-"):
            direction, fields = "src-dst", fields[4:]
        return f"{direction} {_NXOS_FIELDS.get(fields, fields)}"
    return _EOS_FIELDS.get(balance.hash, balance.hash)


# --- show interfaces ----------------------------------------------------------------------------


def _speed_text(platform: str, mbps: int | None) -> str:
    if mbps is None:
        return {"cisco_ios": "Auto-speed", "cisco_nxos": "auto-speed", "arista_eos": "unconfigured-speed"}[platform]
    gap = " " if platform == "cisco_nxos" else ""
    if mbps >= 1000 and mbps % 1000 == 0:
        return f"{mbps // 1000}{gap}Gb/s"
    return f"{mbps}{gap}Mb/s"


def _duplex_text(platform: str, duplex: str | None) -> str:
    if duplex is None:
        return {"cisco_ios": "Auto", "cisco_nxos": "auto", "arista_eos": "Unconfigured"}[platform]
    return duplex.capitalize() if platform != "cisco_nxos" else duplex


def _ios_eos_header(name: str, status: str | None) -> str:
    return {
        "up": f"{name} is up, line protocol is up (connected)",
        "down": f"{name} is down, line protocol is down (notconnect)",
        "disabled": f"{name} is administratively down, line protocol is down (disabled)",
        "err-disabled": f"{name} is down, line protocol is down (err-disabled)",
    }[status or "down"]


def _ios_show_interfaces(state: Switch) -> str:
    out: list[str] = []
    mac = 0
    for port in state.ports:
        if port.status is None:
            continue  # a port known only from a neighbour table or a summary
        mac += 1
        out.append(_ios_eos_header(port.name, port.status) + " ")
        out.append(f"  Hardware is Gigabit Ethernet, address is 00a3.8e4c.{mac:04x} (bia 00a3.8e4c.{mac:04x})")
        if port.description:
            out.append(f"  Description: {port.description}")
        if port.mtu is not None:
            out.append(f"  MTU {port.mtu} bytes, BW 1000000 Kbit/sec, DLY 10 usec, ")
        out.append("     reliability 255/255, txload 1/255, rxload 1/255")
        out.append("  Encapsulation ARPA, loopback not set")
        out.append("  Keepalive set (10 sec)")
        up = port.status == "up"
        duplex = _duplex_text("cisco_ios", port.duplex if up else None)
        speed = _speed_text("cisco_ios", port.speed_mbps if up else None)
        out.append(f"  {duplex}-duplex, {speed}, media type is 10/100/1000BaseTX")
        out.append("  input flow-control is off, output flow-control is unsupported ")
        out.append("     0 output errors, 0 collisions, 1 interface resets")
    for name, channel in _channels(state):
        if channel is None or channel.status is None:
            continue
        out.append(_ios_eos_header(channel_label("cisco_ios", name), channel.status) + " ")
        out.append("  Hardware is EtherChannel, address is 00a3.8e4c.1a0c (bia 00a3.8e4c.1a0c)")
        if channel.mtu is not None:
            out.append(f"  MTU {channel.mtu} bytes, BW 2000000 Kbit/sec, DLY 10 usec, ")
        out.append("  Auto-duplex, Auto-speed, link type is auto, media type is ")
        members = " ".join(short("cisco_ios", p.name) for p in _members(state, channel))
        out.append(f"  Members in this channel: {members} " if members else "  No members in this channel")
    return "\n".join(out) + "\n"


def _nxos_show_interface(state: Switch) -> str:
    out: list[str] = []
    header = {
        "up": "{} is up",
        "down": "{} is down (Link not connected)",
        "disabled": "{} is down (Administratively down)",
        "err-disabled": "{} is down (errDisabled)",
    }
    for port in state.ports:
        if port.status is None:
            continue
        out.append(header[port.status].format(port.name))
        out.append(f"admin state is {'down' if port.status == 'disabled' else 'up'}, Dedicated Interface")
        channel = _channel_of(state, port)
        if channel is not None:
            out.append(f"  Belongs to Po{channel_number(channel.name)}")
        out.append("  Hardware: 100/1000/10000/25000 Ethernet, address: 00fe.c8a1.2b00 (bia 00fe.c8a1.2b00)")
        if port.description:
            out.append(f"  Description: {port.description}")
        if port.mtu is not None:
            out.append(f"  MTU {port.mtu} bytes, BW 10000000 Kbit , DLY 10 usec")
        out.append("  Encapsulation ARPA, medium is broadcast")
        if port.mode in ("access", "trunk", "routed"):
            out.append(f"  Port mode is {port.mode}")
        up = port.status == "up"
        duplex = _duplex_text("cisco_nxos", port.duplex if up else None)
        speed = _speed_text("cisco_nxos", port.speed_mbps if up else None)
        out.append(f"  {duplex}-duplex, {speed}, media type is 10G")
        out.append("  Beacon is turned off")
        out.append("")
    for name, channel in _channels(state):
        if channel is None or channel.status is None:
            continue
        label = channel_label("cisco_nxos", name)
        out.append(f"{label} is up" if channel.status == "up" else f"{label} is down (No operational members)")
        out.append("admin state is up,")
        out.append("  Hardware: Port-Channel, address: 00fe.c8a1.2c00 (bia 00fe.c8a1.2c00)")
        if channel.mtu is not None:
            out.append(f"  MTU {channel.mtu} bytes, BW 10000000 Kbit , DLY 10 usec")
        if channel.switchport in ("access", "trunk"):
            out.append(f"  Port mode is {channel.switchport}")
        out.append("")
    return "\n".join(out) + "\n"


def _eos_show_interfaces(state: Switch) -> str:
    out: list[str] = []
    for port in state.ports:
        if port.status is None:
            continue
        out.append(_ios_eos_header(port.name, port.status).replace("(err-disabled)", "(errdisabled)"))
        out.append("  Hardware is Ethernet, address is 001c.7312.ab00 (bia 001c.7312.ab00)")
        if port.description:
            out.append(f"  Description: {port.description}")
        channel = _channel_of(state, port)
        if channel is not None:
            out.append(f"  Member of {channel_label('arista_eos', channel.name)}")
        if port.mtu is not None:
            out.append(f"  Ethernet MTU {port.mtu} bytes, BW 10000000 kbit")
        up = port.status == "up"
        duplex = _duplex_text("arista_eos", port.duplex if up else None)
        speed = _speed_text("arista_eos", port.speed_mbps if up else None)
        out.append(f"  {duplex}-duplex, {speed}, auto negotiation: off, uni-link: n/a")
        out.append("  Loopback Mode : None")
    for name, channel in _channels(state):
        if channel is None or channel.status is None:
            continue
        label = channel_label("arista_eos", name)
        if channel.status == "up":
            out.append(f"{label} is up, line protocol is up (connected)")
        else:
            out.append(f"{label} is down, line protocol is lowerlayerdown (notconnect)")
        out.append("  Hardware is Port-Channel, address is 001c.7312.ac00")
        if channel.mtu is not None:
            out.append(f"  Ethernet MTU {channel.mtu} bytes, BW 10000000 kbit")
        bundled = [p for p in _members(state, channel) if p.member_state == "bundled"]
        out.append(f"  Active members in this channel: {len(bundled)}" if bundled else "  No active members")
    return "\n".join(out) + "\n"


# --- channel summaries ----------------------------------------------------------------------------


def _protocol(platform: str, channel: PortChannel | None) -> str:
    mode = channel.mode if channel else None
    if platform == "arista_eos":
        return {"static": "Static", "lacp-active": "LACP(a)", "lacp-passive": "LACP(p)"}.get(mode or "", "LACP")
    if platform == "cisco_nxos":
        return {"static": "NONE"}.get(mode or "", "LACP")
    return {"static": "-", "pagp": "PAgP"}.get(mode or "", "LACP")


def _summary_rows(platform: str, state: Switch) -> list[tuple[str, str, str, str]]:
    """(group, `Po11(SU)`, protocol, members) per channel."""
    rows = []
    for name, channel in _channels(state):
        members = [p for p in state.ports if _channel_key(p) == names.interface_key(name)]
        if channel is not None:
            members = _members(state, channel)
        status = channel.status if channel else None
        flags = {"up": "U", "down": "D", None: ""}[status]
        if platform != "arista_eos":
            routed = channel is not None and channel.switchport == "routed"
            flags = ("R" if routed else "S") + flags
        shown = " ".join(f"{short(platform, p.name)}({_MEMBER_FLAG[platform][p.member_state]})" for p in members)
        number = channel_number(name)
        rows.append((number, f"Po{number}({flags})", _protocol(platform, channel), shown))
    return rows


def _ios_summary(state: Switch) -> str:
    rows = _summary_rows("cisco_ios", state)
    head = [
        "Flags:  D - down        P - bundled in port-channel",
        "        I - stand-alone s - suspended",
        "        H - Hot-standby (LACP only)",
        "        R - Layer3      S - Layer2",
        "        U - in use      f - failed to allocate aggregator",
        "",
        "        M - not in use, minimum links not met",
        "        u - unsuitable for bundling",
        "        w - waiting to be aggregated",
        "        d - default port",
        "",
        "",
        f"Number of channel-groups in use: {len(rows)}",
        f"Number of aggregators:           {len(rows)}",
        "",
        "Group  Port-channel  Protocol    Ports",
        "------+-------------+-----------+-----------------------------------------------",
    ]
    body = [f"{g:<7}{po:<16}{proto:<9}{members}  " for g, po, proto, members in rows]
    return "\n".join(head + body) + "\n\n"


def _nxos_summary(state: Switch) -> str:
    head = [
        "Flags:  D - Down        P - Up in port-channel (members)",
        "        I - Individual  H - Hot-standby (LACP only)",
        "        s - Suspended   r - Module-removed",
        "        S - Switched    R - Routed",
        "        U - Up (port-channel)",
        "        p - Up in delay-lacp mode (member)",
        "-" * 80,
        "Group Port-       Type     Protocol  Member Ports",
        "      Channel",
        "-" * 80,
    ]
    rows = _summary_rows("cisco_nxos", state)
    body = [f"{g:<6}{po:<12}Eth      {proto:<10}{members or '--'}   " for g, po, proto, members in rows]
    return "\n".join(head + body) + "\n"


def _eos_summary(state: Switch) -> str:
    rows = _summary_rows("arista_eos", state)
    head = [
        "",
        "                 Flags",
        "------------------------ ---------------------------- -------------------------",
        "  a - LACP Active          p - LACP Passive           * - static fallback",
        "  U - In Use               D - Down",
        "  + - In-Sync              - - Out-of-Sync            i - incompatible with agg",
        "  P - bundled in Po        s - suspended              G - Aggregable",
        "  I - Individual           S - ShortTimeout           w - wait for agg",
        "",
        f"Number of port channels in use: {len(rows)}",
        f"Number of aggregators: {len(rows)}",
        "",
        "   Port-Channel       Protocol    Ports",
        "------------------ -------------- ------------------------------",
    ]
    body = [f"   {po:<19}{proto:<12}{members}".rstrip() for _, po, proto, members in rows]
    return "\n".join(head + body) + "\n"


# --- neighbours ---------------------------------------------------------------------------------


def _neighbours(state: Switch, protocol: str) -> list[tuple[SwitchPort, Neighbour]]:
    return [(p, n) for p in state.ports for n in p.neighbours if n.protocol == protocol]


def _chassis_id(index: int) -> str:
    return f"0050.56{index // 256:02x}.{index % 256:02x}00"


def _lldp_device(neighbour: Neighbour, index: int) -> tuple[str, str | None]:
    """(chassis id, system name): the collector names an LLDP neighbour by its system name, else
    by its chassis id."""
    if neighbour.system_name:
        return _chassis_id(index), neighbour.system_name
    return neighbour.device_id, None


def _ios_cdp(state: Switch) -> str:
    out = []
    for port, n in _neighbours(state, "cdp"):
        out += ["-------------------------", f"Device ID: {n.device_id}", "Entry address(es): "]
        if n.mgmt_address:
            out.append(f"  IP address: {n.mgmt_address}")
        out.append(f"Platform: {n.platform or 'unknown'},  Capabilities: Switch ")
        out.append(f"Interface: {port.name},  Port ID (outgoing port): {n.port_id}")
        out += ["Holdtime : 171 sec", "", "advertisement version: 2", "Duplex: full", ""]
    count = len(_neighbours(state, "cdp"))
    return "\n".join([*out, "", f"Total cdp entries displayed : {count}"]) + "\n"


def _nxos_cdp(state: Switch) -> str:
    out = [
        "Capability Codes: R - Router, T - Trans-Bridge, B - Source-Route-Bridge",
        "                  S - Switch, H - Host, I - IGMP, r - Repeater,",
        "",
    ]
    for port, n in _neighbours(state, "cdp"):
        out += ["----------------------------------------", f"Device ID:{n.device_id}"]
        out.append(f"System Name: {n.system_name or ''}")
        out += ["", "Interface address(es):"]
        if n.mgmt_address:
            out.append(f"    IPv4 Address: {n.mgmt_address}")
        out.append(f"Platform: {n.platform or 'unknown'}, Capabilities: Switch ")
        out.append(f"Interface: {port.name}, Port ID (outgoing port): {n.port_id}")
        out += ["Holdtime: 164 sec", "", "Advertisement Version: 2", "", "Duplex: full", ""]
    count = len(_neighbours(state, "cdp"))
    return "\n".join([*out, f"Total entries displayed: {count}"]) + "\n"


def _ios_lldp_detail(state: Switch) -> str:
    out = []
    for index, (port, n) in enumerate(_neighbours(state, "lldp")):
        chassis, system = _lldp_device(n, index)
        out += ["------------------------------------------------", f"Local Intf: {short('cisco_ios', port.name)}"]
        out += [f"Chassis id: {chassis}", f"Port id: {n.port_id}"]
        if n.port_description:
            out.append(f"Port Description: {n.port_description}")
        if system:
            out.append(f"System Name: {system}")
        out += ["", "Time remaining: 104 seconds", "System Capabilities: B,R", "Enabled Capabilities: B"]
        out.append("Management Addresses:")
        if n.mgmt_address:
            out.append(f"    IP: {n.mgmt_address}")
        out += ["Vlan ID: - not advertised", ""]
    count = len(_neighbours(state, "lldp"))
    return "\n".join([*out, "", f"Total entries displayed: {count}"]) + "\n"


def _ios_lldp_table(state: Switch) -> str:
    out = [
        "",
        "Capability codes:",
        "    (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device",
        "    (W) WLAN Access Point, (P) Repeater, (S) Station, (O) Other",
        "",
        "Device ID           Local Intf     Hold-time  Capability      Port ID",
    ]
    lldp = _neighbours(state, "lldp")
    for index, (port, n) in enumerate(lldp):
        chassis, system = _lldp_device(n, index)
        device = (system or chassis)[:20]
        out.append(f"{device:<20}{short('cisco_ios', port.name):<15}{120:<11}{'B,R':<16}{n.port_id}")
    return "\n".join([*out, "", f"Total entries displayed: {len(lldp)}", ""]) + "\n"


def _nxos_lldp_detail(state: Switch) -> str:
    out = [
        "Capability codes:",
        "  (R) Router, (B) Bridge, (T) Telephone, (C) DOCSIS Cable Device",
        "  (W) WLAN Access Point, (P) Repeater, (S) Station, (O) Other",
        "Device ID            Local Intf      Hold-time  Capability  Port ID  ",
        "",
    ]
    lldp = _neighbours(state, "lldp")
    for index, (port, n) in enumerate(lldp):
        chassis, system = _lldp_device(n, index)
        out += [f"Chassis id: {chassis}", f"Port id: {n.port_id}", f"Local Port id: {short('cisco_nxos', port.name)}"]
        out.append(f"Port Description: {n.port_description or 'null'}" if n.port_description else "Port Description: ")
        out.append(f"System Name: {system or 'not advertised'}" if system else "System Name: ")
        out += ["Time remaining: 104 seconds", "System Capabilities: B, R", "Enabled Capabilities: B, R"]
        if n.mgmt_address:
            out.append(f"Management Address: {n.mgmt_address}")
        out += ["Vlan ID: 1", ""]
    return "\n".join([*out, f"Total entries displayed: {len(lldp)}"]) + "\n"


def _eos_lldp_detail(state: Switch) -> str:
    out = []
    index = 0
    for port in state.ports:
        lldp = [n for n in port.neighbours if n.protocol == "lldp"]
        if not lldp:
            continue
        out += [f"Interface {port.name} detected {len(lldp)} LLDP neighbors:", ""]
        for n in lldp:
            chassis, system = _lldp_device(n, index)
            index += 1
            out.append(f'  Neighbor {chassis}/"{n.port_id}", age 12 seconds')
            out.append("  Discovered 12 days, 3:41:10 ago; Last changed 12 days, 3:41:10 ago")
            out += ["  - Chassis ID type: MAC address (4)", f"    Chassis ID     : {chassis}"]
            out += ["  - Port ID type: Interface name (5)", f'    Port ID        : "{n.port_id}"']
            out.append("  - Time To Live: 120 seconds")
            if n.port_description:
                out.append(f'  - Port Description: "{n.port_description}"')
            if system:
                out.append(f'  - System Name: "{system}"')
            if n.mgmt_address:
                out += ["  - Management Address Subtype: IPv4 (1)", f"    Management Address        : {n.mgmt_address}"]
            out.append("")
    return "\n".join(out) + "\n"


# --- multichassis -------------------------------------------------------------------------------


def _ios_show_switch(state: Switch) -> str:
    stack = state.multichassis if state.multichassis and state.multichassis.kind == "stack" else None
    domain = stack.domain_id if stack else "00a3.8e4c.1a80"
    out = [
        f"Switch/Stack Mac Address : {domain} - Local Mac Address",
        "Mac persistency wait time: Indefinite",
        "                                             H/W   Current",
        "Switch#   Role    Mac Address     Priority Version  State ",
        "-------------------------------------------------------------",
        "*1       Active   00a3.8e4c.1a80     15     V05     Ready                ",
    ]
    if stack:
        out.append(" 2       Standby  00a3.8e4c.2c80     14     V05     Ready                ")
    return "\n".join(out) + "\n"


def _vpc_brief(state: Switch) -> str | None:
    vpc = state.multichassis if state.multichassis and state.multichassis.kind == "vpc" else None
    if vpc is None:
        return None  # `feature vpc` off: the command does not exist
    link_up = vpc.peer_link_up
    peer_status = "peer link is down" if link_up is False else "peer adjacency formed ok"
    out = [
        "Legend:",
        "                (*) - local vPC is down, forwarding via vPC peer-link",
        "",
        f"vPC domain id                     : {vpc.domain_id}  ",
        f"Peer status                       : {peer_status}      ",
        "vPC keep-alive status             : peer is alive                 ",
        "Configuration consistency status  : success ",
        "vPC role                          : primary                       ",
        "",
        "vPC Peer-link status",
        "---------------------------------------------------------------------",
        "id    Port   Status Active vlans    ",
        "--    ----   ------ -------------------------------------------------",
    ]
    link_channel = peer_link(state)
    if link_channel is not None and link_up is not None:
        po = f"Po{channel_number(link_channel.name)}"
        out.append(f"1     {po:<6} {'up' if link_up else 'down':<6} {'1' if link_up else '-'}")
    out += [
        "",
        "vPC status",
        "----------------------------------------------------------------------------",
        "Id    Port          Status Consistency Reason                Active vlans",
        "--    ------------  ------ ----------- ------                ---------------",
    ]
    for channel in state.port_channels:
        if channel.multichassis_id is None:
            continue
        po = f"Po{channel_number(channel.name)}"
        status = "up" if channel.status == "up" else "down*"
        out.append(f"{channel.multichassis_id:<6}{po:<14}{status:<7}success     success               -")
    return "\n".join(out) + "\n"


def _show_mlag(state: Switch) -> str:
    mlag = state.multichassis if state.multichassis and state.multichassis.kind == "mlag" else None
    if mlag is None:
        # `mlag configuration` not set: an empty domain and state Disabled (EOS User Manual, "show mlag").
        lines = ["MLAG Configuration:", f"{'domain-id':<35}:", "", "MLAG Status:", f"{'state':<35}: {'Disabled':>19}"]
        return "\n".join(lines) + "\n"
    link_channel = peer_link(state)
    link = "" if link_channel is None else channel_label("arista_eos", link_channel.name)
    link_status = {True: "Up", False: "Down", None: ""}[mlag.peer_link_up]
    out = [
        "MLAG Configuration:              ",
        f"domain-id                          : {mlag.domain_id:>19}",
        "local-interface                    :            Vlan4094",
        "peer-address                       :        10.255.255.2",
    ]
    if link:
        out.append(f"peer-link                          : {link:>19}")
    out += ["peer-config                        :          consistent", "", "MLAG Status:                     "]
    out.append("state                              :              Active")
    if link_status:
        out.append(f"peer-link status                   : {link_status:>18}")
    return "\n".join(out) + "\n"


# --- per platform -------------------------------------------------------------------------------


def _ios_version(state: Switch) -> str:
    out = []
    if state.os_version:
        out.append(f"Cisco IOS XE Software, Version {state.os_version}")
        out.append(
            "Cisco IOS Software [Cupertino], Catalyst L3 Switch Software (CAT9K_IOSXE), "
            f"Version {state.os_version}, RELEASE SOFTWARE (fc2)"
        )
    out.append(f"{state.name} uptime is 41 weeks, 3 days, 2 hours, 17 minutes")
    if state.model:
        out += ["", f"Model Number                       : {state.model}"]
    return "\n".join(out) + "\n"


def _hostname(state: Switch) -> str:
    return state.aliases[0] if state.aliases else state.name


def _ios_config(state: Switch) -> str:
    out = ["Building configuration...", "", "Current configuration : 6183 bytes", "!", "version 17.9"]
    out += [f"hostname {_hostname(state)}", "!", f"port-channel load-balance {_spelled('cisco_ios', state)}", "!"]
    out += _interfaces_config("cisco_ios", state, " ", "!")
    return "\n".join([*out, "end"]) + "\n"


def _nxos_version(state: Switch) -> str:
    out = ["Cisco Nexus Operating System (NX-OS) Software", "", "Software"]
    if state.os_version:
        out.append(f"  NXOS: version {state.os_version}")
    out += ["", "Hardware"]
    if state.model:
        model = state.model
        line = f"cisco {model} Chassis" if re.match(r"N\d+K-", model) else f"cisco Nexus9000 {model} Chassis"
        out.append(f"  {line} ")
    out += ["", f"  Device name: {state.name}"]
    return "\n".join(out) + "\n"


def _nxos_config(state: Switch) -> str:
    out = ["", "!Command: show running-config", "", f"version {state.os_version or '10.2(5)'}"]
    out += [f"hostname {_hostname(state)}", "", "feature lacp"]
    if state.multichassis and state.multichassis.kind == "vpc":
        out.append("feature vpc")
    out += ["feature lldp", "", *nxos_network_qos(state)]
    out += [f"port-channel load-balance {_spelled('cisco_nxos', state)}", ""]
    if state.multichassis and state.multichassis.kind == "vpc":
        out += [f"vpc domain {state.multichassis.domain_id}", "  peer-switch", ""]
    out += _interfaces_config("cisco_nxos", state, "  ", None)
    return "\n".join([*out, "line console", "line vty"]) + "\n"


def _nxos_load_balance(state: Switch) -> str:
    spelled = _spelled("cisco_nxos", state)
    return f"System config:\n  Non-IP: src-dst mac \n  IP: {spelled} \n\n"


def _eos_version(state: Switch) -> str:
    out = [f"Arista {state.model}"] if state.model else []
    out += ["Hardware version: 11.02", ""]
    if state.os_version:
        out.append(f"Software image version: {state.os_version}")
    out += ["Architecture: x86_64", ""]
    return "\n".join(out) + "\n"


def _eos_config(state: Switch) -> str:
    out = ["! Command: show running-config", f"! device: {state.name}", "!", f"hostname {_hostname(state)}", "!"]
    balance = state.load_balance
    if balance is not None and balance.hash in _EOS_MAC_AND_IP:
        mac, ip = _EOS_MAC_AND_IP[balance.hash]
        out += [f"port-channel load-balance trident fields mac {mac}", "!"]
        out += [f"port-channel load-balance trident fields ip {ip}", "!"]
    elif fields := _spelled("arista_eos", state):
        out += [f"port-channel load-balance trident fields ip {fields}", "!"]
    out += _interfaces_config("arista_eos", state, "   ", "!")
    mlag = state.multichassis if state.multichassis and state.multichassis.kind == "mlag" else None
    if mlag:
        out += ["mlag configuration", f"   domain-id {mlag.domain_id}"]
        link_channel = peer_link(state)
        if link_channel is not None:
            out.append(f"   peer-link {channel_label('arista_eos', link_channel.name)}")
        out.append("!")
    return "\n".join([*out, "end"]) + "\n"


_IOS: dict[str, Render] = {
    "show version": _ios_version,
    "show running-config": _ios_config,
    "show interfaces": _ios_show_interfaces,
    "show etherchannel summary": _ios_summary,
    "show etherchannel load-balance": lambda s: (
        f"EtherChannel Load-Balancing Configuration:\n        {_spelled('cisco_ios', s)}\n\n"
        "EtherChannel Load-Balancing Addresses Used Per-Protocol:\n"
    ),
    "show cdp neighbors detail": _ios_cdp,
    "show lldp neighbors detail": _ios_lldp_detail,
    "show lldp neighbors": _ios_lldp_table,
    "show switch": _ios_show_switch,
    "show system mtu": ios_system_mtu,
}
_NXOS: dict[str, Callable[[Switch], str | None]] = {
    "show version": _nxos_version,
    "show running-config": _nxos_config,
    "show interface": _nxos_show_interface,
    "show port-channel summary": _nxos_summary,
    "show port-channel load-balance": _nxos_load_balance,
    "show cdp neighbors detail": _nxos_cdp,
    "show lldp neighbors detail": _nxos_lldp_detail,
    "show vpc brief": _vpc_brief,
}
_EOS: dict[str, Render] = {
    "show version": _eos_version,
    "show running-config": _eos_config,
    "show interfaces": _eos_show_interfaces,
    "show port-channel summary": _eos_summary,
    "show lldp neighbors detail": _eos_lldp_detail,
    "show mlag": _show_mlag,
}
COMMANDS: dict[str, dict[str, Callable[[Switch], str | None]]] = {
    "cisco_ios": dict(_IOS),
    "cisco_nxos": _NXOS,
    "arista_eos": dict(_EOS),
}


def _renderer(platform: str) -> Callable[[Switch, str], str | None]:
    def render(state: Switch, command: str) -> str | None:
        """The output of `command` (spaces normalised) on this state; None: not a command it knows."""
        answer = COMMANDS[platform].get(" ".join(command.split()))
        return answer(state) if answer else None

    return render


render_ios = _renderer("cisco_ios")
render_nxos = _renderer("cisco_nxos")
render_eos = _renderer("arista_eos")

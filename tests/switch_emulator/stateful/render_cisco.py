"""Show commands of IOS, NX-OS and EOS answered from a `hostlint.snapshot.Switch` state.

Every format follows the platform's captured sample beside the collector's template
(hostlint/switches/<platform>/<command>.txt), so the real collector reads the state back. What a state
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


def channel_members(state: Switch, channel: PortChannel) -> list[SwitchPort]:
    """The channel's member ports: listed by the channel or naming it (either side may say it)."""
    key = names.interface_key(channel.name)
    listed = {names.interface_key(m) for m in channel.members}
    return [p for p in state.ports if names.interface_key(p.name) in listed or _channel_key(p) == key]


def _channel_key(port: SwitchPort) -> str | None:
    return names.interface_key(port.port_channel) if port.port_channel else None


def channel_holding(state: Switch, port: SwitchPort) -> PortChannel | None:
    key = names.interface_key(port.name)
    for channel in state.port_channels:
        if names.interface_key(channel.name) == _channel_key(port) or key in {
            names.interface_key(m) for m in channel.members
        }:
            return channel
    return None


def all_channels(state: Switch) -> list[tuple[str, PortChannel | None]]:
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
    channel = channel_holding(state, port)
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
        for member in channel_members(state, channel):
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
        member_modes = [p.mode for p in state.ports if p.mode and channel_holding(state, p) is item]
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
    channel_of = channel_holding(state, item)
    if channel_of is None or channel_of.l2_mtu != item.l2_mtu:
        individual = channel_of is None or item.member_state == "individual"
        lines += _l2_mtu_lines(platform, item, item.mode if individual else channel_of.switchport or item.mode)
    lines += vlan_lines
    if platform != "arista_eos" and item.mtu is not None and item.mtu != 1500:
        lines.append(f"mtu {item.mtu}")
    lines += _speed_lines(platform, item)
    channel = channel_holding(state, item)
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


def interfaces_config(platform: str, state: Switch, indent: str, separator: str | None) -> list[str]:
    out: list[str] = []
    for name, channel in all_channels(state):
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
EOS_MAC_AND_IP = {"src-dst-mac-ip": ("src-mac dst-mac", "source-ip destination-ip")}


def spelled_hash(platform: str, state: Switch) -> str | None:
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


def speed_text(platform: str, mbps: int | None) -> str:
    if mbps is None:
        return {"cisco_ios": "Auto-speed", "cisco_nxos": "auto-speed", "arista_eos": "unconfigured-speed"}[platform]
    gap = " " if platform == "cisco_nxos" else ""
    if mbps >= 1000 and mbps % 1000 == 0:
        return f"{mbps // 1000}{gap}Gb/s"
    return f"{mbps}{gap}Mb/s"


def duplex_text(platform: str, duplex: str | None) -> str:
    if duplex is None:
        return {"cisco_ios": "Auto", "cisco_nxos": "auto", "arista_eos": "Unconfigured"}[platform]
    return duplex.capitalize() if platform != "cisco_nxos" else duplex


def ios_eos_header(name: str, status: str | None) -> str:
    return {
        "up": f"{name} is up, line protocol is up (connected)",
        "down": f"{name} is down, line protocol is down (notconnect)",
        "disabled": f"{name} is administratively down, line protocol is down (disabled)",
        "err-disabled": f"{name} is down, line protocol is down (err-disabled)",
    }[status or "down"]


# --- channel summaries ----------------------------------------------------------------------------


def _protocol(platform: str, channel: PortChannel | None) -> str:
    mode = channel.mode if channel else None
    if platform == "arista_eos":
        return {"static": "Static", "lacp-active": "LACP(a)", "lacp-passive": "LACP(p)"}.get(mode or "", "LACP")
    if platform == "cisco_nxos":
        return {"static": "NONE"}.get(mode or "", "LACP")
    return {"static": "-", "pagp": "PAgP"}.get(mode or "", "LACP")


def summary_rows(platform: str, state: Switch) -> list[tuple[str, str, str, str]]:
    """(group, `Po11(SU)`, protocol, members) per channel."""
    rows = []
    for name, channel in all_channels(state):
        members = [p for p in state.ports if _channel_key(p) == names.interface_key(name)]
        if channel is not None:
            members = channel_members(state, channel)
        status = channel.status if channel else None
        flags = {"up": "U", "down": "D", None: ""}[status]
        if platform != "arista_eos":
            routed = channel is not None and channel.switchport == "routed"
            flags = ("R" if routed else "S") + flags
        shown = " ".join(f"{short(platform, p.name)}({_MEMBER_FLAG[platform][p.member_state]})" for p in members)
        number = channel_number(name)
        rows.append((number, f"Po{number}({flags})", _protocol(platform, channel), shown))
    return rows


# --- neighbours ---------------------------------------------------------------------------------


def neighbours_over(state: Switch, protocol: str) -> list[tuple[SwitchPort, Neighbour]]:
    return [(p, n) for p in state.ports for n in p.neighbours if n.protocol == protocol]


def _chassis_id(index: int) -> str:
    return f"0050.56{index // 256:02x}.{index % 256:02x}00"


def lldp_device(neighbour: Neighbour, index: int) -> tuple[str, str | None]:
    """(chassis id, system name): the collector names an LLDP neighbour by its system name, else
    by its chassis id."""
    if neighbour.system_name:
        return _chassis_id(index), neighbour.system_name
    return neighbour.device_id, None


# --- multichassis -------------------------------------------------------------------------------


# --- per platform -------------------------------------------------------------------------------


def hostname_of(state: Switch) -> str:
    return state.aliases[0] if state.aliases else state.name

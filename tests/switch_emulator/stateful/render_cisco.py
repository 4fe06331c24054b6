"""Show output the Cisco-like platforms share, answered from a `hostlint.snapshot.Switch` state.

Every format follows the platform's captured sample beside the collector's template
(hostlint/switches/<platform>/<command>.txt), so the real collector reads the state back. What a state
holds that the platform cannot show (a trunk whose VLANs are unknown, a hash the platform cannot
spell, ...) is rendered as the switch would show its configuration, and the round-trip test
(tests/test_switch_render.py) lists each such field by name.

What each platform says differently is its `Dialect`, defined by its emulator module
(tests/switch_emulator/platforms/<platform>.py) and passed to every function here that prints; two
facts its folder already states are read from the folder through the registry, as vocabulary: the
short forms of interface names (`names.py` `NAMES.short`) and the channel's interface form
(`platform.py` `channel_interface`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from hostlint import names, switches, vlans
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import ChannelMode, MemberState, PortChannel, Switch, SwitchPort

Render = Callable[[Switch], str]


def speed_duplex_lines(speed: int | None, duplex: str | None) -> list[str]:
    """`speed N` and `duplex D` lines, each where configured."""
    lines = [f"speed {speed}"] if speed is not None else []
    return lines + ([f"duplex {duplex}"] if duplex is not None else [])


@dataclass(frozen=True, kw_only=True)
class Dialect:
    """What one Cisco-like platform prints differently (its emulator module's `DIALECT`).

    `platform`: its folder, whose short names and channel form are read. `member_flags`: member state ->
    the summary flag its legend gives it (None: the state not known). `protocols`: channel mode -> the
    summary's Protocol word, `LACP` for any other. `layer_flag`: the summary puts `S`/`R` (switched or
    routed) before a channel's flags. `default_hash`: the hash shown where none is configured.
    `spell_hash`: hostlint's hash name -> the platform's words, where the state keeps no raw text of its
    own. `auto_speed`, `auto_duplex`, `speed_gap`, `duplex_capitalised`: `show interface(s)` texts.
    `speed_lines`: the configuration lines of a configured speed and duplex. `mtu_before_switchport`: a
    port's `mtu` line comes before its switchport lines. `l2_mtu_max`: where a port has an `l2 mtu FRAME`
    line, the largest frame (a frame at it or above is not printed). `member_mode_shown`: `show
    interface` prints each port's mode, so a member whose VLANs are unknown prints no switchport line of
    its own. `peer_link_line`, `multichassis_word`: a channel's multichassis lines (the peer-link's
    line; the word before a channel's id), None where the platform has none.
    """

    platform: str
    member_flags: Mapping[MemberState | None, str]
    protocols: Mapping[ChannelMode, str]
    layer_flag: bool
    default_hash: str | None
    spell_hash: Callable[[str], str]
    auto_speed: str
    auto_duplex: str
    speed_gap: str = ""
    duplex_capitalised: bool = True
    speed_lines: Callable[[int | None, str | None], list[str]] = speed_duplex_lines
    mtu_before_switchport: bool = False
    l2_mtu_max: int | None = None
    member_mode_shown: bool = False
    peer_link_line: str | None = None
    multichassis_word: str | None = None


# Channel-group keyword per mode (PAgP `desirable` where a platform has PAgP).
_GROUP_MODE = {"static": "on", "lacp-active": "active", "lacp-passive": "passive", "pagp": "desirable"}


def short(dialect: Dialect, name: str) -> str:
    """The form summaries and neighbour tables print (`Gi1/0/3`, `Eth1/11`, `Et11`): the folder's table."""
    grammar = switches.names(dialect.platform)
    for long, abbreviation in grammar.short if grammar is not None else ():
        if name.startswith(long):
            return abbreviation + name[len(long) :]
    return name


def channel_number(name: str) -> str:
    match = re.search(r"(\d+)$", name)
    if not match:
        raise ValueError(f"{name}: not a numbered port-channel")
    return match.group(1)


def channel_label(dialect: Dialect, name: str) -> str:
    """The channel as the platform spells it in its configuration and `show interface(s)`."""
    return switches.switch(dialect.platform).channel_interface.format(channel_number(name))


def port_label(dialect: Dialect, name: str) -> str:
    return channel_label(dialect, name) if names.interface(name).startswith("Port-channel") else name


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


def _port_vlan_lines(dialect: Dialect, state: Switch, port: SwitchPort) -> list[str]:
    """A member whose VLANs are unknown and whose mode is its channel's says nothing itself: its
    mode is read from the channel (or from `show interface`, where it prints `Port mode is`)."""
    channel = channel_holding(state, port)
    unknown_vlans = port.access_vlan is None and port.native_vlan is None and port.allowed_vlans is None
    if unknown_vlans and port.mode != "routed":
        if port.mode is None or (channel is not None and channel.switchport == port.mode):
            return []
        if dialect.member_mode_shown:
            return []
    return _vlan_lines(port.mode, port.access_vlan, port.native_vlan, port.allowed_vlans)


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


def _interface_block(dialect: Dialect, state: Switch, item: SwitchPort | PortChannel, indent: str) -> list[str]:
    link_channel = peer_link(state)
    lines: list[str] = []
    if isinstance(item, PortChannel):
        lines += _vlan_lines(item.switchport, item.access_vlan, item.native_vlan, item.allowed_vlans)
        if item.mtu is not None and item.mtu != 1500:
            lines.append(f"mtu {item.mtu}")
        # The collector reads a member's frame with the channel's switchport mode, else the member's own.
        member_modes = [p.mode for p in state.ports if p.mode and channel_holding(state, p) is item]
        lines += _l2_mtu_lines(dialect, item, item.switchport or next(iter(member_modes), None))
        if link_channel is not None and link_channel.name == item.name:
            lines += [dialect.peer_link_line] if dialect.peer_link_line else []
        elif item.multichassis_id is not None and dialect.multichassis_word:
            lines.append(f"{dialect.multichassis_word} {item.multichassis_id}")
        return lines + _kept(item, lines)
    if item.description:
        lines.append(f"description {item.description}")
    vlan_lines = _port_vlan_lines(dialect, state, item)
    if dialect.mtu_before_switchport and item.mtu is not None and item.mtu != 1500:
        lines.append(f"mtu {item.mtu}")
    channel_of = channel_holding(state, item)
    if channel_of is None or channel_of.l2_mtu != item.l2_mtu:
        individual = channel_of is None or item.member_state == "individual"
        lines += _l2_mtu_lines(dialect, item, item.mode if individual else channel_of.switchport or item.mode)
    lines += vlan_lines
    if not dialect.mtu_before_switchport and item.mtu is not None and item.mtu != 1500:
        lines.append(f"mtu {item.mtu}")
    lines += dialect.speed_lines(item.configured_speed_mbps, item.configured_duplex)
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


def _l2_mtu_lines(dialect: Dialect, item: SwitchPort | PortChannel, mode: str | None) -> list[str]:
    """`l2 mtu FRAME` where the platform has it and the L2 MTU (held as its IP packet) is below its maximum."""
    if dialect.l2_mtu_max is None or item.l2_mtu is None:
        return []
    frame = item.l2_mtu + 14 + (4 if mode == "trunk" else 0)
    return [] if frame >= dialect.l2_mtu_max else [f"l2 mtu {frame}"]


def _channel_config(dialect: Dialect, state: Switch, channel: PortChannel, indent: str) -> list[str]:
    return [f"{indent}{line}" for line in _interface_block(dialect, state, channel, "")]


def interfaces_config(dialect: Dialect, state: Switch, indent: str, separator: str | None) -> list[str]:
    out: list[str] = []
    for name, channel in all_channels(state):
        if channel is None:
            continue
        out.append(f"interface {channel_label(dialect, name)}")
        out += _channel_config(dialect, state, channel, indent)
        out.append(separator if separator is not None else "")
    for port in state.ports:
        out.append(f"interface {port.name}")
        out += _interface_block(dialect, state, port, indent)
        out.append(separator if separator is not None else "")
    return out


# --- load balance -------------------------------------------------------------------------------


def spelled_hash(dialect: Dialect, state: Switch) -> str | None:
    """The hash as the platform spells it: the state's raw text when it is one, else from the name."""
    balance = state.load_balance
    if balance is None:
        return dialect.default_hash
    table = switches.hashes(dialect.platform)
    if table is not None and balance.raw and balance.raw != "default":
        try:
            if table.read(balance.raw) == balance.hash:
                return balance.raw
        except ValueError:
            pass
    return dialect.spell_hash(balance.hash)


# --- show interfaces ----------------------------------------------------------------------------


def speed_text(dialect: Dialect, mbps: int | None) -> str:
    if mbps is None:
        return dialect.auto_speed
    gap = dialect.speed_gap
    if mbps >= 1000 and mbps % 1000 == 0:
        return f"{mbps // 1000}{gap}Gb/s"
    return f"{mbps}{gap}Mb/s"


def duplex_text(dialect: Dialect, duplex: str | None) -> str:
    if duplex is None:
        return dialect.auto_duplex
    return duplex.capitalize() if dialect.duplex_capitalised else duplex


def line_protocol_header(name: str, status: str | None) -> str:
    """`NAME is up, line protocol is up (connected)` and the like, per status."""
    return {
        "up": f"{name} is up, line protocol is up (connected)",
        "down": f"{name} is down, line protocol is down (notconnect)",
        "disabled": f"{name} is administratively down, line protocol is down (disabled)",
        "err-disabled": f"{name} is down, line protocol is down (err-disabled)",
    }[status or "down"]


# --- channel summaries ----------------------------------------------------------------------------


def _protocol(dialect: Dialect, channel: PortChannel | None) -> str:
    mode = channel.mode if channel else None
    return dialect.protocols.get(mode, "LACP") if mode is not None else "LACP"


def summary_rows(dialect: Dialect, state: Switch) -> list[tuple[str, str, str, str]]:
    """(group, `Po11(SU)`, protocol, members) per channel."""
    rows = []
    for name, channel in all_channels(state):
        members = [p for p in state.ports if _channel_key(p) == names.interface_key(name)]
        if channel is not None:
            members = channel_members(state, channel)
        status = channel.status if channel else None
        flags = {"up": "U", "down": "D", None: ""}[status]
        if dialect.layer_flag:
            routed = channel is not None and channel.switchport == "routed"
            flags = ("R" if routed else "S") + flags
        shown = " ".join(f"{short(dialect, p.name)}({dialect.member_flags[p.member_state]})" for p in members)
        number = channel_number(name)
        rows.append((number, f"Po{number}({flags})", _protocol(dialect, channel), shown))
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


# --- the device ---------------------------------------------------------------------------------


def hostname_of(state: Switch) -> str:
    return state.aliases[0] if state.aliases else state.name

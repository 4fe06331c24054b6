"""Cisco-like port-channels: the summary's members and flags (the folder's members.py), their mode from the
configuration or the summary's `Protocol` column, status, VLANs and MTU.

Part of the Cisco-like assembly (hostlint/switches/cisco_like/assemble/__init__.py).
"""

from __future__ import annotations

import re
from functools import partial

from hostlint import names, switches
from hostlint.collect.switches import normalise
from hostlint.collect.switches.kinds import is_channel
from hostlint.snapshot.switch import (
    ChannelMode,
    ChannelStatus,
    MemberState,
    PortChannel,
    PortMode,
    SwitchPort,
)
from hostlint.switches.cisco_like.assemble.port_mtu import l2_mtu, l3_mtu
from hostlint.switches.cisco_like.assemble.ports import port_status, vlan_facts
from hostlint.switches.cisco_like.assemble.reading import Reading, Record, as_int, channel_interface, switchport_mode

_MEMBER = re.compile(r"(\S+?)\(([^()\s]+)\)")


def _members_mode(members: list[str], ports: list[SwitchPort]) -> PortMode | None:
    modes = [port.mode for port in ports if port.name in members and port.mode is not None]
    return modes[0] if modes else None


def summary_mode(protocol: str) -> ChannelMode | None:
    """Summary `Protocol` column -> mode: `-`/`NONE`/`Static` static, `PAgP`, EOS `LACP(a)`/`LACP(p)`.

    A bare `LACP` (IOS, NX-OS) does not say active or passive: unknown unless the
    configuration says.
    """
    text = protocol.strip().lower()
    if text in ("-", "none", "static"):
        return "static"
    if text.startswith("pagp"):
        return "pagp"
    flags = re.fullmatch(r"lacp\(([^)]*)\)", text)
    if flags:
        if "a" in flags.group(1):
            return "lacp-active"
        if "p" in flags.group(1):
            return "lacp-passive"
    return None


def _channel_mode(
    channel: str,
    members: list[str],
    configured: dict[str, Record],
    summary: Record,
    reading: Reading,
) -> ChannelMode | None:
    candidates = [configured.get(m, {}).get("channel_mode") for m in members]
    candidates += [configured.get(channel, {}).get("channel_mode")]
    for raw in candidates:
        if raw:
            mode = reading.read("configured", f"{channel} mode", partial(normalise.channel_mode, raw))
            if mode:
                return mode
    # Shown by the configuration's silence: NX-OS `channel-group N` without a mode is `mode on`.
    if any(configured.get(m, {}).get("channel_group") and not configured[m].get("channel_mode") for m in members):
        return "static"
    return summary_mode(str(summary.get("protocol") or ""))


def _summary(reading: Reading) -> dict[str, Record]:
    return {channel_interface(reading.platform, r["name"]): r for r in reading.fields("channels") if r.get("name")}


def read_membership(reading: Reading) -> dict[str, tuple[str, MemberState | None]]:
    """Member port -> (its channel, its state) from the channel summary."""
    found: dict[str, tuple[str, MemberState | None]] = {}
    # The platform folder's member flags (members.py) read the channel summary's flags.
    member_flags = switches.member_flags(reading.platform)
    for channel, record in _summary(reading).items():
        for member, flags in _MEMBER.findall(str(record.get("members", ""))):
            found[names.interface(member)] = (channel, member_flags.state(flags) if member_flags else None)
    return found


def _channel_status(own: Record, summary: Record) -> ChannelStatus | None:
    """Up or down as `show interfaces` shows the channel, else the summary's `U`/`D` flag; else unknown."""
    if own.get("state"):
        return "up" if port_status(own, {}) == "up" else "down"
    flags = str(summary.get("flags") or "")
    if "U" in flags:
        return "up"
    if "D" in flags:
        return "down"
    return None


def build_channels(
    ports: list[SwitchPort],
    shown: dict[str, Record],
    configured: dict[str, Record],
    reading: Reading,
) -> list[PortChannel]:
    summary = _summary(reading)
    mc_ids = {names.interface(str(r.port)): r.id for r in reading.group("vpcs") if r.port and r.id}
    peer_links = [names.interface(str(r.port)) for r in reading.group("peer_link") if r.port]
    found = [n for n in [*summary, *shown, *configured, *mc_ids, *peer_links] if is_channel(n)]
    found += [p.port_channel for p in ports if p.port_channel]
    members_of: dict[str, list[str]] = {}
    for port in ports:
        if port.port_channel:
            members_of.setdefault(port.port_channel, []).append(port.name)
    channels = []
    for name in dict.fromkeys(found):
        members = list(members_of.get(name, []))
        own = shown.get(name, {})
        config = configured.get(name, {})
        read_mtu = partial(l3_mtu, reading.platform, own)
        mtu = reading.read("interfaces", f"{name} MTU", read_mtu) if own.get("mtu") else None
        mc_id = config.get("vpc") or config.get("mlag") or mc_ids.get(name)
        channels.append(
            PortChannel(
                name=name,
                mode=_channel_mode(name, members, configured, summary.get(name, {}), reading),
                switchport=switchport_mode(config),
                **vlan_facts(name, config, reading),
                members=members,
                mtu=mtu,
                # A channel without switchport lines of its own tags as its members do.
                l2_mtu=l2_mtu(name, config, switchport_mode(config) or _members_mode(members, ports), reading, members),
                status=_channel_status(own, summary.get(name, {})),
                load_balance=None,
                multichassis_id=reading.read("configured", f"{name} multichassis id", partial(as_int, mc_id))
                if mc_id
                else None,
            )
        )
    return channels

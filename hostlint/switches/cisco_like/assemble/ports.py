"""One Cisco-like port: its status, switchport mode and VLANs, speed, duplex and MTU, channel and member
state, as `show interfaces`, the running configuration and the channel summary show them.

Part of the Cisco-like assembly (hostlint/switches/cisco_like/assemble/__init__.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from hostlint import switches, vlans
from hostlint.collect.switches import normalise
from hostlint.snapshot.common import Neighbour
from hostlint.snapshot.switch import (
    MemberState,
    PortStatus,
    SwitchPort,
)
from hostlint.switches.cisco_like.assemble.port_mtu import l2_mtu, l3_mtu
from hostlint.switches.cisco_like.assemble.reading import Reading, Record, as_int, channel_interface, switchport_mode


def vlan_facts(name: str, record: Record, reading: Reading) -> dict[str, Any]:
    """access_vlan, native_vlan, allowed_vlans from one interface's own configuration.

    IOS, NX-OS and EOS: a trunk without `switchport trunk allowed vlan` carries all VLANs and its
    native VLAN is 1; an access port without `switchport access vlan` is in VLAN 1 (Cisco Catalyst
    "Configuring VLAN Trunks": "By default, all VLANs are allowed on a trunk", "the default native
    VLAN is VLAN 1"; NX-OS Layer 2 Switching Configuration Guide, "Configuring Access and Trunk
    Interfaces"; EOS User Manual, "Switchport configuration": default access VLAN 1, trunk allowed
    all, native VLAN 1).
    """
    mode = switchport_mode(record)
    facts: dict[str, Any] = {"access_vlan": None, "native_vlan": None, "allowed_vlans": None}
    if mode == "routed":
        return facts
    # A VLAN line the template could not read (hostlint.collect.switches.counts): no default for it.
    unread = set(record.get("unread") or ())

    def read(what: str, convert: Callable[[], Any]) -> Any:
        return reading.read("configured", f"{name} {what}", convert)

    if record.get("native_vlan"):
        facts["native_vlan"] = read("native VLAN", lambda: as_int(record["native_vlan"]))
    if record.get("access_vlan"):
        facts["access_vlan"] = read("access VLAN", lambda: as_int(record["access_vlan"]))
    elif mode == "access" and "access_vlan" not in unread:
        facts["access_vlan"] = 1
    allowed = record.get("allowed_vlans")
    if allowed:
        facts["allowed_vlans"] = read("allowed VLANs", lambda: vlans.apply_commands(str(allowed).split(";")))
    elif mode == "trunk" and "allowed_vlans" not in unread:
        facts["allowed_vlans"] = list(vlans.ALL)
    if facts["native_vlan"] is None and mode == "trunk" and "native_vlan" not in unread:
        facts["native_vlan"] = 1
    return facts


def port_status(shown: Record, configured: Record) -> PortStatus | None:
    """The port's status as shown; None when `show interfaces` did not show the port."""
    if not shown.get("state"):
        return None
    admin = str(shown.get("admin") or "").strip()
    # NX-OS `admin state is down` (the reason then says why the link is down: `XCVR not inserted`).
    admin = "administratively down" if admin.lower() == "down" else admin
    reason = " ".join(str(v) for v in (shown.get("reason"), admin) if v)
    protocol = shown.get("protocol")
    status = normalise.port_status(str(shown["state"]), reason or None, str(protocol) if protocol else None)
    if status == "disabled" and admin.lower() == "up":
        status = "down"  # `admin state is up`: whatever the reason says, the port itself is not shut
    if configured.get("shutdown") and status == "down":
        status = "disabled"
    return status


def build_port(
    name: str,
    shown: Record,
    configured: dict[str, Record],
    reading: Reading,
    neighbours: dict[str, list[Neighbour]],
    membership: dict[str, tuple[str, MemberState | None]],
) -> SwitchPort:
    """One port; a bundle member's mode (and so its MTU's tagging) falls back to its channel's.

    Every fact is what a command showed, or None: a port known only from a neighbour
    table or a channel summary has no status, MTU or speed.
    """
    platform = reading.platform
    member_of = membership.get(name)
    channel = configured.get(name, {}).get("channel_group") or shown.get("channel")
    channel_name = channel_interface(platform, channel) if channel else (member_of[0] if member_of else None)
    channel_config = configured.get(channel_name, {}) if channel_name else {}
    port_config = configured.get(name, {})
    mode = switchport_mode(port_config) or switchport_mode(channel_config) or switchport_mode(shown)
    entry = switches.switch(platform)
    if channel_name and port_config and not entry.members_match_channel and entry.vlan_syntax == "switchport":
        # EOS: a member keeps switchport lines of its own, which carry its traffic while it runs individually
        # (`port-channel lacp fallback individual`); silent, they are the default, an access port in VLAN 1
        # (EOS User Manual, "Port Channels and LACP: fallback", "Switchport configuration").
        port_config = {**port_config, "switchport_mode": port_config.get("switchport_mode") or "access"}
        mode = switchport_mode(port_config)
    status = port_status(shown, port_config)
    mtu = reading.read("interfaces", f"{name} MTU", partial(l3_mtu, platform, shown)) if shown.get("mtu") else None
    speed_text = port_config.get("speed")
    up = status == "up"
    speed = (
        reading.read("interfaces", f"{name} speed", lambda: normalise.speed_mbps(shown.get("speed"))) if up else None
    )
    duplex = normalise.duplex(shown.get("duplex")) if up else None
    if duplex is None and speed is not None and speed >= 10000:
        duplex = "full"  # 10GbE and faster have no half duplex; some platforms print no link mode for them
    return SwitchPort(
        name=name,
        description=shown.get("description") or port_config.get("description"),
        status=status,
        mode=mode,
        **vlan_facts(name, port_config, reading),
        configured_speed_mbps=reading.read("configured", f"{name} speed", lambda: normalise.speed_mbps(speed_text)),
        configured_duplex=normalise.duplex(port_config.get("duplex") or speed_text),
        speed_mbps=speed,
        duplex=duplex,
        mtu=mtu,
        # Frames are tagged by the switchport mode that governs the port: its channel's, unless it runs on its
        # own (LACP fallback individual: its own configuration applies).
        l2_mtu=l2_mtu(
            name,
            {**channel_config, **port_config},
            mode if member_of and member_of[1] == "individual" else switchport_mode(channel_config) or mode,
            reading,
        ),
        port_channel=channel_name,
        member_state=member_of[1] if member_of and member_of[0] == channel_name else None,
        neighbours=neighbours.get(name, []),
    )

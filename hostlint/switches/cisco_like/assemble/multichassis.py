"""Cisco-like multichassis: NX-OS vPC (`show vpc brief`), EOS MLAG (`show mlag`), an IOS stack (`show switch`).

Part of the Cisco-like assembly (hostlint/switches/cisco_like/assemble/__init__.py).
"""

from __future__ import annotations

from typing import Any

from hostlint import names
from hostlint.snapshot.switch import (
    MultiChassis,
    PortChannel,
    SwitchPort,
)
from hostlint.switches.cisco_like.assemble.reading import Reading


def _peer(peer_link: str | None, channels: list[PortChannel], ports: list[SwitchPort]) -> str | None:
    """The other switch of a vPC/MLAG pair: the CDP/LLDP neighbour on a peer-link member."""
    if not peer_link:
        return None
    link = names.interface(peer_link)
    members = next((c.members for c in channels if c.name == link), [])
    for port in ports:
        if port.name in members and port.neighbours:
            return port.neighbours[0].system_name or port.neighbours[0].device_id
    return None


def _up_or_unknown(text: Any) -> bool | None:
    word = str(text or "").strip().lower()
    return None if not word else word == "up"


def vpc_peer_link_up(link_status: str | None, peer_status: str | None) -> bool | None:
    """Up when the peer-link row says up and the peer status is ok; unknown when neither was shown."""
    link = _up_or_unknown(link_status)
    status = str(peer_status or "").strip().lower()
    if link is False or (status and "ok" not in status):
        return False
    if link is None or not status:
        return None
    return True


def read_multichassis(reading: Reading, channels: list[PortChannel], ports: list[SwitchPort]) -> MultiChassis | None:
    """NX-OS vPC, EOS MLAG or an IOS stack of two or more members (each platform has one of the groups)."""
    vpc = next(iter(reading.group("vpc")), None)
    if vpc and str(vpc.domain_id or "").isdigit():
        peer_link = next(iter(reading.group("peer_link")), None)
        return MultiChassis(
            kind="vpc",
            domain_id=str(vpc.domain_id),
            peer=_peer(peer_link.port if peer_link else None, channels, ports),
            peer_link_up=vpc_peer_link_up(peer_link.status if peer_link else None, vpc.peer_status),
        )
    mlag = next(iter(reading.group("mlag")), None)
    if mlag and mlag.domain_id and str(mlag.state or "").lower() != "disabled":
        return MultiChassis(
            kind="mlag",
            domain_id=str(mlag.domain_id),
            peer=_peer(mlag.peer_link, channels, ports),
            peer_link_up=_up_or_unknown(mlag.peer_link_status),
        )
    stack = next(iter(reading.group("stack")), None)
    if stack and stack.domain_id and len(reading.group("members")) > 1:
        # A stack shows no peer link: unknown, not up.
        return MultiChassis(kind="stack", domain_id=str(stack.domain_id), peer=None, peer_link_up=None)
    return None

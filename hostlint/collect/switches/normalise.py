"""Vendor spellings -> the snapshot's vocabulary: channel modes, speed, duplex, status, MTU.

Every function takes the raw text a template captured and returns the model's
value, or None when the text does not say (auto, unknown); a value that is
present but makes no sense raises ValueError, which the caller reports.
"""

from __future__ import annotations

import re

from hostlint import platforms as registry
from hostlint.snapshot.common import Duplex
from hostlint.snapshot.switch import ChannelMode, PortStatus


def channel_mode(raw: str) -> ChannelMode:
    """`channel-group N mode X` (IOS/NX-OS/EOS) or Junos `lacp active|passive` -> ChannelMode."""
    mode = raw.strip().lower()
    if mode == "on":
        return "static"
    if mode == "active":
        return "lacp-active"
    if mode == "passive":
        return "lacp-passive"
    if mode in ("desirable", "auto"):
        return "pagp"
    raise ValueError(f"channel-group mode {raw!r} is not on, active, passive, desirable or auto")


def speed_mbps(raw: str | None) -> int | None:
    """`1000Mb/s`, `10 Gb/s`, `10Gbps`, `1000mbps`, `1g`, `1000`, `1000full` -> Mb/s; auto/unknown -> None."""
    if raw is None:
        return None
    text = raw.strip().lower().replace(" ", "")
    if not text or "auto" in text or text in ("unconfigured-speed", "unknown", "unspecified"):
        return None
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(g|gb/s|gbps|m|mb/s|mbps|)(?:full|half)?", text)
    if not match:
        raise ValueError(f"speed {raw!r} not understood")
    value = float(match.group(1))
    return int(value * 1000) if match.group(2).startswith("g") else int(value)


def duplex(raw: str | None) -> Duplex | None:
    """`Full-duplex`, `full`, `a-full`, `1000full`, `full-duplex` -> full/half; auto or unknown -> None."""
    if raw is None:
        return None
    text = raw.strip().lower()
    if "half" in text:
        return "half"
    if "full" in text:
        return "full"
    return None


def port_status(state: str | None, reason: str | None = None, protocol: str | None = None) -> PortStatus | None:
    """A port's status from what `show interfaces` showed; None when it showed no state.

    IOS/EOS `X is up, line protocol is down (suspended)` is down: the link is up but
    the port passes nothing. NX-OS `X is down (XCVR not inserted)` with `admin state
    is down` is disabled (pass the admin state in `reason`); `(Channel admin down)` is down: its
    channel is shut, not the port. Junos passes `Enabled` /
    `Administratively down` in `reason` and the physical link in `state`.
    """
    if state is None or not str(state).strip():
        return None
    text = f"{state} {reason or ''} {protocol or ''}".lower()
    # NX-OS `Ethernet1/45 is down (Channel admin down)`: the port-channel it belongs to is shut, not the
    # port (NX-OS Interfaces Configuration Guide, port-channel states); the port is down.
    text = text.replace("channel admin down", "channel shut")
    if ("err" in text and "disabled" in text) or "errdisabled" in text:
        return "err-disabled"
    if "administratively" in text or re.search(r"\b(disabled|admin(istratively)? down)\b", text):
        return "disabled"
    if not str(state).strip().lower().startswith("up"):
        return "down"
    if protocol is not None and not str(protocol).strip().lower().startswith("up"):
        return "down"
    return "up"


def l3_mtu(platform: str, mtu: int, tagged: bool = False) -> int:
    """The largest IP packet a port passes, from the MTU the platform reports.

    - Cisco IOS: `MTU n bytes` in `show interfaces` is the system/interface MTU, the
      largest payload of an Ethernet frame: an IP packet of n bytes fits. Kept.
    - NX-OS: an L2 port's `MTU 9216 bytes` counts the frame payload without the
      Ethernet header and 802.1Q tag, so again n is the IP packet size. Kept.
    - EOS: `IP MTU` / `Ethernet MTU n bytes` is the L3 MTU. Kept.
    - Junos: the physical interface MTU is the *media* MTU and includes the
      14-byte Ethernet header, so a media MTU of 9216 carries IP packets of 9202.
      Switching ports (`family ethernet-switching`, access or trunk) take the
      802.1Q tag on top (default 1514 passes 1500-byte packets tagged); an
      interface with `vlan-tagging` counts the tag in its media MTU (default
      1518), so there 4 more bytes go: `tagged`.
    """
    if mtu <= 0:
        raise ValueError(f"MTU {mtu} is not a size")
    l2_header = registry.switch(platform).l2_header
    if l2_header:
        return mtu - l2_header - (4 if tagged else 0)
    return mtu

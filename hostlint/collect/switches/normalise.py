"""Vendor spellings -> the snapshot's vocabulary: hashes, channel modes, speed, duplex, status, MTU.

Every function takes the raw text a template captured and returns the model's
value, or None when the text does not say (auto, unknown); a value that is
present but makes no sense raises ValueError, which the caller reports.
"""

from __future__ import annotations

import re

from hostlint import platforms as registry
from hostlint import vocab
from hostlint.snapshot.common import Duplex
from hostlint.snapshot.switch import ChannelMode, MemberState, PortStatus

# Cisco IOS `port-channel load-balance` keywords; the "mixed" ones hash IP and L4 port together.
_IOS_HASHES = {
    "src-mixed-ip-port": "src-ip-port",
    "dst-mixed-ip-port": "dst-ip-port",
    "src-dst-mixed-ip-port": "src-dst-ip-port",
    "vlan-src-dst-ip": "src-dst-ip-vlan",
    "vlan-src-dst-mixed-ip-port": "src-dst-ip-port-vlan",
}

# NX-OS shows `<direction> <fields>` (`src-dst ip-l4port`); Nexus 5000/7000 spell it `source-dest-ip-port`.
_NXOS_DIRECTIONS = {
    "src-dst": "src-dst",
    "source-dest": "src-dst",
    "src": "src",
    "source": "src",
    "dst": "dst",
    "destination": "dst",
    "dest": "dst",
}
_NXOS_FIELDS = {
    "ip": "ip",
    "ip-only": "ip",
    "ip-l4port": "ip-port",
    "ip-port": "ip-port",
    "ip-l4port-vlan": "ip-port-vlan",
    "ip-vlan": "ip-vlan",
    "l4port": "port",
    "port": "port",
    "mac": "mac",
}


def _checked(name: str, raw: str) -> str:
    if name not in vocab.HASH_FIELDS:
        raise ValueError(f"load-balance {raw!r} has no name in hostlint's hash vocabulary")
    return name


def ios_hash(raw: str) -> str:
    key = raw.strip().lower()
    return _checked(_IOS_HASHES.get(key, key), raw)


def ios_router_hash(method: str, algo: str | None) -> str:
    """IOS-XE routers: `Global LB Method: flow-based`, `LB Algo type: Source Destination IP` -> vocabulary.

    `vlan-manual` (each VLAN pinned to a member by hand) is no hash at all: an error.
    """
    if method.strip().lower() != "flow-based" or not algo:
        raise ValueError(f"load-balance method {method!r} is not a flow hash this collector knows")
    words = algo.lower().replace("-", " ").split()
    directions = [d for d, word in (("src", "source"), ("dst", "destination")) if word in words]
    fields = [f for f, word in (("mac", "mac"), ("ip", "ip")) if word in words]
    if "port" in words or "l4" in words:
        fields.append("port")
    if not directions or not fields:
        raise ValueError(f"load-balance algorithm {algo!r} has no name in hostlint's hash vocabulary")
    return _checked("-".join(directions) + "-" + "-".join(fields), algo)


def nxos_hash(raw: str) -> str:
    """`src-dst ip rotate 0`, `src-dst ip-l4port-vlan`, `source-dest-ip-port` -> vocabulary."""
    words = raw.strip().lower().split()
    if len(words) == 1:  # Nexus 5000/7000 spell direction and fields as one word
        longest_first = sorted(_NXOS_DIRECTIONS, key=len, reverse=True)
        direction = next((d for d in longest_first if words[0].startswith(d + "-")), None)
        if direction:
            words = [direction, words[0][len(direction) + 1 :]]
    if len(words) < 2 or words[0] not in _NXOS_DIRECTIONS or words[1] not in _NXOS_FIELDS:
        raise ValueError(f"load-balance {raw!r} is not an NX-OS hash this collector knows")
    return _checked(f"{_NXOS_DIRECTIONS[words[0]]}-{_NXOS_FIELDS[words[1]]}", raw)


_EOS_FIELDS = {
    "source-ip": ("src", "ip"),
    "destination-ip": ("dst", "ip"),
    "source-port": ("src", "port"),
    "destination-port": ("dst", "port"),
}


def eos_hash(fields: str | None) -> str:
    """EOS `port-channel load-balance CHIP fields ip FIELDS`; no such line = the default L3+L4 hash.

    Field keywords: `source-ip`, `destination-ip`, `source-port`, `destination-port`,
    `ip-tcp-udp-header` (both IPs and both L4 ports) and `mac-header` (hash on MACs only).
    """
    words = set((fields or "ip-tcp-udp-header").lower().split())
    if "ip-tcp-udp-header" in words:
        return "src-dst-ip-port"
    if words == {"mac-header"}:
        return "src-dst-mac"
    picked = [_EOS_FIELDS[word] for word in words if word in _EOS_FIELDS]
    ips = [d for d in ("src", "dst") if (d, "ip") in picked]
    ports = [d for d in ("src", "dst") if (d, "port") in picked]
    if not picked or (ips and ports and ips != ports):
        raise ValueError(f"EOS load-balance fields {fields!r} have no name in hostlint's hash vocabulary")
    direction = "-".join(ips or ports)
    kind = "ip-port" if ips and ports else ("ip" if ips else "port")
    return _checked(f"{direction}-{kind}", str(fields))


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


# Port-channel member flags and words -> SwitchPort.member_state. Words first (IOS-XE `bndl`,
# `hot-sby`, `susp`, `indep`, `stand-alone`), then the letter flags of the summary legends:
# IOS/NX-OS/EOS `P` bundled, `H` hot-standby, `s` suspended, `I` stand-alone/individual (EOS `^`
# individual fallback), `D` down. Flags that say none of these (IOS `w` waiting, `u` unsuitable,
# EOS `G-` aggregable but not in sync) leave the state unknown.
_MEMBER_WORDS: dict[str, MemberState] = {
    "bndl": "bundled",
    "bundled": "bundled",
    "hot-sby": "hot-standby",
    "hot-standby": "hot-standby",
    "susp": "suspended",
    "suspended": "suspended",
    "indep": "individual",
    "individual": "individual",
    "stand-alone": "individual",
    "standalone": "individual",
    "down": "down",
}
_MEMBER_FLAGS: tuple[tuple[str, MemberState], ...] = (
    ("P", "bundled"),
    ("H", "hot-standby"),
    ("s", "suspended"),
    ("I", "individual"),
    ("^", "individual"),
)


def member_state(flags: str | None) -> MemberState | None:
    """`P`, `s`, `PG+`, `bndl`, `hot-sby`... -> bundled, hot-standby, suspended, individual, down."""
    text = (flags or "").strip()
    if not text:
        return None
    word = _MEMBER_WORDS.get(text.lower())
    if word:
        return word
    for flag, state in _MEMBER_FLAGS:
        if flag in text:
            return state
    return "down" if "D" in text else None


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

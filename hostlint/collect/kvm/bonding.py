"""Parser for `/proc/net/bonding/<bond>`: the kernel's own account of a Linux bond.

The file is a header block, an `802.3ad info` block in LACP mode, then one
block per member (`Slave Interface:`). Abridged sample (kernel 6.1, 802.3ad
negotiated with a partner; full captures are in fixtures/kvm/bonding/)::

    Ethernet Channel Bonding Driver: v6.1.0-56-cloud-amd64

    Bonding Mode: IEEE 802.3ad Dynamic link aggregation
    Transmit Hash Policy: layer3+4 (1)
    MII Status: up
    MII Polling Interval (ms): 100

    802.3ad info
    LACP active: on
    LACP rate: fast
    Active Aggregator Info:
    \tAggregator ID: 1
    \tPartner Mac Address: 00:1e:49:a7:3c:01

    Slave Interface: eth0
    MII Status: up
    Speed: 10000 Mbps
    Duplex: full
    Aggregator ID: 1
    details partner lacp pdu:
        system mac address: 00:1e:49:a7:3c:01

Members' `details partner lacp pdu` give each member's own partner, which is
how two members facing two different switches show up.
"""

from __future__ import annotations

import re

from hostlint.snapshot.common import DUPLEXES, Duplex
from hostlint.snapshot.kvm import LACP_RATES, Bond, BondMember, BondMode

# `Bonding Mode:` text as printed by the kernel (bond_mode_name) -> the mode's option name.
MODE_NAMES: dict[str, BondMode] = {
    "load balancing (round-robin)": "balance-rr",
    "fault-tolerance (active-backup)": "active-backup",
    "load balancing (xor)": "balance-xor",
    "fault-tolerance (broadcast)": "broadcast",
    "ieee 802.3ad dynamic link aggregation": "802.3ad",
    "transmit load balancing": "balance-tlb",
    "adaptive load balancing": "balance-alb",
}
_SPEED = re.compile(r"(\d+)\s*Mbps")


class BondingParseError(ValueError):
    """Text that is not a /proc/net/bonding file."""


def _mode(value: str) -> BondMode | None:
    """The mode of a `Bonding Mode:` value, also with the suffixes the kernel may add, e.g.
    `fault-tolerance (active-backup) (fail_over_mac active)`."""
    text = value.lower()
    for printed, mode in MODE_NAMES.items():
        if text == printed or text.startswith(printed + " ("):
            return mode
    return None


def _split(line: str) -> tuple[str, str]:
    key, _, value = line.partition(":")
    return key.strip().lower(), value.strip()


def _speed(value: str) -> int | None:
    match = _SPEED.search(value)
    return int(match.group(1)) if match else None


def _duplex(value: str) -> Duplex | None:
    value = value.lower()
    return value if value in DUPLEXES else None


def _int(value: str) -> int | None:
    return int(value) if value.isdigit() else None


def _mac(value: str) -> str | None:
    return value.lower() if re.fullmatch(r"[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}", value) else None


def parse_bonding(name: str, text: str) -> Bond:
    """One bond from the text of `/proc/net/bonding/<name>`."""
    mode: BondMode | None = None
    fields: dict[str, str] = {}
    members: list[BondMember] = []
    member: BondMember | None = None
    section = "bond"
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("Slave Interface:") or line.startswith("Member Interface:"):
            member = BondMember(name=_split(line)[1])
            members.append(member)
            section = "member"
            continue
        if line == "details actor lacp pdu:":
            section = "actor"
            continue
        if line == "details partner lacp pdu:":
            section = "partner"
            continue
        if ":" not in line:
            continue  # not a `key: value` line (a stray word such as `Speed` alone): nothing to read
        key, value = _split(line)
        if member is None:
            if key == "bonding mode":
                mode = _mode(value)
                if mode is None:
                    raise BondingParseError(f"/proc/net/bonding/{name}: unknown bonding mode {value!r}")
            else:
                fields.setdefault(key, value)
            continue
        if section == "partner":
            if key == "system mac address":
                member.partner_mac = _mac(value)
            continue
        if section != "member":
            continue
        if key == "mii status":
            member.link_up = value == "up"
        elif key == "speed":
            member.speed_mbps = _speed(value)
        elif key == "duplex":
            member.duplex = _duplex(value)
        elif key == "aggregator id":
            member.aggregator_id = _int(value)
    if mode is None:
        raise BondingParseError(f"/proc/net/bonding/{name}: no 'Bonding Mode:' line")
    hash_policy = fields.get("transmit hash policy", "").split(" ")[0] or None
    rate = fields.get("lacp rate")
    return Bond(
        name=name,
        mode=mode,
        xmit_hash_policy=hash_policy,
        lacp_rate=rate if rate in LACP_RATES else None,
        miimon=_int(fields.get("mii polling interval (ms)", "")),
        active_aggregator_id=_int(fields.get("aggregator id", "")) if mode == "802.3ad" else None,
        partner_mac=_mac(fields.get("partner mac address", "")) if mode == "802.3ad" else None,
        members=members,
    )

"""Canonical interface and device names, so `Gi1/0/1` from CDP meets `GigabitEthernet1/0/1`."""

from __future__ import annotations

import functools
import re

from hostlint import switches

# Abbreviation prefix (lower case) -> canonical long name, besides the platforms' own that hostlint reads
# wherever a name comes from (their folder's `names.py`, NameGrammar.long_everywhere: the Cisco-like words).
_LONG_NAMES = {
    # Channel names other vendors print with a space or in capitals (AOS-CX `interface lag 1` and
    # `lag1`; Huawei `interface Eth-Trunk 1`; Comware `BAGG1` for Bridge-Aggregation1; ArubaOS-Switch
    # `Trk1`). Only prefixes no other vendor uses for something else are here: Comware's `XGE` is
    # Ten-GigabitEthernet but Huawei's is XGigabitEthernet, so such forms belong to each platform.
    "lag": "lag",
    "eth-trunk": "Eth-Trunk",
    "bridge-aggregation": "Bridge-Aggregation",
    "bagg": "Bridge-Aggregation",
    "route-aggregation": "Route-Aggregation",
    "ragg": "Route-Aggregation",
    "trk": "Trk",
}


@functools.cache
def _long_names() -> dict[str, str]:
    """Every abbreviation hostlint reads without knowing the platform: the platforms' (long_everywhere), then
    the channel names above."""
    found = {
        short.lower(): long for g in switches.name_grammars() if g.long_everywhere for short, long in g.long.items()
    }
    return {**found, **_LONG_NAMES}


_SPLIT = re.compile(r"^([A-Za-z][A-Za-z-]*?)\s*(\d.*)$")


@functools.cache
def _lower_case() -> tuple[re.Pattern[str], ...]:
    """The names platforms print in one form, canonical in lower case (hostlint.switches.base.NameGrammar)."""
    return tuple(re.compile(g.lower_case, re.IGNORECASE) for g in switches.name_grammars() if g.lower_case)


@functools.cache
def _units() -> tuple[re.Pattern[str], ...]:
    """The platforms' own logical unit forms, first group the physical port (NameGrammar.unit)."""
    return tuple(re.compile(g.unit, re.IGNORECASE) for g in switches.name_grammars() if g.unit)


def interface(name: str) -> str:
    """Canonical long form of an interface name; names it does not know are kept as given.

    >>> interface("Gi1/0/1"), interface("eth1/1"), interface("po10"), interface("xe-0/0/1")
    ('GigabitEthernet1/0/1', 'Ethernet1/1', 'Port-channel10', 'xe-0/0/1')
    """
    text = name.strip()
    if any(form.fullmatch(text) for form in _lower_case()):
        return text.lower()
    match = _SPLIT.match(text)
    if not match:
        return text
    prefix, rest = match.group(1).lower(), match.group(2).replace(" ", "")
    long = _long_names().get(prefix)
    return long + rest if long is not None else text


# Port-channel names, by the form each vendor gives them, all canonical (`interface` above): IOS, NX-OS
# and EOS `Port-channel10`; Junos `ae0` (Junos Interfaces Fundamentals, "Aggregated Ethernet
# interfaces"); AOS-CX `lag1` (AOS-CX Link Aggregation Guide, "interface lag"); HPE/H3C Comware
# `Bridge-Aggregation1` (layer 2) and `Route-Aggregation1` (layer 3) (Comware Layer 2 - LAN Switching
# Command Reference, "interface bridge-aggregation"); Huawei VRP `Eth-Trunk1` (S-series Command
# Reference, "interface eth-trunk"); ArubaOS-Switch (ProCurve) `Trk1` ("trunk" in its Management and
# Configuration Guide). A name no form matches is a port (or an SVI, a tunnel...: kinds.py).
CHANNEL_FORMS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(form)
    for form in (
        r"Port-channel\d+",
        r"ae\d+",
        r"lag\d+",
        r"(?:Bridge|Route)-Aggregation\d+",
        r"Eth-Trunk\d+",
        r"Trk\d+",
    )
)


def is_channel_name(name: str) -> bool:
    """`name` (canonical) names a port-channel, not a port and not one of its subinterfaces.

    >>> is_channel_name("Port-channel10"), is_channel_name("lag1"), is_channel_name("1/1/1")
    (True, True, False)
    """
    return any(form.fullmatch(name) for form in CHANNEL_FORMS)


# Logical units and subinterfaces: a port ID (LLDP, CDP, cabling) may name one, and the physical port it
# sits on is the first group. A platform's own unit form (NameGrammar.unit: Junos `xe-0/0/11.0`) is tried
# first, then the generic subinterface below. IOS, NX-OS and EOS: a
# subinterface `GigabitEthernet1/0/1.100`, `Ethernet1/1.100`, `Ethernet1.100`, `Port-Channel10.20` is
# number 100 on its port (IOS "Configuring subinterfaces", NX-OS "Subinterfaces", EOS "Subinterfaces").
# AOS-CX names ports by member/slot/port alone, without a type word (`1/1/1`, subinterface `1/1/1.100`:
# AOS-CX Command-Line Interface Guide, "Interface naming"); a bare number with a unit (`10.1`) is not a
# port, so the bare form needs a slash.
LOGICAL_UNITS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("subinterface", re.compile(r"^([A-Za-z][A-Za-z-]*\s*\d+(?:/\d+)*|\d+(?:/\d+)+)\.\d+$")),
)


def physical_port(name: str) -> str:
    """The physical port (canonical) a port ID names, less its logical unit or subinterface number.

    >>> physical_port("xe-0/0/11.0"), physical_port("Gi1/0/1.100"), physical_port("Ethernet1")
    ('xe-0/0/11', 'GigabitEthernet1/0/1', 'Ethernet1')
    """
    text = name.strip()
    for unit in _units():
        if match := unit.fullmatch(text):
            return interface(match.group(1))
    for _form, pattern in LOGICAL_UNITS:
        if match := pattern.match(text):
            return interface(match.group(1))
    return interface(text)


def interface_key(name: str) -> str:
    """Comparison key: canonical name, case-folded."""
    return interface(name).casefold()


def device_key(name: str) -> str:
    """Comparison key for a device: short host name, case-folded.

    CDP often reports `sw1.example.com` or `sw1(SERIAL)`; inventories say `SW1`.
    An IP address is kept whole.
    """
    text = name.strip().casefold()
    text = re.sub(r"\(.*\)$", "", text)
    if re.fullmatch(r"[\d.]+|[0-9a-f:]+", text):
        return text
    return text.split(".", 1)[0]


def display_device(name: str) -> str:
    """A device name as reported, less the serial number CDP appends (`sw1(FOC123)`)."""
    return re.sub(r"\(.*\)$", "", name.strip())

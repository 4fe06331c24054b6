"""Canonical interface and device names, so `Gi1/0/1` from CDP meets `GigabitEthernet1/0/1`."""

from __future__ import annotations

import re

# Abbreviation prefix (lower case) -> canonical long name. Longest prefixes are tried first.
_LONG_NAMES = {
    "fastethernet": "FastEthernet",
    "fa": "FastEthernet",
    "gigabitethernet": "GigabitEthernet",
    "gige": "GigabitEthernet",
    "gi": "GigabitEthernet",
    "twogigabitethernet": "TwoGigabitEthernet",
    "tw": "TwoGigabitEthernet",
    "fivegigabitethernet": "FiveGigabitEthernet",
    "fi": "FiveGigabitEthernet",
    "tengigabitethernet": "TenGigabitEthernet",
    "tengige": "TenGigabitEthernet",
    "te": "TenGigabitEthernet",
    "twentyfivegige": "TwentyFiveGigE",
    "twe": "TwentyFiveGigE",
    "fortygigabitethernet": "FortyGigabitEthernet",
    "fo": "FortyGigabitEthernet",
    "hundredgige": "HundredGigE",
    "hu": "HundredGigE",
    "ethernet": "Ethernet",
    "eth": "Ethernet",
    "et": "Ethernet",
    "port-channel": "Port-channel",
    "portchannel": "Port-channel",
    "port-chan": "Port-channel",
    "po": "Port-channel",
    "management": "Management",
    "mgmt": "Management",
    "ma": "Management",
    "vlan": "Vlan",
    "vl": "Vlan",
}
_PREFIXES = sorted(_LONG_NAMES, key=len, reverse=True)
_SPLIT = re.compile(r"^([A-Za-z][A-Za-z-]*?)\s*(\d.*)$")
_JUNOS = re.compile(r"^(ge|xe|et|mge|ae)-\d+/\d+/\d+(\.\d+)?$|^ae\d+(\.\d+)?$", re.IGNORECASE)


def interface(name: str) -> str:
    """Canonical long form of an interface name; names it does not know are kept as given.

    >>> interface("Gi1/0/1"), interface("eth1/1"), interface("po10"), interface("xe-0/0/1")
    ('GigabitEthernet1/0/1', 'Ethernet1/1', 'Port-channel10', 'xe-0/0/1')
    """
    text = name.strip()
    if _JUNOS.match(text):
        return text.lower()
    match = _SPLIT.match(text)
    if not match:
        return text
    prefix, rest = match.group(1).lower(), match.group(2).replace(" ", "")
    for known in _PREFIXES:
        if prefix == known:
            return _LONG_NAMES[known] + rest
    return text


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

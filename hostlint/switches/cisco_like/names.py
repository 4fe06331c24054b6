"""The interface names IOS, NX-OS and EOS share (the `names` piece, hostlint.switches.base.NameGrammar).

A type word, then slot/port numbers, optionally a breakout `:n` or a subinterface `.n`
(`GigabitEthernet1/0/1`, `Port-channel10`, `Ethernet55/1`, `Eth1/1/1`, `TenGigabitEthernet1/1/3.100`);
the three print the same abbreviations in CDP/LLDP tables and channel summaries (IOS `Gi1/0/1`, NX-OS
`Eth1/1`, EOS `Et1`, `Po10`: Catalyst 9300 Interface and Hardware Components Configuration Guide,
"Interface naming"; Nexus 9000 NX-OS Interfaces Configuration Guide, "Interface naming"; EOS User
Manual, "Ethernet Ports"). Every vendor's neighbours print these words, so hostlint reads them as the
long names wherever a name comes from (`long_everywhere`). A platform copies `NAMES` and sets how its
channel summary abbreviates `EthernetN` (`with_ethernet_short`).
"""

from __future__ import annotations

import dataclasses

from hostlint.switches.base import NameGrammar

__all__ = ["LONG", "NAMES", "SCRIPT", "SHORT", "with_ethernet_short"]

# Abbreviation (lower case) -> the long type word (canonical: hostlint.names.interface).
LONG: dict[str, str] = {
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

# Long type word -> the abbreviation `show etherchannel summary` / `show port-channel summary` print;
# `Ethernet` is each platform's own (with_ethernet_short).
SHORT: tuple[tuple[str, str], ...] = (
    ("TwentyFiveGigE", "Twe"),
    ("HundredGigE", "Hu"),
    ("FortyGigabitEthernet", "Fo"),
    ("TenGigabitEthernet", "Te"),
    ("FiveGigabitEthernet", "Fi"),
    ("TwoGigabitEthernet", "Tw"),
    ("GigabitEthernet", "Gi"),
    ("FastEthernet", "Fa"),
    ("Port-Channel", "Po"),
    ("Port-channel", "Po"),
    ("port-channel", "Po"),
)

# The script grammar: a type word (letters, `-`), then slot/port numbers, optionally a breakout `:n` or a
# subinterface `.n`; or member/slot/port alone (a bare form needs a slash). Digits, `/`, `:` and `.` are
# no CLI syntax. (hostlint.fixes.identifiers' generic switch grammar has the same shape.)
SCRIPT = (
    r"(?:[A-Za-z][A-Za-z-]{0,39}[0-9]{1,5}(?:/[0-9]{1,5}){0,3}|[0-9]{1,5}(?:/[0-9]{1,5}){1,3})"
    r"(?::[0-9]{1,3})?(?:\.[0-9]{1,5})?"
)

NAMES = NameGrammar(
    long=LONG,
    channel=r"Port-channel\d+",
    script=SCRIPT,
    script_allowed="a type word and slot/port numbers, or slot/port numbers",
    long_everywhere=True,
    short=SHORT,
)


def with_ethernet_short(abbreviation: str) -> NameGrammar:
    """NAMES for a platform whose channel summary prints `EthernetN` as `<abbreviation>N` (NX-OS `Eth`,
    EOS `Et`); IOS prints it whole and takes NAMES as it is."""
    return dataclasses.replace(NAMES, short=(*NAMES.short, ("Ethernet", abbreviation)))

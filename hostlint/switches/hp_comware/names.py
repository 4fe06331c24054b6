"""Comware interface names: the abbreviations it prints, the aggregate interfaces, the forms its
neighbours print, and the grammar a name must match to be written into a script.

Abbreviations: HPE FlexFabric 5940 Interface Command Reference, "display interface brief" (the
`Interface` column: `XGE1/0/1`, `FGE1/0/53`, `HGE1/0/49`, `WGE1/0/1`, `GE1/0/1`, `BAGG10`, `RAGG1`,
`MGE0/0/0`) and the Layer 2 - LAN Switching reference, "display link-aggregation verbose" (members
printed short). A 25G port's long name is `Twenty-FiveGigE` (hyphenated, as `Ten-GigabitEthernet`: Comware 7
`display link-aggregation member-port` and `display interface` on 25G ports, e.g. the ntc-templates
hp_comware captures' `Twenty-FiveGigE6/0/27`). `XGE` is Ten-GigabitEthernet here; Huawei VRP's `XGE` is
XGigabitEthernet, which is why the table is the platform's and not hostlint.names'.
"""

from __future__ import annotations

import re

from hostlint.switches.base import NameGrammar

# Short form -> long form, longest short form first so `MGE` is not read as `GE`.
LONG: dict[str, str] = {
    "BAGG": "Bridge-Aggregation",
    "RAGG": "Route-Aggregation",
    "XGE": "Ten-GigabitEthernet",
    "FGE": "FortyGigE",
    "HGE": "HundredGigE",
    "WGE": "Twenty-FiveGigE",
    "MGE": "M-GigabitEthernet",
    "GE": "GigabitEthernet",
}
# The aggregate interface for aggregation group N (`port link-aggregation group N`).
CHANNEL = "Bridge-Aggregation{}"
CHANNEL_PREFIXES = ("Bridge-Aggregation", "Route-Aggregation")
# Interfaces that are neither a port nor a channel a rule reads.
NOT_PORTS = ("Vlan-interface", "LoopBack", "NULL", "M-GigabitEthernet", "Tunnel", "Register-Tunnel", "InLoopBack")

_NUMBER = r"\d+(?:/\d+){0,3}(?::\d+)?"
_SHORT = re.compile(rf"^({'|'.join(sorted(LONG, key=len, reverse=True))})({_NUMBER})$", re.IGNORECASE)
_LONG_NAMES = tuple(sorted(set(LONG.values()), key=len, reverse=True))
# The script grammar: a long Comware name (interface TYPE NUMBER), nothing else a shell or the CLI
# could read as another word. Breakout ports are `Ten-GigabitEthernet1/0/49:1`.
SCRIPT = re.compile(rf"^(?:{'|'.join(re.escape(n) for n in _LONG_NAMES)}){_NUMBER}$")


def long(name: str) -> str:
    """The long form of a Comware interface name (`XGE1/0/1` -> `Ten-GigabitEthernet1/0/1`); a name
    already long, or not Comware's, unchanged but for surrounding space."""
    text = name.strip()
    match = _SHORT.match(text)
    if match:
        return LONG[match.group(1).upper()] + match.group(2)
    for full in _LONG_NAMES:  # the switch's own spelling, whatever case an inventory used
        if text.lower().startswith(full.lower()) and re.fullmatch(_NUMBER, text[len(full) :]):
            return full + text[len(full) :]
    return text


def short(name: str) -> str:
    """The short form Comware prints in member and brief tables (`Ten-GigabitEthernet1/0/1` -> `XGE1/0/1`)."""
    text = long(name)
    for abbreviation, full in LONG.items():
        if text.startswith(full) and re.fullmatch(_NUMBER, text[len(full) :]):
            return abbreviation + text[len(full) :]
    return text


def is_channel(name: str) -> bool:
    """An aggregate interface (Bridge-Aggregation or Route-Aggregation), by its long or short name."""
    return long(name).startswith(CHANNEL_PREFIXES)


def is_port(name: str) -> bool:
    """A physical Ethernet port a rule reads (not an aggregate, VLAN interface, loopback or management port)."""
    text = long(name)
    return bool(SCRIPT.match(text)) and not is_channel(text) and not text.startswith(NOT_PORTS)


def channel_number(name: str) -> int | None:
    """The aggregation group number of an aggregate interface; None for anything else."""
    text = long(name)
    for prefix in CHANNEL_PREFIXES:
        if text.startswith(prefix) and text[len(prefix) :].isdigit():
            return int(text[len(prefix) :])
    return None


def neighbour_forms(name: str) -> tuple[str, ...]:
    """How a neighbour may print this port in its LLDP table: Comware sends the interface name as the
    port ID (subtype interface name; HPE 5940 LLDP configuration, "lldp port-id-subtype"); some
    neighbours shorten it as Comware itself does."""
    text = long(name)
    return tuple(dict.fromkeys((text, short(text))))


NAMES = NameGrammar(
    long=LONG,
    channel=r"(?:Bridge|Route)-Aggregation\d+",
    # As neighbours print a Comware port: the long name, or Comware's own abbreviation.
    neighbour=(SCRIPT.pattern.strip("^$"), rf"(?:{'|'.join(LONG)}){_NUMBER}"),
    script=SCRIPT.pattern.strip("^$"),
)
